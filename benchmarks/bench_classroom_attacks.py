"""What one student's attack costs everyone else: the others' 95th percentile, claim to every board.

The real room service (bench_classroom.py's ``Server``: ``python -m setwidgets.classroom``'s
own ``main`` in a subprocess, SQLite on this machine's disk) holds ``--rooms`` rooms of
``--size`` simulated students playing (bench_classroom.py's students: real WebSocket clients
in this process's loop). One more student, seated in the first room, attacks from a process
of their own, to 127.0.0.1 only, bounded in count and time:

- ``malformed``: frames that are not JSON on 4 sockets (the most one player may hold), 2,000 a
  second on each;
- ``duplicate``: the same call, replayed, on one socket at the same pace;
- ``deep``: JSON nested 2,000 deep (4 KB) at the same pace;
- ``sockets``: 300 sockets opened with the student's token (all past the 4th refused), held;
- ``made_up_tokens``: joins, each with a made-up token, as fast as they are answered;
- ``half_open``: 1,000 connections that send nothing;
- ``big_bodies``: 8 joins without a token announcing 90 MB bodies, the bytes trickling.

Measured: the others' claims (every room but the attacker's own line) in a window before the
attacks (the baseline) and in a window during each; each printed with its ratio to the
baseline; then a window with no attack again, for the noise of the machine alone. The machine
is shared: its load average is printed and recorded.

``python benchmarks/bench_classroom_attacks.py [--record]`` (some 4 minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_classroom as bench  # noqa: E402

RESULT = Path(__file__).resolve().parent / "bench_classroom_attacks.json"

ATTACKER = r"""
import json, os, socket, sys, time, urllib.request, urllib.error, websocket
url, code, token, kind, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
port = int(url.rsplit(":", 1)[1].strip("/"))
ws_url = url.replace("http", "ws", 1) + f"api/rooms/{code}/socket"
end, sent, refused, held = time.monotonic() + seconds, 0, 0, []
frames = {"malformed": "{not json", "duplicate": json.dumps({"n": 1, "type": "call"}),
          "deep": "[" * 2000 + "]" * 2000}
def open_socket():
    return websocket.create_connection(ws_url, header=["Authorization: token " + token], timeout=2)
if kind in frames:
    while time.monotonic() < end:
        while len(held) < 4 and time.monotonic() < end:
            try:
                held.append(open_socket())
            except Exception:
                refused += 1
                time.sleep(0.2)
                break
        for ws in list(held):
            try:
                for _ in range(20):
                    ws.send(frames[kind]); sent += 1
            except Exception:
                held.remove(ws)
        time.sleep(0.01 if held else 0.1)
elif kind == "sockets":
    for _ in range(300):
        if time.monotonic() > end:
            break
        try:
            held.append(open_socket()); sent += 1
        except Exception:
            refused += 1
    time.sleep(max(0.0, end - time.monotonic()))
elif kind == "made_up_tokens":
    while time.monotonic() < end:
        request = urllib.request.Request(
            url + f"api/rooms/{code}/join", data=b'{"name": "Zed"}', method="POST")
        request.add_header("Authorization", "token " + os.urandom(12).hex())
        try:
            urllib.request.urlopen(request, timeout=2).read()
        except urllib.error.HTTPError as answer:
            refused += answer.code in (401, 429)
        except OSError:
            pass
        sent += 1
elif kind == "half_open":
    for _ in range(1000):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            sent += 1
        except OSError:
            refused += 1
    time.sleep(max(0.0, end - time.monotonic()))
elif kind == "big_bodies":
    for _ in range(8):
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        head = f"POST /api/rooms/{code}/join HTTP/1.1\r\nHost: x\r\nContent-Length: {90 * 2**20}\r\n\r\n"
        s.sendall(head.encode())
        held.append(s); sent += 1
    while time.monotonic() < end:
        for s in list(held):
            try:
                s.sendall(b"x" * 65536)
            except OSError:
                held.remove(s); refused += 1
        time.sleep(0.05)
