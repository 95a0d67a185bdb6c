"""Graded tests judged outside the student's kernel: the kernel computes, the grader decides.

An exercise's graded tests live beside its source notebook, in
``exercises/source/<assignment>/hidden_tests.py``, which nbgrader never releases and the
grading sandbox hides from the kernel. Each test is a function of the grader's process,
registered under the ``grade_id`` of its test cell::

    from setwidgets.grading.judge import Tests, compare, triples

    tests = Tests()


    @tests("test_is_set_hidden")
    def is_set_hidden(run):
        cases = triples(run.rng, 300)
        answers = run.call("is_set", cases)
        compare(run, "is_set", cases, answers, [rules.is_set(*case) for case in cases])
        return f"is_set passed the hidden tests ({len(cases)} triples)."

While autograding, :class:`setwidgets.grading.preprocessors.GradingExecute` reaches such a test
cell and does not run it in the kernel. It calls the test with a :class:`Run` whose
:meth:`Run.call` sends the inputs to the kernel, where :mod:`setwidgets.grading.compute` calls
the student's function on them and sends back plain data (JSON, bounded in size). The test
compares that data with the answers the grader computed itself, with the package's own
functions, in its own process, and either returns a sentence (the test passed) or raises
:class:`Failed` with one that says what was wrong. The grader writes the verdict into the
cell's outputs, where nbgrader reads the points: nothing the notebook does (builtins, the
package, the notebook's globals, the displayhook) reaches the expected answers or the verdict.

:func:`try_here` runs the same tests on the notebook it is called from; the source notebooks'
hidden test cells call it, so a teacher who runs the source notebook sees them pass.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from setwidgets.cards import Card, written
from setwidgets.grading import compute
from setwidgets.grading.route import MAX_REPLY

TESTS_FILE = "hidden_tests.py"
"""The file, beside an exercise's source notebook, that holds its judged tests."""

JUDGED = "judged"
"""The key, in a judged test cell's ``setwidgets`` metadata, of what the judge noted."""

MAX_KEPT = 10
"""The most failed cases the judge keeps of one test, for the teacher's class insight
(:mod:`setwidgets.grading.insight`): the first ones, in the test's order."""

MAX_PASSED_KEPT = 20
"""The most cases a failed test keeps that the function got right, spread over the test's cases:
they tell a mistake the function makes from one it does not (it said "no SET" where a rule that
accepts two alike and one different would say "SET")."""

MAX_KEPT_CHARS = 30_000
"""The most characters of cases (as JSON) the judge keeps of one failed test."""


class Failed(Exception):
    """A judged test failed; the message says why, in words for the student."""


class NoAnswer(Exception):
    """The kernel gave no usable answer (it stopped, ran out of time, or answered garbage)."""


@dataclass(frozen=True)
class Opaque:
    """A value the kernel answered that is none of the grader's types; it equals nothing."""

    type: str
    text: str

    def __repr__(self) -> str:
        return f"<{self.type}: {self.text}>"

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return hash((self.type, self.text))


def decode(value: Any, depth: int = 0) -> Any:
    """A value of the kernel's answer, in the grader: the inverse of :func:`compute.encode`.

    The kernel nests no deeper than :data:`compute.MAX_DEPTH`; a deeper value is forged, and is
    :class:`NoAnswer` (not a recursion as deep as the forger likes).
    """
    if depth > compute.MAX_DEPTH:
        raise NoAnswer("the kernel's answer nests too deeply")
    if isinstance(value, list):
        return [decode(item, depth + 1) for item in value]
    if not isinstance(value, dict) or len(value) != 1:
        if isinstance(value, dict):
            return Opaque("dict", "malformed")
        return value
    (key, inner), *_ = value.items()
    try:
        if key == "card":
            return compute.card_of(inner)
        if key == "tuple":
            return tuple(decode(item, depth + 1) for item in inner)
        if key in ("set", "frozenset"):
            items = (decode(item, depth + 1) for item in inner)
            return set(items) if key == "set" else frozenset(items)
        if key in ("dict", "counter"):
            pairs = {decode(k, depth + 1): decode(v, depth + 1) for k, v in inner}
            return pairs if key == "dict" else Counter(pairs)
        if key == "namedtuple":
            name, fields, items = inner
            if not compute.fits_namedtuple(name, fields):  # bounded before any class is made
                return Opaque("namedtuple", "malformed")
            made = compute.namedtuple_class(name, tuple(fields))
            return made(*(decode(item, depth + 1) for item in items))
        if key == "fraction":
            return Fraction(int(inner[0]), int(inner[1]))
        if key == "object":
            return Opaque(str(inner[0])[:80], str(inner[1])[:200])
    except (TypeError, ValueError, ArithmeticError, IndexError):  # ArithmeticError: int(inf), 1/0
        pass
    return Opaque(str(key)[:80], "malformed")


