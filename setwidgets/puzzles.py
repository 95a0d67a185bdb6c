"""A SET puzzle and a practice record: the state behind the PuzzleBoard, with no widget in it.

A :class:`Puzzle` is a fixed table of cards (12 by default) and the task of
finding *all* of its SETs, as in the puzzle mode of online SET sites. Nothing
is dealt and nothing is replaced: the student claims three cards at a time,
and the puzzle says whether they are a SET not yet found, one found before,
or not a SET at all (a miss). The clock starts when the puzzle is made and
stops at the last SET.

A :class:`PracticeRecord` keeps the puzzles of a session: how many boards were
solved, the median time, the misses; as a table or as a plot.

Both are plain Python (matplotlib is imported only to draw a plot), so they
can be tested and used without a browser::

    >>> t = [0.0]
    >>> puzzle = Puzzle(seed=5, clock=lambda: t[0])
    >>> len(puzzle.cards), puzzle.left == len(puzzle.solutions)
    (12, True)
    >>> t[0] = 30.0
    >>> answer = puzzle.claim(puzzle.solutions[0])
    >>> answer.kind, puzzle.left == len(puzzle.solutions) - 1
    ('found', True)
    >>> puzzle.claim(puzzle.solutions[0]).kind
    'again'
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape
from math import comb
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import Card, full_deck
from setwidgets.rules import Verdict, explain, find_sets

__all__ = ["Answer", "Attempt", "PracticeRecord", "Puzzle", "session_record"]

TABLE = 12
"""The cards of a puzzle, unless told otherwise: one ordinary table."""
MOST_DEALS = 10_000
"""How many deals a puzzle tries for a table with the SETs asked for before it gives up."""

Triple = tuple[Card, Card, Card]


def _misses(n: int) -> str:
    return f"{_words.number(n)} {_words.agree(n, 'miss', 'misses')}"


@dataclass(frozen=True)
class Answer:
    """What the puzzle said to one claim of three cards.

    ``kind`` is ``"found"`` (a SET not found before), ``"again"`` (a SET found
    before; no harm done) or ``"miss"`` (not a SET; it counts as a miss).
    ``verdict`` explains the three cards with the magic rule; ``message`` is one
    sentence for the student.
    """

    kind: str
    cards: Triple
    verdict: Verdict
    message: str

    @property
    def ok(self) -> bool:
        """True when the claim found a new SET."""
        return self.kind == "found"


def _deal(rng: random.Random, size: int, sets: int | None) -> list[Card]:
    deck = full_deck()
    for _ in range(MOST_DEALS):
        table = rng.sample(deck, size)
        found = len(find_sets(table))
        if (sets is None and found > 0) or found == sets:
            return table
    wanted = "a SET" if sets is None else _words.count(sets, "SET")
    raise ValueError(
        f"no table of {size} cards with {wanted} came up in {MOST_DEALS} deals; ask for fewer SETs"
    )


class Puzzle:
    """A table of cards whose SETs are all to be found, with a clock and a count of misses.

    Parameters
    ----------
    cards:
        The cards of the table (Card objects or codes), at least one SET among
        them; default: a seeded deal of ``size`` cards from the full deck.
    seed:
        A whole number for the deal (the same seed, the same table), a
        ``random.Random``, or None for a fresh seed (``puzzle.seed`` tells it).
    size:
        How many cards are dealt when ``cards`` is not given (3 to 20; 12 by default).
    sets:
        Deal until the table holds exactly this many SETs (online puzzles use 6);
        default: any table with at least one SET.
    clock:
        A function returning the time in seconds; tests pass a fake one.

    >>> puzzle = Puzzle(["1RSO", "2RSO", "3RSO", "1GSO"], clock=lambda: 0.0)
    >>> puzzle.left, puzzle.claim("1RSO 2RSO 1GSO").message
    (1, 'Not a SET: two have one symbol and one has two symbols; two are red and one is green. A miss.')
    >>> puzzle.claim("1RSO 2RSO 3RSO").message
    'A SET! That was the last one: solved in 0 seconds.'
    """

    def __init__(
        self,
        cards: Iterable[Card | str] | None = None,
        *,
        seed: int | random.Random | None = None,
        size: int = TABLE,
        sets: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        clock = _inputs.clock(clock)
        if cards is not None:
            if seed is not None or sets is not None or size != TABLE:
                raise TypeError(
                    "give either cards=, or seed= (with size= and sets=) for a dealt table, not both"
                )
            table = _card_inputs.distinct_cards("Puzzle", cards)
            if not find_sets(table):
                raise ValueError(
                    f"a puzzle needs at least one SET among its cards; got {_card_inputs.listed(table)}"
                )
            rng, seed_used = None, None
        else:
            size = _inputs.whole_number(size, "size", minimum=3, example="12")
            if size > 20:
                raise ValueError(f"size must be from 3 to 20 cards; got {_inputs.short(size)}")
            if sets is not None:
                sets = _inputs.whole_number(sets, "sets", minimum=1, example="6")
                # Each pair of cards lies in one SET at most, and a SET holds three pairs.
                most = comb(size, 2) // 3
                if sets > most:
                    raise ValueError(
                        f"sets must be at most {most}: {size} cards hold no more SETs; "
                        f"got {_inputs.short(sets)}"
                    )
            rng, seed_used = _inputs.rng_and_seed(seed)
            table = _deal(rng, size, sets)
        self.cards: tuple[Card, ...] = tuple(table)
        self.seed = seed_used
        self.solutions: list[Triple] = find_sets(self.cards)
        self.found: list[Triple] = []
        self.misses = 0
        self._clock = clock
        self.started = _inputs.read_clock(clock)
        self.finished: float | None = None

    @property
    def left(self) -> int:
        """How many SETs are still to be found."""
        return len(self.solutions) - len(self.found)

    @property
    def solved(self) -> bool:
        """True once every SET of the table has been found."""
        return self.left == 0

    def start(self) -> None:
        """Start the clock now, unless a claim was made already.

        A puzzle's time counts from when it was made; a board starts it again at the student's
        first click or key, so that the time read is the student's, not the page's.
        """
        if not self.found and not self.misses:
            self.started = _inputs.read_clock(self._clock)

    def elapsed(self) -> float:
        """Seconds since the puzzle was made (or started), up to the moment it was solved."""
        end = self.finished if self.finished is not None else self._clock()
        return max(0.0, end - self.started)

    def _solution(self, cards: Iterable[Card]) -> Triple | None:
        wanted = set(cards)
        return next((s for s in self.solutions if set(s) == wanted), None)

    def claim(self, *cards: Card | str | Iterable[Card | str]) -> Answer:
        """Claim three cards of the table as a SET; returns the :class:`Answer`.

        Cards that are not on the table, or the same card twice, are refused
        with a ValueError (nothing counts); so is a claim on a solved puzzle.
        """
        chosen = _card_inputs.exactly("claim", cards, 3)
        missing = [c for c in chosen if c not in self.cards]
        if missing:
            raise ValueError(
                f"claim() takes three cards of this puzzle; {_words.and_list([c.code for c in missing])} "
                f"{_words.agree(len(missing), 'is', 'are')} not on the table"
            )
        twice = _card_inputs.repeated(chosen)
        if twice is not None:
            raise ValueError(f"claim() needs three different cards; {twice.name} ({twice}) is given twice")
        if self.solved:
            raise ValueError("this puzzle is solved: every SET has been found; start a new one")
        verdict = explain(chosen)
        solution = self._solution(chosen)
        if solution is None:
            self.misses += 1
            return Answer("miss", chosen, verdict, f"{verdict} A miss.")
        if solution in self.found:
            return Answer("again", chosen, verdict, f"You found that SET already; {self._left_text()}.")
        self.found.append(solution)
        if self.solved:
            self.finished = _inputs.read_clock(self._clock)
            seconds = _words.seconds(_words.whole_seconds(self.elapsed()))
            return Answer("found", chosen, verdict, f"A SET! That was the last one: solved in {seconds}.")
        return Answer(
            "found", chosen, verdict, f"A SET! {self._left_text()[:1].upper()}{self._left_text()[1:]}."
        )

    def _left_text(self) -> str:
        return f"{_words.count(self.left, 'SET')} still to find"

    def progress(self) -> str:
        """One line: ``'SETs found: 2 of 5 · 1 miss'``."""
        return f"SETs found: {len(self.found)} of {len(self.solutions)} · {_misses(self.misses)}"

    def __repr__(self) -> str:
        return f"<Puzzle: {len(self.cards)} cards, {len(self.found)} of {len(self.solutions)} SETs found>"


@dataclass(frozen=True)
class Attempt:
    """One puzzle in a practice record: its SETs, how many were found, the seconds and the misses."""

    board: int
    seed: int | None
    sets: int
    found: int
    seconds: float
    misses: int

    @property
    def solved(self) -> bool:
        """True when every SET of the board was found."""
        return self.found == self.sets


COLUMNS = ("board", "SETs", "found", "seconds", "misses", "solved")


class PracticeRecord:
    """The puzzles of a practice session: boards solved, median time, misses.

    A :class:`~setwidgets.widgets.PuzzleBoard` adds each board to its record
    when it is solved, or when a new board replaces one that was started.

    >>> record = PracticeRecord()
    >>> t = [0.0]
    >>> p = Puzzle(["1RSO", "2RSO", "3RSO"], clock=lambda: t[0])
    >>> t[0] = 12.0
    >>> _ = p.claim(p.cards)
    >>> record.add(p).seconds, record.solved, record.median_seconds
    (12.0, 1, 12.0)
    >>> print(record.summary())
    1 board solved, median time 12 seconds, 0 misses.
    """

    def __init__(self) -> None:
        self._attempts: list[Attempt] = []
        # The puzzles themselves, not their id(): a freed puzzle's id is soon another's.
        self._added: list[Puzzle] = []

    def add(self, puzzle: Puzzle) -> Attempt:
        """Record a puzzle (once): its time so far, the SETs found and the misses."""
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"add() records a Puzzle; got {_inputs.what(puzzle)}")
        if any(added is puzzle for added in self._added):
            raise ValueError("this puzzle is already in the record")
        attempt = Attempt(
            board=len(self._attempts) + 1,
            seed=puzzle.seed,
            sets=len(puzzle.solutions),
            found=len(puzzle.found),
            seconds=round(puzzle.elapsed(), 1),
            misses=puzzle.misses,
        )
        self._attempts.append(attempt)
        self._added.append(puzzle)
        return attempt

    @property
    def attempts(self) -> list[Attempt]:
        """The boards played, in order."""
        return list(self._attempts)

    def __len__(self) -> int:
        return len(self._attempts)

    @property
    def solved(self) -> int:
        """How many boards were solved (every SET found)."""
        return sum(a.solved for a in self._attempts)

    @property
    def misses(self) -> int:
        """Misses on all boards together."""
        return sum(a.misses for a in self._attempts)

    @property
    def median_seconds(self) -> float | None:
        """The median time of the solved boards, in seconds (None before the first is solved)."""
        times = [a.seconds for a in self._attempts if a.solved]
        return statistics.median(times) if times else None

    def summary(self) -> str:
        """One sentence: ``'3 boards solved, median time 41 seconds, 2 misses.'``"""
        median = self.median_seconds
        time_text = "no time yet" if median is None else f"median time {_words.seconds(round(median))}"
        return f"{_words.count(self.solved, 'board')} solved, {time_text}, {_misses(self.misses)}."

    def rows(self) -> list[tuple[Any, ...]]:
        """One tuple per board, in the order of :data:`COLUMNS`."""
        return [
            (a.board, a.sets, a.found, a.seconds, a.misses, "yes" if a.solved else "no")
            for a in self._attempts
        ]

    def table(self) -> str:
        """The record as a plain-text table, with the summary under it."""
        rows = [
            COLUMNS,
            *[tuple(_words.number(v) if not isinstance(v, str) else v for v in r) for r in self.rows()],
        ]
        widths = [max(len(str(r[i])) for r in rows) for i in range(len(COLUMNS))]
        lines = ["  ".join(str(v).rjust(w) for v, w in zip(r, widths)) for r in rows]
        return "\n".join([*lines, self.summary()])

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{c}</th>" for c in COLUMNS)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{escape(_words.number(v) if not isinstance(v, str) else v)}</td>" for v in r)
            + "</tr>"
            for r in self.rows()
        )
        return f"<table><tr>{head}</tr>{body}</table><p>{escape(self.summary())}</p>"

    def __repr__(self) -> str:
        return self.table()

    def plot(self, ax: Any = None) -> Any:
        """A bar chart of the seconds per board (solved boards dark, others light), with the median.

        Draws on ``ax`` (a matplotlib Axes) or on a new figure; returns the Axes.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        boards = [a.board for a in self._attempts]
        seconds = [a.seconds for a in self._attempts]
        colors = ["tab:green" if a.solved else "lightgray" for a in self._attempts]
        ax.bar(boards, seconds, color=colors)
        if seconds:
            # Room above the bars for the legend; an axis shared with another plot keeps its larger top.
            ax.set_ylim(0, max(ax.get_ylim()[1], max(seconds) * 1.3))
        median = self.median_seconds
        if median is not None:
            ax.axhline(median, color="black", linestyle="--", linewidth=1, label=f"median {median:g} s")
            ax.legend(loc="upper right", fontsize="small")
        ax.set_xlabel("board")
        ax.set_ylabel("seconds")
        ax.set_xticks(boards)
        ax.set_title(self.summary())
        return ax


_SESSION = PracticeRecord()


def session_record() -> PracticeRecord:
    """The practice record of this Python session: every PuzzleBoard adds to it unless given its own."""
    return _SESSION
