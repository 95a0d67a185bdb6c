"""The hub's checks before it starts (setwidgets.hub.preflight), as course.py hub runs them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from setwidgets.hub import preflight

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def open_folder():
    """A folder every user can reach (pytest's own temporary folders are closed to others)."""
    folder = Path(tempfile.mkdtemp(prefix="setwidgets-preflight-"))
    folder.chmod(0o755)
    if preflight.unreachable(folder) is not None:
        pytest.fail(f"{folder} should be open to every user; {preflight.unreachable(folder)} is closed")
    yield folder
    shutil.rmtree(folder)


def test_a_folder_closed_to_others_is_named(open_folder):
    closed = open_folder / "closed"
    inside = closed / "course"
    inside.mkdir(parents=True)
    closed.chmod(0o700)
    assert preflight.unreachable(inside) == closed
    closed.chmod(0o755)
    inside.chmod(0o755)
    assert preflight.unreachable(inside) is None


def test_a_user_other_than_root_is_told_to_run_it_as_root(monkeypatch):
    monkeypatch.setattr(preflight.os, "geteuid", lambda: 1000)
    said = preflight.problem(ROOT)
    assert said.startswith(
        "course.py hub starts each user's server as that Linux user, which only root may do"
    )


def test_root_is_told_which_folder_closes_the_repository(monkeypatch, open_folder):
    monkeypatch.setattr(preflight.os, "geteuid", lambda: 0)
    repository = open_folder / "private" / "setwidgets"
    repository.mkdir(parents=True)
    (open_folder / "private").chmod(0o700)
    said = preflight.problem(repository)
    assert f"but {open_folder / 'private'} is closed to other users" in said


def test_no_python_every_user_can_run_is_one_sentence(monkeypatch):
    monkeypatch.setattr(preflight.shutil, "which", lambda candidate: None)
    with pytest.raises(
        preflight.PreflightError, match="needs a Python 3.11 or newer that every user can run"
    ):
        preflight.hub_python()


def test_course_py_runs_the_checks_with_the_machines_python_alone():
    # No environment on the path: the checks must need nothing but the standard library.
    code = "import sys; sys.path.insert(0, sys.argv[1]); from setwidgets.hub import preflight; print('ok')"
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(ROOT)], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr
