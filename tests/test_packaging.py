"""The package as a maintainer or a pip user gets it: built, installed in a fresh venv, used.

These tests build the wheel and the sdist with ``python -m build``, install them in new virtual
environments (dependencies from PyPI), and use the result as a newcomer would: the core with no
extra, the ``setwidgets`` command, the sentence that names a missing extra. One test builds with
the oldest setuptools the build declares, and one shows that the one before it cannot.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

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


def test_one_version_everywhere():
    version = setwidgets.__version__
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert f"\nversion: {version}\n" in (ROOT / "CITATION.cff").read_text()
    released = re.findall(r"^## \[(\d[^\]]*)\]", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert released[0] == version


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


def test_the_sdist_installs_and_runs_too(dist, tmp_path):
    python = venv(tmp_path / "venv")
    (sdist,) = dist.glob("*.tar.gz")
    run(python, "-m", "pip", "install", "--quiet", sdist)
    assert "game over" in run(python, "-c", SMOKE).stdout


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
