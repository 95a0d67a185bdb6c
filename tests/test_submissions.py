"""Submissions are regular files: a symbolic link a student hands in is never followed.

Through the real ``nbgrader collect`` and ``autograde`` on a temporary copy of exercise 1.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from datetime import datetime

import nbformat
import pytest
from formgrader_api import generate_assignment
from test_nbgrader import BIN, EXERCISES, answers_of, grades, hand_in, save

from setwidgets.grading.submissions import SubmissionRefused, copy_owned, copy_regular, links_in

pytestmark = pytest.mark.nbgrader
ONE = "01_magic_rule"


def test_copy_regular_leaves_links_out(tmp_path):
    source = tmp_path / "submission"
    (source / "sub").mkdir(parents=True)
    (source / "answer.txt").write_text("mine")
    (tmp_path / "secret.txt").write_text("solutions")
    (source / "steal.txt").symlink_to(tmp_path / "secret.txt")
    (source / "sub" / "folder").symlink_to(tmp_path)
    assert sorted(p.name for p in links_in(source)) == ["folder", "steal.txt"]
    left_out = copy_regular(source, tmp_path / "copy")
    assert sorted(p.name for p in left_out) == ["folder", "steal.txt"]
    assert (tmp_path / "copy" / "answer.txt").read_text() == "mine"
    assert (
        not (tmp_path / "copy" / "steal.txt").exists() and not (tmp_path / "copy" / "sub" / "folder").exists()
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A course of exercise 1 after generate_assignment, run once for this file, in this process as
    the Formgrader runs it (tests/formgrader_api.py): the set-up, not what is tested here. Each course
    below is a copy of it (each start of nbgrader costs CPU-seconds of its own)."""
    course = tmp_path_factory.mktemp("generated")
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / ONE, course / "source" / ONE)
    generate_assignment(course, ONE)
    return course


def copy_of(generated, target, students=()):
    """A copy of the generated course at ``target``, with ``students`` in its gradebook (written as
    ``nbgrader db student add`` writes them)."""
    from nbgrader.api import Gradebook

    shutil.copytree(generated, target, symlinks=True)
    with Gradebook(f"sqlite:///{target / 'gradebook.db'}") as gb:
        for student in students:
            gb.update_or_create_student(student)
    return target


def _broken(nb: dict, how: str) -> str:
    """The notebook ``nb`` (JSON) broken in one way, as text."""
    cells = nb["cells"]
    by_id = {c["metadata"].get("nbgrader", {}).get("grade_id"): c for c in cells}
    if how == "duplicated":
        cells.append(copy.deepcopy(by_id["test_is_set_visible"]))
    elif how == "schema":
        fake = {"schema_version": 99, "grade": True, "grade_id": "x", "points": 50}
        cells[3]["metadata"]["nbgrader"] = fake
    elif how == "locked":
        by_id["is_set_answer"]["metadata"]["nbgrader"]["locked"] = True
        by_id["is_set_answer"]["source"] = "from setwidgets import is_set"
    elif how == "json":
        return "{not json"
    return json.dumps(nb)


# One broken notebook per way of breaking it, each handed in by a student of its own, graded in the
# same run as the honest ana and cy: each case's claim is about its own student and the log's lines
# that name that student.
BROKEN = {how: f"ben_{how}" for how in ("duplicated", "schema", "locked", "json")}


