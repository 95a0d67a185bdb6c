"""The package as a maintainer or a pip user gets it: built, installed in a fresh venv, used.

These tests build the wheel and the sdist with ``python -m build``, install them in new virtual
environments (dependencies from PyPI), and use the result as a newcomer would: the core with no
extra, the ``setwidgets`` command, the sentence that names a missing extra. One test builds with
the oldest setuptools the build declares, and one shows that the one before it cannot. The sdist
is the repository as git tracks it, and a few of its own tests run from it. The version follows
the release routine CHANGELOG.md describes, and every release names its commit (and is tagged).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import setwidgets

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def run(*cmd: str | Path, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (
        f"{' '.join(map(str, cmd))} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    return result


def venv(folder: Path) -> Path:
    run(sys.executable, "-m", "venv", folder)
    return folder / "bin" / "python"


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    if (ROOT / ".git").exists():
        # What git tracks as the build starts, which the sdist is compared with.
        (out / "tracked.txt").write_text(run("git", "ls-files").stdout)
    run(sys.executable, "-m", "build", "--outdir", out, ROOT)
    return out


def test_the_declared_packages_are_the_folders_of_the_package():
    declared = {
        p for p in PYPROJECT["tool"]["setuptools"]["packages"] if not p.startswith("setwidgets._course")
    }
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "setwidgets").rglob("__init__.py")
    }
    assert declared == folders


CHANGELOG = (ROOT / "CHANGELOG.md").read_text()
RELEASES = re.findall(r"^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})$", CHANGELOG, re.MULTILINE)


def unreleased_entries() -> list[str]:
    """The entries listed under ``## [Unreleased]`` in CHANGELOG.md (none when the heading is absent)."""
    found = re.search(r"^## \[Unreleased\]\n(.*?)(?=^## \[)", CHANGELOG, re.MULTILINE | re.DOTALL)
    return re.findall(r"^- ", found[1], re.MULTILINE) if found else []


def test_the_version_is_the_last_release_or_a_development_release_of_the_next():
    """One version in one file; a build of unreleased work never carries a released number."""
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "setwidgets.__version__"}
    version = Version(setwidgets.__version__)
    newest, released_on = RELEASES[0]
    if unreleased_entries():
        assert version.is_devrelease and version > Version(newest), (
            f"CHANGELOG.md lists unreleased changes, so __version__ must be a .dev release after "
            f"{newest}; it is {version}"
        )
    else:
        assert str(version) == newest, "with nothing unreleased, __version__ is the newest release"
    # CITATION.cff cites a release, the newest.
    citation = (ROOT / "CITATION.cff").read_text()
    assert f"\nversion: {newest}\n" in citation and f"\ndate-released: {released_on}\n" in citation


def released_from(version: str) -> str:
    """The commit CHANGELOG.md says ``version`` was released from (its full hash)."""
    section = CHANGELOG.split(f"\n## [{version}] - ", 1)[1].split("\n## [", 1)[0]
    found = re.findall(r"^Released from commit ([0-9a-f]{40})\.$", section, re.MULTILINE)
    assert len(found) == 1, f"CHANGELOG.md's [{version}] should say once: Released from commit HASH."
    return found[0]


