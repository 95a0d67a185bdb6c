"""The exchange against its own students: the real ``nbgrader collect``, real Linux users.

nbgrader's collect takes the student and the time from what a student writes in the exchange's
inbound folder (a folder's name, ``timestamp.txt``). Here the class is five Linux accounts made
for the test (removed after it), the exchange is shared (``SETWIDGETS_EXCHANGE``) and the
teacher is root, who runs ``collect`` and ``autograde`` with the course's configuration:

- alice submits with ``nbgrader submit``; mallory writes a folder named for alice, dated 2099,
  holding an untouched copy (0 points), puts a file into alice's real folder, names a folder
  for a student with no account, and names one for herself that is a link to alice's work;
- carol writes her late submission by hand, dated 2000 in its name, its ``timestamp.txt`` and
  the files' modification times (``touch``);
- bob submits with ``nbgrader submit`` and also leaves a folder whose name holds no time;
- dave submits on time with ``nbgrader submit``, then after the due date writes a folder dated a
  second before it (for ``collect --before-duedate``);
- the teacher's own folder for ``dana``, who has no account: on a shared exchange it is no one's.

The same exchange given to nbgrader's own collect shows each of these happening there.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest
from formgrader_api import generate_assignment, release_assignment
from test_nbgrader import BIN, EXERCISES, answers_of, cell, grades, hand_in

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making the class's Linux users needs root"
    ),
    pytest.mark.skipif(
        shutil.which("useradd") is None or shutil.which("runuser") is None,
        reason="making the class's Linux users needs useradd, and acting as them runuser",
    ),
]

ONE = "01_magic_rule"
NOTEBOOK = "magic_rule.ipynb"
# The swx- names are this test's own, so no one else's account is touched.
ALICE, MALLORY, CAROL, BOB, DAVE = "swx-alice", "swx-mallory", "swx-carol", "swx-bob", "swx-dave"
USERS = [ALICE, MALLORY, CAROL, BOB, DAVE]
NO_ACCOUNT = "swx-dana"  # a student id no account on this machine is named
PLAIN = "--ExchangeFactory.collect=nbgrader.exchange.default.collect.ExchangeCollect"


def _make_user(name: str) -> None:
    with contextlib.suppress(KeyError):
        pwd.getpwnam(name)
        subprocess.run(["userdel", "--remove", name], capture_output=True)  # left by an interrupted run
    subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", name], check=True, capture_output=True)


def _remove_user(name: str) -> None:
    subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
    time.sleep(0.2)
    subprocess.run(["userdel", "--remove", name], capture_output=True)


def _home(name: str) -> Path:
    return Path(pwd.getpwnam(name).pw_dir)


def as_user(name: str, *command: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``command`` as the Linux user ``name``, with a Jupyter of their own under their home."""
    home = _home(name)
    env = {
        "HOME": str(home),
        "PATH": f"{BIN}{os.pathsep}/usr/bin:/bin",
        "JUPYTER_DATA_DIR": str(home / ".jupyter-data"),
        "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
        "JUPYTER_RUNTIME_DIR": str(home / ".jupyter-runtime"),
        "LANG": "C.UTF-8",
    }
    result = subprocess.run(
        [str(shutil.which("runuser")), "-u", name, "--", *command],
        cwd=cwd or home,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"{name}: {' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    return result


def teacher(course: Path, exchange: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """The teacher's nbgrader command in ``course``, on the shared exchange."""
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    env.update(PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", SETWIDGETS_EXCHANGE=str(exchange))
    result = subprocess.run(
        [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=600
    )
    if check:
        assert result.returncode == 0, f"nbgrader {' '.join(args)}:\n{result.stderr}"
    return result


def give(name: str, nb: nbformat.NotebookNode) -> Path:
    """The notebook ``nb`` in ``name``'s home, in the assignment's folder, owned by them."""
    folder = _home(name) / ONE
    folder.mkdir(exist_ok=True)
    nbformat.write(nb, folder / NOTEBOOK)
    for path in (folder, folder / NOTEBOOK):
        shutil.chown(path, name, name)
    return folder / NOTEBOOK


def hand_made(name: str, folder: Path, notebook: Path, stamp: str, backdate: str | None = None) -> None:
    """As ``name``: the folder ``folder`` in the inbound folder, past ``nbgrader submit``."""
    script = 'mkdir "$1" && cp "$2" "$1/magic_rule.ipynb" && printf %s "$3" > "$1/timestamp.txt"'
    if backdate:
        script += ' && touch -d "$4" "$1/magic_rule.ipynb" "$1/timestamp.txt" "$1"'
    as_user(name, "sh", "-c", script, "sh", str(folder), str(notebook), stamp, backdate or "")


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """The class's exchange after everyone acted, collected by SafeCollect and by nbgrader's own."""
    root = tmp_path_factory.mktemp("exchange-red-team")
    course, plain, single, due = root / "course", root / "plain", root / "single", root / "due"
    exchange = Path(tempfile.mkdtemp(prefix="swx-exchange-", dir="/tmp"))  # reachable by the students
    exchange.chmod(0o1777)
    for name in USERS:
        _make_user(name)
    try:
        course.mkdir()
        shutil.copy(EXERCISES / "nbgrader_config.py", course)
        shutil.copytree(EXERCISES / "source" / ONE, course / "source" / ONE)
        # Set up as the Formgrader's Generate and Release buttons do, in this process
        # (tests/formgrader_api.py): what is tested here starts at the students' submit.
        generate_assignment(course, ONE, SETWIDGETS_EXCHANGE=str(exchange))
        release_assignment(course, ONE, SETWIDGETS_EXCHANGE=str(exchange))
        started = datetime.now(UTC).replace(tzinfo=None)
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            # Due an hour ago: everything handed in during this test is late.
            gradebook.update_or_create_assignment(ONE, duedate=started - timedelta(hours=1))
        shutil.copytree(course, plain)  # the same course, for nbgrader's own collect
        shutil.copytree(course, single)  # and for the course's collect told the exchange is one account's
        shutil.copytree(course, due)  # and for --before-duedate, due between dave's two submissions

        source = nbformat.read(EXERCISES / "source" / ONE / NOTEBOOK, as_version=4)
        right = hand_in(course, ONE, answers_of(source))
        empty = hand_in(course, ONE)
        submit = ["nbgrader", "submit", ONE, "--course=setwidgets", f"--Exchange.root={exchange}"]
        for name in (ALICE, BOB, DAVE):
            give(name, right)
            as_user(name, *submit)
        inbound = exchange / "setwidgets" / "inbound"
        (alices,) = [p for p in inbound.iterdir() if p.name.startswith(f"{ALICE}+")]

        # mallory: alice's newest, dated 2099; a file in alice's real folder; a student with no
        # account; a folder of her own that is a link to alice's work.
        zero = give(MALLORY, empty)
        forged = inbound / f"{ALICE}+{ONE}+2099-01-01 00:00:00.000000 UTC+aaaaaaaaaaaa"
        hand_made(MALLORY, forged, zero, "2099-01-01 00:00:00.000000 UTC")
        as_user(MALLORY, "sh", "-c", 'echo "from mallory" > "$1/notes.txt"', "sh", str(alices))
        hand_made(MALLORY, inbound / f"{NO_ACCOUNT}+{ONE}+2026-01-01 00:00:00.000000 UTC", zero, "x")
        link = inbound / f"{MALLORY}+{ONE}+2026-01-01 00:00:00.000000 UTC+bbbbbbbbbbbb"
        as_user(MALLORY, "ln", "-s", str(alices), str(link))
        # dave: on time with nbgrader submit; then, after the due date, a folder dated a second before it.
        time.sleep(1.5)
        deadline = datetime.now(UTC).replace(tzinfo=None)
        time.sleep(1.5)
        for folder in (due, plain):
            with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gradebook:
                gradebook.update_or_create_assignment(ONE, duedate=deadline)
        just_before = (deadline - timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
        dated = inbound / f"{DAVE}+{ONE}+{just_before}+dddddddddddd"
        hand_made(DAVE, dated, give(DAVE, empty), just_before, backdate=just_before.removesuffix(" UTC"))
        # carol: her work, dated 2000 everywhere she can write a date.
        before_carol = datetime.now(UTC).replace(tzinfo=None)
        stamp = "2000-01-01 00:00:00.000000 UTC"
        backdated = inbound / f"{CAROL}+{ONE}+{stamp}+cccccccccccc"
        hand_made(CAROL, backdated, give(CAROL, right), stamp, backdate="2000-01-01 00:00:00")
        after_carol = datetime.now(UTC).replace(tzinfo=None)
        # bob: a folder whose name holds no time, besides his real submission.
        bad = inbound / f"{BOB}+{ONE}+yesterday evening"
        hand_made(BOB, bad, _home(BOB) / ONE / NOTEBOOK, "yesterday evening")
        # the teacher's own folder for a student id that is no account: no one's, on a shared exchange
        ghost = inbound / f"{NO_ACCOUNT}+{ONE}+2026-02-01 00:00:00.000000 UTC"
        ghost.mkdir()
        shutil.copy(_home(ALICE) / ONE / NOTEBOOK, ghost / NOTEBOOK)

        collected = teacher(course, exchange, "collect", ONE)
        graded = teacher(course, exchange, "autograde", ONE)
        one_account = teacher(single, exchange, "collect", ONE, "--SafeCollect.single_user=True")
        plain_class = teacher(plain, exchange, "collect", ONE, PLAIN, check=False)
        plain_some = teacher(plain, exchange, "collect", ONE, PLAIN, "--student=swx-[ac]*", check=False)
        on_time = teacher(due, exchange, "collect", ONE, "--before-duedate", f"--student={DAVE}")
        plain_due = teacher(plain, exchange, "collect", ONE, PLAIN, "--before-duedate", f"--student={DAVE}")
        yield {
            "course": course,
            "plain": plain,
            "single": single,
            "single_log": one_account.stderr,
            "due": due,
            "deadline": deadline,
            "due_logs": (on_time.stderr, plain_due),
            "log": collected.stderr,
            "graded": graded.stderr,
            "plain_class": plain_class,
            "plain_some": plain_some,
            "names": {"forged": forged.name, "link": link.name, "bad": bad.name, "ghost": ghost.name},
            "carol": (before_carol, after_carol),
            "started": started,
        }
    finally:
        for name in USERS:
            _remove_user(name)
        shutil.rmtree(exchange, ignore_errors=True)


def submitted(course: Path, student: str) -> Path:
    return course / "submitted" / student / ONE


def lines_naming(log: str, text: str) -> list[str]:
    return [line for line in log.splitlines() if text in line]


def test_nbgrader_alone_gives_mallorys_folder_to_alice_takes_carols_date_and_stops_at_bobs(klass):
    """The attacks, against nbgrader's own collect: what the course's collect must not do."""
    plain = klass["plain"]
    assert klass["plain_class"].returncode != 0, "one name without a time stops the class"
    assert not (plain / "submitted" / BOB).exists()
    assert klass["plain_some"].returncode == 0, klass["plain_some"].stderr
    assert (submitted(plain, ALICE) / "timestamp.txt").read_text().startswith("2099"), "mallory's folder"
    assert (submitted(plain, CAROL) / "timestamp.txt").read_text().startswith("2000"), "carol's own date"


def test_a_folder_named_for_alice_by_mallory_is_not_collected_and_alice_keeps_her_work(klass):
    course, log = klass["course"], klass["log"]
    forged = klass["names"]["forged"]
    said = lines_naming(log, forged)
    assert len(said) == 1, log
    assert f"Not collected: {forged} in the exchange: it belongs to {MALLORY}, not to {ALICE}" in said[0]
    from nbgrader.utils import parse_utc

    when = parse_utc((submitted(course, ALICE) / "timestamp.txt").read_text())
    assert klass["started"] <= when <= datetime.now(UTC).replace(tzinfo=None), "the exchange's time, not 2099"
    assert sum(grades(course, ONE, ALICE).values()) == 10, "alice's own submission is graded"


def test_a_classmates_file_in_a_submission_is_left_out_and_named(klass):
    course, log = klass["course"], klass["log"]
    assert not (submitted(course, ALICE) / "notes.txt").exists()
    assert (submitted(course, ALICE) / NOTEBOOK).is_file()
    assert f"{ALICE}: notes.txt in the submission is owned by {MALLORY}, not by the student's account" in log


def test_a_backdated_submission_gets_the_exchanges_time_and_is_late(klass):
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc

    course, log = klass["course"], klass["log"]
    before, after = klass["carol"]
    when = parse_utc((submitted(course, CAROL) / "timestamp.txt").read_text())
    # The exchange's time: when carol's folder was last changed, within the seconds she wrote it.
    assert before - timedelta(seconds=1) <= when <= after + timedelta(seconds=1), (before, when, after)
    assert f"{CAROL}: {CAROL}+{ONE}+2000-01-01 00:00:00.000000 UTC+cccccccccccc says it was handed in" in log
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(ONE, CAROL)
        assert submission.timestamp == when
        assert submission.total_seconds_late > 3000, "due an hour before the test began"
    assert sum(grades(course, ONE, CAROL).values()) == 10, "her work is graded (nbgrader sets no penalty)"


def test_a_badly_named_folder_is_skipped_with_one_line_and_the_class_is_collected(klass):
    course, log = klass["course"], klass["log"]
    bad = klass["names"]["bad"]
    said = lines_naming(log, bad)
    assert len(said) == 1, log
    assert said[0].endswith("the time in its name is not a time"), said[0]
    assert sum(grades(course, ONE, BOB).values()) == 10, "bob's real submission is collected and graded"
    assert {p.name for p in (course / "submitted").iterdir()} == {ALICE, BOB, CAROL, DAVE}


def test_no_folder_counts_for_a_student_without_an_account_on_a_shared_exchange(klass):
    """mallory's folder for dana and the teacher's own: no one can hand in as dana here."""
    log = klass["log"]
    said = lines_naming(log, f"{NO_ACCOUNT}+{ONE}+")
    assert len(said) == 2, log
    assert all(f"no account on this machine is named {NO_ACCOUNT}" in line for line in said)
    assert not submitted(klass["course"], NO_ACCOUNT).exists()


def test_a_link_in_the_inbound_folder_is_not_collected(klass):
    """mallory's own folder is a link to alice's: it would hand mallory alice's work."""
    link = klass["names"]["link"]
    said = lines_naming(klass["log"], link)
    assert len(said) == 1 and "it is a symbolic link (links are never followed)" in said[0]
    assert not submitted(klass["course"], MALLORY).exists()


def test_single_user_takes_the_teachers_own_folder_for_an_id_without_an_account_and_nothing_else(klass):
    """``single_user`` (the course's own exchange, one account playing every part) on the same exchange:
    the folder the teacher (root) made for dana counts for her; the one mallory made does not, nor
    does mallory's folder named for alice, who has an account of her own."""
    single, log = klass["single"], klass["single_log"]
    assert (submitted(single, NO_ACCOUNT) / NOTEBOOK).is_file()
    mallorys = lines_naming(log, f"{NO_ACCOUNT}+{ONE}+2026-01-01")
    assert len(mallorys) == 1 and f"it belongs to {MALLORY}, not to root" in mallorys[0], log
    assert len(lines_naming(log, klass["names"]["forged"])) == 1
    assert {p.name for p in (single / "submitted").iterdir()} == {ALICE, BOB, CAROL, DAVE, NO_ACCOUNT}


def test_before_the_due_date_means_by_the_exchanges_time_not_the_name(klass):
    """dave handed in on time, then after the due date a folder dated a second before it:
    ``--before-duedate`` takes his on-time submission here, and the late one in nbgrader alone."""
    from nbgrader.utils import parse_utc

    deadline = klass["deadline"]
    _, plain_due = klass["due_logs"]
    taken = parse_utc((submitted(klass["due"], DAVE) / "timestamp.txt").read_text())
    assert klass["started"] <= taken <= deadline, "the submission made before the due date"
    source = nbformat.read(EXERCISES / "source" / ONE / NOTEBOOK, as_version=4)
    collected = nbformat.read(submitted(klass["due"], DAVE) / NOTEBOOK, as_version=4)
    answer = answers_of(source)["is_set_answer"].strip("\n")
    assert cell(collected, "is_set_answer").source == answer, "his answers, not the late empty copy"
    assert plain_due.returncode == 0, plain_due.stderr
    claimed = parse_utc((submitted(klass["plain"], DAVE) / "timestamp.txt").read_text())
    assert claimed == deadline - timedelta(seconds=1), "nbgrader alone believes the name"
