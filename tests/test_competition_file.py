"""The competition's file, word for word: what a refused file is told, how long a busy one waits.

tests/test_competition.py plays whole competitions in such files; here each refusal and
remedy of setwidgets.competition.database is checked as the coordinator reads it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from setwidgets._inputs import path_text
from setwidgets.competition import Competition, CompetitionError, database
from setwidgets.competition.database import file_trouble


def _six_players(event: Competition) -> None:
    for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
        event.register(number, name)


@pytest.mark.parametrize(
    ("said", "words"),
    [
        (
            "database is locked",
            "another notebook or program kept the file busy for 5 s; "
            "wait until it is done, or close it there, and try again",
        ),
        (
            "attempt to write a readonly database",
            "the file cannot be written (it is read-only); copy it somewhere you can write",
        ),
        ("database disk image is malformed", "the file is damaged; open a copy saved earlier"),
        ("file is not a database", "the file is damaged; open a copy saved earlier"),
        ("disk I/O error", "SQLite says 'disk I/O error'"),
    ],
)
def test_each_trouble_with_the_file_is_put_in_these_words(said, words):
    assert file_trouble(sqlite3.OperationalError(said)) == words


def test_a_damaged_page_is_refused_with_what_sqlite_found_word_for_word(tmp_path):
    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        _six_players(event)
        event.plan(3)
    data = bytearray(path.read_bytes())
    data[2 * 4096 + 8 : 2 * 4096 + 200] = b"\xff" * 192  # the cells of a table's page, overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    # SQLite's own report of the damage, quoted and shortened, then the remedy.
    assert re.fullmatch(
        re.escape(path_text(path)) + r" is damaged \(SQLite finds '\*\*\* in database main \*\*\*.+'"
        r"( \(\d+ characters\))?\); open a copy saved earlier",
        str(refused.value),
    ), str(refused.value)


def test_a_file_without_its_table_of_settings_is_damaged_not_new(tmp_path):
    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        _six_players(event)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE settings")
    db.close()
    before = path.read_bytes()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} is damaged: its tables settings are missing; open a copy saved earlier"
    )
    assert path.read_bytes() == before


def test_in_memory_means_no_file_even_where_a_file_of_that_name_exists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ":memory:").write_text("notes, not a database\n")
    with Competition(":memory:") as event:
        _six_players(event)
        assert len(event.players()) == 6
    assert (tmp_path / ":memory:").read_text() == "notes, not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [":memory:"]


def test_a_writer_kept_waiting_is_told_so_after_the_wait_and_not_later(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "WAIT_SECONDS", 0.3)
    path = tmp_path / "c.sqlite"
    event = Competition(path)
    holder = sqlite3.connect(path)
    holder.execute("BEGIN IMMEDIATE")  # another notebook in the middle of a change
    try:
        start = time.monotonic()
        with pytest.raises(CompetitionError) as refused:
            event.register(1, "Ada")
        waited = time.monotonic() - start
    finally:
        holder.rollback()
        holder.close()
    assert str(refused.value) == (
        "nothing was saved: another notebook or program kept the file busy for 0.3 s; "
        "wait until it is done, or close it there, and try again"
    )
    assert 0.25 <= waited < 3, f"waited {waited:.2f} s for a file said to wait 0.3 s"
    assert event.players() == {}
    event.register(1, "Ada")  # once the file is free, the same change goes in
    assert event.players() == {1: ("Ada", None)}
    event.close()


# -- files of every earlier version ------------------------------------------------------------


VERSIONS = Path(__file__).parent / "data" / "competition_versions"


def _rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of the competition file (read-only), by table."""
    db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(db.execute(f"SELECT * FROM {n}").fetchall()) for n in names}
    finally:
        db.close()


def test_every_version_of_the_file_has_its_fixture():
    # A new version (SCHEMA_VERSION 3) needs a file of version 2 here, written by version 2's code.
    assert sorted(p.name for p in VERSIONS.glob("*.sqlite")) == [
        f"v{n}.sqlite" for n in range(database.SCHEMA_VERSION + 1)
    ]


