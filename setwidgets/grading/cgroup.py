"""The memory of all a grading kernel's processes together, bounded by a control group (cgroup).

The sandbox's ``prlimit`` bounds each process's address space, and the number of processes, but
not their sum: 500 processes of 2 GiB each would still take the grading machine down. A memory
cgroup bounds the sum. The grader makes one per kernel, below its own cgroup, puts the sandbox in
it before the kernel starts, and removes it when the kernel ends; the kernel itself cannot leave
it (its cgroup namespace is its own, and its user is not root). Files the notebook writes in its
``/tmp`` and working folder (both memory: tmpfs) count too.

A cgroup folder was chosen over ``systemd-run --scope``: it works where systemd is not the
init (containers, most CI machines), needs nothing but root and a mounted memory controller,
and has no daemon to ask. Where the grader may not make one (not root, no memory controller,
a cgroup v2 parent that holds processes), :func:`make` says why, and each process is still
bounded on its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


def _own_memory_cgroup() -> tuple[Path, str] | None:
    """The folder of this process's memory cgroup and the cgroup version ("1" or "2"), if any."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(",") and (ROOT / "memory").is_dir():
            return ROOT / "memory" / path.lstrip("/"), "1"
    for line in lines:
        if line.startswith("0::") and (ROOT / "cgroup.controllers").is_file():
            return ROOT / line[3:].lstrip("/"), "2"
    return None


class MemoryGroup:
    """One kernel's memory cgroup: made with a limit, joined by the sandbox, removed at the end."""

    def __init__(self, folder: Path, version: str) -> None:
        self.folder = folder
        self.version = version

    @property
    def procs(self) -> Path:
        """The file a process writes its PID to, to join the cgroup."""
        return self.folder / "cgroup.procs"

    def out_of_memory(self) -> bool:
        """Whether the limit was reached and a process of the kernel's was killed for it."""
        name = "memory.oom_control" if self.version == "1" else "memory.events"
        try:
            text = (self.folder / name).read_text()
        except OSError:
            return False
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value) > 0
        return False

    def remove(self) -> None:
        """Kill whatever still runs in the cgroup, then remove it."""
        for _ in range(50):
            try:
                pids = [int(pid) for pid in self.procs.read_text().split()]
            except (OSError, ValueError):
                pids = []
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            try:
                self.folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)


def make(limit: int, name: str) -> tuple[MemoryGroup | None, str | None]:
    """A new memory cgroup of ``limit`` bytes below this process's own, or None and why not."""
    found = _own_memory_cgroup()
    if found is None:
        return None, "this machine shows no memory cgroup controller"
    parent, version = found
    folder = parent / name
    try:
        folder.mkdir()
    except OSError as error:
        return None, f"no cgroup can be made in {parent} ({error.strerror})"
    try:
        if version == "1":
            (folder / "memory.limit_in_bytes").write_text(str(limit))
            # Without swap accounting the kernel could page out past the limit; with it, it cannot.
            swap = folder / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(str(limit))
        else:
            (folder / "memory.max").write_text(str(limit))
            swap = folder / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
    except OSError as error:
        with contextlib.suppress(OSError):
            folder.rmdir()
        return None, f"the cgroup {folder} takes no memory limit ({error.strerror})"
    return MemoryGroup(folder, version), None
