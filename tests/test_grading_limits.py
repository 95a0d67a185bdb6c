"""Limits of a whole notebook and of the grading run, through the real ``nbgrader autograde``.

- A notebook that spends its grading time scores nothing for the tests it left, and says why;
  the other students are graded as usual.
- Grading as root with a Python that the sandbox's user (nobody) cannot start stops before the
  first submission, with one sentence that says what to change.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import BIN, EXERCISES, answers_of, grades, hand_in, nbgrader, save

from setwidgets.grading.preprocessors import OUT_OF_TIME
from setwidgets.grading.sandbox import bubblewrap_problem

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(bubblewrap_problem() is not None, reason="the sandbox needs bubblewrap"),
]
ONE = "01_magic_rule"
FULL = {
    "test_is_set_visible": 2,
    "test_is_set_hidden": 3,
    "test_odd_one_out_visible": 2,
    "test_odd_one_out_hidden": 3,
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A course of exercise 1 after generate_assignment, run once for this file, in this process as
    the Formgrader runs it (tests/formgrader_api.py): the set-up, not what is tested here. Each test
    grades in a copy of its own (each start of nbgrader costs CPU-seconds of its own)."""
    folder = tmp_path_factory.mktemp("generated")
    shutil.copy(EXERCISES / "nbgrader_config.py", folder)
    shutil.copytree(EXERCISES / "source" / ONE, folder / "source" / ONE)
    generate_assignment(folder, ONE)
    return folder


def course_of(generated: Path, folder: Path, students: list[str]) -> Path:
    """A temporary course of exercise 1 with these students (in its gradebook, as
    ``nbgrader db student add`` puts them)."""
    from nbgrader.api import Gradebook

    shutil.copytree(generated, folder, dirs_exist_ok=True)
    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gb:
        for student in students:
            gb.update_or_create_student(student)
    return folder


def test_a_notebook_past_its_time_scores_nothing_for_the_tests_it_left_and_the_others_are_graded(
    generated, tmp_path
):
    course = course_of(generated, tmp_path, ["solver", "dawdler"])
    answers = answers_of(nbformat.read(EXERCISES / "source" / ONE / "magic_rule.ipynb", as_version=4))
    save(course, "solver", ONE, hand_in(course, ONE, answers))
    # The answer cell sleeps past the time a whole notebook gets, though not past the time of a cell.
    slow = dict(answers, is_set_answer=answers["is_set_answer"] + "\n\nimport time\n\ntime.sleep(7)\n")
    save(course, "dawdler", ONE, hand_in(course, ONE, slow))
    log = nbgrader(course, "autograde", ONE, "--GradingExecute.notebook_seconds=6").stderr
    assert grades(course, ONE, "solver") == FULL
    assert sum(grades(course, ONE, "dawdler").values()) == 0, log
    autograded = nbformat.read(course / "autograded" / "dawdler" / ONE / "magic_rule.ipynb", as_version=4)
    reasons = [
        o.evalue for c in autograded.cells for o in c.get("outputs", []) if o.get("ename") == OUT_OF_TIME
    ]
    assert len(reasons) == 4 and "used up the 6 s of grading time" in reasons[0]


@pytest.mark.skipif(os.geteuid() != 0, reason="kernels change user only when grading as root")
def test_grading_as_root_with_a_python_nobody_can_start_stops_before_the_first_submission(
    generated, tmp_path
):
    course = course_of(generated, tmp_path / "course", ["solver"])
    answers = answers_of(nbformat.read(EXERCISES / "source" / ONE / "magic_rule.ipynb", as_version=4))
    save(course, "solver", ONE, hand_in(course, ONE, answers))
    # A virtual environment in a folder only root may enter, seeing the course's packages.
    closed = tmp_path / "closed"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(closed / "venv")], check=True)
    packages = Path(site.getsitepackages()[0])
    (closed / "venv" / packages.relative_to(sys.prefix) / "course.pth").write_text(
        f"import site; site.addsitedir({str(packages)!r})\n"
    )
    closed.chmod(0o700)
    python = closed / "venv" / "bin" / "python"
    env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{BIN}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run(
        [str(python), "-m", "nbgrader", "autograde", ONE],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode != 0
    said = "Grading as root runs each student's kernel as the user 'nobody', who cannot start the kernel's"
    assert f"{said} Python {python} (" in result.stderr, result.stderr[-2000:]
    assert not (course / "autograded").exists() or not any((course / "autograded").iterdir())
    assert result.stderr.count("Kernel died") == 0
