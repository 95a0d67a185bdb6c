"""Mutation testing of the core, as ``python3 course.py mutate`` runs it: the kill rates and the survivors.

course.py makes the environment with the mutation extra, then runs this module in the
repository (``python -m setwidgets.mutation [ARGUMENTS]``): mutmut copies ``setwidgets/`` into
``mutants/``, changes the core modules one small edit at a time and runs the fast unit tests
(pyproject.toml's ``[tool.mutmut]`` says which); then :func:`summary` and :func:`per_module`
read ``mutmut results`` and the survivors, a table of each module's kill rate against the
:data:`GOAL`, and the overall kill rate are printed. The arguments go to ``mutmut run``; those
that do not start with ``-`` are mutant names or patterns (``setwidgets.cards.*``), and the
summary counts those mutants only.

>>> results = "setwidgets.cards.x_f__mutmut_1: killed\\nsetwidgets.cards.x_f__mutmut_2: survived"
>>> summary(results, ["setwidgets.cards.*"])
(1, 2, [('setwidgets.cards.x_f__mutmut_2', 'survived')])
>>> per_module(results, [])
{'setwidgets.cards': (1, 2)}
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

from setwidgets import _extras

__all__ = [
    "GOAL",
    "KILLED",
    "MUTANT_MEMORY",
    "NOT_RUN",
    "main",
    "module_of",
    "per_module",
    "summary",
    "table",
]

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


GOAL = 0.9
"""The kill rate each module should reach: a lower one means behaviours no test pins down."""


def say(text: str) -> None:
    print(f"[course] {text}", flush=True)


def summary(results: str, patterns: list[str]) -> tuple[int, int, list[tuple[str, str]]]:
    """(killed, tested, survivors) from ``mutmut results --all true``, for the named mutants.

    Mutants that were not run (not checked, skipped, interrupted) count neither way. A
    survivor is any other mutant the tests did not notice: survived, no tests reach it, or
    suspicious (slower than expected, though not timed out).
    """
    run_ones = _run(results, patterns)
    killed = sum(s in KILLED for s in run_ones.values())
    survivors = sorted((n, s) for n, s in run_ones.items() if s not in KILLED)
    return killed, len(run_ones), survivors


def _run(results: str, patterns: list[str]) -> dict[str, str]:
    """The verdict of each named mutant that was run, by its name, from ``mutmut results --all true``."""
    verdicts = {}
    for line in results.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name and (not patterns or any(fnmatch.fnmatch(name, p) for p in patterns)):
            verdicts[name] = status
    return {n: s for n, s in verdicts.items() if s not in NOT_RUN}


def module_of(mutant: str) -> str:
    """The dotted module of a mutant's name: the parts before its mangled function (``x_``, ``xǁ``).

    mutmut names a mutant of a function ``MODULE.x_FUNCTION__mutmut_N``, and of a method
    ``MODULE.xǁCLASSǁMETHOD__mutmut_N``.

    >>> module_of("setwidgets.cards.x_parse__mutmut_3")
    'setwidgets.cards'
    >>> module_of("setwidgets.game.state.xǁStateǁsend_back__mutmut_12")
    'setwidgets.game.state'
    >>> module_of("setwidgets.sim.x_play__mutmut_1")  # a package's __init__.py is the package
    'setwidgets.sim'
    """
    parts = mutant.split(".")
    for i, part in enumerate(parts):
        if i and part.startswith(("x_", "xǁ")):
            return ".".join(parts[:i])
    return mutant.rpartition(".")[0]


def per_module(results: str, patterns: list[str]) -> dict[str, tuple[int, int]]:
    """(killed, tested) of each module, by its dotted name in order, for the named mutants that ran.

    The same counts as :func:`summary`'s, split by :func:`module_of`.
    """
    counts: dict[str, tuple[int, int]] = {}
    for name, status in _run(results, patterns).items():
        killed, tested = counts.get(module_of(name), (0, 0))
        counts[module_of(name)] = (killed + (status in KILLED), tested + 1)
    return dict(sorted(counts.items()))


def table(counts: dict[str, tuple[int, int]], goal: float = GOAL) -> list[str]:
    """The lines of a table of :func:`per_module`'s counts: module, killed, tested, rate, goal met.

    >>> print("\\n".join(table({"setwidgets.cards": (19, 20), "setwidgets.caps": (8, 10)})))
    module            killed  tested    rate  goal 90%
    setwidgets.cards      19      20   95.0%  met
    setwidgets.caps        8      10   80.0%  NOT MET
    """
    width = max([len("module"), *map(len, counts)])
    lines = [f"{'module':<{width}}  killed  tested    rate  goal {goal:.0%}"]
    for module, (killed, tested) in counts.items():
        rate = killed / tested
        met = "met" if rate >= goal else "NOT MET"
        lines.append(f"{module:<{width}}  {killed:>6}  {tested:>6}  {rate:>6.1%}  {met}")
    return lines


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MUTANT_MEMORY, MUTANT_MEMORY))


def _children(args: list[str]) -> tuple[str, list[str], list[str]]:
    """How many mutants run at a time, the mutant names or patterns, and the options to add for mutmut.

    One per core, unless the arguments say ``--max-children N`` (or ``--max-children=N``).

    >>> _children(["--max-children", "1", "setwidgets.caps.*"])
    ('1', ['setwidgets.caps.*'], [])
    >>> _children(["--max-children=2"])
    ('2', [], [])
    >>> _children(["setwidgets.caps.*"])[2][0]
    '--max-children'
    """
    children, patterns = None, []
    for i, arg in enumerate(args):
        if arg.startswith("--max-children="):
            children = arg.partition("=")[2]
        elif i and args[i - 1] == "--max-children":
            children = arg
        elif not arg.startswith("-"):
            patterns.append(arg)
    if children is not None:
        return children, patterns, []
    cores = str(os.cpu_count() or 1)
    return cores, patterns, ["--max-children", cores]


def main(args: list[str]) -> int:
    """Run mutmut in the working folder (the repository), then print the survivors and the kill rates."""
    mutmut = str(Path(sys.executable).parent / "mutmut")
    children, patterns, options = _children(args)
    say(f"mutmut: mutating the core in mutants/ ({children} at a time; slow, resumes where it stopped)")
    status = subprocess.call([mutmut, "run", *options, *args], preexec_fn=_limit_memory)
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
    say(f"kill rate per module (goal {GOAL:.0%}):")
    for line in table(per_module(out.stdout, patterns)):
        print(f"  {line}")
    rate = 100 * killed / tested
    say(f"kill rate {rate:.1f}%: {killed} of {tested} mutants killed, {len(survivors)} survived")
    return status


if __name__ == "__main__":
    # Here, not in main(): the tests call main() with a stand-in mutmut command beside a stand-in Python.
    _extras.command_needs("mutation", "python -m setwidgets.mutation", "mutmut")
    sys.exit(main(sys.argv[1:]))
