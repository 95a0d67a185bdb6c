"""The competition's file, word for word: what a refused file is told, how long a busy one waits.

tests/test_competition.py plays whole competitions in such files; here each refusal and
remedy of setwidgets.competition.database is checked as the coordinator reads it.
"""

from __future__ import annotations

import re
import sqlite3
import time

import pytest

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
        re.escape(repr(str(path))) + r" is damaged \(SQLite finds '\*\*\* in database main \*\*\*.+'"
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
        f"{str(path)!r} is damaged: its tables settings are missing; open a copy saved earlier"
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