@pytest.fixture(scope="module")
def course(generated, tmp_path_factory):
    """Every submission of this file's autograde tests, graded in one ``nbgrader autograde`` run (the
    real command line; each start of it costs CPU-seconds of its own): the links (solver, linker,
    mirror) and the broken notebooks (ana, the ben_* students, cy). Its log is autograde.log."""
    students = ("ana", *BROKEN.values(), "cy", "solver", "linker", "mirror")
    course = copy_of(generated, tmp_path_factory.mktemp("autograded") / "course", students)
    answers = answers_of(nbformat.read(EXERCISES / "source" / ONE / "magic_rule.ipynb", as_version=4))
    for student in ("ana", *BROKEN.values(), "cy", "solver", "linker"):
        save(course, student, ONE, hand_in(course, ONE, answers))
    for how, student in BROKEN.items():
        path = course / "submitted" / student / ONE / "magic_rule.ipynb"
        path.write_text(_broken(json.loads(path.read_text()), how))
    linker = course / "submitted" / "linker" / ONE
    (linker / "gradebook.db").symlink_to("../../../gradebook.db")
    (linker / "tests.py").symlink_to(f"../../../source/{ONE}/hidden_tests.py")
    mirror = course / "submitted" / "mirror" / ONE
    mirror.mkdir(parents=True)
    (mirror / "magic_rule.ipynb").symlink_to(f"../../../source/{ONE}/magic_rule.ipynb")
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run(
        [str(BIN / "nbgrader"), "autograde", ONE],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (course / "autograde.log").write_text(result.stderr)
    return course


def test_links_in_a_submission_are_not_copied_for_grading_and_the_log_names_the_student(course):
    autograded = course / "autograded" / "linker" / ONE
    assert (autograded / "magic_rule.ipynb").is_file()
    assert not (autograded / "gradebook.db").exists() and not (autograded / "tests.py").exists()
    log = (course / "autograde.log").read_text()
    assert "linker: gradebook.db in the submission is a symbolic link" in log
    assert sum(grades(course, ONE, "linker").values()) == 10, "the student's own work is graded"


def test_a_notebook_that_is_a_link_is_not_graded_and_the_others_are(course):
    log = (course / "autograde.log").read_text()
    assert "mirror: the notebook magic_rule.ipynb is a symbolic link; it is not graded" in log
    assert not (course / "autograded" / "mirror" / ONE / "magic_rule.ipynb").exists()
    assert sum(grades(course, ONE, "solver").values()) == 10


def test_collect_leaves_links_pipes_and_huge_files_in_the_exchange_behind(generated, tmp_path):
    """Put straight into the exchange's inbound folder, past ``nbgrader submit``: a link to the
    solutions and to the gradebook, a named pipe (reading it would wait for ever) and a sparse file
    of a terabyte (a few bytes on the student's disk, a terabyte on the teacher's).

    The course's own exchange, one account playing every part (``single_user``): the folder is the
    teacher's, for a student id that is no account here, and it is collected."""
    course = copy_of(generated, tmp_path / "course", ("ana",))
    env = {k: v for k, v in os.environ.items() if k != "SETWIDGETS_EXCHANGE"}
    env["PATH"] = f"{BIN}{os.pathsep}{os.environ['PATH']}"

    def run(*args):
        result = subprocess.run(
            [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        return result.stderr

    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    inbound = course / "exchange" / "setwidgets" / "inbound" / f"ana+{ONE}+{stamp}+abcdef"
    inbound.mkdir(parents=True, mode=0o777)
    shutil.copy(course / "release" / ONE / "magic_rule.ipynb", inbound)
    (inbound / "timestamp.txt").write_text(stamp)
    (inbound / "solutions.ipynb").symlink_to(course / "source" / ONE / "magic_rule.ipynb")
    (inbound / "grades.db").symlink_to(course / "gradebook.db")
    os.mkfifo(inbound / "pipe")
    with open(inbound / "huge.bin", "wb") as huge:
        huge.truncate(2**40)
    said = run("collect", ONE)
    submitted = course / "submitted" / "ana" / ONE
    assert (submitted / "magic_rule.ipynb").is_file()
    assert not (submitted / "solutions.ipynb").exists() and not (submitted / "grades.db").exists()
    assert "ana: solutions.ipynb in the submission is a symbolic link; it was left out" in said
    assert not (submitted / "pipe").exists() and not (submitted / "huge.bin").exists()
    assert "ana: pipe in the submission is a named pipe, socket or device; it was left out" in said
    assert "ana: huge.bin in the submission is bigger than 100 MB; it was left out" in said


@pytest.mark.parametrize("how", ["duplicated", "schema", "locked", "json"])
def test_one_broken_notebook_costs_its_student_alone(course, how):
    ben = BROKEN[how]
    log = (course / "autograde.log").read_text()
    assert sum(grades(course, ONE, "ana").values()) == 10 and sum(grades(course, ONE, "cy").values()) == 10
    if how in ("duplicated", "schema"):
        # Ben's answers are right; his metadata is the gradebook's again: he scores what he earned.
        assert sum(grades(course, ONE, ben).values()) == 10
        assert any(f"{ben}: cell" in line and "counts as the student's" in line for line in log.splitlines())
    elif how == "locked":
        # The package's is_set, in an answer cell marked locked: absent while grading, and flagged.
        assert grades(course, ONE, ben)["test_is_set_hidden"] == 0
        assert f"{ben}  magic_rule  is_set_answer  uses the package's reference functions" in log
    else:
        assert f"There was an error processing assignment '{ONE}' for student '{ben}'" in log
        assert f"submitted/{ben}/" in log


def test_copy_regular_leaves_pipes_and_huge_files_out(tmp_path):
    """A pipe would make the copy wait for ever; a sparse file of terabytes would fill the disk."""
    source = tmp_path / "submission"
    source.mkdir()
    (source / "answer.ipynb").write_text("{}")
    os.mkfifo(source / "pipe")
    with open(source / "huge.bin", "wb") as huge:
        huge.truncate(2**40)
    left_out = copy_regular(source, tmp_path / "copy", max_bytes=2**20)
    assert sorted(p.name for p in left_out) == ["huge.bin", "pipe"]
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["answer.ipynb"]


NOBODY = 65534  # an account that is not the one running the tests (``nobody`` on Debian)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_copy_owned_takes_the_accounts_own_files_and_dates_by_change_time_not_by_what_is_written(tmp_path):
    me = os.geteuid()
    source = tmp_path / "submission"
    (source / "sub").mkdir(parents=True)
    (source / "answer.ipynb").write_text("{}")
    (source / "sub" / "mine.txt").write_text("mine")
    (source / "planted.txt").write_text("a classmate's")
    os.chown(source / "planted.txt", NOBODY, NOBODY)
    (source / "theirs").mkdir()
    (source / "theirs" / "inside.txt").write_text("x")
    os.chown(source / "theirs", NOBODY, NOBODY)
    (source / "timestamp.txt").write_text("2000-01-01 00:00:00 UTC")
    old = datetime(2000, 1, 1).timestamp()
    for path in (source / "answer.ipynb", source / "sub" / "mine.txt", source / "sub", source):
        os.utime(path, (old, old))  # touch -d 2000-01-01: the modification times lie
    before = datetime.now().timestamp() - 60
    walked = copy_owned(source, tmp_path / "copy", me)
    copied = sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*"))
    assert copied == ["answer.ipynb", "sub", "sub/mine.txt", "timestamp.txt"]
    assert dict(walked.left_out) == {
        "planted.txt": "owned by nobody, not by the student's account; it was left out",
        "theirs": "owned by nobody, not by the student's account; it was left out",
    }
    assert walked.latest_ns / 1e9 > before, "the change time, which the student cannot set back"
    assert copy_owned(source, None, me).latest_ns == walked.latest_ns, "timing alone copies nothing"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_copy_owned_refuses_a_folder_of_another_account_a_link_and_a_file(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, NOBODY, NOBODY)
    (tmp_path / "link").symlink_to(tmp_path / "theirs")
    (tmp_path / "file").write_text("")
    refusals = {}
    for name in ("theirs", "link", "file"):
        with pytest.raises(SubmissionRefused) as refused:
            copy_owned(tmp_path / name, tmp_path / f"copy-{name}", os.geteuid())
        refusals[name] = str(refused.value)
        assert not (tmp_path / f"copy-{name}").exists()
    assert refusals["theirs"].startswith("it belongs to nobody, not to root")
    assert refusals["link"] == "it is a symbolic link (links are never followed)"
    assert refusals["file"] == "it is not a folder"
    with pytest.raises(TypeError, match="copy_owned: uid must be an account's number"):
        copy_owned(tmp_path / "theirs", None, "root")


def test_copy_owned_bounds_a_submission_in_depth_and_in_total_size(tmp_path):
    me = os.geteuid()
    source = tmp_path / "submission"
    deep = source.joinpath(*["d"] * 40)
    deep.mkdir(parents=True)
    (source / "a.bin").write_bytes(b"a" * 600)
    (source / "b.bin").write_bytes(b"b" * 600)
    walked = copy_owned(source, tmp_path / "copy", me, max_bytes=1000, max_total=1000)
    assert (tmp_path / "copy" / "a.bin").stat().st_size == 600 and not (tmp_path / "copy" / "b.bin").exists()
    reasons = dict(walked.left_out)
    assert reasons["b.bin"] == "past the 0.001 MB a whole submission may hold; it was left out"
    assert any(why.startswith("a folder more than 32 deep") for why in reasons.values())