def test_every_release_names_its_commit_which_holds_that_version_and_its_tag():
    """Each release names its commit in CHANGELOG.md; that commit carries the version, and a tag
    ``vX.Y.Z``, where the clone has tags (a clean clone of one branch may have none), is on it."""
    commits = {version: released_from(version) for version, _ in RELEASES}
    if not (ROOT / ".git").exists():
        return  # an unpacked sdist: the record above is all it has (the sdist tests run this)
    tags = run("git", "tag", "--list", "v*").stdout.split()
    shallow = run("git", "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    for version, commit in commits.items():
        if shallow and subprocess.run(["git", "cat-file", "-e", commit], cwd=ROOT).returncode:
            continue  # a shallow clone's history stops before the release
        released = run("git", "show", f"{commit}:setwidgets/__init__.py").stdout
        assert f'\n__version__ = "{version}"\n' in released, f"commit {commit[:10]} is not version {version}"
        if tags:
            assert f"v{version}" in tags, f"release {version} has no tag: git tag -a v{version} {commit[:10]}"
            tagged = run("git", "rev-parse", f"v{version}^{{commit}}").stdout.strip()
            assert tagged == commit, f"v{version} tags {tagged[:10]}, not the release's commit {commit[:10]}"


def test_the_wheel_holds_the_package_its_types_and_the_course(dist):
    (wheel,) = dist.glob("*.whl")
    assert wheel.name == f"setwidgets-{setwidgets.__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "setwidgets/py.typed" in names
    lessons = {n for n in names if n.startswith("setwidgets/_course/lessons/") and n.endswith(".ipynb")}
    assert {Path(n).name for n in lessons} == {p.name for p in (ROOT / "lessons").glob("*.ipynb")}
    exercises = {n for n in names if n.startswith("setwidgets/_course/exercises/")}
    assert len(exercises) == len(list((ROOT / "exercises" / "release").glob("*/*.ipynb")))
    assert not any("hidden_tests" in n or "/source/" in n for n in names), "no solution or hidden test ships"
    metadata = zipfile.ZipFile(wheel).read(f"setwidgets-{setwidgets.__version__}.dist-info/METADATA").decode()
    assert "Project-URL: Repository, https://github.com/setwidgets/setwidgets" in metadata
    assert "Requires-Dist: tqdm" in metadata and "Requires-Dist: numpy" in metadata  # the latter in an extra
    assert re.search(r"Requires-Dist: numpy.*extra == .sim.", metadata)


SMOKE = """
from setwidgets import Game, find_sets
game = Game(seed=3, players=["Ana", "Ben"])
while not game.over:
    found = find_sets(game.table)
    game.claim(found[0], "Ana") if found else game.no_set()
print("game over", game.scores if hasattr(game, "scores") else "")
try:
    import setwidgets.sim
except ModuleNotFoundError as error:
    print("sim:", error)
"""


def test_the_wheel_in_a_fresh_venv_is_the_core_with_no_extra_and_the_setwidgets_command(dist, tmp_path):
    python = venv(tmp_path / "venv")
    (wheel,) = dist.glob("*.whl")
    run(python, "-m", "pip", "install", "--quiet", wheel)
    installed = run(python, "-m", "pip", "list", "--format=freeze").stdout.lower()
    for heavy in ("numpy", "numba", "matplotlib", "ipywidgets", "reportlab", "jupyterlab"):
        assert f"\n{heavy}==" not in f"\n{installed}", f"{heavy} came with the core"
    out = run(python, "-c", SMOKE).stdout
    assert "game over" in out
    assert (
        "sim: setwidgets.sim needs numpy, which is not installed: pip install 'setwidgets[sim]' adds it."
        in out
    )
    command = tmp_path / "venv" / "bin" / "setwidgets"
    copied = run(command, "lessons", tmp_path / "course").stdout
    assert (tmp_path / "course" / "lessons" / "00_start_here.ipynb").is_file()
    assert (tmp_path / "course" / "exercises" / "release" / "01_magic_rule" / "magic_rule.ipynb").is_file()
    assert "notebooks copied" in copied
    again = run(command, "lessons", tmp_path / "course").stdout
    assert "0 notebooks copied" in again and "kept as they are" in again
    lab = subprocess.run([command, "lab", tmp_path / "course"], capture_output=True, text=True, timeout=120)
    assert lab.returncode == 2
    assert (
        "setwidgets lab needs jupyterlab, which is not installed: pip install 'setwidgets[course]'"
        in lab.stderr
    )
    assert run(command, "version").stdout.strip() == setwidgets.__version__
    # The class game's service without its extra: one sentence, no traceback.
    service = subprocess.run(
        [python, "-m", "setwidgets.classroom"], capture_output=True, text=True, timeout=120
    )
    assert service.returncode == 1 and "Traceback" not in service.stderr, service.stderr[-2000:]
    assert service.stderr.strip() == (
        "setwidgets: python -m setwidgets.classroom needs tornado, which is not installed: "
        "pip install 'setwidgets[classroom]' adds it."
    )


def test_the_sdist_installs_and_runs_too(dist, tmp_path):
    python = venv(tmp_path / "venv")
    (sdist,) = dist.glob("*.tar.gz")
    run(python, "-m", "pip", "install", "--quiet", sdist)
    assert "game over" in run(python, "-c", SMOKE).stdout


# What python -m build adds to an sdist of its own: the metadata, and setuptools' record of the build.
BUILD_FILES = {"PKG-INFO", "setup.cfg"}


def sdist_files(dist: Path, unpack_into: Path | None = None) -> set[str]:
    """The files of the sdist but those the build itself writes; all of it unpacked when asked."""
    (sdist,) = dist.glob("*.tar.gz")
    top = f"setwidgets-{setwidgets.__version__}/"
    with tarfile.open(sdist) as archive:
        names = {m.name.removeprefix(top) for m in archive.getmembers() if m.isfile()}
        if unpack_into:
            archive.extractall(unpack_into, filter="data")
    return {n for n in names if n not in BUILD_FILES and not n.startswith("setwidgets.egg-info/")}


def test_the_sdist_holds_every_file_git_tracks_and_nothing_git_ignores(dist):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist, say): git's list of files is the reference")
    names = sdist_files(dist)
    listed = (dist / "tracked.txt").read_text().splitlines()
    tracked = {name for name in listed if (ROOT / name).is_file()}
    assert sorted(tracked - names) == [], "MANIFEST.in leaves these out of the sdist"
    # Files git does not track yet (new work) may come along; caches and grading leftovers may not.
    ignored = subprocess.run(
        ["git", "check-ignore", "--stdin"], input="\n".join(sorted(names - tracked)), capture_output=True,
        text=True, cwd=ROOT,
    )  # fmt: skip
    assert ignored.stdout.split() == [], "the sdist holds files git ignores"