def encode_request(value: Any) -> Any:
    """A value for the kernel: cards, tuples, sets, fractions as :mod:`compute` reads them.

    A :class:`Seed` becomes a fresh ``random.Random`` in the kernel, and a ``random.Random`` a
    generator in the same state there. A value the kernel could not rebuild as it is (an
    ``IntEnum``, a subclass of ``str``, any other object) is refused with a TypeError.
    """
    if type(value) is Card:  # first: requests hold thousands of cards
        return {"card": value.code}
    if isinstance(value, Seed):
        return {"random": value.seed}
    if isinstance(value, random.Random):
        version, internal, gauss = value.getstate()
        return {"random_state": [version, list(internal), gauss]}
    if isinstance(value, Card):
        return {"card": value.code}
    kind = type(value)
    if kind is tuple:
        return {
            "tuple": [{"card": item.code} if type(item) is Card else encode_request(item) for item in value]
        }
    if kind is list:
        # A case is mostly a list of cards: each written here, without a call of this function per card.
        return [{"card": item.code} if type(item) is Card else encode_request(item) for item in value]
    if kind is set or kind is frozenset:
        return {kind.__name__: [encode_request(item) for item in value]}
    if kind is dict or kind is Counter:
        pairs = [[encode_request(k), encode_request(v)] for k, v in value.items()]
        return {"dict" if kind is dict else "counter": pairs}
    if compute.is_namedtuple(kind):
        return {"namedtuple": [kind.__name__, list(kind._fields), [encode_request(item) for item in value]]}
    if kind is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if value is None or kind in (bool, int, float, str):
        return value
    raise TypeError(
        f"encode_request() cannot send {show(value, 80)} (a {kind.__name__[:80]}) to the kernel as it is; "
        "give a plain int, float, str, a card or a container of them"
    )


@dataclass(frozen=True)
class Seed:
    """An argument that the kernel turns into ``random.Random(seed)``."""

    seed: int

    def __str__(self) -> str:
        return f"random.Random({self.seed})"


@dataclass
class Answer:
    """What the student's function did on one case: its value, or the error it raised."""

    value: Any = None
    error: str | None = None
    args: list[Any] | None = None
    counts: dict[str, int] = field(default_factory=dict)


