"""Files of every earlier version open today: saved games and class rooms (issue 36).

Each fixture in tests/data/versions/ was written by the code of the commit in its name
(make_game.py and make_rooms.py there say how); a new form of a file needs a fixture here.
The competition's files have their own: tests/test_competition_file.py.

- Saved games (``Game.to_json``) have had one version, 1, since the first commit that saved
  one (4be366f, 2026-11-22); its writers differ in a message's words and the order of fields
  (4be366f, d813941, 7d73c74: one file of each).
- Class rooms: a store file of version 0 (no ``application_id``, 2026-11-26) and of version 1,
  holding rooms saved in each form: form 1 without and with the pause fields (d637546,
  f482eb6), form 2 (``folded``: 26068f5; in a stamped file: ec342ec), form 2 with ``locked``
  (826b3a9, today's).
- Practice records (:class:`setwidgets.puzzles.PracticeRecord`) are kept in memory only: the
  project writes no file of them, so there is no format to keep.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from setwidgets import puzzles
from setwidgets.classroom import rooms, store
from setwidgets.classroom.rooms import FORMAT, Room
from setwidgets.classroom.store import APPLICATION_ID, SCHEMA_VERSION, Store
from setwidgets.game import Game, GameError, save
from setwidgets.rules import is_set

DATA = Path(__file__).parent / "data" / "versions"
GAMES = sorted(DATA.glob("game-*.json"))
ROOM_FILES = sorted(DATA.glob("rooms-*.sqlite"))


def test_every_version_has_its_file():
    assert [p.stem for p in GAMES] == ["game-4be366f", "game-7d73c74", "game-d813941"]
    assert [p.stem.split("-")[1] for p in ROOM_FILES] == [
        "26068f5",
        "826b3a9",
        "d637546",
        "ec342ec",
        "f482eb6",
    ]
    # A new version of either format needs its file here (and its reading in the loader).
    assert save.VERSION == 1 and SCHEMA_VERSION == 1 and FORMAT == "setwidgets-room/2"
    # Practice records are kept in memory: nothing of them is written, so nothing to version.
    assert not any(hasattr(puzzles.PracticeRecord, name) for name in ("to_json", "save", "to_data", "dump"))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_saved_game_of_every_version_loads_and_plays_on(path):
    text = path.read_text()
    assert json.loads(text)["version"] == 1
    clock = [500.0]
    game = Game.from_json(text, clock=lambda: clock[0])
    assert game.scores == {"Ana": 1, "Ben": -1}
    # Saved at 107 s with Ana's call of 105 s pending: 3 of her 5 seconds left, on any clock.
    assert game.time_left() == 3.0
    chosen = game.sets_on_table()[0]
    assert game.claim(list(chosen), "Ana").ok and game.scores == {"Ana": 2, "Ben": -1}
    # Saved again today, it loads as itself.
    again = Game.from_json(game.to_json(), clock=lambda: clock[0])
    assert again.to_json() == game.to_json()


def test_a_saved_game_of_a_later_version_is_refused_in_a_sentence():
    data = json.loads(GAMES[0].read_text())
    data["version"] = 2
    with pytest.raises(GameError, match=r"^saved game version 2 is not supported \(expected 1\)$"):
        Game.from_json(json.dumps(data))


def _pragmas(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA application_id").fetchone()[0], db.execute(
            "PRAGMA user_version"
        ).fetchone()[0]
    finally:
        db.close()


def _rows(path: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT code, data FROM setwidgets_rooms ORDER BY code").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("fixture", ROOM_FILES, ids=lambda p: p.stem)
def test_a_class_room_file_of_every_version_opens_upgraded_with_the_teachers_copy(fixture, tmp_path):
    path = tmp_path / "rooms.sqlite"
    shutil.copyfile(fixture, path)
    before, rows = _pragmas(path), _rows(path)
    forms = {json.loads(data)["format"] for _, data in rows}
    assert forms <= {"setwidgets-room/1", FORMAT}
    db = Store(f"sqlite:///{path}")
    try:
        loaded = db.load()
        assert db.set_aside == {}
        assert sorted(loaded) == ["BCDFG", "HJKLM", "NPQRS", "TVWXZ"]
        assert loaded["BCDFG"].status == "waiting" and loaded["BCDFG"].game is None
        played = loaded["HJKLM"]
        assert played.game.scores == {"Ana": 1, "Ben": -1}
        assert [played.game.players[c.player].name for c in played.game._state.callers] == ["Ben"]
        assert played.members["Ben"].team == "Reds" and played.members["Ben"].last_n == 3
        assert db.seat("token-ana") == ("HJKLM", "Ana")
        paused = loaded["NPQRS"]
        assert (paused.variant, paused.deck) == ("competition", "mini")
        # A pause of the first form kept no time: it begins as the room is loaded.
        assert paused.status == "paused" and paused.paused_at is not None
        assert loaded["TVWXZ"].status == "ended"
        # The room plays on, and is written in today's form.
        a, b, c = played.game.sets_on_table()[0]
        assert is_set([a, b, c])
        assert played.teach({"n": played.teacher_n + 1, "type": "scores", "shown": False})["ok"]
        db.save(played)
    finally:
        db.close()
    assert _pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)
    assert dict(_rows(path))["HJKLM"].startswith('{"format": "setwidgets-room/2"')
    if before == (0, 0):
        # Version 0 was upgraded: the teacher's copy is beside it, row for row as it was.
        assert db.kept == tmp_path / "rooms.sqlite.v0.bak"
        assert _pragmas(db.kept) == (0, 0) and _rows(db.kept) == rows
        assert not Path(f"{db.kept}-wal").exists()
    else:
        assert before == (APPLICATION_ID, 1) and db.kept is None
        assert not list(tmp_path.glob("*.bak"))
    # Opened again, nothing more is upgraded or copied.
    again = Store(f"sqlite:///{path}")
    try:
        assert again.kept is None and sorted(again.load()) == ["BCDFG", "HJKLM", "NPQRS", "TVWXZ"]
    finally:
        again.close()
    assert len(list(tmp_path.glob("*.bak"))) == (before == (0, 0))


@pytest.mark.parametrize(
    ("change", "held"),
    [
        # It opened, and the trigger deleted every room at the next save.
        (
            "CREATE TRIGGER gone AFTER UPDATE ON setwidgets_rooms BEGIN DELETE FROM setwidgets_rooms; END",
            "the trigger 'gone'",
        ),
        ("CREATE VIEW v AS SELECT 1", "the view 'v'"),
        ("CREATE INDEX by_time ON setwidgets_rooms (updated)", "the index 'by_time'"),
    ],
)
def test_a_room_store_holding_another_programs_objects_is_refused_and_left_as_it_was(tmp_path, change, held):
    path = tmp_path / "rooms.sqlite"
    shutil.copyfile(DATA / "rooms-826b3a9.sqlite", path)
    db = sqlite3.connect(path)
    db.execute(change)
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(
        store.StoreError, match=f"is another program's database \\(it holds {re.escape(held)}\\); "
    ):
        Store(f"sqlite:///{path}")
    assert path.read_bytes() == before


def test_a_second_upgrade_keeps_the_first_copy(tmp_path):
    path = tmp_path / "rooms.sqlite"
    shutil.copyfile(DATA / "rooms-d637546.sqlite", path)
    (tmp_path / "rooms.sqlite.v0.bak").write_bytes(b"an older copy the teacher kept")
    db = Store(f"sqlite:///{path}")
    db.close()
    assert db.kept == tmp_path / "rooms.sqlite.v0.2.bak"
    assert (tmp_path / "rooms.sqlite.v0.bak").read_bytes() == b"an older copy the teacher kept"


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (lambda d: d.update(colour="red"), "it has a field 'colour' that a saved room of its form does not"),
        (lambda d: d.pop("status"), "the field 'status' is missing"),
        (lambda d: d.update(format="setwidgets-room/1", locked=False), "it has a field 'locked'"),
        (lambda d: d.update(last=None), "last must be the latest move told"),
        (lambda d: d.update(last={"type": "join", "message": "x", "version": 7}), "the room's version"),
        (lambda d: d.update(version=2**60), "version must be at most 2**53"),
        (lambda d: d["members"].append(["ana", "", False, 0]), "'ana' is a member twice, or alike"),
        (lambda d: d["members"].append(["Ana", "", False]), "a member is [name, team, removed, last_n]"),
        (lambda d: d["members"][0].__setitem__(2, "false"), "a member is [name, team, removed, last_n]"),
        (lambda d: d.update(seed=10**50), "seed must be a whole number below 2**128"),
        (lambda d: d.update(seed=-1), "seed must be at least 0"),
    ],
)
def test_a_saved_room_whose_fields_disagree_is_refused_in_a_sentence(tamper, words):
    t = [1000.0]
    room = Room("BCDFG", seed=4, clock=lambda: t[0])
    room.join("Ana")
    data = json.loads(json.dumps(room.to_data()))
    assert Room.from_data(data, room.clock).to_data() == data
    tamper(data)
    with pytest.raises(rooms.RoomError, match=r"^the saved room 'BCDFG' is damaged: .*" + re.escape(words)):
        Room.from_data(data, room.clock)


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        # Loaded, its game's clock stood still while the room was in play: no claim ran out.
        (lambda d: d.update(paused_at=900.0), "it holds the time a pause began but is open, not paused"),
        # Loaded, every move was refused: the game's clock read beyond what a game counts.
        (lambda d: d.update(paused_for=1e300), "paused_for must be a time in seconds from 0 to 2**40"),
    ],
)
def test_a_saved_rooms_pause_that_disagrees_with_its_status_or_clock_is_refused(tamper, words):
    t = [1000.0]
    room = Room("BCDFG", seed=4, clock=lambda: t[0])
    room.join("Ana")
    room.join("Ben")
    assert room.status == "open" and room.game is not None
    data = json.loads(json.dumps(room.to_data()))
    tamper(data)
    with pytest.raises(rooms.RoomError, match=r"^the saved room '?BCDFG'? is damaged: " + re.escape(words)):
        Room.from_data(data, room.clock)


def test_a_room_seed_that_could_not_be_saved_is_refused_where_it_enters():
    with pytest.raises(
        rooms.RoomError, match=r"^seed must be a whole number below 2\*\*128 \(39 digits\); got "
    ):
        Room("BCDFG", seed=10**5000)
    with pytest.raises(TypeError, match="^seed must be a whole number"):
        Room("BCDFG", seed=random.Random(1))
    room = Room("BCDFG", seed=2**128 - 1)
    assert Room.from_data(json.loads(json.dumps(room.to_data()))).seed == 2**128 - 1


def test_the_store_module_names_its_copy_in_its_help():
    assert "rooms.sqlite.v0.bak" in store.__doc__


# -- JSON read from a file: a sentence, never a raw JSONDecodeError ---------------------------


@pytest.mark.parametrize("details", ["not json", "[1]", "{", '"a"'])
def test_a_history_changed_since_opening_is_told_in_a_sentence(tmp_path, details):
    from setwidgets.competition import Competition, CompetitionError

    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        event.register(1, "Ada")
        db = sqlite3.connect(path)
        db.execute("UPDATE history SET details = ? WHERE id = 1", (details,))
        db.commit()
        db.close()
        with pytest.raises(
            CompetitionError, match=r"is damaged: change 1 of its history holds .*open a copy"
        ):
            event.history()
    # Opened again, the file is refused on opening, also in a sentence.
    with pytest.raises(
        CompetitionError, match=r"is damaged: its table history holds a change's details \(not a JSON"
    ):
        Competition(path)


def test_a_number_of_tables_changed_since_opening_is_told_in_a_sentence(tmp_path):
    from setwidgets.competition import Competition, CompetitionError

    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
            event.register(number, name)
        event.plan(1, seed=1)
        for value, change in [
            ("two", "UPDATE settings SET value = 'two' WHERE key = 'tables'"),
            (None, "DELETE FROM settings WHERE key = 'tables'"),
        ]:
            db = sqlite3.connect(path)
            db.execute(change)
            db.commit()
            db.close()
            # Before: a raw "invalid literal for int()" or a TypeError from schedule().
            with pytest.raises(
                CompetitionError,
                match=rf"is damaged: its settings hold {value!r} as the number of tables; open a copy",
            ):
                event.schedule()


def test_a_room_row_that_is_not_json_is_set_aside_with_a_sentence(tmp_path):
    path = tmp_path / "rooms.sqlite"
    shutil.copyfile(DATA / "rooms-826b3a9.sqlite", path)
    db = sqlite3.connect(path)
    db.execute("UPDATE setwidgets_rooms SET data = '{not json' WHERE code = 'BCDFG'")
    db.commit()
    db.close()
    opened = Store(f"sqlite:///{path}")
    try:
        assert sorted(opened.load()) == ["HJKLM", "NPQRS", "TVWXZ"]
        assert opened.set_aside["BCDFG"].endswith(
            "cannot be loaded and was set aside (left in the file as it is; the other rooms open): "
            "its row is not JSON (Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1))"
        )
    finally:
        opened.close()
