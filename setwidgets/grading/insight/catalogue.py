"""Named misconceptions: rules over the cases a student's function got wrong, and who shows which.

A :class:`Misconception` is a rule over one failed case (:class:`Case`): "this answer is what a
function that ignores shading would give". The rules of the seven exercises are in
:mod:`setwidgets.grading.insight.exercises`. :func:`diagnose` reads one student's failed cases,
function by function, and names the fewest misconceptions that explain all of them (the
catalogue's order breaks ties: a narrow rule comes before a broad one); cases no combination
explains are "other", and so is every case of a function whose failures only clash rules
explain (a function that says "yes" to non-SETs and "no" to SETs is guessing, and is named by
neither). The words for why three cards are or are not a SET are the core's
(:func:`setwidgets.rules.explain`), in one home.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from setwidgets.cards import Card
from setwidgets.grading import compute
from setwidgets.grading.insight_cases import TestRecord
from setwidgets.grading.judge import Opaque, decode
from setwidgets.rules import explain, third_card

OTHER = "other"
"""The key of what no rule names."""

NOT_WRITTEN = "not_written"
"""The key of a function left as the release copy has it (it raises NotImplementedError), or
not in the notebook at all (its stub deleted, or its cell never run)."""


class Raised:
    """The answer wanted is an error of this kind (``ValueError``), not a value."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Raised) and other.kind == self.kind

    def __hash__(self) -> int:
        return hash(self.kind)

    def __repr__(self) -> str:
        return f"raises {self.kind}"


_UNKNOWN: Any = object()


@dataclass(frozen=True)
class Case:
    """One kept case, decoded: the function, its arguments, what it returned (``got``) or
    raised (``error``), and the answer wanted (``want``; :data:`None` may be a real answer, so
    ``known`` says whether there is one). ``message``: the test's sentence to the student;
    ``passed``: a case the function got right, kept beside the failed ones of its test."""

    test: str
    function: str
    args: tuple[Any, ...]
    got: Any
    error: str | None
    want: Any
    known: bool
    message: str
    passed: bool = False

    def raised(self, kind: str | None = None) -> bool:
        """Whether the function raised (an error of ``kind``, when given)."""
        return self.error is not None and (kind is None or self.error.startswith(kind))

    @property
    def cards(self) -> list[Card]:
        """The cards among the arguments, in order (a list argument's cards included)."""
        found: list[Card] = []
        for arg in self.args:
            if type(arg) is Card:
                found.append(arg)
            elif isinstance(arg, (list, tuple)):
                found += [c for c in arg if type(c) is Card]
        return found


Rule = Callable[[Case], bool]


@dataclass(frozen=True)
class Misconception:
    """A named mistake: which functions it concerns, the rule that recognises it in a failed case,
    the lesson to revisit, and what it says about the cards (``example``: the cards to draw and a
    sentence, made from one case the rule explains).

    ``side``: rules of different sides of the same function never explain one student together
    (a function that is both too generous and too strict is guessing). ``model``, when given, is
    the mistaken function itself (its answer to the case's arguments): it then explains a failed
    case its answer matches, and a case the student got right where the model answers otherwise
    refutes it for that student's function. ``rule`` is for mistakes no one function models.
    """

    key: str
    exercise: str
    functions: tuple[str, ...]
    title: str
    lesson: str
    rule: Rule | None = None
    side: str = ""
    example: Callable[[Case], tuple[list[Card], str]] | None = None
    model: Callable[[Case], Any] | None = None

    def concerns(self, case: Case) -> bool:
        """Whether the misconception is about the case's function."""
        return case.function in self.functions or "*" in self.functions

    def explains(self, case: Case) -> bool:
        """Whether the misconception explains the failed case (a rule that raises explains nothing)."""
        if not self.concerns(case) or case.passed:
            return False
        try:
            if self.model is not None:
                answer = self.model(case)
                return case.error is None and _same(case.got, answer) and not _same(answer, case.want)
            return self.rule is not None and bool(self.rule(case))
        except Exception:  # noqa: BLE001 - a student's odd answer must not stop the report
            return False

    def refuted(self, case: Case) -> bool:
        """Whether a case the student got right shows the student's function is not the model."""
        if self.model is None or not case.passed or not self.concerns(case):
            return False
        try:
            return not _same(case.got, self.model(case))
        except Exception:  # noqa: BLE001 - arguments the model does not take refute nothing
            return False

    def shown(self, case: Case) -> tuple[list[Card], str]:
        """The cards to draw for this misconception, and the magic rule's sentence about them."""
        try:
            if self.example is not None:
                return self.example(case)
        except Exception:  # noqa: BLE001 - an example is a picture; the report goes on without it
            return [], ""
        return default_example(case)


