"""Fuzzing the hub's public API: every odd input is answered in our words, at once.

The roster (its text, its file in every encoding a spreadsheet writes, and the users it
names), the exchange and each user's home are handled with drawn arguments of every kind
through ``fuzzing.attempt``, which fails on a raw error or a hang. Every path drawn lies in a
fresh temporary folder, and a call that is refused must leave that folder as it found it.
"""

from __future__ import annotations

import itertools
import math
import os
import stat
import tempfile
from pathlib import Path

import fuzzing
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets.hub import homes, rosters

MODULE = "hub"
FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])

odd_text = st.sampled_from(
    ["", " ", "\x00", "ana\x00", "\u202eana", "\u200bana", "ana\u200b", "\x01\x02", "\x1b[31m", "x" * 500]
) | st.text(max_size=12)
odd_thing = (
    st.integers(min_value=-5, max_value=5)
    | st.sampled_from([-1, -(10**30), 2**63, 2**32, 10**30, 2.0, math.nan, math.inf])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
    | st.binary(max_size=8)
    | odd_text
)
a_name = st.sampled_from(["teacher", "ana", "ben", "root", "nobody", "daemon", "bin", "www-data", "_apt"])
a_field = a_name | st.sampled_from(["teacher", "student", "Teacher", " student ", "pupil", ""]) | odd_text
a_line = (
    st.lists(a_field, min_size=0, max_size=3).map(",".join)
    | st.sampled_from(['"ana,student', '"ana",student', "# a comment, Müller", "x" * 200_000])
    | odd_text
)
roster_text = st.lists(a_line, max_size=6).map(
    lambda lines: "\n".join(["teacher,teacher", *lines])
) | st.lists(a_line, max_size=6).map("\r\n".join)
odd_roster = (
    roster_text
    | roster_text.map(lambda text: text.encode("utf-8"))
    | st.lists(a_line, max_size=3)
    | odd_thing
)
ENCODINGS = ["utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16", "utf-32"]


def tree(root: Path) -> list[tuple]:
    """Everything under ``root`` (itself included): names, kinds, modes, owners and contents."""
    found = []
    for path in [root, *sorted(root.rglob("*"))]:
        info = path.lstat()
        content = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        found.append((str(path.relative_to(root)), info.st_mode, info.st_uid, info.st_gid, content))
    return found


def inside(value):
    """A drawn string (or bytes) made a name inside the current folder: no '/', never only dots.

    The tests run as root on a shared machine: a drawn '/' or '..' must not reach beyond the
    temporary folder.
    """
    if isinstance(value, bytes):
        return inside(value.decode("latin-1")).encode("latin-1")
    if isinstance(value, str):
        value = value.replace("/", "_")
        if value and not value.strip("."):
            value = "_" + value
    return value


class InTemporaryFolder:
    """A fresh temporary folder, made the current one: a relative path drawn lands in it."""

    def __enter__(self) -> Path:
        self.before = os.getcwd()
        self.folder = tempfile.TemporaryDirectory()
        root = Path(self.folder.name)
        os.chdir(root)
        return root

    def __exit__(self, *exc) -> None:
        os.chdir(self.before)
        for path in [Path(self.folder.name), *Path(self.folder.name).rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o700)
        self.folder.cleanup()


def endless_names():
    return (f"user{i}" for i in itertools.count())


# -- the roster ------------------------------------------------------------------------------------


@FUZZ
@given(text=odd_roster, where=st.just("class.csv") | odd_thing)
def test_parse_roster_answers_every_text(text, where):
    fuzzing.attempt(MODULE, rosters.parse_roster, text)
    fuzzing.attempt(MODULE, rosters.parse_roster, text, where=where)


@FUZZ
@given(
    text=roster_text | st.sampled_from(["# Frau Müller, Łukasz, Ana Muñoz\nteacher,teacher\nana,student"]),
    encoding=st.sampled_from(ENCODINGS),
    raw=st.none() | st.binary(max_size=40),
    kind=st.sampled_from(["file", "missing", "folder", "fifo", "bytes path", "nul path", "empty", "none"]),
)
def test_read_roster_answers_every_file(text, encoding, raw, kind):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "class.csv"
        if raw is not None:
            path.write_bytes(raw)
        else:
            path.write_bytes(text.encode(encoding, errors="replace"))
        argument = {
            "file": path,
            "missing": Path(folder) / "nowhere.csv",
            "folder": Path(folder),
            "bytes path": bytes(path),
            "nul path": f"{path}\x00",
            "empty": "",
            "none": None,
        }.get(kind)
        if kind == "fifo":
            argument = Path(folder) / "pipe"
            os.mkfifo(argument)
        before = tree(Path(folder))
        fuzzing.attempt(MODULE, rosters.read_roster, argument if kind != "file" else str(path))
        assert tree(Path(folder)) == before


