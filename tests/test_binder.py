"""Binder's files, checked offline: what repo2docker would build, and the links that open it.

Binder reads ``environment.yml`` (the Python environment), ``apt.txt`` (Debian packages: the
CJK font the printables embed) and ``postBuild``.

``jupyter-repo2docker --no-build --debug`` prints the Dockerfile it would build from this
repository, with no Docker and no network; the test reads its steps. The repository's address
has one home, the ``Repository`` URL in ``pyproject.toml``: every Binder link and clone command
in the project's documents must use it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
OWNER_NAME = REPOSITORY.removeprefix("https://github.com/")
DOCUMENTS = ["README.md", "deploy/README.md", "CITATION.cff", "exercises/README.md", "lessons/README.md"]


def test_the_repository_has_one_address_everywhere():
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", OWNER_NAME)
    for name in DOCUMENTS:
        text = (ROOT / name).read_text()
        for owner_name in re.findall(r"mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/", text):
            assert owner_name == OWNER_NAME, f"{name}: a Binder link to {owner_name}"
        for owner_name in re.findall(r"github\.com/([\w.-]+/[\w.-]+?)(?:[/#\s\"')]|\.git|$)", text):
            assert owner_name == OWNER_NAME, f"{name}: a link to github.com/{owner_name}"


def test_the_readme_has_the_three_binder_links_and_each_opens_a_file_that_exists():
    readme = (ROOT / "README.md").read_text()
    paths = re.findall(
        rf"mybinder\.org/v2/gh/{re.escape(OWNER_NAME)}/HEAD\?urlpath=(\w+)/(?:tree|render)/(\S+?)\)", readme
    )
    assert [kind for kind, _ in paths] == ["lab", "lab", "voila"]
    for _, path in paths:
        assert (ROOT / path).exists(), path
    projector = nbformat.read(ROOT / "boards" / "projector.ipynb", as_version=4)
    assert "Board(" in projector.cells[-1].source
    assert all(not c.get("outputs") for c in projector.cells if c.cell_type == "code")


def repo2docker_dockerfile(tmp_path: Path) -> str:
    copy = tmp_path / "repo"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in files.splitlines():
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    command = [str(Path(sys.executable).parent / "jupyter-repo2docker"), "--no-build", "--debug", str(copy)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout + result.stderr


def test_repo2docker_builds_the_environment_then_runs_postbuild_as_the_notebook_user(tmp_path):
    dockerfile = repo2docker_dockerfile(tmp_path)
    assert "Building conda environment for python=3.12" in dockerfile
    lines = dockerfile.splitlines()
    env_update = next(i for i, line in enumerate(lines) if "env update" in line and "environment.yml" in line)
    post_build = next(i for i, line in enumerate(lines) if line.strip() == "RUN ./postBuild")
    assert env_update < post_build, "environment.yml first, then postBuild"
    users = [line.split()[1] for line in lines[:post_build] if line.startswith("USER ")]
    assert users[-1] == "${NB_USER}", "postBuild runs as the notebook's user, not root"
    # apt.txt: the Debian packages repo2docker installs as root, before the environment: the CJK
    # font and the scripts' Noto fonts the printables embed, the ones course.py installs
    # (setwidgets/printables/lettering.py and scripts.py).
    listed = (ROOT / "apt.txt").read_text().splitlines()
    packages = [line.strip() for line in listed if line.strip() and not line.startswith("#")]
    fonts = [
        re.search(rf'^{name} = "([\w.+-]+)"$', (ROOT / "course.py").read_text(), re.M).group(1)
        for name in ("CJK_FONT_PACKAGE", "SCRIPT_FONT_PACKAGE")
    ]
    assert packages == fonts == ["fonts-wqy-microhei", "fonts-noto-core"]
    for font in fonts:
        apt = next(i for i, line in enumerate(lines) if "apt-get install" in line and font in line)
        assert apt < env_update, "the fonts are installed as root, before the environment"
    # Nothing of the repository's own needs root: postBuild writes only into the environment.
    assert "sudo" not in (ROOT / "postBuild").read_text() and "apt" not in (ROOT / "postBuild").read_text()


def test_the_projector_notebook_runs_and_shows_a_board_with_a_picture_for_saved_pages():
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "boards" / "projector.ipynb", as_version=4)
    where = {"metadata": {"path": str(ROOT)}}
    NotebookClient(nb, timeout=120, kernel_name="python3", resources=where).execute()
    (output,) = nb.cells[-1].outputs
    assert {"application/vnd.jupyter.widget-view+json", "image/svg+xml"} <= set(output["data"])