def parse_reply(text: str, cases: int, function: str) -> list[Answer]:
    """The answers in the kernel's reply to a call of ``function``, one per case; :class:`NoAnswer`
    when the reply is unusable. A reply that the function is missing fails the test with
    :func:`compute.missing`'s sentence about the function asked for, never the kernel's own text."""
    if len(text) > MAX_REPLY:
        raise NoAnswer(f"the answer is bigger than the grader reads ({MAX_REPLY:,} characters)")
    try:
        # NaN and Infinity are not JSON: the kernel sends a float that is not finite as an object.
        reply = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except (ValueError, RecursionError) as error:
        raise NoAnswer(f"the kernel's answer is not readable ({type(error).__name__})") from None
    if not isinstance(reply, dict):
        raise NoAnswer("the kernel's answer is not readable")
    if "missing" in reply:
        raise Failed(compute.missing(function))
    answers = reply.get("answers")
    if not isinstance(answers, list) or len(answers) != cases:
        raise NoAnswer("the kernel's answer does not have one entry per case")
    parsed = []
    for answer in answers:
        if type(answer) is not dict:
            raise NoAnswer("the kernel's answer is not readable")
        value = answer.get("value")
        if type(value) is list or type(value) is dict:  # a plain value (most answers) is itself
            value = decode(value)
        counts = answer.get("counts")
        parsed.append(
            Answer(
                value=value,
                error=str(answer["error"])[: compute.MAX_TEXT] if "error" in answer else None,
                args=decode(answer["args"]) if "args" in answer else None,
                counts={} if counts is None else _counts(counts),
            )
        )
    return parsed


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    """A JSON number with a point or an exponent; one too big for a float (1e999) is forged."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too big for a float")
    return value


def _counts(counts: Any) -> dict[str, int]:
    if not isinstance(counts, dict):
        return {}
    return {str(k): v for k, v in counts.items() if type(v) is int}


Case = Sequence[Any]


def _request(function: str, cases: Iterable[Case], after: bool, count: Sequence[str]) -> str:
    return json.dumps(
        {
            "function": function,
            "cases": [[encode_request(list(case)), {}] for case in cases],
            "after": after,
            "count": list(count),
        }
    )


class Run:
    """One run of a judged test: the way to the student's functions, fresh randomness, notes.

    ``ask`` sends a request (JSON text) to where the student's functions are and returns the
    reply (JSON text), or raises :class:`NoAnswer`.
    """

    def __init__(self, ask: Callable[[str], str], seed: int | None = None) -> None:
        self._ask = ask
        self.seed = random.SystemRandom().randrange(10**9) if seed is None else seed
        self._rng = random.Random(self.seed)
        self.random = False
        self.flags: list[str] = []
        self.kept: list[dict[str, Any]] = []
        self._last: tuple[str, list[Case], list[Answer]] | None = None

    @property
    def rng(self) -> random.Random:
        """Randomness for this run's cases, from a fresh seed (the messages then name the seed)."""
        self.random = True
        return self._rng

    def call(
        self, function: str, cases: Sequence[Case], *, after: bool = False, count: Sequence[str] = ()
    ) -> list[Answer]:
        """The student's ``function`` called once per case (each a sequence of arguments).

        With ``after``, each answer also holds the arguments as the call left them (to see a
        list changed in place); ``count`` names functions of the notebook whose calls during
        each case are counted (done in the kernel, so a count is advice, never a verdict).
        """
        cases = list(cases)
        # Forgotten first: a call that gets no answers (its function missing, its reply unusable)
        # leaves no earlier call's cases to be kept as this failure's.
        self._last = None
        answers = parse_reply(self._ask(_request(function, cases, after, count)), len(cases), function)
        self._last = (function, cases, answers)
        return answers

    def failed(
        self, function: str, case: Case, answer: Answer, want: Any = None, *, known: bool = True
    ) -> None:
        """Keep one case the student's function got wrong, for the teacher's class insight.

        Kept as plain data (card codes, numbers, short text; see :func:`kept_case`), at most
        :data:`MAX_KEPT` per test; ``known`` says whether ``want`` is the answer wanted (a test that
        only checks a property of the answer has none to give). Nothing kept reaches the student.
        """
        if sum(1 for kept in self.kept if not kept.get("passed")) < MAX_KEPT:
            self.kept.append(kept_case(function, case, answer, want, known=known))

    def keep_last_call(self) -> None:
        """Keep the cases of the last call, as far as :data:`MAX_KEPT_CHARS` allows, answers wanted
        unknown: what the judge keeps of a failed test that named no failed case itself."""
        if self.kept or self._last is None:
            return
        function, cases, answers = self._last
        size = 0
        for case, answer in zip(cases, answers):
            kept = kept_case(function, case, answer, None, known=False)
            size += len(json.dumps(kept))
            if size > MAX_KEPT_CHARS:
                break
            self.kept.append(kept)

    def flag(self, reason: str) -> None:
        """Note something the teacher should look at; it costs no points by itself."""
        self.flags.append(reason)


TestFunction = Callable[[Run], str]


class Tests(dict[str, TestFunction]):
    """The judged tests of one notebook, by the ``grade_id`` of their test cell."""

    __test__ = False  # a registry, not a class of tests for pytest to collect

    def __init__(self, hide: Iterable[str] = (), hand_out: Iterable[str] | None = None) -> None:
        """``hand_out``: what of the package the exercise hands out, as dotted names
        (``"setwidgets.Card"``, ``"setwidgets.draw.show"``): while it is graded, the kernel has that
        and what it needs, and nothing else of the package (:mod:`setwidgets.grading.handout`).
        ``hide``: functions among those that the kernel must not have all the same
        (``"setwidgets.rules.is_set"``): the exercise asks the student to write them
        (:mod:`setwidgets.grading.hide`)."""
        super().__init__()
        self.hide = tuple(hide)
        self.hand_out = None if hand_out is None else tuple(hand_out)

    def __call__(self, grade_id: str) -> Callable[[TestFunction], TestFunction]:
        """Register the decorated function as the test of the cell ``grade_id``."""

        def register(test: TestFunction) -> TestFunction:
            if grade_id in self:
                raise ValueError(f"two judged tests for the cell {grade_id!r}")
            self[grade_id] = test
            return test

        return register


