"""Fuzzing the public API: call a function with odd input and sort what happened.

Each module's fuzz test (``tests/test_fuzz_*.py``) draws arguments with hypothesis strategies
shaped like the public signatures, calls the function through :func:`attempt` and lets it
sort the result into one of four outcomes:

- ``accepted``: the call returned;
- ``refused``: a ``TypeError`` or ``ValueError`` (or a subclass, such as ``GameError``)
  raised by a ``raise`` statement of setwidgets itself, with a message: the input policy of
  ``setwidgets._inputs``;
- ``raw``: any other error, or a ``TypeError``/``ValueError`` that a library or a built-in
  raised (the innermost frame is not a ``raise`` in setwidgets): the student would read
  sqlite's, numpy's or Python's words instead of ours;
- ``hang``: no answer within :data:`PATIENCE` seconds.

:func:`attempt` counts each outcome per module (printed at the end of the run and written to
``test-artifacts/fuzz-counts.json``) and fails the test on ``raw`` and ``hang``. With
``SETWIDGETS_FUZZ_COUNT=1`` it only counts: the way to measure a checkout that is not there
yet.
"""

from __future__ import annotations

import collections
import json
import linecache
import os
import resource
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import setwidgets

PACKAGE = Path(setwidgets.__file__).resolve().parent
PATIENCE = 20.0
"""Seconds a call may take before it counts as a hang."""
HEADROOM = 2 * 2**30
"""Bytes of memory a call may take beyond what the process holds; more is a MemoryError (raw)."""
COUNT_ONLY = os.environ.get("SETWIDGETS_FUZZ_COUNT") == "1"
OUTCOMES = ("accepted", "refused", "raw", "hang")

COUNTS: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
"""Outcomes by module, for the whole run."""
RAW: dict[str, dict[str, str]] = collections.defaultdict(dict)
"""One example call for each kind of raw error or hang, by module: the list of what to fix."""


class Hang(Exception):
    """Raised into a call that took longer than PATIENCE seconds."""


@dataclass
class Outcome:
    kind: str
    value: Any = None
    error: BaseException | None = None

    @property
    def message(self) -> str:
        return str(self.error) if self.error is not None else ""


def _ours(error: BaseException) -> bool:
    """Whether a TypeError/ValueError was raised by a ``raise`` of setwidgets' own code, with words."""
    if not isinstance(error, (TypeError, ValueError)) or not str(error).strip():
        return False
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return False
    last = frames[-1]
    try:
        inside = Path(last.filename).resolve().is_relative_to(PACKAGE)
    except (OSError, ValueError):
        return False
    line = (last.line or linecache.getline(last.filename, last.lineno)).strip()
    # A raise statement may span lines; its frame points at its first line.
    return inside and line.startswith("raise")


_WAITING = [False]  # True only while a call runs: an alarm that comes after it returned is ignored


def _alarm(signum: int, frame: object) -> None:
    if _WAITING[0]:
        raise Hang("no answer in time")


def _address_space() -> int:
    """Bytes of address space the process holds now (Linux's /proc/self/statm, in pages)."""
    pages = int(Path("/proc/self/statm").read_text().split()[0])
    return pages * resource.getpagesize()


def classify(call: Callable[[], Any], patience: float = PATIENCE) -> Outcome:
    """Run ``call()`` and sort what happened into :data:`OUTCOMES`, without counting it."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    # A call that would fill the machine's memory must fail here, not get the run (and every
    # other program) killed by the kernel.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + HEADROOM
    resource.setrlimit(
        resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard)
    )
    signal.setitimer(signal.ITIMER_REAL, patience)
    try:
        _WAITING[0] = True
        try:
            value = call()
        finally:
            _WAITING[0] = False
    except Hang as error:
        return Outcome("hang", error=error)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # MemoryError and RecursionError are raw answers too
        failed = error
    else:
        return Outcome("accepted", value=value)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    # Sorted once the limits are lifted: reading the source of the raising line takes memory.
    return Outcome("refused" if _ours(failed) else "raw", error=failed)


def attempt(module: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """Call ``function(*args, **kwargs)``, count its outcome under ``module``, fail on a raw error or hang.

    The outcome is returned, for the test's own checks (that a refusal changed nothing, say).
    """
    outcome = classify(lambda: function(*args, **kwargs))
    COUNTS[module][outcome.kind] += 1
    if outcome.kind in ("raw", "hang"):
        name = getattr(function, "__qualname__", repr(function))
        shown = ", ".join([*map(_brief, args), *(f"{k}={_brief(v)}" for k, v in kwargs.items())])
        kind = f"{name}: {type(outcome.error).__name__}: {str(outcome.error)[:60]}"
        RAW[module].setdefault(kind, f"{name}({shown})")
    if not COUNT_ONLY and outcome.kind in ("raw", "hang"):
        detail = "".join(traceback.format_exception(outcome.error)[-3:])
        raise AssertionError(f"{outcome.kind}: {name}({shown})\n{detail}")
    return outcome


def _brief(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 80 else text[:77] + "..."


def table(counts: dict[str, collections.Counter]) -> list[str]:
    """Lines of a table of outcomes by module, as the run's summary prints them."""
    width = max([len("module"), *map(len, counts)])
    lines = [f"{'module':<{width}}  " + "  ".join(f"{o:>8}" for o in ("tried", *OUTCOMES))]
    for module in sorted(counts):
        row = counts[module]
        cells = [sum(row.values()), *(row[o] for o in OUTCOMES)]
        lines.append(f"{module:<{width}}  " + "  ".join(f"{c:>8}" for c in cells))
    return lines


def report(folder: Path) -> list[str]:
    """Write the run's counts to ``folder/fuzz-counts.json`` and return the table's lines."""
    if not COUNTS:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    data = {module: dict(row) for module, row in sorted(COUNTS.items())}
    (folder / "fuzz-counts.json").write_text(json.dumps(data, indent=1) + "\n")
    (folder / "fuzz-raw.json").write_text(json.dumps(RAW, indent=1, sort_keys=True) + "\n")
    return table(COUNTS)
