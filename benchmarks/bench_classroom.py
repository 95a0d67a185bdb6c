"""How fast does the classroom service push a move to the whole class, and how many classes does it hold?

The real room service (``python -m setwidgets.classroom``'s own ``main``, in a subprocess
with its own port and a temporary classroom folder, its SQLite file on this machine's disk)
is played by simulated students: each one a real WebSocket client, all of them in one
asyncio loop of this process (Tornado's ``websocket_connect``, as the notebooks' Seat
uses). The teacher opens each room with the teacher's token, the students join through
``POST api/rooms/CODE/join`` and connect to the room's socket, and the teacher's own socket
(the projector) restarts a game when it is over. The service counts joins per address:
each class here joins from an address of its own on the loopback network (127.0.0.x), as
classes on their own Lab servers or hubs would, and a join answered 429 is sent again a
second later. The service runs through this file's ``--timed-service``, which puts clocks
around Store.save, Classroom.broadcast and RoomSocket.on_message (two clock readings a
call), so that the run can say where the service's time goes.

Each student plays like a quick human, from a seeded ``random.Random``: every 1 to 3 seconds
they look at the pushed table (``setwidgets.find_sets``); now and then they see a SET (or
think they do: some triples are wrong). On a free table half of them claim it at once (the
claim includes the call; another's claim may have taken the cards first: refused, nothing
changes), the others call SET first; when someone holds the call they call SET and join the
line (unless three are waiting). A caller claims when their turn comes, 0.2 to 0.8 s later:
half of them the SET they saw when they called, which an earlier caller may have taken
meanwhile (too late, no penalty), the others one they find on the table now. On a table
without a SET some say so.

Measured, for each claim the service served (right, wrong or too late: each changes the
room): the time from the claim being sent to the moment EVERY client of the room (each
student and the projector) holds the room's new version. Median and 95th percentile; the
goal is a 95th percentile of at most 250 ms.

The baselines, in the same run, with the same clients in the same loop:

- echo: a bare Tornado WebSocket server (this file, ``--echo-server``) that broadcasts a
  tiny message to every client when one of them sends one: the round trip and the fan-out
  without the game, the store or the room's view. The ratio printed is room / echo.
- one student: the real service, one student and the projector, a claim every 0.15 to
  0.3 s: the service's own work for a move without a crowd.

Then rooms of 30 active students are opened step by step in a fresh service, until the
95th percentile over all of them passes the goal (or the time given runs out, or this
process's own clients use a whole core and would measure themselves). Printed with each
step: the service's CPU share, how busy its one event loop was (moves and timers served)
and what a save and a broadcast took, and its memory (RSS, and the peak, from /proc); then
the rooms its loop, its CPU and this machine's free memory would hold at that pace, and
what a change costs the service's own Room and Store timed in this process (the save, the
view, and each socket's copy of it). The machine is shared: its load average is printed
and recorded, and the figures move with it (the disk's commits above all).

Run it with ``python benchmarks/bench_classroom.py`` (or ``python3 course.py bench``);
some 4 minutes. ``--quick`` runs a small version (8 students, two rooms of 6) in some 40
seconds. ``--record`` writes the figures to benchmarks/bench_classroom.json (``--json FILE``
elsewhere).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "bench_classroom.json"
GOAL_MS = 250.0
SEED = 2024

# How a student plays (see the module's help).
TICK = (1.0, 3.0)  # seconds between two looks at the table
PICK = (0.2, 0.8)  # seconds to show the cards once their turn to claim has come
SEE = 0.1  # the chance, at one look, of seeing a SET
WRONG = 0.12  # the chance that a SET seen is not one
LOOK_AGAIN = 0.5  # the chance that a caller looks at the table again when their turn comes
CALL_FIRST = 0.5  # the chance that a student who sees a SET on a free table calls before claiming
LONGEST_LINE = 3  # nobody calls when this many callers wait already
SAY_NO_SET = 0.3  # the chance, at one look at a table without a SET, of saying so
POLL = 0.1  # how often a caller in line looks whether their turn has come

REPLY_WAIT = 30.0
VERSION = re.compile(r'"version": (\d+)')
NAMES = re.compile(r"S\d{3}")


class BenchError(RuntimeError):
    pass


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0 to 100) of the values, linear between ranks (as the browser harness)."""
    data = sorted(values)
    if not data:
        return float("nan")
    k = (len(data) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


# -- the service's process ----------------------------------------------------------------------


def free_port() -> int:
    """A port for the service: the tests' own pick (tests/ports.py), outside the ephemeral range,
    where no other process's ``bind(0)`` takes it before the service binds it."""
    sys.path.insert(0, str(ROOT / "tests"))
    from ports import free_port as pick

    return pick()


def proc_status(pid: int) -> dict[str, float]:
    """The process's RSS and peak RSS (VmHWM), in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return {"rss": fields["VmRSS"], "peak_rss": fields["VmHWM"]}


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the process so far."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    parts = stat[stat.rindex(")") + 2 :].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def available_mib() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    """A server in a subprocess: the room service (or the echo baseline), its port and its folder."""

    def __init__(self, echo: bool = False) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-classroom-", dir=os.environ.get("TMPDIR")))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = {**os.environ, "SETWIDGETS_CLASSROOM_HOME": str(self.folder)}
        if echo:
            command = [sys.executable, __file__, "--echo-server", str(self.port)]
        else:
            command = [sys.executable, __file__, "--timed-service", "--port", str(self.port)]
        self.log = open(self.folder / "server.log", "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise BenchError(f"the server stopped at once: {(self.folder / 'server.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise BenchError("the server did not listen within 30 s") from None
                time.sleep(0.05)
        self.token = None if echo else json.loads((self.folder / "teacher.json").read_text())["token"]

    @property
    def pid(self) -> int:
        return self.process.pid

    def memory(self) -> dict[str, float]:
        return proc_status(self.pid)

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def timings(self) -> dict[str, list[float]]:
        """The seconds the service spent so far saving, broadcasting and serving moves (timed_service)."""
        path = self.folder / "timings.json"
        path.unlink(missing_ok=True)
        self.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 5
        while not path.exists():
            if time.monotonic() > deadline:
                raise BenchError("the service did not write its timings")
            time.sleep(0.01)
        return json.loads(path.read_text())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        for path in sorted(self.folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        self.folder.rmdir()


def timed_service(argv: list[str]) -> int:
    """The room service as ``python -m setwidgets.classroom`` runs it, with clocks on its work.

    Store.write (the room written and committed, in the store's threads, off the loop),
    Store.text (the room as JSON, on the loop), Classroom.broadcast (the view, and each
    socket's copy of it written), Room.play and Room.teach (a move served) and Room.expire (a
    timer) add up the seconds they take; SIGUSR1 writes the sums to timings.json in the
    classroom folder. Two clock readings a call: the service's own work is unchanged."""
    from setwidgets.classroom import __main__ as entry
    from setwidgets.classroom import rooms, service, store

    spent: dict[str, list[float]] = {}

    def clocked(owner: Any, name: str, key: str) -> None:
        original = getattr(owner, name)
        totals = spent.setdefault(key, [0.0, 0])

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                totals[0] += time.perf_counter() - start
                totals[1] += 1

        setattr(owner, name, timed)

    clocked(store.Store, "write", "save")
    clocked(store.Store, "text", "text")
    clocked(service.Classroom, "broadcast", "broadcast")
    clocked(rooms.Room, "play", "message")
    clocked(rooms.Room, "teach", "message")
    clocked(rooms.Room, "expire", "timer")

    def write(signum: int, frame: Any) -> None:
        folder = Path(os.environ["SETWIDGETS_CLASSROOM_HOME"])
        (folder / "timings.part").write_text(json.dumps(spent))
        (folder / "timings.part").replace(folder / "timings.json")

    signal.signal(signal.SIGUSR1, write)
    return entry.main(argv)


def echo_server(port: int) -> None:
    """The baseline server: a bare Tornado WebSocket that sends a tiny message to all at each message."""
    from tornado import web, websocket

    sockets: set[websocket.WebSocketHandler] = set()
    state = {"version": 0}

    class Echo(websocket.WebSocketHandler):
        def check_origin(self, origin: str) -> bool:
            return True

        def open(self, code: str) -> None:
            sockets.add(self)
            self.write_message(json.dumps({"type": "echo", "version": state["version"]}))

        def on_close(self) -> None:
            sockets.discard(self)

        def on_message(self, text: str | bytes) -> None:
            message = json.loads(text)
            state["version"] += 1
            tiny = json.dumps({"type": "echo", "version": state["version"]})
            for other in list(sockets):
                other.write_message(tiny)
            self.write_message(
                json.dumps({"type": "reply", "ok": True, "n": message.get("n"), "version": state["version"]})
            )

    async def serve() -> None:
        app = web.Application(
            [(r"/api/rooms/([A-Za-z]+)/socket", Echo)],
            websocket_max_message_size=4096,
            websocket_ping_interval=20,
        )
        app.listen(port, "127.0.0.1")
        await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass


# -- the clients ---------------------------------------------------------------------------------


class Room:
    """One room as the clients see it: its code, its clients, and when each version reached them."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.clients = 0
        # version -> [clients that got it, when the first got it, when the last got it]
        self.arrivals: dict[int, list[Any]] = {}
        self.claims: list[Claim] = []
        self.changes = 0  # the versions pushed while measuring

    def arrived(self, version: int, now: float) -> None:
        entry = self.arrivals.get(version)
        if entry is None:
            self.arrivals[version] = [1, now, now]
        else:
            entry[0] += 1
            entry[2] = now


@dataclass
class Claim:
    room: Room
    sent: float
    kind: str = "unanswered"  # right, wrong, late (too late), refused, unanswered
    version: int | None = None
    why: str = ""  # what the service said to a refused claim

    def latency(self) -> float | None:
        """Seconds from the claim sent to the last client holding its version; None if not served."""
        if self.version is None:
            return None
        entry = self.room.arrivals.get(self.version)
        if entry is None or entry[0] < self.room.clients:
            return float("inf")  # some client never got it
        return entry[2] - self.sent


class Client:
    """One WebSocket to one room: the latest view pushed (kept as text), and the answers to its messages."""

    def __init__(self, room: Room, name: str) -> None:
        self.room, self.name = room, name
        self.text = ""
        self.version = -1
        self.n = 0
        self.waiting: dict[int, asyncio.Future] = {}
        self.socket: Any = None
        self.hook: Any = None
        self.seen = 0  # the last version this client's own claim made

    async def connect(self, url: str, token: str) -> None:
        from tornado import httpclient, websocket

        address = url.replace("http", "ws", 1) + f"api/rooms/{self.room.code}/socket"
        request = httpclient.HTTPRequest(
            address, headers={"Authorization": f"token {token}"}, request_timeout=60
        )
        self.socket = await websocket.websocket_connect(request, on_message_callback=self.received)
        self.room.clients += 1

    def received(self, text: str | bytes | None) -> None:
        now = time.perf_counter()
        if text is None:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(BenchError(f"{self.name}'s connection closed"))
            return
        if isinstance(text, bytes):
            text = text.decode()
        if text.startswith('{"type": "reply"'):
            data = json.loads(text)
            future = self.waiting.pop(data.get("n"), None)
            if future is not None and not future.done():
                future.set_result((data, self.text))
            return
        match = VERSION.search(text, 0, 300)
        if match is None:
            return
        self.text, self.version = text, int(match.group(1))
        self.room.arrived(self.version, now)
        if self.hook is not None:
            self.hook(text)

    async def send(self, message: dict[str, Any], claim: Claim | None = None) -> tuple[dict[str, Any], str]:
        """Send one message; its answer, and the latest view this client held when the answer came."""
        self.n += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.n] = future
        text = json.dumps({**message, "n": self.n})
        if claim is not None:
            claim.sent = time.perf_counter()
        try:
            await self.socket.write_message(text)
        except Exception as lost:  # noqa: BLE001 - tornado's WebSocketClosedError and the stream's errors
            self.waiting.pop(self.n, None)
            raise BenchError(f"{self.name} could not send: {lost!r}") from None
        return await asyncio.wait_for(future, REPLY_WAIT)

    def you(self) -> dict[str, Any]:
        """The part of the latest view only this client is told (its place in the line of callers)."""
        at = self.text.rfind('"you": {')
        return json.loads(self.text[at + 7 : -1]) if at >= 0 else {}

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


def served_version(answer: dict[str, Any], view_text: str, client: Client) -> int | None:
    """The version a served claim made: the view pushed just before its answer, when it tells that claim."""
    if "version" in answer:  # the echo baseline says it
        return answer["version"]
    view = json.loads(view_text) if view_text else {}
    last = view.get("last") or {}
    if last.get("type") == "claim" and last.get("name") == client.name and last["version"] > client.seen:
        client.seen = last["version"]
        return last["version"]
    return None


def kind_of(answer: dict[str, Any], version: int | None) -> str:
    if version is None:
        return "refused"
    if answer.get("ok"):
        return "right"
    return "late" if str(answer.get("message", "")).startswith("Too late") else "wrong"


class Clock:
    """Whether claims are being measured now, and from when (shared by all the students)."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False


@dataclass
class Student:
    client: Client
    rng: random.Random
    clock: Clock
    tick: tuple[float, float] = TICK
    see: float = SEE
    saw: list[str] | None = None  # the SET seen when calling
    moves: dict[str, int] = field(default_factory=dict)

    async def play(self) -> None:
        from setwidgets import as_cards, find_sets, is_set

        rng = self.rng
        await asyncio.sleep(rng.uniform(0, self.tick[1]))  # students do not all look at once
        while not self.clock.stopping:
            if self.saw is not None:  # in line: wait for the turn
                await asyncio.sleep(POLL)
                line = self.client.you().get("line")
                if line is None:
                    self.saw = None  # the call ran out (or the game ended)
                elif line == 1:
                    await asyncio.sleep(rng.uniform(*PICK))
                    view = json.loads(self.client.text)
                    cards = self.saw
                    if rng.random() < LOOK_AGAIN:
                        cards = self.choose(view["table"], as_cards, find_sets, is_set)
                    self.saw = None
                    if cards is not None:
                        await self.claim(cards)
                continue
            await asyncio.sleep(rng.uniform(*self.tick))
            if self.clock.stopping:
                break
            view = json.loads(self.client.text)
            if view["status"] != "open" or view["you"].get("line") is not None:
                continue
            table = view["table"]
            if not find_sets(as_cards(table)):
                if not view["callers"] and rng.random() < SAY_NO_SET:
                    await self.move({"type": "no_set"})
                continue
            if rng.random() >= self.see:
                continue  # still looking
            cards = self.choose(table, as_cards, find_sets, is_set)
            if cards is None:
                continue
            if not view["callers"] and rng.random() >= CALL_FIRST:
                await self.claim(cards)
            elif len(view["callers"]) < LONGEST_LINE:
                answer = await self.move({"type": "call"})
                if answer.get("ok"):
                    self.saw = cards

    def choose(self, table: list[str], as_cards: Any, find_sets: Any, is_set: Any) -> list[str] | None:
        """A SET of the table, or (sometimes) three cards the student takes for one."""
        cards = as_cards(table)
        sets = find_sets(cards)
        if self.rng.random() < WRONG or not sets:
            for _ in range(50):
                triple = self.rng.sample(cards, 3)
                if not is_set(*triple):
                    return [c.code for c in triple]
            return None
        return [c.code for c in self.rng.choice(sets)]

    async def move(self, message: dict[str, Any]) -> dict[str, Any]:
        self.moves[message["type"]] = self.moves.get(message["type"], 0) + 1
        try:
            answer, _ = await self.client.send(message)
        except (TimeoutError, BenchError, OSError) as lost:
            return {"ok": False, "message": str(lost)}
        return answer

    async def claim(self, cards: list[str]) -> None:
        self.moves["claim"] = self.moves.get("claim", 0) + 1
        room = self.client.room
        claim = Claim(room, time.perf_counter())
        if self.clock.measuring:
            room.claims.append(claim)
        try:
            answer, view_text = await self.client.send({"type": "claim", "cards": cards}, claim)
        except (TimeoutError, BenchError, OSError):
            return
        claim.version = served_version(answer, view_text, self.client)
        claim.kind = kind_of(answer, claim.version)
        if claim.kind == "refused":
            claim.why = NAMES.sub("X", str(answer.get("message")))[:60]


class Teacher:
    """The projector's socket: it holds each version too, and starts a new game when one is over."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.restarting = False
        self.games = 0
        client.hook = self.look

    def look(self, text: str) -> None:
        if not self.restarting and '"status": "over"' in text[:300]:
            self.restarting = True
            asyncio.get_running_loop().create_task(self.new_game())

    async def new_game(self) -> None:
        try:
            await self.client.send({"type": "new_game"})
            self.games += 1
        except (TimeoutError, BenchError, OSError):
            pass  # the run is over, or the service is lost: the measure says so
        finally:
            self.restarting = False


async def http(
    url: str, token: str | None, body: dict[str, Any], source: str | None = None
) -> dict[str, Any]:
    """POST ``body``; from the address ``source`` (the service counts requests per address), and
    again a second later when the service says there were too many (429), as a client should."""
    from tornado import httpclient

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"token {token}"
    for _ in range(60):
        response = await httpclient.AsyncHTTPClient().fetch(
            url,
            method="POST",
            body=json.dumps(body),
            headers=headers,
            raise_error=False,
            request_timeout=120,
            connect_timeout=120,  # also the wait in the client's queue: long on a loaded machine
            network_interface=source,
        )
        if response.code != 429:
            break
        RETRIES[0] += 1
        await asyncio.sleep(1.0)
    data = json.loads(response.body or b"{}")
    if response.code >= 400:
        raise BenchError(f"POST {url}: {response.code} {data.get('message')}")
    return data


RETRIES = [0]  # requests the service answered 429 (too many from one address), sent again


@dataclass
class Class:
    """A room with its students playing in it."""

    room: Room
    teacher: Teacher
    students: list[Student]
    tasks: list[asyncio.Task] = field(default_factory=list)

    def start(self) -> None:
        self.tasks = [asyncio.get_running_loop().create_task(s.play()) for s in self.students]

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for client in [self.teacher.client, *(s.client for s in self.students)]:
            client.close()


async def open_class(
    server: Server,
    size: int,
    rng: random.Random,
    clock: Clock,
    *,
    tick: tuple[float, float] = TICK,
    see: float = SEE,
    seed: int = 0,
    source: str | None = None,
) -> Class:
    """Open a room with the teacher's token, seat ``size`` students in it, connect everyone.

    ``source`` is the address the class's requests come from: each class its own, as classes on
    their own Lab servers or hubs (the service limits the joins from one address)."""
    opened = await http(server.url + "api/rooms", server.token, {"seed": seed, "claim_seconds": 5}, source)
    room = Room(opened["code"])
    tokens = []
    for i in range(size):  # one after the other, as students come in
        joined = await http(
            server.url + f"api/rooms/{room.code}/join", None, {"name": f"S{i + 1:03d}"}, source
        )
        tokens.append((joined["name"], joined["token"]))
    teacher = Teacher(Client(room, "teacher"))
    await teacher.client.connect(server.url, server.token)
    students = []
    for name, token in tokens:
        client = Client(room, name)
        await client.connect(server.url, token)
        students.append(Student(client, random.Random(rng.randrange(2**32)), clock, tick, see))
    return Class(room, teacher, students)


async def open_echo(server: Server, size: int) -> Class:
    room = Room("ECHO")
    teacher = Teacher(Client(room, "teacher"))
    await teacher.client.connect(server.url, "")
    students = []
    for i in range(size):
        client = Client(room, f"S{i + 1:03d}")
        await client.connect(server.url, "")
        students.append(Student(client, random.Random(i), Clock()))
    return Class(room, teacher, students)


def summary(claims: list[Claim]) -> dict[str, Any]:
    """Median and 95th percentile in ms of the served claims, and how many of each kind."""
    times = [t for t in (c.latency() for c in claims) if t is not None]
    kinds: dict[str, int] = {}
    for c in claims:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    refusals: dict[str, int] = {}
    for c in claims:
        if c.why:
            refusals[c.why] = refusals.get(c.why, 0) + 1
    finite = [t * 1000 for t in times if t != float("inf")]
    lost = len(times) - len(finite) + kinds.get("unanswered", 0)
    ms = finite + [float("inf")] * lost
    return {
        "claims": len(times),
        "median_ms": round(percentile(ms, 50), 1) if ms else None,
        "p95_ms": round(percentile(ms, 95), 1) if ms else None,
        "max_ms": round(max(finite), 1) if finite else None,
        "not_everyone": lost,
        "kinds": kinds,
        "refusals": refusals,
    }


def loop_figures(
    before: dict[str, list[float]], after: dict[str, list[float]], wall: float
) -> dict[str, Any]:
    """What the service did between two of its timings: ms per save (in the store's threads), per
    broadcast and per move served on its loop (the move, the room's text and its broadcast), and
    the share of the time its one event loop was busy with moves and timers."""

    def spent(key: str) -> tuple[float, int]:
        then = before.get(key, [0.0, 0])
        now = after.get(key, [0.0, 0])
        return now[0] - then[0], int(now[1] - then[1])

    (save, saves), (cast, casts) = spent("save"), spent("broadcast")
    (move, moves), (timer, _), (text, _) = spent("message"), spent("timer"), spent("text")
    on_loop = move + timer + text + cast
    return {
        "save_ms": round(save * 1000 / max(saves, 1), 2),
        "broadcast_ms": round(cast * 1000 / max(casts, 1), 2),
        "move_ms": round((move + text + cast) * 1000 / max(moves, 1), 2),
        "loop_busy_share": round(on_loop / wall, 3),
    }


def ms(value: float | None, width: int = 7) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:{width}.1f}"


def show(name: str, s: dict[str, Any]) -> str:
    return (
        f"{name:<34} median {ms(s['median_ms'])} ms   95th pct {ms(s['p95_ms'])} ms"
        f"   max {ms(s['max_ms'])}   (n={s['claims']})"
    )


async def settle(seconds: float = 1.0) -> None:
    """Wait for the last pushes of the claims measured (later ones count as never arrived)."""
    await asyncio.sleep(seconds)


# -- the phases ---------------------------------------------------------------------------------


async def measure_echo(size: int, messages: int, rng: random.Random) -> dict[str, Any]:
    """The baseline: one client at a time sends a tiny message, the bare server sends one to all."""
    server = Server(echo=True)
    try:
        cls = await open_echo(server, size)
        room = cls.room
        senders = [s.client for s in cls.students]
        await asyncio.sleep(0.5)
        for _ in range(messages):
            await asyncio.sleep(rng.uniform(0.05, 0.25))
            client = rng.choice(senders)
            claim = Claim(room, time.perf_counter())
            room.claims.append(claim)
            answer, view_text = await client.send({"type": "echo"}, claim)
            claim.version = served_version(answer, view_text, client)
            claim.kind = "right"
        await settle()
        cls.close()
        return {"clients": room.clients, **summary(room.claims)}
    finally:
        server.stop()


async def measure_solo(server: Server, claims: int, rng: random.Random, clock: Clock) -> dict[str, Any]:
    """The other baseline: one student (and the projector) claiming as fast as the rate limit allows."""
    cls = await open_class(
        server, 1, rng, clock, tick=(0.15, 0.3), see=1.0, seed=rng.randrange(2**16), source="127.0.0.2"
    )
    clock.measuring = True
    cls.start()
    deadline = time.monotonic() + 120
    while len([c for c in cls.room.claims if c.version is not None]) < claims and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    clock.stopping = True
    await settle()
    cls.close()
    clock.measuring = clock.stopping = False
    return {"clients": cls.room.clients, **summary(cls.room.claims)}


async def measure_room(
    server: Server, size: int, claims: int, rng: random.Random, clock: Clock, longest: float, see: float
) -> dict[str, Any]:
    """One room of ``size`` students: at least ``claims`` claims served, measured from each to all."""
    memory_before = server.memory()
    started = time.monotonic()
    cls = await open_class(server, size, rng, clock, see=see, seed=rng.randrange(2**16), source="127.0.0.3")
    seated = time.monotonic() - started
    cls.start()
    await asyncio.sleep(2.0)  # everyone looks at the table once or twice before the measure
    room = cls.room
    timings = server.timings()
    version, cpu, mine, wall = cls.teacher.client.version, server.cpu(), time.process_time(), time.monotonic()
    clock.measuring = True
    deadline = wall + longest
    while len([c for c in room.claims if c.version is not None]) < claims and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
    clock.measuring = False
    changes = cls.teacher.client.version - version
    cpu, mine, wall = server.cpu() - cpu, time.process_time() - mine, time.monotonic() - wall
    loop = loop_figures(timings, server.timings(), wall)
    memory = server.memory()
    clock.stopping = True
    await settle()
    view_bytes = len(cls.students[0].client.text)
    moves: dict[str, int] = {}
    for student in cls.students:
        for kind, count in student.moves.items():
            moves[kind] = moves.get(kind, 0) + count
    cls.close()
    clock.stopping = False
    return {
        "students": size,
        "clients": room.clients,
        **summary(room.claims),
        "seconds": round(wall, 1),
        "seconds_to_seat": round(seated, 1),
        "changes": changes,
        "changes_per_s": round(changes / wall, 2),
        "games_started": cls.teacher.games,
        "moves_sent": moves,
        "view_bytes": view_bytes,
        "service_cpu_ms_per_change": round(cpu * 1000 / max(changes, 1), 2),
        "service_cpu_share": round(cpu / wall, 3),
        **loop,
        "bench_cpu_share": round(mine / wall, 3),
        "memory_before_mib": round(memory_before["rss"], 1),
        "memory_mib": round(memory["rss"], 1),
        "peak_memory_mib": round(memory["peak_rss"], 1),
    }


async def measure_rooms(
    size: int,
    steps: list[int],
    window: float,
    budget: float,
    rng: random.Random,
    see: float,
    through: bool = False,
) -> dict[str, Any]:
    """Rooms of ``size`` active students, more at each step, until the goal is missed or time runs out
    (``through``: every step given is run, past the goal too)."""
    server = Server()
    clock = Clock()
    classes: list[Class] = []
    results = []
    stop = "the steps given were all run"
    started = time.monotonic()
    try:
        await asyncio.sleep(0.5)
        idle = server.memory()
        for count in steps:
            if time.monotonic() - started > budget:
                stop = f"the time given ({budget:.0f} s) ran out"
                break
            ramp = time.monotonic()
            new = await asyncio.gather(
                *(
                    open_class(
                        server,
                        size,
                        random.Random(rng.randrange(2**32)),
                        clock,
                        see=see,
                        seed=rng.randrange(2**16),
                        source=f"127.0.{1 + k // 250}.{1 + k % 250}",
                    )
                    for k in range(len(classes), count)
                )
            )
            for cls in new:
                cls.start()
            classes.extend(new)
            ramp = time.monotonic() - ramp
            await asyncio.sleep(3.0)  # the new rooms' students start looking
            for cls in classes:
                cls.room.claims = []
            versions = [cls.teacher.client.version for cls in classes]
            timings = server.timings()
            cpu, mine, wall = server.cpu(), time.process_time(), time.monotonic()
            clock.measuring = True
            await asyncio.sleep(window)
            clock.measuring = False
            cpu, mine, wall = server.cpu() - cpu, time.process_time() - mine, time.monotonic() - wall
            loop = loop_figures(timings, server.timings(), wall)
            changes = sum(cls.teacher.client.version - v for cls, v in zip(classes, versions))
            memory = server.memory()
            await settle()
            claims = [c for cls in classes for c in cls.room.claims]
            step = {
                "rooms": count,
                "students": count * size,
                **summary(claims),
                "seconds_to_open": round(ramp, 1),
                "changes_per_s": round(changes / wall, 1),
                "service_cpu_ms_per_change": round(cpu * 1000 / max(changes, 1), 2),
                "service_cpu_share": round(cpu / wall, 3),
                **loop,
                "bench_cpu_share": round(mine / wall, 3),
                "memory_mib": round(memory["rss"], 1),
                "peak_memory_mib": round(memory["peak_rss"], 1),
            }
            results.append(step)
            print(
                f"  {count:>4} rooms {count * size:>5} students: median {ms(step['median_ms'])} ms"
                f"  95th pct {ms(step['p95_ms'], 8)} ms  (n={step['claims']:>4})"
                f"  {step['changes_per_s']:>5.1f} changes/s  service: CPU {step['service_cpu_share']:>4.0%}"
                f" loop busy {step['loop_busy_share']:>4.0%} (save {step['save_ms']:5.1f} ms,"
                f" broadcast {step['broadcast_ms']:4.1f} ms)  RSS {step['memory_mib']:5.1f} MiB"
                f"  bench CPU {step['bench_cpu_share']:>4.0%}",
                flush=True,
            )
            if step["p95_ms"] is not None and step["p95_ms"] > GOAL_MS and not through:
                stop = f"the 95th percentile passed {GOAL_MS:.0f} ms"
                break
            if step["bench_cpu_share"] > 0.9:
                stop = "this benchmark's own clients used a whole core: beyond, it would measure itself"
                break
        clock.stopping = True
        await asyncio.sleep(0.5)
    finally:
        for cls in classes:
            cls.close()
        server.stop()
    held = [s["rooms"] for s in results if (s["p95_ms"] or 0) <= GOAL_MS]
    return {
        "room_size": size,
        "idle_memory_mib": round(idle["rss"], 1),
        "steps": results,
        "holds": max(held) if held else 0,
        "stopped": stop,
    }


def breakdown(sizes: tuple[int, ...], repeats: int = 15) -> dict[str, dict[str, float]]:
    """Where one change's time goes in the service, for rooms of each size: timed in this process
    with the service's own Room and Store (a SQLite file on the same disk as the service's).

    The service does this for every change: Store.save (the room's whole save, committed; in the
    store's threads), then in its one event loop Room.view written once as JSON, and for each
    socket Room.you written and joined to it."""
    from setwidgets import find_sets
    from setwidgets.classroom import rooms as service_rooms
    from setwidgets.classroom.store import Store

    found = {}
    for size in sizes:
        room = service_rooms.Room("BCDFG", seed=1)
        for i in range(size):
            room.join(f"S{i + 1:03d}")
        names = list(room.members)
        for k in range(10):  # a game under way: some SETs taken, a history to save
            name = names[k % size]
            triple = find_sets(room.game.table)[:1]
            message = {"n": room.members[name].last_n + 1, "type": "claim" if triple else "no_set"}
            if triple:
                message["cards"] = [c.code for c in triple[0]]
            room.play(name, message)
        folder = tempfile.mkdtemp(prefix="bench-classroom-", dir=os.environ.get("TMPDIR"))
        store = Store(f"sqlite:///{folder}/rooms.sqlite")
        store.save(room)

        def timed(work: Any) -> float:
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                work()
                times.append(time.perf_counter() - start)
            return round(statistics.median(times) * 1000, 2)

        view = room.view()
        figures = {
            "save_ms": timed(lambda: store.save(room)),  # noqa: B023 - called at once
            "view_ms": timed(room.view),
            "pushes_ms": timed(lambda: pushes(room, names)),  # noqa: B023
            "pushes_dumps_only_ms": timed(lambda: json.dumps(view)),  # noqa: B023
        }
        figures["change_ms"] = round(figures["save_ms"] + figures["view_ms"] + figures["pushes_ms"], 2)
        store.close()
        for path in Path(folder).iterdir():
            path.unlink()
        os.rmdir(folder)
        found[str(size)] = figures
    return found


def pushes(room: Any, names: list[str]) -> list[str]:
    """What the service's broadcast writes for one change: the view once, each player's part joined."""
    text = json.dumps(room.view())
    return [text[:-1] + ', "you": ' + json.dumps(room.you(n)) + "}" for n in names]


def estimate(rooms: dict[str, Any]) -> dict[str, Any]:
    """The rooms one service would hold: by its CPU, by its event loop's busy time, and by this
    machine's free memory; from the last step that met the goal."""
    good = [s for s in rooms["steps"] if (s["p95_ms"] or 0) <= GOAL_MS] or rooms["steps"][:1]
    if not good:
        return {}
    last = good[-1]
    per_room_cpu = last["service_cpu_share"] / last["rooms"]
    per_room_mib = max(last["memory_mib"] - rooms["idle_memory_mib"], 0.01) / last["rooms"]
    changes_per_room = last["changes_per_s"] / last["rooms"]
    loop_per_room = last["loop_busy_share"] / last["rooms"]
    return {
        "from_rooms": last["rooms"],
        "changes_per_s_per_room": round(changes_per_room, 2),
        "service_cpu_share_per_room": round(per_room_cpu, 4),
        "rooms_one_core": int(1 / per_room_cpu) if per_room_cpu > 0 else None,
        "loop_share_per_room": round(loop_per_room, 4),
        "rooms_loop_full": int(1 / loop_per_room) if loop_per_room > 0 else None,
        "memory_mib_per_room": round(per_room_mib, 2),
        "available_mib": round(available_mib()),
        "rooms_in_free_memory": int(available_mib() / per_room_mib),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    began = time.monotonic()
    print(
        f"classroom service: {args.students} students in one room, rooms of {args.room_size};"
        f" seed {args.seed}; load average {Path('/proc/loadavg').read_text().split()[0]}",
        flush=True,
    )

    echo = await measure_echo(args.students, args.echo, random.Random(rng.randrange(2**32)))
    print(show(f"echo baseline ({echo['clients']} clients)", echo), flush=True)

    server = Server()
    clock = Clock()
    try:
        await asyncio.sleep(0.5)
        idle = server.memory()
        print(f"service idle: RSS {idle['rss']:.1f} MiB", flush=True)
        solo = await measure_solo(server, args.solo, random.Random(rng.randrange(2**32)), clock)
        print(show("one student (and the projector)", solo), flush=True)
        room = await measure_room(
            server,
            args.students,
            args.claims,
            random.Random(rng.randrange(2**32)),
            clock,
            args.longest,
            args.see,
        )
        print(show(f"room of {args.students} ({room['clients']} clients)", room), flush=True)
    finally:
        server.stop()
    kinds = room["kinds"]
    print(
        f"  claims: {kinds.get('right', 0)} right, {kinds.get('wrong', 0)} wrong,"
        f" {kinds.get('late', 0)} too late, {kinds.get('refused', 0)} refused (changed nothing),"
        f" {kinds.get('unanswered', 0)} unanswered; {room['changes']} changes in {room['seconds']} s"
        f" ({room['games_started']} new games); view {room['view_bytes']} bytes",
        flush=True,
    )
    print(
        f"  service: {room['service_cpu_ms_per_change']:.2f} ms CPU per change"
        f" ({room['service_cpu_share']:.0%} of a core); its loop busy {room['loop_busy_share']:.0%}:"
        f" {room['move_ms']:.1f} ms a move served on it, of which broadcast {room['broadcast_ms']:.1f} ms;"
        f" a save {room['save_ms']:.1f} ms in the store's threads; RSS {room['memory_mib']:.1f} MiB"
        f" (peak {room['peak_memory_mib']:.1f}) against {idle['rss']:.1f} idle",
        flush=True,
    )
    ratio_p95 = room["p95_ms"] / echo["p95_ms"]
    ratio_median = room["median_ms"] / echo["median_ms"]
    print(
        f"ratio room / echo: 95th pct {ratio_p95:.2f}, median {ratio_median:.2f};"
        f" goal 95th pct <= {GOAL_MS:.0f} ms: {'met' if room['p95_ms'] <= GOAL_MS else 'MISSED'}",
        flush=True,
    )

    budget = max(args.budget - (time.monotonic() - began), 10.0)
    print(
        f"rooms of {args.room_size} in one fresh service, {args.window:g} s measured at each step:",
        flush=True,
    )
    rooms = await measure_rooms(
        args.room_size,
        args.steps,
        args.window,
        budget,
        random.Random(rng.randrange(2**32)),
        args.see,
        args.through,
    )
    print(f"  stopped: {rooms['stopped']}; idle RSS {rooms['idle_memory_mib']:.1f} MiB", flush=True)
    cost = breakdown(tuple(sorted({args.room_size, args.students})))
    print("where a change's time goes in the service (its own Room and Store, timed in this process):")
    for size, figures in cost.items():
        print(
            f"  {size:>3} players: save {figures['save_ms']:6.2f} ms   view {figures['view_ms']:6.2f} ms"
            f"   {size} pushes {figures['pushes_ms']:6.2f} ms (of which the view's json.dumps, once,"
            f" {figures['pushes_dumps_only_ms']:.2f})   = {figures['change_ms']:.2f} ms of its work"
        )
    guess = estimate(rooms)
    print(
        f"one service holds {rooms['holds']} rooms of {args.room_size} within the goal (measured);"
        f" at {guess.get('changes_per_s_per_room')} changes/s a room, its loop would be full at some"
        f" {guess.get('rooms_loop_full')} rooms, its CPU ({guess.get('service_cpu_share_per_room', 0):.1%}"
        f" of a core per room) at some {guess.get('rooms_one_core')}; its memory"
        f" ({guess.get('memory_mib_per_room')} MiB per room) would fill the {guess.get('available_mib')} MiB"
        f" free at some {guess.get('rooms_in_free_memory')} rooms",
        flush=True,
    )
    print(f"total {time.monotonic() - began:.0f} s")
    held = [step for step in rooms["steps"] if step["rooms"] == rooms["holds"]]
    missed = [step for step in rooms["steps"] if (step["p95_ms"] or 0) > GOAL_MS]
    print()
    print(f"{'claim to every client':<34} {'clients':>7} {'median':>9} {'95th pct':>9} {'claims':>7}")
    for name, figures in (
        ("echo baseline (no game)", echo),
        ("one student", solo),
        (f"room of {args.students}", room),
    ):
        print(
            f"{name:<34} {figures['clients']:>7} {ms(figures['median_ms'], 6)} ms"
            f" {ms(figures['p95_ms'], 6)} ms {figures['claims']:>7}"
        )
    print(f"{'ratio room / echo':<34} {'':>7} {ratio_median:>8.2f}x {ratio_p95:>8.2f}x")
    print(
        f"goal: 95th pct <= {GOAL_MS:.0f} ms in a room of {args.students}:"
        f" {'met' if room['p95_ms'] <= GOAL_MS else 'MISSED'}"
    )
    print(
        f"service memory (RSS): idle {idle['rss']:.1f} MiB, room of {args.students} playing"
        f" {room['memory_mib']:.1f} MiB"
        + (
            f", {held[0]['rooms']} rooms of {args.room_size} playing {held[0]['memory_mib']:.1f} MiB"
            if held
            else ""
        )
    )
    print(
        f"rooms of {args.room_size} within the goal: {rooms['holds']}"
        + (
            f" (at {missed[0]['rooms']}: 95th pct {missed[0]['p95_ms']:.0f} ms)"
            if missed
            else f" ({rooms['stopped']})"
        )
    )
    return {
        "machine": f"{platform.system()} {platform.release()}, Python {platform.python_version()},"
        f" {os.cpu_count()} CPUs",
        "date": time.strftime("%Y-%m-%d"),
        "load_average": Path("/proc/loadavg").read_text().split()[:3],
        "seed": args.seed,
        "goal_p95_ms": GOAL_MS,
        "student": {
            "tick_s": TICK,
            "pick_s": PICK,
            "see": args.see,
            "wrong": WRONG,
            "look_again": LOOK_AGAIN,
            "call_first": CALL_FIRST,
            "longest_line": LONGEST_LINE,
            "say_no_set": SAY_NO_SET,
        },
        "echo_baseline": echo,
        "one_student": solo,
        "service_idle_mib": round(idle["rss"], 1),
        "room": room,
        "ratio_p95": round(ratio_p95, 2),
        "ratio_median": round(ratio_median, 2),
        "goal_met": room["p95_ms"] <= GOAL_MS,
        "rooms": rooms,
        "breakdown": cost,
        "estimate": guess,
        "join_retries_429": RETRIES[0],
    }


def main(argv: list[str]) -> int:
    if argv[:1] == ["--timed-service"]:
        return timed_service(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--students", type=int, default=60, help="students in the one room measured (default 60)"
    )
    parser.add_argument("--claims", type=int, default=120, help="claims served to measure in that room")
    parser.add_argument("--longest", type=float, default=150, help="seconds at most for that room's claims")
    parser.add_argument("--echo", type=int, default=120, help="messages of the echo baseline")
    parser.add_argument("--solo", type=int, default=40, help="claims of the one-student baseline")
    parser.add_argument("--room-size", type=int, default=30, help="students per room in the rooms' steps")
    parser.add_argument(
        "--steps",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[2, 4, 8, 16, 24, 32, 48, 64, 96],
        help="the numbers of rooms open at each step, such as 2,4,8",
    )
    parser.add_argument("--window", type=float, default=12, help="seconds measured at each step")
    parser.add_argument(
        "--through", action="store_true", help="run every step given, past the goal too (such as --steps 40)"
    )
    parser.add_argument("--budget", type=float, default=240, help="seconds for the whole run, roughly")
    parser.add_argument(
        "--see",
        type=float,
        default=SEE,
        help=f"a student's chance, at one look, of seeing a SET (default {SEE})",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="a small run: 8 students, two rooms of 6")
    parser.add_argument("--record", action="store_true", help=f"write the figures to {RESULT.name}")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        echo_server(args.echo_server)
        return 0
    if args.quick:
        args.students, args.claims, args.longest, args.echo, args.solo = 8, 6, 20, 20, 6
        args.room_size, args.steps, args.window, args.budget, args.see = 6, [1, 2], 2, 60, 0.5
    try:
        figures = asyncio.run(run(args))
    except BenchError as error:
        print(error, file=sys.stderr)
        return 1
    for path in [RESULT] * args.record + ([args.json] if args.json else []):
        path.write_text(json.dumps(figures, indent=1) + "\n")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
