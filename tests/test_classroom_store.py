"""The room service's store (setwidgets.classroom.store): a database that refuses instead of losing.

The first part opens real SQLite files in every state a teacher's folder can leave them in:
new, of the first version, empty, overwritten, cut short, another program's, held by another
service. The second part runs the real service (``course.py classroom``) on a database that
fails under it (held by another program, or on a small disk that fills up) and kills it with
SIGKILL: a move is answered "done" only once it is saved, and nothing answered is lost.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import classroom_service
import pytest
import sqlalchemy as sa

from setwidgets import as_cards, find_sets
from setwidgets._inputs import path_text
from setwidgets.classroom import Desk, Seat
from setwidgets.classroom.rooms import Room
from setwidgets.classroom.store import _META, APPLICATION_ID, SCHEMA_VERSION, Store, StoreError

ROOT = Path(__file__).resolve().parents[1]


def pragmas(path: Path) -> tuple[int, int]:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA application_id").fetchone()[0], db.execute(
            "PRAGMA user_version"
        ).fetchone()[0]


def tables(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def room_with(code: str, *names: str, seed: int = 4) -> Room:
    room = Room(code, seed=seed)
    for name in names:
        room.join(name)
    return room


def a_set(view: dict) -> list[str]:
    return [c.code for c in find_sets(as_cards(view["table"]))[0]]


# -- a file of our own ---------------------------------------------------------------------------------


def test_a_new_file_says_it_is_the_room_services_and_keeps_its_rooms(tmp_path):
    path = tmp_path / "rooms.sqlite"
    store = Store(url(path))
    store.save(room_with("BCDFG", "Ana", "Ben"))
    store.close()
    assert pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)
    store = Store(url(path))
    try:
        assert list(store.load()) == ["BCDFG"] and store.set_aside == {}
        assert store.saved("BCDFG")["members"][0][0] == "Ana"
    finally:
        store.close()


def test_a_file_of_the_first_version_is_taken_on_and_stamped(tmp_path):
    # The first version made our two tables and nothing else, with no application_id.
    path = tmp_path / "rooms.sqlite"
    engine = sa.create_engine(url(path))
    _META.create_all(engine)
    old = room_with("BCDFG", "Ana").to_data()
    del old["folded"], old["locked"]  # form 1 had neither
    old["format"] = "setwidgets-room/1"
    with engine.begin() as db:
        db.exec_driver_sql(
            "INSERT INTO setwidgets_rooms VALUES (?, ?, ?)", ("BCDFG", json.dumps(old), time.time())
        )
    engine.dispose()
    assert pragmas(path) == (0, 0)
    store = Store(url(path))
    try:
        assert list(store.load()) == ["BCDFG"]
    finally:
        store.close()
    assert pragmas(path) == (APPLICATION_ID, SCHEMA_VERSION)


def _sqlite(statements: str):
    def make(path: Path) -> None:
        db = sqlite3.connect(path)
        db.executescript(statements)
        db.commit()
        db.close()

    return make


def _cut_short(path: Path) -> None:
    store = Store(url(path))
    for i, code in enumerate(["BCDFG", "HJKLM", "NPQRS", "TVWXZ"]):
        store.save(room_with(code, "Ana", "Ben", seed=i))
    store.close()
    # The write-ahead log is folded into the file when the last connection closes.
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


REFUSED = [
    ("empty", lambda p: p.write_bytes(b""), "is empty (0 bytes), so its rooms are gone"),
    (
        "garbage",
        lambda p: p.write_bytes(b"these are my notes, not a database\n" * 10),
        "is not a database of the room service (not even SQLite",
    ),
    (
        "another program's tables",
        _sqlite("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');"),
        "is another program's database (it holds the tables notes)",
    ),
    (
        "another program's id",
        _sqlite("PRAGMA application_id = 1234; CREATE TABLE setwidgets_rooms (x);"),
        "is another program's database (its application_id is 0x4d2)",
    ),
    (
        "no tables, not ours",
        _sqlite("CREATE TABLE t (x); DROP TABLE t;"),
        "an SQLite file with no tables that the room service did not make",
    ),
    (
        "our table's name in another shape",
        _sqlite("CREATE TABLE setwidgets_rooms (id INTEGER PRIMARY KEY, body TEXT);"),
        "has a table setwidgets_rooms of another shape (its columns are id and body, where the room "
        "service keeps code, data and updated)",
    ),
    (
        "a newer version",
        _sqlite(f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION + 1};"),
        f"was written by a newer version of setwidgets (schema {SCHEMA_VERSION + 1}, this one reads",
    ),
    (
        "ours, a table missing",
        _sqlite(
            f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
            "CREATE TABLE setwidgets_seats (token_hash, code, name);"
        ),
        "is damaged: its tables setwidgets_rooms are missing",
    ),
    ("cut short", _cut_short, "the file is damaged (cut short or overwritten)"),
]


@pytest.mark.parametrize(("make", "words"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_a_file_that_is_not_the_room_services_is_refused_with_a_sentence_and_left_as_it_was(
    tmp_path, make, words
):
    path = tmp_path / "rooms.sqlite"
    make(path)
    before = digest(path)
    with pytest.raises(StoreError) as refused:
        Store(url(path))
    assert words in str(refused.value), str(refused.value)
    assert "Traceback" not in str(refused.value) and "sqlalchemy" not in str(refused.value).lower()
    assert digest(path) == before  # nothing added to it, not even our tables
    # The lock was let go: once the file is moved away, a service starts on that name.
    path.rename(tmp_path / "moved-away.sqlite")
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    Store(url(path)).close()


def test_a_folder_or_a_missing_folder_is_refused_with_a_sentence(tmp_path):
    with pytest.raises(StoreError, match="is a folder; give --db a file name inside it"):
        Store(url(tmp_path))
    with pytest.raises(StoreError, match="the folder of .* does not exist; make it"):
        Store(url(tmp_path / "nowhere" / "rooms.sqlite"))


def test_a_second_store_on_one_file_is_refused_with_the_holders_process(tmp_path):
    path = tmp_path / "rooms.sqlite"
    first = Store(url(path))
    with pytest.raises(StoreError) as refused:
        Store(url(path))
    assert f"another classroom service (process {os.getpid()}) uses" in str(refused.value)
    first.close()
    Store(url(path)).close()  # once let go, the file opens again


def test_a_damaged_room_is_set_aside_and_the_others_open(tmp_path):
    path = tmp_path / "rooms.sqlite"
    store = Store(url(path))
    for code in ("BCDFG", "HJKLM", "NPQRS"):
        store.save(room_with(code, "Ana", "Ben"))
    store.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE setwidgets_rooms SET data = '{\"format\": \"setwidgets-room/2\"' WHERE code = 'BCDFG'"
        )
        moved = json.loads(db.execute("SELECT data FROM setwidgets_rooms WHERE code = 'NPQRS'").fetchone()[0])
        moved["code"] = "ZZZZZ"
        db.execute("UPDATE setwidgets_rooms SET data = ? WHERE code = 'NPQRS'", (json.dumps(moved),))
    before = digest(path)
    store = Store(url(path))
    try:
        assert list(store.load()) == ["HJKLM"]
        assert sorted(store.set_aside) == ["BCDFG", "NPQRS"]
        assert "room 'BCDFG' in" in store.set_aside["BCDFG"]
        assert "cannot be loaded and was set aside (left in the file as it is" in store.set_aside["BCDFG"]
        assert "its row holds room 'ZZZZZ'" in store.set_aside["NPQRS"]
        # Its code is taken by nobody: a new room under it would overwrite what is left of it.
        with pytest.raises(StoreError, match="room BCDFG was set aside when the service started"):
            store.save(room_with("BCDFG", "Cleo"))
    finally:
        store.close()
    assert digest(path) == before


def test_a_save_the_database_refuses_raises_a_sentence_and_keeps_the_last_committed_room(tmp_path):
    path = tmp_path / "rooms.sqlite"
    store = Store(url(path))
    room = room_with("BCDFG", "Ana", "Ben")
    store.save(room)
    committed = store.saved("BCDFG")
    # Another program holds the file (a database browser in the middle of a change).
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        room.join("Cleo")
        with pytest.raises(StoreError, match="could not save room BCDFG in .*: another program kept"):
            store.save(room, ("a-token", "Cleo"))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.saved("BCDFG") == committed
    assert store.seat("a-token") is None  # the seat went with the room: neither was written
    room.restore(store.saved("BCDFG"))
    assert list(room.members) == ["Ana", "Ben"]
    store.close()
    again = Store(url(path))
    try:
        assert again.load()["BCDFG"].to_data() == committed
    finally:
        again.close()


# -- the real service ---------------------------------------------------------------------------------------


def run_service(
    home: Path, *options: str, prefix: tuple[str, ...] = (), timeout: float = 60
) -> subprocess.CompletedProcess:
    """``course.py classroom`` as a teacher runs it, expected to stop by itself (a refusal)."""
    env = {**os.environ, "SETWIDGETS_CLASSROOM_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [
            *prefix,
            sys.executable,
            str(ROOT / "course.py"),
            "classroom",
            "--port",
            str(classroom_service.free_port()),
            *options,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: p.write_bytes(b""), "is empty (0 bytes), so its rooms are gone"),
        (
            _sqlite("CREATE TABLE notes (body TEXT);"),
            "is another program's database (it holds the tables notes)",
        ),
        (_cut_short, "the file is damaged (cut short or overwritten)"),
    ],
    ids=["empty", "foreign", "cut short"],
)
def test_the_service_refuses_to_start_on_a_file_not_its_own_and_says_why(tmp_path, make, words):
    home = tmp_path / "classroom"
    home.mkdir()
    path = home / "rooms.sqlite"
    make(path)
    before = digest(path)
    done = run_service(home)
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert "The classroom service did not start: '" in said and "/rooms.sqlite' " in said, said
    assert words in said, said
    assert "Traceback" not in said
    assert digest(path) == before


def test_a_second_service_on_one_database_says_who_holds_it_and_stops(tmp_path, monkeypatch):
    with classroom_service.Service(tmp_path / "classroom") as first:
        holder = json.loads((first.home / "server.json").read_text())["pid"]
        done = run_service(first.home)
        said = done.stdout + done.stderr
        assert done.returncode != 0 and "Traceback" not in said
        assert f"another classroom service (process {holder}) uses" in said, said
        assert first.answers()  # the first one serves on


def test_the_service_opens_the_good_rooms_beside_a_damaged_one_and_names_it(tmp_path, monkeypatch):
    service = classroom_service.Service(tmp_path / "classroom")
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(service.home))
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    with service:
        good, bad = Desk.open(seed=5), Desk.open(seed=2)
        Seat(good.code, name="Ana")
    with sqlite3.connect(service.home / "rooms.sqlite") as db:
        db.execute("UPDATE setwidgets_rooms SET data = 'not json' WHERE code = ?", (bad.code,))
    with service:
        assert f"room '{bad.code}' in" in service.log() and "was set aside" in service.log()
        listed = request(service.url + "api/rooms", service.teacher_token)[1]
        assert [r["code"] for r in listed["rooms"]] == [good.code]
        assert [r["code"] for r in listed["set_aside"]] == [bad.code]
        assert "cannot be loaded and was set aside" in listed["set_aside"][0]["message"]
        ana = Seat(good.code, name="Cleo")
        assert ana.claim(a_set(ana.view))["ok"]


def request(address: str, token: str | None = None, method: str = "GET", body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(address, data=data, method=method)
    if token:
        req.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


@pytest.fixture
def service(tmp_path, monkeypatch):
    yield from classroom_service.running(tmp_path, monkeypatch)


def test_a_move_the_database_refuses_is_not_made_and_memory_stays_equal_to_disk(service):
    desk = Desk.open(seed=5, claim_seconds=30)
    ana = Seat(desk.code, name="Ana")
    url_room = service.url + f"api/rooms/{desk.code}"
    before = request(url_room, service.teacher_token)[1]["room"]
    # Another program holds the database (a teacher's database browser in a change, say).
    other = sqlite3.connect(service.home / "rooms.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        answer = ana.claim(a_set(ana.view))
        assert answer["ok"] is False
        assert answer["message"].startswith("this was not done: the service could not save it")
        assert "another program kept the database busy" in answer["message"]
        # A join is refused whole: no name kept, no token given.
        status, body = request(url_room + "/join", None, "POST", {"name": "Ben"})
        assert status == 503 and "this was not done" in body["message"], body
        assert request(url_room, service.teacher_token)[1]["room"] == before
    finally:
        other.execute("ROLLBACK")
        other.close()
    # The same move, sent again, is served; Ben's name was not kept.
    assert ana.claim(a_set(ana.view))["ok"]
    assert request(url_room + "/join", None, "POST", {"name": "Ben"})[0] == 201
    told = request(url_room, service.teacher_token)[1]["room"]
    assert told["version"] == before["version"] + 2
    service.kill()
    service.start()
    assert request(url_room, service.teacher_token)[1]["room"]["version"] == told["version"]
    assert "could not save room" in service.log()


def test_nothing_acknowledged_is_lost_when_the_service_is_killed(service):
    desk = Desk.open(seed=7, claim_seconds=30)
    ana, ben = Seat(desk.code, name="Ana"), Seat(desk.code, name="Ben")
    for player in (ana, ben, ana, ben):
        # Each claims from the table as it is now: the other's last claim reaches this seat's view
        # by a push, which a loaded machine may deliver after the next claim is sent.
        table = request(service.url + f"api/rooms/{desk.code}", service.teacher_token)[1]["room"]["table"]
        classroom_service.wait_until(
            lambda p=player, t=table: p.view["table"] == t, what="the seat's view of the table"
        )
        reply = player.claim(a_set(player.view))
        assert reply["ok"], reply
    reply = ben.call()
    assert reply["ok"], reply  # the last move acknowledged; killed at once after it
    service.kill()
    service.start()
    view = request(service.url + f"api/rooms/{desk.code}", service.teacher_token)[1]["room"]
    assert [p["score"] for p in view["players"]] == [2, 2]
    assert view["callers"] == ["Ben"]


def _can_mount() -> bool:
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    try:
        probe = subprocess.run(
            [
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                "mount -t tmpfs -o size=64k tmpfs /mnt",
            ],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="a small disk of its own needs root and unshare -m (Linux)")
def test_on_a_full_disk_a_move_is_refused_and_played_once_there_is_room(tmp_path, monkeypatch):
    # The database alone is on a disk of 2 MB, mounted for the service only (its own mount
    # namespace); this test fills that disk through /proc/PID/root, as any other program could.
    home = tmp_path / "classroom"
    disk = home / "disk"
    disk.mkdir(parents=True)
    mount = f'mount -t tmpfs -o size=2m tmpfs "{disk}" && exec "$@"'
    service = classroom_service.Service(
        home,
        options=("--db", f"sqlite:///{disk}/rooms.sqlite"),
        prefix=("unshare", "-m", "--propagation", "private", "sh", "-c", mount, "sh"),
    )
    monkeypatch.setenv("SETWIDGETS_CLASSROOM_HOME", str(home))
    monkeypatch.delenv("SETWIDGETS_CLASSROOM_URL", raising=False)
    with service:
        seen = Path(f"/proc/{service.process.pid}/root{disk}")
        assert (seen / "rooms.sqlite").exists() and not (disk / "rooms.sqlite").exists()
        desk = Desk.open(seed=5, claim_seconds=30)
        ana = Seat(desk.code, name="Ana")
        url_room = service.url + f"api/rooms/{desk.code}"
        before = request(url_room, service.teacher_token)[1]["room"]
        filler = seen / "filler"
        fill = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while os.write(fill, b"\0" * 4096):
                pass
        except OSError:  # the disk is full
            pass
        finally:
            os.close(fill)
        answer = ana.claim(a_set(ana.view))
        assert answer["ok"] is False and "the disk is full; make room on it" in answer["message"], answer
        status, body = request(url_room + "/join", None, "POST", {"name": "Ben"})
        assert status == 503 and "the disk is full" in body["message"]
        assert request(url_room, service.teacher_token)[1]["room"] == before
        assert ana.you["score"] == 0
        filler.unlink()
        assert ana.claim(a_set(ana.view))["ok"]
        assert request(url_room + "/join", None, "POST", {"name": "Ben"})[0] == 201
        assert request(url_room, service.teacher_token)[1]["room"]["version"] == before["version"] + 2


def test_the_save_benchmark_measures_a_save_that_stays_small(tmp_path):
    figures_file = tmp_path / "save.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_classroom_save.py"), "--quick", "--saves", "20",
         "--json", str(figures_file)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = {(r["folding"], r["penalties"]): r for r in json.loads(figures_file.read_text())["rows"]}
    # Sizes, not times, are asserted: the machine is shared, a save's size is not.
    assert rows[True, 1000]["largest_save_bytes"] < 1.2 * rows[True, 10]["largest_save_bytes"]
    assert rows[False, 1000]["largest_save_bytes"] > 5 * rows[True, 1000]["largest_save_bytes"]
    assert "times the one at 10 (goal: about the same)" in run.stdout


def test_the_service_refuses_to_start_in_a_read_only_folder_and_says_why(tmp_path):
    home, folder = tmp_path / "classroom", tmp_path / "rooms"
    home.mkdir()
    folder.mkdir()
    path = folder / "rooms.sqlite"
    store = Store(url(path))
    store.save(room_with("BCDFG", "Ana"))
    store.close()
    (folder / "rooms.sqlite.lock").unlink()
    before = digest(path)
    if os.geteuid() == 0:
        # Root writes through a folder's permissions: the folder is made read-only by a mount of
        # its own, seen by the service alone.
        if not _can_mount():
            pytest.skip("a read-only folder for root needs unshare -m (Linux)")
        prefix = ("unshare", "-m", "--propagation", "private", "sh", "-c",
                  f'mount --bind -o ro "{folder}" "{folder}" && exec "$@"', "sh")  # fmt: skip
    else:
        prefix = ()
        folder.chmod(0o555)
    try:
        done = run_service(home, "--db", url(path), prefix=prefix)
    finally:
        folder.chmod(0o755)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said
    assert "The classroom service did not start: the service cannot write in the folder of" in said, said
    assert "give --db a file in a folder you can write" in said
    assert digest(path) == before


def test_a_room_that_cannot_be_written_is_refused_like_a_failed_write(tmp_path):
    store = Store(url(tmp_path / "rooms.sqlite"))
    try:
        room = room_with("BCDFG", "Ana")
        room.last = {"type": "odd", "value": float("nan")}  # no JSON for it
        with pytest.raises(StoreError, match="room BCDFG could not be written as JSON"):
            store.save(room)
        assert store.saved("BCDFG") is None and store.load() == {}
    finally:
        store.close()


# -- a backup put back beside a stopped service's log ---------------------------------------------------

# A service that saved a second room and was killed before SQLite copied its log into the file.
_KILLED_WRITER = """
import os, sys
from setwidgets.classroom.rooms import Room
from setwidgets.classroom.store import Store
store = Store("sqlite:///" + sys.argv[1])
room = Room("CDFGH", seed=2)
room.join("Cleo")
store.save(room)
os.kill(os.getpid(), 9)
"""


def _killed_after_a_second_room(path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, str(path)],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr


def test_a_backup_put_back_beside_a_stopped_services_log_is_refused_not_mixed(tmp_path):
    """Issue 36: SQLite would replay the stopped service's log into the older copy put back."""
    path, backup = tmp_path / "rooms.sqlite", tmp_path / "backup.sqlite"
    store = Store(url(path))
    store.save(room_with("BCDFG", "Ana", "Ben"))
    store.close()
    shutil.copyfile(path, backup)
    _killed_after_a_second_room(path)
    log = Path(f"{path}-wal")
    assert log.stat().st_size > 32  # the killed service's room, not yet in the file
    time.sleep(0.05)
    shutil.copyfile(backup, path)  # the teacher puts the backup back
    held = log.read_bytes()
    with pytest.raises(StoreError) as refused:
        Store(url(path))
    assert str(refused.value) == (
        f"{path_text(path)} was replaced after its log of changes 'rooms.sqlite-wal' was last written, so "
        "the log belongs to another state of it and is not used; if you put a saved copy back, delete "
        "'rooms.sqlite-wal' and 'rooms.sqlite-shm', then start the service again; if you copied the "
        "file with its log, copy them again keeping their times (cp -p)"
    )
    assert path.read_bytes() == backup.read_bytes() and log.read_bytes() == held
    # Doing as told opens the backup as it was: one room.
    log.unlink()
    Path(f"{path}-shm").unlink()
    store = Store(url(path))
    try:
        assert sorted(store.load()) == ["BCDFG"]
    finally:
        store.close()


def test_a_stopped_services_log_beside_its_own_file_is_replayed(tmp_path):
    """No false alarm: the file as the killed service left it opens with both rooms."""
    path = tmp_path / "rooms.sqlite"
    store = Store(url(path))
    store.save(room_with("BCDFG", "Ana", "Ben"))
    store.close()
    _killed_after_a_second_room(path)
    assert Path(f"{path}-wal").stat().st_size > 32
    store = Store(url(path))
    try:
        assert sorted(store.load()) == ["BCDFG", "CDFGH"]
    finally:
        store.close()