print(json.dumps({"sent": sent, "refused": refused}))
"""

ATTACKS = ("malformed", "duplicate", "deep", "sockets", "made_up_tokens", "half_open", "big_bodies")


async def window(
    server: bench.Server, classes: list[bench.Class], clock: bench.Clock, seconds: float
) -> dict[str, Any]:
    """The others' claims served in the next ``seconds``: median and 95th percentile; the service's
    share of a core meanwhile, and the machine's load average."""
    for cls in classes:
        cls.room.claims = []
    cpu = server.cpu()
    clock.measuring = True
    await asyncio.sleep(seconds)
    clock.measuring = False
    cpu = server.cpu() - cpu
    await bench.settle()
    return {
        **bench.summary([c for cls in classes for c in cls.room.claims]),
        "service_cpu_share": round(cpu / seconds, 3),
        "load_average": Path("/proc/loadavg").read_text().split()[0],
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(
        f"{args.rooms} rooms of {args.size} students; attacks of {args.seconds:g} s; load average {load[0]}"
    )
    server = bench.Server()
    clock = bench.Clock()
    classes: list[bench.Class] = []
    results: dict[str, Any] = {}
    try:
        classes = list(
            await asyncio.gather(
                *(
                    bench.open_class(
                        server,
                        args.size,
                        random.Random(rng.randrange(2**32)),
                        clock,
                        seed=rng.randrange(2**16),
                        source=f"127.0.1.{1 + k}",
                    )
                    for k in range(args.rooms)
                )
            )
        )
        code = classes[0].room.code
        attacker = await bench.http(
            server.url + f"api/rooms/{code}/join", None, {"name": "Mallory"}, "127.0.2.1"
        )
        for cls in classes:
            cls.start()
        await asyncio.sleep(3.0)
        baseline = await window(server, classes, clock, args.seconds)
        print(bench.show("baseline (no attack)", baseline), flush=True)
        for kind in args.attacks:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    ATTACKER,
                    server.url,
                    code,
                    attacker["token"],
                    kind,
                    str(args.seconds + 2),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            await asyncio.sleep(1.0)
            figures = await window(server, classes, clock, args.seconds)
            out, _ = await asyncio.get_running_loop().run_in_executor(None, process.communicate)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            spent = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            figures["attack"] = {**json.loads(out or "{}"), "cpu_s": round(spent, 2)}
            figures["ratio_p95"] = round(figures["p95_ms"] / baseline["p95_ms"], 2)
            results[kind] = figures
            print(
                bench.show(f"during {kind}", figures)
                + f"  x{figures['ratio_p95']:.2f} the baseline's 95th pct; service CPU"
                f" {figures['service_cpu_share']:.0%} (baseline {baseline['service_cpu_share']:.0%}),"
                f" load {figures['load_average']}"
                f"  (attacker: {figures['attack']})",
                flush=True,
            )
            await asyncio.sleep(args.seconds / 2)  # the cool-down and the idle timeouts pass
        # The same measure with no attack again, at the end: how much the machine alone moves it.
        again = await window(server, classes, clock, args.seconds)
        print(bench.show("no attack, again (the noise)", again), flush=True)
        clock.stopping = True
        await asyncio.sleep(0.5)
    finally:
        for cls in classes:
            cls.close()
        server.stop()
    return {
        "date": time.strftime("%Y-%m-%d"),
        "load_average": load,
        "load_average_after": Path("/proc/loadavg").read_text().split()[:3],
        "rooms": args.rooms,
        "room_size": args.size,
        "seconds": args.seconds,
        "baseline": baseline,
        "attacks": results,
        "baseline_again": again,
        "note": "a shared 2-core machine (8 agents); the figures move with its load",
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=4, help="rooms playing (default 4)")
    parser.add_argument("--size", type=int, default=30, help="students per room (default 30)")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds measured per window")
    parser.add_argument("--attacks", type=lambda s: s.split(","), default=list(ATTACKS))
    parser.add_argument("--seed", type=int, default=bench.SEED)
    parser.add_argument("--record", action="store_true", help=f"write the figures to {RESULT.name}")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.attacks) - set(ATTACKS))
    if unknown:
        parser.error(f"no attack {unknown[0]}; the attacks are {', '.join(ATTACKS)}")
    try:
        figures = asyncio.run(run(args))
    except bench.BenchError as error:
        print(error, file=sys.stderr)
        return 1
    if args.record:
        RESULT.write_text(json.dumps(figures, indent=1) + "\n")
        print(f"written to {RESULT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
