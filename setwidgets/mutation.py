"""Mutation testing of the core, as ``python3 course.py mutate`` runs it: the kill rate and the survivors.

course.py makes the environment with the mutation extra, then runs this module in the
repository (``python -m setwidgets.mutation [ARGUMENTS]``): mutmut copies ``setwidgets/`` into
``mutants/``, changes the core modules one small edit at a time and runs the fast unit tests
(pyproject.toml's ``[tool.mutmut]`` says which); then :func:`summary` reads ``mutmut results``
and the kill rate and the survivors are printed. The arguments go to ``mutmut run``; those that
do not start with ``-`` are mutant names or patterns (``setwidgets.cards.*``), and the summary
counts those mutants only.

>>> results = "setwidgets.cards.x_f__mutmut_1: killed\\nsetwidgets.cards.x_f__mutmut_2: survived"
>>> summary(results, ["setwidgets.cards.*"])
(1, 2, [('setwidgets.cards.x_f__mutmut_2', 'survived')])
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["KILLED", "MUTANT_MEMORY", "NOT_RUN", "main", "summary"]

# mutmut's verdicts, grouped for the kill rate. The tests noticed a mutant when they failed, ran
# out of time or crashed ("segfault" is mutmut's word for a test process killed, by a mutant that
# reads an endless iterator to the end, say).
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
"""The verdicts of a mutant the tests noticed."""
NOT_RUN = {"not checked", "skipped", "check was interrupted by user"}
"""The verdicts of a mutant that was not run; it counts neither way."""

# A mutant can turn a bounded loop into an endless one that fills the memory (one took 12 GiB);
# each mutmut process may use this much, and a mutant that needs more fails its tests.
MUTANT_MEMORY = 6 * 2**30
"""Bytes of memory each mutmut process may use."""


def say(text: str) -> None:
    print(f"[course] {text}", flush=True)


def summary(results: str, patterns: list[str]) -> tuple[int, int, list[tuple[str, str]]]:
    """(killed, tested, survivors) from ``mutmut results --all true``, for the named mutants.

    Mutants that were not run (not checked, skipped, interrupted) count neither way. A
    survivor is any other mutant the tests did not notice: survived, no tests reach it, or
    suspicious (slower than expected, though not timed out).
    """
    verdicts = {}
    for line in results.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name and (not patterns or any(fnmatch.fnmatch(name, p) for p in patterns)):
            verdicts[name] = status
    run_ones = {n: s for n, s in verdicts.items() if s not in NOT_RUN}
    killed = sum(s in KILLED for s in run_ones.values())
    survivors = sorted((n, s) for n, s in run_ones.items() if s not in KILLED)
    return killed, len(run_ones), survivors


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MUTANT_MEMORY, MUTANT_MEMORY))


def main(args: list[str]) -> int:
    """Run mutmut in the working folder (the repository), then print the kill rate and the survivors."""
    mutmut = str(Path(sys.executable).parent / "mutmut")
    patterns = [a for a in args if not a.startswith("-")]
    children = str(os.cpu_count() or 1)
    say(f"mutmut: mutating the core in mutants/ ({children} at a time; slow, resumes where it stopped)")
    status = subprocess.call([mutmut, "run", "--max-children", children, *args], preexec_fn=_limit_memory)
    out = subprocess.run([mutmut, "results", "--all", "true"], capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr, file=sys.stderr)
        return out.returncode
    killed, tested, survivors = summary(out.stdout, patterns)
    for name, verdict in survivors:
        print(f"  survivor {name}: {verdict}   (see: .venv/bin/mutmut show {name})")
    if tested == 0:
        say("no mutant was run")
        return status or 1
    rate = 100 * killed / tested
    say(f"kill rate {rate:.1f}%: {killed} of {tested} mutants killed, {len(survivors)} survived")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