@pytest.mark.parametrize("version", range(database.SCHEMA_VERSION + 1))
def test_a_file_written_by_each_earlier_version_opens_with_its_play_and_a_copy_kept(tmp_path, version):
    """Each file was written by that version's own code (tests/data/competition_versions/make_files.py).

    Version 0 (2026-11-23, 24: no version written, no table of absences) was refused as
    "damaged: its tables absences are missing" before issue 36: every copy a teacher had too.
    """
    path = tmp_path / "class.sqlite"
    shutil.copyfile(VERSIONS / f"v{version}.sqlite", path)
    before = _rows(path)
    with Competition(path) as event:
        assert event.players() == {
            1: ("Ada", "A"), 2: ("Ben", "A"), 3: ("Cleo", "A"),
            4: ("Dev", "B"), 5: ("Eli", "B"), 6: ("Fay", "B"),
        }  # fmt: skip
        assert [(row.name, row.total) for row in event.standings()] == [
            ("Dev", 6), ("Ada", 5), ("Ben", 3), ("Cleo", 3), ("Eli", 2), ("Fay", 2)
        ]  # fmt: skip
        assert event.absences() == ({(2, 5): "absent"} if version == 2 else {})
        actions = [action for _, _, action, _ in event.history()]
        assert actions[:9] == ["register"] * 6 + ["plan", "record", "record"]
        assert "correct" in actions
        event.absent(3, 4)  # the upgraded file takes this version's changes
    kept = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".bak"))
    after = _rows(path)
    if version < 2:
        assert kept == [f"class.sqlite.v{version}.bak"]
        # The copy is the teacher's file as it was, row for row.
        assert _rows(tmp_path / kept[0]) == before
        upgrade = json.loads(after["history"][-2][3])
        assert after["history"][-2][2] == "upgrade"
        assert upgrade == {"copy": f"class.sqlite.v{version}.bak", "from": version, "to": 2}
    else:
        assert kept == []
    assert ("schema", "2") in after["settings"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (2,)
    assert db.execute("PRAGMA application_id").fetchone() == (database.APPLICATION_ID,)
    db.close()
    # Opened again: nothing more to upgrade, and no second copy.
    Competition(path).close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".bak")) == kept


def test_a_copy_kept_before_an_upgrade_never_replaces_another(tmp_path):
    path = tmp_path / "class.sqlite"
    shutil.copyfile(VERSIONS / "v0.sqlite", path)
    (tmp_path / "class.sqlite.v0.bak").write_text("the teacher's own copy\n")
    Competition(path).close()
    assert (tmp_path / "class.sqlite.v0.bak").read_text() == "the teacher's own copy\n"
    assert _rows(tmp_path / "class.sqlite.v0.2.bak") == _rows(VERSIONS / "v0.sqlite")


@pytest.mark.parametrize(
    ("pragma", "words"),
    [
        (
            "user_version = 3",
            "was written by another version of setwidgets (file version '3', this one reads 2)",
        ),
        ("application_id = 1234", "is another program's database (its application id is 1234)"),
    ],
)
def test_a_newer_or_foreign_file_is_refused_and_left_as_it_was(tmp_path, pragma, words):
    path = tmp_path / "class.sqlite"
    with Competition(path) as event:
        _six_players(event)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA {pragma}")
    db.close()
    before = path.read_bytes()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value).startswith(f"{path_text(path)} {words}")
    assert path.read_bytes() == before