def sentence(cards: Sequence[Card]) -> str:
    """The core's sentence on three cards (:func:`setwidgets.rules.explain`); '' for other counts."""
    return str(explain(*cards)) if len(cards) == 3 else ""


def default_example(case: Case) -> tuple[list[Card], str]:
    """Three cards of the case and the core's sentence on them: the arguments when they are three
    cards, two cards and the third wanted (or the student's), or the first SET wanted."""
    cards = case.cards
    if len(case.args) == 3 and len(cards) == 3:
        return cards, sentence(cards)
    if len(case.args) == 2 and len(cards) == 2:
        a, b = cards
        if a == b:
            try:
                third_card(a, b)
            except ValueError as error:  # the core's own sentence for a card twice
                return [a, b], str(error)
        if type(case.want) is Card:
            return [a, b, case.want], sentence([a, b, case.want])
    wanted = case.want if case.known else None
    if isinstance(wanted, tuple) and len(wanted) == 3 and all(type(c) is Card for c in wanted):
        return list(wanted), sentence(wanted)
    if isinstance(wanted, list) and wanted and isinstance(wanted[0], tuple):
        return list(wanted[0]), sentence(wanted[0])
    return [], ""


def catalogue_not_written(exercise: str, lesson: str) -> Misconception:
    """The release copy's function, left as it was (it raises NotImplementedError), or missing from
    the notebook (:func:`missing_case`)."""
    return Misconception(
        NOT_WRITTEN,
        exercise,
        ("*",),
        "not written yet (the function still raises NotImplementedError, or is not in the notebook)",
        lesson,
        lambda case: case.raised("NotImplementedError") or is_missing(case),
        example=lambda case: ([], ""),
    )


# -- reading the kept cases --------------------------------------------------------------------


def case_of(
    test: str, record: TestRecord, kept: dict[str, Any], oracle: Callable[..., Any] | None
) -> Case | None:
    """The decoded case, with the answer wanted from ``oracle`` when the judge kept none; None when
    it does not decode. A case answered right after all (a test that failed on another case of the
    same call, which the judge kept whole) is a case ``passed``: it can refute a model."""
    try:
        args = tuple(decode(arg) for arg in kept.get("args", []))
        got = decode(kept["got"]) if "got" in kept else None
        error = kept.get("error")
        known = "want" in kept
        want = decode(kept["want"]) if known else _UNKNOWN
    except Exception:  # noqa: BLE001 - a kept case that does not decode is left out
        return None
    if not known and oracle is not None:
        try:
            want, known = oracle(*args), True
        except ValueError:
            want, known = Raised("ValueError"), True
        except Exception:  # noqa: BLE001 - arguments the oracle does not take: no answer known
            want = _UNKNOWN
    passed = kept.get("passed") is True
    if known and not isinstance(want, Raised) and error is None and _same(got, want):
        passed = True
    if known and isinstance(want, Raised) and error is not None and error.startswith(want.kind):
        passed = True
    want = None if want is _UNKNOWN else want
    return Case(test, str(kept["function"]), args, got, error, want, known, record.message, passed)


def missing_case(test: str, record: TestRecord) -> Case | None:
    """The case of a failed test whose sentence says its function is not in the notebook
    (:func:`setwidgets.grading.compute.missing`): that function, called on nothing, with no answer
    (the judge keeps no case of it); None for any other test."""
    name = compute.missing_function(record.message)
    if record.passed or name is None:
        return None
    return Case(test, name, (), None, None, None, False, record.message)


def is_missing(case: Case) -> bool:
    """Whether the case is a :func:`missing_case`: its function was not in the notebook."""
    return (
        not case.args
        and case.error is None
        and not case.known
        and compute.missing_function(case.message) == case.function
    )


def read_test(test: str, record: TestRecord, oracles: dict[str, Callable[..., Any]]) -> list[Case]:
    """The cases of one failed test: the missing function's case when its sentence says the
    function is not in the notebook (the judge keeps no case then; a file it wrote before it forgot
    its last call may hold an earlier call's cases of another function, which did not fail it),
    else the kept cases that decode (:func:`case_of`)."""
    found = missing_case(test, record)
    if found is not None:
        return [found]
    return [
        case
        for item in record.cases
        if (case := case_of(test, record, item, oracles.get(str(item.get("function"))))) is not None
    ]