def load(folder: Path | str) -> Tests:
    """The judged tests in ``folder/hidden_tests.py`` (an empty set when there is no such file)."""
    path = Path(folder) / TESTS_FILE
    if not path.is_file():
        return Tests()
    name = f"_setwidgets_judged_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tests = getattr(module, "tests", None)
    if not isinstance(tests, Tests):
        raise TypeError(f"{path} must define tests = Tests(), the registry of its judged tests")
    return tests


@dataclass
class Verdict:
    """A judged test's result: passed or not, the sentence for the student, notes for the teacher."""

    passed: bool
    message: str
    flags: list[str]
    seed: int
    cases: list[dict[str, Any]] = field(default_factory=list, compare=False)
    """The failed cases kept for the teacher (see :meth:`Run.failed`); never shown to the student."""


def judge(test: TestFunction, ask: Callable[[str], str], seed: int | None = None) -> Verdict:
    """Run one judged test against the student's functions reached through ``ask``."""
    run = Run(ask, seed)
    try:
        message = test(run)
    except Failed as failure:
        run.keep_last_call()
        return Verdict(False, str(failure), run.flags, run.seed, run.kept)
    except NoAnswer as failure:
        message = f"The grader got no answer from your notebook: {failure}."
        return Verdict(False, message, run.flags, run.seed, run.kept)
    except Exception as error:  # noqa: BLE001 - the test broke on the answers: this test fails, flagged
        # Fail closed, for this test alone: the notebook's other tests are still judged (an error
        # here used to stop nbgrader's grading of the whole notebook, every point lost).
        kind = type(error).__name__[:80]
        run.flag(f"the test itself raised {kind} on the answers ({str(error)[:120]}): read them")
        message = (
            f"The grader could not judge your function's answers: they made the test fail ({kind}). "
            "Check that your function returns what the exercise asks for."
        )
        return Verdict(False, message, run.flags, run.seed, run.kept)
    return Verdict(True, message, run.flags, run.seed)


MAX_KEPT_VALUE = 4_000
"""The most characters (as JSON) of one kept value; a bigger one is kept as a short text."""


def kept_value(value: Any) -> Any:
    """A value of a case, as plain JSON data for the teacher's files: cards as ``{"card": code}``,
    tuples, sets and fractions as :func:`encode_request` writes them, anything else as
    ``{"object": [type, short text]}``; bounded by :data:`MAX_KEPT_VALUE`."""
    try:
        data = _plain(value, 0)
        if len(json.dumps(data)) <= MAX_KEPT_VALUE:
            return data
    except (TypeError, ValueError, RecursionError):
        pass
    return {"object": [type(value).__name__[:80], show(value, 200)]}