def test_tables_declared_otherwise_and_objects_of_another_program_are_refused_on_open(tmp_path):
    """Issue 36: each opened; a column more failed every change later ("table players has 4
    columns but 3 values were supplied"), a trigger deleted each score as it was recorded."""
    made = tmp_path / "made.sqlite"
    with Competition(made) as event:
        _six_players(event)
    for change, words in [
        (
            "ALTER TABLE players ADD COLUMN age INTEGER",
            "is damaged: its table players has a column age that no competition has; "
            "open a copy saved earlier",
        ),
        (
            "CREATE TABLE s2 AS SELECT * FROM seats; DROP TABLE seats; "
            "CREATE TABLE seats (round INTEGER, tableno INTEGER, player INTEGER)",
            "is another program's database (it holds the tables s2)",
        ),
        (
            "DROP TABLE seats; CREATE TABLE seats (round INTEGER, tableno INTEGER, player INTEGER)",
            "is damaged: its table seats has keys or constraints that no competition has; "
            "open a copy saved earlier",
        ),
        (
            "CREATE TRIGGER gone AFTER INSERT ON scores BEGIN DELETE FROM scores; END",
            "is another program's database (it holds the trigger 'gone'): "
            "a competition needs a file of its own",
        ),
        (
            "CREATE INDEX by_name ON players (name)",
            "is another program's database (it holds the index 'by_name')",
        ),
        ("CREATE VIEW best AS SELECT 1", "is another program's database (it holds the view 'best')"),
    ]:
        path = tmp_path / "class.sqlite"
        shutil.copyfile(made, path)
        db = sqlite3.connect(path)
        db.executescript(change)
        db.close()
        before = path.read_bytes()
        with pytest.raises(CompetitionError) as refused:
            Competition(path)
        assert str(refused.value).startswith(f"{path_text(path)} {words}"), change
        assert path.read_bytes() == before
        path.unlink()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            ["ALTER TABLE players DROP COLUMN division"],
            "is damaged: its table players has no column division; open a copy saved earlier",
        ),
        (
            ["UPDATE history SET details = 'not JSON' WHERE id = 2"],
            "is damaged: its table history holds a change's details (not a JSON object) that no "
            "competition has (id '2'); open a copy saved earlier",
        ),
        (
            ["UPDATE history SET details = '[1]' WHERE id = 2"],  # JSON, but no change's details
            "is damaged: its table history holds a change's details (not a JSON object) that no "
            "competition has (id '2'); open a copy saved earlier",
        ),
        (
            ["UPDATE players SET division = 'Z' WHERE number = 3"],
            "is damaged: its table players holds a player's number, name or division that no competition "
            "has (number '3'); open a copy saved earlier",
        ),
        (
            ["UPDATE settings SET value = 'two' WHERE key = 'tables'"],
            "is damaged: its table settings holds the number of tables that no competition has "
            "(key 'tables'); open a copy saved earlier",
        ),
    ],
)
def test_contents_no_competition_has_are_refused_on_open_in_a_sentence(tmp_path, change, words):
    """Before issue 36 each opened, then failed every call ("no such column", a JSONDecodeError)."""
    path = tmp_path / "class.sqlite"
    with Competition(path) as event:
        _six_players(event)
        event.plan(2)
    db = sqlite3.connect(path)
    for statement in change:
        db.execute(statement)
    db.commit()
    db.close()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == f"{path_text(path)} {words}"


# -- read-only copies, as a user who cannot write them -----------------------------------------


def _as_a_user_who_cannot_write(script: str, folder: Path) -> str:
    """Run ``script`` in a Python that cannot write ``folder`` or its files; what it printed.

    As root, permissions stop nothing: the script runs as nobody (uid 65534) instead.
    """
    folder.chmod(0o555)
    for file in folder.iterdir():
        file.chmod(0o444)
    options: dict = {}
    if os.geteuid() == 0:
        options = {"user": 65534, "group": 65534, "extra_groups": []}
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(root), "HOME": str(folder)},
        timeout=60,
        **options,
    )
    folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def open_folder():
    """A folder another user may enter (pytest's own are the owner's only)."""
    folder = Path(tempfile.mkdtemp(prefix="setwidgets-ro-"))
    folder.chmod(0o755)
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(folder)


def test_a_file_that_cannot_be_written_opens_read_only_for_the_standings(open_folder):
    """A copy on a USB stick: before issue 36 it was refused outright."""
    path = open_folder / "class.sqlite"
    with Competition(path) as event:
        _six_players(event)
        event.plan(2)
        event.record(1, 1, {1: 5, 2: 3, 3: 4})
    before = path.read_bytes()
    printed = _as_a_user_who_cannot_write(
        """
        from setwidgets.competition import Competition, CompetitionError
        event = Competition("class.sqlite")
        print([(row.name, row.total) for row in event.standings()][:3])
        try:
            event.record(1, 2, {4: 1, 5: 1, 6: 1})
        except CompetitionError as refused:
            print(refused)
        """,
        open_folder,
    )
    assert printed.splitlines() == [
        "[('Ada', 5), ('Cleo', 4), ('Ben', 3)]",
        "nothing was saved: the file cannot be written (it is read-only); copy it somewhere you can write",
    ]
    assert path.read_bytes() == before
    assert sorted(p.name for p in open_folder.iterdir()) == ["class.sqlite"]