def test_the_sdists_own_tests_run_from_it(dist, tmp_path):
    """The unpacked sdist runs its tests: conftest.py, fuzzing.py and tests/data/ are in it."""
    sdist_files(dist, unpack_into=tmp_path)
    unpacked = tmp_path / f"setwidgets-{setwidgets.__version__}"
    imported = run(sys.executable, "-c", "import setwidgets; print(setwidgets.__file__)", cwd=unpacked)
    assert Path(imported.stdout.strip()).is_relative_to(unpacked), "the tests must import the sdist's package"
    result = run(
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_words.py",
        "tests/test_competition_file.py::test_a_file_written_by_each_earlier_version_opens_with_its_play_and_a_copy_kept",
        cwd=unpacked,
    )  # fmt: skip
    assert re.search(r"^\d+ passed", result.stdout.strip().splitlines()[-1]), result.stdout[-2000:]


# The machines pip installs [sim] on (system, processor, Python) and the numba each one gets:
# numba where it has a wheel, and nowhere else (None).
MACHINES = {
    "Linux, Python 3.12 (Binder)": ("Linux", "x86_64", "3.12", ">=0.60"),
    "Windows, Python 3.13": ("Windows", "AMD64", "3.13", ">=0.60"),
    "Apple silicon, Python 3.13": ("Darwin", "arm64", "3.13", ">=0.60"),
    "Intel Mac, Python 3.13": ("Darwin", "x86_64", "3.13", "<0.63,>=0.60"),
    "Intel Mac, Python 3.14": ("Darwin", "x86_64", "3.14", None),
    "Linux, Python 3.15": ("Linux", "x86_64", "3.15", None),
    "the browser (Pyodide)": ("Emscripten", "wasm32", "3.12", None),
}


@pytest.mark.parametrize("machine", MACHINES)
def test_sim_asks_for_numba_only_where_numba_has_a_wheel(machine):
    system, processor, python, wanted = MACHINES[machine]
    environment = {
        "platform_system": system, "platform_machine": processor, "python_version": python,
        "python_full_version": f"{python}.0", "extra": "sim",
    }  # fmt: skip
    sim = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["sim"]]
    applies = [r for r in sim if r.marker is None or r.marker.evaluate(environment)]
    assert [str(r.specifier) for r in applies if r.name == "numba"] == ([wanted] if wanted else [])
    # numpy and matplotlib come everywhere: sim runs its loops uncompiled without numba.
    assert {r.name for r in applies} >= {"numpy", "matplotlib"}


@pytest.mark.parametrize(("setuptools", "builds"), [("77.0.3", True), ("76.1.0", False)])
def test_the_build_floor_is_the_oldest_setuptools_that_builds(tmp_path, setuptools, builds):
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]
    python = venv(tmp_path / "venv")
    run(python, "-m", "pip", "install", "--quiet", f"setuptools=={setuptools}", "wheel")
    result = subprocess.run(
        [python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", tmp_path / "out", ROOT],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert (result.returncode == 0) is builds, result.stderr[-2000:]
