"""Schedules that come from designs: Kirkman's schoolgirls and the lines of the card space.

:mod:`setwidgets.competition.schedules` takes these where they fit: Kirkman's fifteen
schoolgirls for 15 players (every pair meets once in seven rounds), and the parallel classes of
the plane of 9 cards or the space of 27 for 9 or 27 players.
"""

from __future__ import annotations

Table = tuple[int, ...]
"""The players at one table, by number."""
Round = tuple[Table, ...]
"""The tables of one round."""


# Kirkman's fifteen schoolgirls, the cyclic solution: the girls are 0..6 in two rows (row 0 and
# row 1) and one more, "fixed". Round k+1 adds k (mod 7) to every girl of this first round except
# the fixed one; over the seven rounds each pair walks together exactly once.
_KIRKMAN_BASE = (("fixed", (0, 0), (0, 1)), ((1, 0), (2, 0), (4, 0)), ((3, 0), (1, 1), (5, 1)),
                 ((5, 0), (4, 1), (6, 1)), ((6, 0), (2, 1), (3, 1)))  # fmt: skip


def _kirkman() -> tuple[Round, ...]:
    def number(girl, k: int) -> int:
        # Players 1-7 are row 0, 8-14 row 1, 15 the fixed girl.
        return 15 if girl == "fixed" else (girl[0] + k) % 7 + 1 + 7 * girl[1]

    return tuple(tuple(tuple(number(g, k) for g in walk) for walk in _KIRKMAN_BASE) for k in range(7))


KIRKMAN_15: tuple[Round, ...] = _kirkman()
"""Kirkman's schoolgirls as a schedule for players 1 to 15: seven rounds, every pair meets once."""


def plane_rounds(dimension: int = 2) -> list[Round]:
    """The parallel classes of the affine space of cards: 4 rounds for 9 players, 13 for 27.

    The players stand for the red solid cards (``dimension=2``: number and shape vary, a
    plane of 9 cards) or the red cards of the mini deck (``dimension=3``: 27 cards).
    The SETs among them are the lines; lines with the same *direction* (the same
    difference from one card to the next) never share a card, and together hold every
    card once: a round in which everyone plays.

    >>> plane_rounds()[0]
    ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    >>> len(plane_rounds(3))
    13
    """
    from setwidgets.cards import mini_deck
    from setwidgets.rules import find_sets

    if dimension not in (2, 3):
        raise ValueError(f"dimension must be 2 (9 players) or 3 (27 players); got {dimension!r}")
    cards = [c for c in mini_deck() if dimension == 3 or c.shading == "solid"]
    number = {card: i + 1 for i, card in enumerate(cards)}
    classes: dict[tuple, list[Table]] = {}
    for line in find_sets(cards):
        # The cards are numbered in the order of their vectors, so a and b, the line's two
        # smallest, hold 0 and 1 where its direction first moves: all lines of one direction
        # give the same step, the one of d and 2d whose first nonzero entry is 1.
        a, b, _ = sorted(line, key=number.get)
        step = tuple((y - x) % 3 for x, y in zip(a.vector, b.vector))
        classes.setdefault(step, []).append(tuple(sorted(number[c] for c in line)))
    # Each round's first table seats player 1 with a partner no other round gives them: sorted
    # rounds go in order of their first table's step.
    return sorted(tuple(sorted(tables)) for tables in classes.values())