def test_a_file_and_its_log_in_a_folder_that_cannot_be_written_are_refused_in_a_sentence(
    open_folder, tmp_path
):
    """SQLite must write the -shm to read a file with its log: it said 'unable to open database file'."""
    event = Competition(tmp_path / "class.sqlite")
    _six_players(event)  # in the log, not yet in the file: the notebook is still open
    for name in ("class.sqlite", "class.sqlite-wal"):
        shutil.copy2(tmp_path / name, open_folder / name)
    event.close()
    printed = _as_a_user_who_cannot_write(
        """
        from setwidgets.competition import Competition, CompetitionError
        try:
            Competition("class.sqlite")
        except CompetitionError as refused:
            print(refused)
        """,
        open_folder,
    )
    assert printed == (
        "'class.sqlite' cannot be read where it is: its log of changes 'class.sqlite-wal' lies beside "
        "it, and SQLite must write 'class.sqlite-shm' to read the two, in a folder that cannot be "
        "written; copy the file and its log to a folder you can write\n"
    )
    assert sorted(p.name for p in open_folder.iterdir()) == ["class.sqlite", "class.sqlite-wal"]


def test_a_file_of_an_earlier_version_that_cannot_be_written_shows_its_standings_unchanged(open_folder):
    shutil.copyfile(VERSIONS / "v0.sqlite", open_folder / "class.sqlite")
    printed = _as_a_user_who_cannot_write(
        """
        from setwidgets.competition import Competition
        event = Competition("class.sqlite")
        print([(row.name, row.total) for row in event.standings()][:2], event.absences())
        """,
        open_folder,
    )
    assert printed == "[('Dev', 6), ('Ada', 5)] {}\n"
    assert (open_folder / "class.sqlite").read_bytes() == (VERSIONS / "v0.sqlite").read_bytes()


def test_a_new_file_in_a_folder_that_cannot_be_written_is_refused_in_a_sentence(open_folder):
    printed = _as_a_user_who_cannot_write(
        """
        from setwidgets.competition import Competition, CompetitionError
        try:
            Competition("new.sqlite")
        except CompetitionError as refused:
            print(refused)
        """,
        open_folder,
    )
    assert printed == (
        "the folder of 'new.sqlite' cannot be written (it is read-only), so no new competition "
        "can be made there; choose a folder you can write\n"
    )


# -- a backup put back while a stopped notebook's log lies beside the file ---------------------

_KILLED_WRITER = """
import os, signal, sys
from setwidgets.competition import Competition
event = Competition(sys.argv[1])
if sys.argv[2] == "checkpoint":
    event._db.execute("PRAGMA wal_autocheckpoint = 1")  # SQLite copies its log into the file
for table in (1, 2):
    event.record(2, table, {p: 1 for p in event.table(2, table)})
os.kill(os.getpid(), signal.SIGKILL)  # stopped as a notebook's kernel is: nothing closed
"""


def _stopped_after_round_2(path: Path, how: str = "") -> None:
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, str(path), how],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr


def _round_1_saved(path: Path) -> None:
    with Competition(path) as event:
        _six_players(event)
        event.plan(2, seed=1)
        event.record(1, 1, {1: 5, 2: 3, 3: 4})
        event.record(1, 2, {4: 2, 5: 2, 6: 2})


