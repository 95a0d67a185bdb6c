"""What a run of :func:`setwidgets.sim.play` saw (:class:`Tally`), and the Wilson interval of a rate.

>>> tally = Tally("standard", "full", "first", seed=1, games=10)
>>> tally.tables[12], tally.no_set[12] = 1000, 60
>>> rate, low, high = tally.rate(12)
>>> rate, round(low, 4), round(high, 4)
(0.06, 0.0469, 0.0765)
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from setwidgets import _extras, _inputs, _words
from setwidgets.game.variants import names as variant_names
from setwidgets.game.variants import rules_of

__all__ = ["Tally", "wilson"]

_LARGEST_Z = 10  # a 1 - 1e-23 interval already; a z much larger would overflow z * z


def wilson(hits: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``hits`` out of ``trials`` (95% by default).

    >>> low, high = wilson(60, 1000)
    >>> round(low, 4), round(high, 4)
    (0.0469, 0.0765)
    """
    hits = _inputs.whole_number(hits, "hits", minimum=0, example="60")
    trials = _inputs.whole_number(trials, "trials", minimum=0, example="1000")
    if hits > trials:
        raise ValueError(
            f"hits must be at most the trials, {_inputs.short(trials)}; got {_inputs.short(hits)}"
        )
    if isinstance(z, bool) or not isinstance(z, numbers.Real):
        raise TypeError(f"z must be a number like 1.96 (for 95%); got {_inputs.what(z)}")
    if not 0 < z <= _LARGEST_Z:  # nan fails this too
        raise ValueError(
            f"z must be above 0 and at most {_LARGEST_Z}, like 1.96 (for 95%); got {_inputs.short(z)}"
        )
    z = float(z)
    if trials == 0:
        return 0.0, 1.0
    # Counts enter only as hits / trials and 1 / trials, which Python divides exactly from whole
    # numbers of any size: a count beyond the floats (10**400) then gives the interval, not OverflowError.
    p, per_trial = hits / trials, 1 / trials
    zz = z * z * per_trial  # z**2 / trials
    if hits == 0:
        return 0.0, zz / (1 + zz)  # the closed form, without rounding below zero
    if hits == trials:
        return 1 / (1 + zz), 1.0
    centre = p + zz / 2
    spread = z * math.sqrt(p * (1 - p) * per_trial + zz * per_trial / 4)
    scale = 1 + zz
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class Tally:
    """What :func:`play` saw: games, tables by size, tables without a SET, cards left, SETs kept.

    - ``games``: games played to the end;
    - ``tables[size]``: tables of that size looked at during play, after every
      deal and every SET taken, while cards were left in the deck (the last
      tables of a game, dealt from no deck, are left out, as in the published
      figures);
    - ``no_set[size]``: how many of them had no SET;
    - ``left[n]``: games that ended with ``n`` cards not taken (on the table
      and, when no SET could be made any more, in the deck);
    - ``sets[n]``: games in which ``n`` SETs were taken;
    - ``lost``: solitaire games lost (a full table without a SET);
    - ``interrupted``: True when the run was stopped before the end (Ctrl-C):
      the tally holds the games finished by then;
    - ``taken``: with ``keep_sets=True``, the SETs of each game in the order
      taken, as triples of card indices; otherwise None.

    :meth:`rate` gives the no-SET rate of a table size with its 95%
    confidence interval; :meth:`plot` draws them all.
    """

    variant: str
    deck: str
    policy: str
    seed: int | None
    games: int = 0
    tables: Counter = field(default_factory=Counter)
    no_set: Counter = field(default_factory=Counter)
    left: Counter = field(default_factory=Counter)
    sets: Counter = field(default_factory=Counter)
    lost: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    taken: list[list[tuple[int, int, int]]] | None = None

    def __post_init__(self) -> None:
        # A tally made by hand is checked as play makes one, so its text and its rates can be read.
        for name in ("variant", "deck", "policy"):
            given = getattr(self, name)
            if not isinstance(given, str):
                raise TypeError(f"a tally's {name} is a name, a string; got {_inputs.what(given)}")
        if self.seed is not None:
            self.seed = _inputs.whole_number(self.seed, "a tally's seed", example="1")
        self.games = _inputs.whole_number(self.games, "a tally's games", minimum=0, example="1000")
        self.lost = _inputs.whole_number(self.lost, "a tally's lost games", minimum=0, example="3")
        for name in ("tables", "no_set", "left", "sets"):
            setattr(self, name, _counts(getattr(self, name), f"a tally's {name}"))
        self.interrupted = _inputs.true_or_false(self.interrupted, "a tally's interrupted")
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, numbers.Real):
            raise TypeError(f"a tally's seconds are a number; got {_inputs.what(self.seconds)}")
        if not 0 <= self.seconds < math.inf:
            raise ValueError(f"a tally's seconds are 0 or more; got {_inputs.short(self.seconds)}")
        if self.taken is not None and not isinstance(self.taken, list):
            raise TypeError(
                f"a tally's taken is a list of games' SETs, or None; got {_inputs.what(self.taken)}"
            )

    def rate(self, size: int) -> tuple[float, float, float]:
        """The share of tables of ``size`` cards without a SET, and its 95% Wilson interval.

        Returns ``(rate, low, high)``; a size never seen gives ``(nan, 0.0, 1.0)``.
        """
        size = _inputs.whole_number(size, "size", example="12")
        seen, none = self.tables.get(size, 0), self.no_set.get(size, 0)
        low, high = wilson(none, seen)
        return (none / seen if seen else math.nan), low, high

    def rates(self) -> dict[int, tuple[float, float, float]]:
        """:meth:`rate` for every table size seen, smallest first."""
        return {size: self.rate(size) for size in sorted(self.tables)}

    @property
    def mean_sets(self) -> float:
        """SETs taken per game, on average."""
        return sum(n * g for n, g in self.sets.items()) / self.games if self.games else math.nan

    def __repr__(self) -> str:
        head = (
            f"Tally: {_words.count(self.games, 'game')} of {self.variant} SET "
            f"({self.deck} deck, {self.policy} SET taken, seed {self.seed})"
        )
        if self.interrupted:
            head += ", interrupted: only the games finished before the stop are counted"
        lines = [head]
        if self.games:
            lines.append(f"  SETs per game: {self.mean_sets:.2f} on average")
            shares = ", ".join(
                f"{n} ({g / self.games:.0%})" if g >= self.games / 100 else f"{n} ({_words.count(g, 'game')})"
                for n, g in sorted(self.left.items())
                if g
            )
            lines.append(f"  cards left at the end: {shares}")
            if self.variant in variant_names() and rules_of(self.variant).lost_on_full_table:
                lines.append(f"  lost: {self.lost} ({self.lost / self.games:.1%})")
        lines.append("  tables looked at while cards were left in the deck:")
        lines.append("  cards  tables seen  without a SET  rate    95% interval")
        for size, (rate, low, high) in self.rates().items():
            lines.append(
                f"  {size:>5}  {self.tables[size]:>11}  {self.no_set[size]:>13}  "
                f"{rate:>6.2%}  {low:.2%} to {high:.2%}"
            )
        return "\n".join(lines)

    def plot(self, ax: Any = None) -> Any:
        """A bar chart of the no-SET rate for each table size, with 95% intervals; returns the axes.

        ``ax`` is a matplotlib axes to draw on (a new figure when None).
        """
        plt = _extras.require("matplotlib.pyplot", "sim", "Tally.plot")  # only a plot needs matplotlib
        from matplotlib.axes import Axes

        if ax is not None and not isinstance(ax, Axes):
            raise TypeError(
                f"ax must be a matplotlib axes to draw on, or None for a new figure; got {_inputs.what(ax)}"
            )
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.5))
        rates = self.rates()
        sizes = list(rates)
        values = [100 * rates[s][0] for s in sizes]
        below = [100 * (rates[s][0] - rates[s][1]) for s in sizes]
        above = [100 * (rates[s][2] - rates[s][0]) for s in sizes]
        ax.bar([str(s) for s in sizes], values, yerr=[below, above], capsize=4, color="#6a8caf")
        ax.set_xlabel("cards on the table")
        ax.set_ylabel("tables without a SET (%)")
        ax.set_title(f"{self.variant} SET, {_words.count(self.games, 'game')}, {self.policy} SET taken")
        return ax


def _counts(value: Any, name: str) -> Counter:
    """A tally's counts by size (whole numbers, 0 or more, by whole numbers), as a Counter."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} are counts by size, a dict like {{12: 1000}}; got {_inputs.what(value)}")
    counts: Counter = Counter()
    for size, count in value.items():
        key = _inputs.whole_number(size, f"each size in {name}", example="12")
        counts[key] = _inputs.whole_number(count, f"each count in {name}", minimum=0, example="1000")
    return counts