@FUZZ
@given(
    names=st.lists(a_name | odd_thing, max_size=5)
    | st.dictionaries(a_name, st.sampled_from(["teacher", "student"]), max_size=3)
    | st.sampled_from(["endless", "generator"])
    | odd_thing
)
def test_missing_users_answers_every_list(names):
    if names == "endless":
        names = endless_names()
    elif names == "generator":
        names = (name for name in ["root", "ana"])
    fuzzing.attempt(MODULE, rosters.missing_users, names)


# -- the exchange and the homes ----------------------------------------------------------------


@FUZZ
@given(
    kind=st.sampled_from(["new", "nested", "open", "closed", "file", "under a file", "empty"]) | odd_thing,
)
def test_make_exchange_answers_every_path(kind):
    with InTemporaryFolder() as root:
        (root / "open").mkdir(mode=0o777)
        (root / "open").chmod(0o777)
        (root / "closed").mkdir(mode=0o755)
        (root / "closed").chmod(0o755)
        (root / "file").write_text("not a folder")
        paths = {
            "new": root / "exchange",
            "nested": root / "srv" / "nbgrader" / "exchange",
            "open": root / "open",
            "closed": str(root / "closed"),
            "file": root / "file",
            "under a file": root / "file" / "exchange",
            "empty": "",
        }
        path = paths.get(kind, inside(kind)) if isinstance(kind, str) else inside(kind)
        before = tree(root)
        outcome = fuzzing.attempt(MODULE, homes.make_exchange, path)
        if outcome.kind != "accepted":
            assert tree(root) == before, f"make_exchange({path!r}) was refused but changed the folder"


def _repository(root: Path, parts: str) -> Path:
    repository = root / "repo"
    repository.mkdir()
    if "lessons" in parts:
        (repository / "lessons").mkdir()
        (repository / "lessons" / "00_start_here.ipynb").write_text("{}")
    if "exercises" in parts:
        (repository / "exercises" / "source").mkdir(parents=True)
        (repository / "exercises" / "gradebook.db").write_bytes(b"grades")
    return repository


@FUZZ
@given(
    home=st.sampled_from(["folder", "missing", "file", "nul", "kept lessons"]) | odd_thing,
    role=st.sampled_from(["teacher", "student", "admin", " teacher", "Teacher"]) | odd_thing,
    repository=st.sampled_from(["lessons exercises", "lessons", "exercises", "", "missing", "file"])
    | odd_thing,
    owner=st.sampled_from([None, (65534, 65534), (0, 0), (-1, -1), (2**40, 0), (1, 2, 3), ("a", 1), "65534"])
    | odd_thing,
)
def test_prepare_home_answers_every_call_and_a_refusal_changes_nothing(home, role, repository, owner):
    with InTemporaryFolder() as root:
        home, repository = inside(home), inside(repository)
        if isinstance(repository, str) and repository in ("lessons exercises", "lessons", "exercises", ""):
            repository = _repository(root, repository)
        elif repository == "missing":
            repository = root / "no-repo"
        elif repository == "file":
            repository = root / "repo-file"
            repository.write_text("not a checkout")
        if home in ("folder", "kept lessons"):
            path = root / "ana"
            path.mkdir(mode=0o755)
            path.chmod(0o755)
            if home == "kept lessons":
                (path / homes.LESSONS_FOLDER).mkdir()
            home = path
        elif home == "missing":
            home = root / "nobody-home"
        elif home == "file":
            home = root / "home-file"
            home.write_text("not a folder")
        elif home == "nul":
            home = f"{root}/ana\x00"
        before = tree(root)
        outcome = fuzzing.attempt(MODULE, homes.prepare_home, home, role, repository, owner=owner)
        if outcome.kind != "accepted":
            assert tree(root) == before, "prepare_home() was refused but changed the folder"