@pytest.mark.parametrize("how", ["", "checkpoint"])
def test_a_backup_put_back_beside_a_stopped_notebooks_log_is_refused_not_mixed(tmp_path, how):
    """Issue 36: the backup of round 1 reopened with round 2's scores from the log, integrity 'ok'.

    With "checkpoint", SQLite had copied the log into the file before the notebook stopped:
    the -shm says so, but the backup's pages are not the log's.
    """
    path, backup = tmp_path / "class.sqlite", tmp_path / "backup.sqlite"
    _round_1_saved(path)
    shutil.copyfile(path, backup)
    _stopped_after_round_2(path, how)
    log = tmp_path / "class.sqlite-wal"
    assert log.stat().st_size > 32  # the stopped notebook's changes, not yet in the file
    time.sleep(0.05)
    shutil.copyfile(backup, path)  # the teacher puts the backup back
    held = log.read_bytes()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} was replaced after its log of changes 'class.sqlite-wal' was last written, "
        "so the log belongs to another state of it and is not used; if you copied a saved copy over "
        "it, delete 'class.sqlite-wal' and 'class.sqlite-shm', then open it again; if you copied the "
        "file with its log, copy them again keeping their times (cp -p)"
    )
    assert path.read_bytes() == backup.read_bytes() and log.read_bytes() == held
    # Doing as told opens the backup as it was: round 1 only.
    log.unlink()
    (tmp_path / "class.sqlite-shm").unlink()
    with Competition(path) as event:
        assert len(event.scores()) == 6


@pytest.mark.parametrize("how", ["", "checkpoint"])
def test_a_stopped_notebooks_log_beside_its_own_file_is_replayed(tmp_path, how):
    """No false alarm: the file as the stopped notebook left it opens with all its scores.

    With "checkpoint", SQLite copied the log into the file after each change, so the file
    changed after the log was written: its pages are the log's, as the -shm says.
    """
    path = tmp_path / "class.sqlite"
    _round_1_saved(path)
    _stopped_after_round_2(path, how)
    assert (tmp_path / "class.sqlite-wal").stat().st_size > 32
    time.sleep(0.05)
    with Competition(path) as event:
        assert len(event.scores()) == 12


def test_a_stopped_notebooks_file_copied_with_its_log_keeping_times_opens_whole(tmp_path):
    """Issue 36: a folder copied as it was (cp -a, shutil.copytree) was refused as a backup put back.

    A copy that keeps times makes the file look changed after its log was written, in whichever
    order the two are copied; a backup put back the same way (cp -p) beside a log that stayed
    is still refused.
    """
    source = tmp_path / "notebook"
    source.mkdir()
    path = source / "class.sqlite"
    _round_1_saved(path)
    shutil.copyfile(path, tmp_path / "backup.sqlite")
    _stopped_after_round_2(path)
    assert (source / "class.sqlite-wal").stat().st_size > 32
    time.sleep(0.05)
    names = ["class.sqlite", "class.sqlite-shm", "class.sqlite-wal"]
    for label, order in [("file first", names), ("log first", names[::-1])]:
        copy = tmp_path / label
        copy.mkdir()
        for name in order:
            shutil.copy2(source / name, copy / name)
        with Competition(copy / "class.sqlite") as event:
            assert len(event.scores()) == 12, label
    shutil.copytree(source, tmp_path / "tree")
    with Competition(tmp_path / "tree" / "class.sqlite") as event:
        assert len(event.scores()) == 12
    # The backup put back keeping its times, beside the log that stayed: refused, left as it was.
    shutil.copy2(tmp_path / "backup.sqlite", path)
    with pytest.raises(CompetitionError, match="was replaced after its log of changes 'class.sqlite-wal'"):
        Competition(path)
    assert path.read_bytes() == (tmp_path / "backup.sqlite").read_bytes()


def test_an_upgrade_stopped_half_way_leaves_the_file_as_it_was_and_is_done_again(tmp_path, monkeypatch):
    path = tmp_path / "class.sqlite"
    shutil.copyfile(VERSIONS / "v0.sqlite", path)
    made = database._create

    def disk_fails_at_settings(table):
        if table == "history":  # the last table: absences is made by then
            raise sqlite3.OperationalError("disk I/O error")
        return made(table)

    monkeypatch.setattr(database, "_create", disk_fails_at_settings)
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == f"{path_text(path)} cannot be opened: SQLite says 'disk I/O error'"
    assert _rows(path) == _rows(VERSIONS / "v0.sqlite")  # no absences table, no version: as it was
    monkeypatch.setattr(database, "_create", made)
    with Competition(path) as event:
        assert event.absences() == {} and len(event.players()) == 6
    assert [action for _, _, action, _ in event_history(path)][-1] == "upgrade"


def event_history(path: Path) -> list:
    with Competition(path) as event:
        return event.history()