def _same(got: Any, want: Any) -> bool:
    from setwidgets.grading.judge import same

    return same(got, want)


# -- who shows which ---------------------------------------------------------------------------


@dataclass
class Diagnosis:
    """One student's misconceptions (keys) with the cases each explains, and the cases left over."""

    named: dict[str, list[Case]] = field(default_factory=dict)
    other: list[Case] = field(default_factory=list)


MAX_COMBINED = 3
"""The most misconceptions that together explain one function's failures."""


def diagnose(cases: Iterable[Case], catalogue: Sequence[Misconception]) -> Diagnosis:
    """Name the fewest misconceptions that explain all the failed cases of each function.

    For each function, the smallest set of rules (at most :data:`MAX_COMBINED`, of one side) that
    together explain every case wins, the earliest in the catalogue's order among equals. When
    none does, rules without a side (an error, a function not written) name what they can, the
    rule that explains the most cases first and a rule only when it explains a case no rule
    before it did; the rest are "other".

    A case whose answer the judge could not keep whole (:func:`cut`: 1,080 SETs of a full deck)
    is read by no rule: it is set aside when the function has failed cases whose answers were
    kept (they name the mistake), and is "other" only when all of them were cut.
    """
    found = Diagnosis()
    by_function: dict[str, list[Case]] = {}
    right: dict[str, list[Case]] = {}
    for case in cases:
        (right if case.passed else by_function).setdefault(case.function, []).append(case)
    for function, function_cases in by_function.items():
        readable = [case for case in function_cases if not cut(case)]
        function_cases = readable or function_cases
        answered = right.get(function, [])
        explained = [
            (index, rule, {i for i, case in enumerate(function_cases) if rule.explains(case)})
            for index, rule in enumerate(catalogue)
            if not any(rule.refuted(case) for case in answered)
        ]
        useful = [item for item in explained if item[2]]
        everything = set(range(len(function_cases)))
        chosen = None
        for size in range(1, MAX_COMBINED + 1):
            for combination in itertools.combinations(useful, size):
                sides = {rule.side for _, rule, _ in combination if rule.side}
                if len(sides) <= 1 and set().union(*(hit for _, _, hit in combination)) == everything:
                    chosen = combination
                    break
            if chosen:
                break
        if chosen is None:
            chosen, covered = (), set()
            # Greedy cover: the rule that explains the most cases first; one that adds nothing is not named.
            for item in sorted((item for item in useful if not item[1].side), key=lambda it: -len(it[2])):
                if item[2] - covered:
                    chosen += (item,)
                    covered |= item[2]
            found.other += [case for i, case in enumerate(function_cases) if i not in covered]
        taken: set[int] = set()
        for _, rule, hit in chosen:
            mine = sorted(hit - taken)
            taken |= hit
            if mine:
                found.named.setdefault(rule.key, []).extend(function_cases[i] for i in mine)
    return found


_CONTAINERS = frozenset({"list", "tuple", "set", "frozenset", "dict"})


def cut(case: Case) -> bool:
    """Whether the case's answer was too big for the judge to keep (it keeps a list of 1,080 SETs as
    a short text: :func:`setwidgets.grading.judge.kept_value`), so that no rule can read it.

    The kernel's own lists, tuples and sets come whole; a subclass of one comes as its own type's
    name, so an :class:`~setwidgets.grading.judge.Opaque` named ``list`` is one the judge cut.
    """
    return case.error is None and isinstance(case.got, Opaque) and case.got.type in _CONTAINERS


def plain_answer(value: Any) -> bool:
    """Whether an answer is safe to show on a projected page: no text a student chose."""
    from setwidgets.cards import FEATURES, VALUES

    if value is None or isinstance(value, (bool, int, float, Card, Raised)):
        return True
    if isinstance(value, str):  # a feature's name or one of its values: never a student's own words
        return value in FEATURES or any(value in values for values in VALUES.values())
    if isinstance(value, Opaque):
        return False
    if isinstance(value, (list, tuple)) and len(value) <= 30:
        return all(plain_answer(item) for item in value)
    from fractions import Fraction

    return isinstance(value, Fraction)