def _plain(value: Any, depth: int) -> Any:
    if depth > compute.MAX_DEPTH:
        raise ValueError("nested too deeply")
    if value is None or isinstance(value, (bool, int)):
        return value if not isinstance(value, int) or value.bit_length() <= 64 else str(value)[:40]
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else repr(value)
    if isinstance(value, str):
        return value[:300]
    if isinstance(value, Opaque):
        return {"object": [value.type, value.text]}
    if isinstance(value, (Card, Seed, random.Random, Fraction)):
        return encode_request(value)
    if isinstance(value, tuple):
        return {"tuple": [_plain(item, depth + 1) for item in value]}
    if isinstance(value, list):
        return [_plain(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return {"set": [_plain(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[_plain(k, depth + 1), _plain(v, depth + 1)] for k, v in value.items()]}
    raise TypeError(type(value).__name__)


def kept_case(function: str, case: Case, answer: Answer, want: Any, *, known: bool = True) -> dict[str, Any]:
    """One case as the judge keeps it: the function, its arguments, what it returned or raised,
    and the answer wanted when ``known``."""
    kept: dict[str, Any] = {"function": function[:80], "args": [kept_value(arg) for arg in case]}
    if answer.error is not None:
        kept["error"] = answer.error[:300]
    else:
        kept["got"] = kept_value(answer.value)
    if answer.args is not None:
        kept["after"] = kept_value(answer.args)
    if known:
        kept["want"] = kept_value(want)
    return kept


# -- what tests use to compare and to say what went wrong ------------------------------------


def show(value: Any, width: int = 300) -> str:
    """``value`` as the course writes it (cards as codes), cut to ``width`` characters."""
    text = _show(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _show(value: Any) -> str:
    return written(value, _other)


def _other(value: Any) -> str:
    if isinstance(value, Seed):
        return str(value)
    if isinstance(value, random.Random):
        return "rng"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


def call_text(function: str, case: Case) -> str:
    """How a call looks in a message: ``is_set(1RSO, 2RSO, 3RSO)``."""
    text = f"{function}({', '.join(show(arg, 120) for arg in case)})"
    return text if len(text) <= 400 else text[:397] + "..."


def same(got: Any, want: Any) -> bool:
    """Equal, and of the same kind: True is not 1, a tuple is not a list, a float equals only a float."""
    if want is None or isinstance(want, bool):
        return got is want
    if compute.is_namedtuple(type(want)):
        # The answer's class is rebuilt in the grader: the same name, fields and values are the same.
        kind = type(got)
        return (
            compute.is_namedtuple(kind)
            and (kind.__name__, kind._fields) == (type(want).__name__, type(want)._fields)
            and same(tuple(got), tuple(want))
        )
    if type(got) is not type(want) and not (
        isinstance(want, (int, Fraction)) and type(got) in (int, Fraction)
    ):
        return False
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return bool(got == want)


def returned(answer: Answer) -> str:
    """What the student's function did, for a message: "returned X" or "raised E"."""
    if answer.error is not None:
        return f"raised {answer.error}"
    return f"returned {show(answer.value)}"


def compare(
    run: Run,
    function: str,
    cases: Sequence[Case],
    answers: Sequence[Answer],
    wants: Sequence[Any],
    why: Callable[[Case], str] | None = None,
    equal: Callable[[Any, Any], bool] = same,
) -> None:
    """Raise :class:`Failed` at the first case whose answer is not ``equal`` to the one wanted.

    The message names the call, the answer wanted and why (``why(case)``), what the function
    did, and the seed of the run (so that a student can try the same cards).
    """
    first: str | None = None
    right: list[dict[str, Any]] = []
    stride = max(1, len(cases) // MAX_PASSED_KEPT)
    for number, (case, answer, want) in enumerate(zip(cases, answers, wants)):
        if answer.error is None and equal(answer.value, want):
            if number % stride == 0 and len(right) < MAX_PASSED_KEPT:
                right.append(kept_case(function, case, answer, want) | {"passed": True})
            continue
        # The first failed case is the student's message; the next few are kept for the teacher.
        run.failed(function, case, answer, want)
        if first is None:
            reason = f": {why(case)}" if why is not None else ""
            seed = f" (Cards drawn with the grader's seed {run.seed}.)" if run.random else ""
            wanted = f"{call_text(function, case)} should be {show(want)}{reason}."
            first = f"{wanted} Your function {returned(answer)}.{seed}"
    if first is not None:
        run.kept += right
        raise Failed(first)


def expect(condition: bool, message: str) -> None:
    """Raise :class:`Failed` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise Failed(message)


# -- the same tests, run on the notebook they are called from ----------------------------------


def try_here(grade_id: str, folder: Path | str = ".", namespace: dict[str, Any] | None = None) -> None:
    """Run the judged test ``grade_id`` (from ``hidden_tests.py`` in ``folder``) on this notebook.

    For the teacher's source notebook: its hidden test cells call this, and it raises
    ``AssertionError`` with the test's message when the test fails. Grading does not run it:
    the grader runs the same test from outside the student's kernel.
    """
    if not (Path(folder) / TESTS_FILE).is_file():
        raise FileNotFoundError(
            f"the graded tests of this exercise are in {TESTS_FILE}, beside the teacher's source notebook, "
            f"and there is none in {Path(folder).resolve()}: the grader runs them when it grades"
        )
    tests = load(folder)
    if grade_id not in tests:
        raise KeyError(f"{Path(folder) / TESTS_FILE} has no test for the cell {grade_id!r}")
    if namespace is None:
        from IPython import get_ipython

        namespace = get_ipython().user_ns
    verdict = judge(tests[grade_id], lambda request: compute.call(request, namespace))
    if not verdict.passed:
        raise AssertionError(verdict.message)
    print(verdict.message)
    for reason in verdict.flags:
        print(f"Note for the teacher: {reason}", file=sys.stdout)
