"""Game schedules for a SET competition: who sits at which table in each round.

The competition guide (its format is told in lesson 15, running a class tournament) numbers the
players, sits them at tables of three, and asks that no two players meet twice
"if it can be avoided". Its printed schedules stop at 36 players, and most of them
make some pairs meet twice. :func:`schedule` makes one for any number of players.

**Table sizes.** Tables have ``table_size`` players (3 unless told) wherever the
number of players allows; the rest is taken up by *one* table that is a seat larger
or smaller: with 3 per table, 13 players sit at 4 + 3 + 3 + 3 and 14 players at
3 + 3 + 3 + 3 + 2. So nobody ever sits out (there are no byes). The odd table moves
round: nobody sits at it more often than their fair share (its seats over the rounds
divided among the players, rounded up) unless the fewest repeats need it. They do only
for 10 players (3 to 5 rounds), 11 (5 rounds) and 13 (3 to 5 rounds): some players sit
there once more than their share (twice with 10 players in 4 rounds), and with 10 players
in 3 or 4 rounds two players sit there in every round. Exhaustive search finds no schedule
with the fewest repeats that does better; :func:`odd_share` gives the most seats there.

**Six or seven rounds** (more than the guide's three or four, and beyond what the tests check
for every size) get the same search, which puts fewer repeats first and a fairer odd table
second. For 5 to 40 players (seeds 0, 1 and 2 tried) it reaches both the bound and the fair
share everywhere except: in 6 rounds, 12 players (7 repeats where the bound says 6), 13
players (the bound's 12 repeats, but up to 4 rounds at the table of four where 2 are fair;
seeds 9 and 10 give 2) and 16 players (1 or 2 repeats where the bound says 0, and up to 3
rounds at the table of four); in 7 rounds, 16 players (8 to 10 repeats for a bound of 6, up
to 4 rounds at the table of four) and 19 players (1 repeat for 0). There the bound may be out
of reach, and :func:`odd_share` is what the search aims at, not a promise.

**Fewest repeats.** A *repeat* is a second (or third ...) meeting of the same two
players; a schedule's repeats are counted over all pairs. :func:`fewest_repeats`
gives a lower bound that no schedule can beat, and :func:`schedule` reaches it, with
the odd table shared as above, for every competition from 3 to 60 players and 3 to 5
rounds, whatever the seed (the tests check each one with several seeds).
The bound is the largest of three arguments:

1. *Pairs.* Each round seats a fixed number of pairs at tables; over all rounds
   that is ``P`` meetings among ``N (N - 1) / 2`` pairs, so at least
   ``P - N (N - 1) / 2`` of them are repeats.
2. *Opponents of one player.* A player at a table of 3 meets 2 others; after
   ``R`` rounds that is ``2 R`` meetings with at most ``N - 1`` different people, so
   at least ``2 R - (N - 1)`` of that player's meetings are repeats. Each repeat is
   counted by both of its players: add over the players and halve. (With the odd
   table the meetings per player differ; the bound spreads them as evenly as
   possible, which is the best case.)
3. *Small cases*, settled by exhaustive search (:func:`exhaustive_fewest`): 6 players
   in 3 rounds need 5 repeats, 10 players in 3 rounds 2, 11 players in 5 rounds 1,
   and 12 or 13 players in 5 rounds 3. For 12 players in 5 rounds a proof in print
   shows that one is needed: a schedule without repeats would be a *nearly Kirkman
   triple system* on 12 points, and none exists (Kotzig and Rosa, 1974).

**The mathematics of the course.** Nine players who stand for nine cards of the
plane (the cards that share two features) meet in the plane's SETs: its four
*parallel classes* of lines are a four-round schedule in which every pair meets
exactly once. The 27 cards of the mini deck give 13 parallel classes (AG(3, 3)),
so 27 players play up to 13 rounds without a repeat. Fifteen players follow
Kirkman's schoolgirls (seven rounds, every pair once). Everything else comes
from a seeded search that swaps players between tables until the count of
repeats reaches the bound and the odd table is shared (:mod:`setwidgets.competition.search`).

Example::

    >>> plan = schedule(9, 4)
    >>> plan.rounds[0]
    ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    >>> plan.repeats()
    0
    >>> plan.table_of(5, round=2)
    2
    >>> fewest_repeats(6, 3)
    5
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from setwidgets import _inputs, _words
from setwidgets.competition.designs import KIRKMAN_15, Round, Table, plane_rounds
from setwidgets.competition.search import all_rounds, round_patterns, search_rounds

__all__ = [
    "KIRKMAN_15",
    "MOST_PLAYERS",
    "MOST_ROUNDS",
    "Schedule",
    "exhaustive_fewest",
    "fewest_repeats",
    "meetings",
    "misprints",
    "odd_share",
    "plane_rounds",
    "repeats",
    "schedule",
    "table_sizes",
]


MOST_PLAYERS = 1000
"""The most players a schedule is made for: a large hall; the search takes seconds there."""
MOST_ROUNDS = 30
"""The most rounds a schedule is made for: far past a day's play (the guide plays 4)."""
# A schedule read back (by meetings, repeats, misprints) may list more tables than players;
# past this many items of any list it is not a schedule (and an endless one is refused).
_MOST_ITEMS = 10 * MOST_PLAYERS

# -- counting ----------------------------------------------------------------------------------


def rounds_of_tables(rounds: Iterable[Iterable[Iterable[int]]], name: str = "rounds") -> list[list[Table]]:
    """``rounds`` as lists of tables of player numbers, checked: the shape of :attr:`Schedule.rounds`.

    A round is a list of tables, a table a list of player numbers (whole numbers from 1).
    Anything else is refused with what was wrong and where, before any counting.

    >>> rounds_of_tables([[(1, 2, 3)], [[1, 2], [3]]])
    [[(1, 2, 3)], [(1, 2), (3,)]]
    >>> rounds_of_tables([[1, 2, 3]])
    Traceback (most recent call last):
    TypeError: rounds: round 1, table 1 must be a list of player numbers like (1, 2, 3); got 1 (a number)
    """
    example = "[[(1, 2, 3), (4, 5, 6)], [(1, 4, 5), (2, 3, 6)]]"
    checked = []
    for r, game in enumerate(_items(rounds, name, f"a list of rounds like {example}"), 1):
        where = f"{name}: round {r}"
        tables = []
        for t, table in enumerate(_items(game, where, "a list of tables like [(1, 2, 3), (4, 5, 6)]"), 1):
            players = _items(table, f"{where}, table {t}", "a list of player numbers like (1, 2, 3)")
            tables.append(
                tuple(
                    _inputs.whole_number(p, f"{where}, table {t}: a player's number", minimum=1, example="7")
                    for p in players
                )
            )
        checked.append(tables)
    return checked


def _items(value: object, name: str, expected: str) -> list:
    """The items of a list (or other finite iterable, not text or a dict), at most _MOST_ITEMS of them."""
    _inputs.refuse_bytes(value, f"{name} must be {expected}")
    if isinstance(value, (str, dict)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be {expected}; got {_inputs.what(value)}")
    items = list(itertools.islice(value, _MOST_ITEMS + 1))
    if len(items) > _MOST_ITEMS:
        raise ValueError(f"{name} must be {expected}, with at most {_MOST_ITEMS} items; got more")
    return items


def meetings(rounds: Iterable[Iterable[Iterable[int]]]) -> Counter:
    """How often each pair of players sits at the same table: ``Counter({(a, b): times})`` with a < b.

    >>> meetings([[(1, 2, 3)], [(1, 2, 4)]])[(1, 2)]
    2
    """
    met: Counter = Counter()
    for game in rounds_of_tables(rounds):
        for table in game:
            for a, b in itertools.combinations(sorted(set(table)), 2):
                met[a, b] += 1
    return met


def repeats(rounds: Iterable[Iterable[Iterable[int]]]) -> int:
    """The number of repeated meetings: a pair that meets ``m`` times adds ``m - 1``.

    >>> repeats([[(1, 2, 3)], [(1, 2, 4)]])
    1
    """
    return sum(m - 1 for m in meetings(rounds).values() if m > 1)


def misprints(rounds: Sequence[Sequence[Sequence[int]]], players: int) -> list[str]:
    """What is wrong with a printed schedule: players listed twice in a round, left out, or unknown.

    >>> misprints([[(1, 2, 3), (3, 4, 5)]], 6)
    ['round 1: player 3 is listed twice and player 6 is left out']
    """
    players = _players(players)
    found = []
    for number, game in enumerate(rounds_of_tables(rounds), 1):
        seen = Counter(p for table in game for p in table)
        twice = sorted(p for p, n in seen.items() if n > 1)
        missing = sorted(set(range(1, players + 1)) - set(seen))
        unknown = sorted(p for p in seen if p > players)
        unknown_words = f"beyond the {players} players"
        parts = [
            f"{_listed('player', listed)} {_words.agree(len(listed), 'is', 'are')} {words}"
            for listed, words in ((twice, "listed twice"), (missing, "left out"), (unknown, unknown_words))
            if listed
        ]
        if parts:
            found.append(f"round {number}: " + " and ".join(parts))
    return found


def _players(players: object) -> int:
    """A number of players, checked: 3 (one table) to MOST_PLAYERS."""
    players = _inputs.whole_number(players, "players", minimum=3)
    if players > MOST_PLAYERS:
        raise ValueError(
            f"players must be at most {MOST_PLAYERS} (a schedule for more takes too long to find); "
            f"got {players}"
        )
    return players


def _rounds(rounds: object) -> int:
    """A number of rounds, checked: 1 to MOST_ROUNDS."""
    rounds = _inputs.whole_number(rounds, "rounds", minimum=1, example="4")
    if rounds > MOST_ROUNDS:
        raise ValueError(f"rounds must be at most {MOST_ROUNDS}; got {rounds}")
    return rounds


def _listed(noun: str, numbers: Sequence[int]) -> str:
    word = noun if len(numbers) == 1 else _words.plural(noun)
    return f"{word} {_words.and_list([str(n) for n in numbers])}"


# -- table sizes and the lower bound -----------------------------------------------------------


def table_sizes(players: int, table_size: int = 3) -> tuple[int, ...]:
    """The sizes of the tables in one round, largest first (see the module docstring).

    >>> table_sizes(13), table_sizes(14), table_sizes(4), table_sizes(5)
    ((4, 3, 3, 3), (3, 3, 3, 3, 2), (4,), (3, 2))
    >>> table_sizes(11, table_size=5), table_sizes(11, table_size=4)
    ((5, 3, 3), (4, 4, 3))
    """
    players = _players(players)
    table_size = _inputs.whole_number(table_size, "table_size", minimum=2, example="3")
    if table_size > 5:
        raise ValueError(
            f"table_size must be 2 to 5 (the guide's tables seat 2 to 5 players); got {table_size}"
        )
    full, left = divmod(players, table_size)
    if left == 0:
        return (table_size,) * full
    if left == 1:
        # One table a seat larger; with 5 a table (the guide's most) one 5 and the 1 make two tables of 3.
        if table_size < 5:
            return (table_size + 1,) + (table_size,) * (full - 1)
        return (table_size,) * (full - 1) + (3, 3)
    return (table_size,) * full + (left,)


def _pair_count(sizes: Sequence[int]) -> int:
    return sum(s * (s - 1) // 2 for s in sizes)


def _opponent_bound(players: int, rounds: int, sizes: Sequence[int]) -> int:
    """Argument 2 of the module docstring: spread each round's seats as evenly as possible."""
    base = Counter(sizes).most_common(1)[0][0]
    seats = [s for s in sizes if s != base for _ in range(s)]
    load = [rounds * (base - 1)] * players
    taken = [0] * players
    # Each seat at an odd table changes its player's meetings by (size - base); the best case
    # gives the extra meetings to those with fewest and the missing ones to those with most.
    for size in seats * rounds:
        change = size - base
        order = sorted(range(players), key=lambda p: (load[p] if change > 0 else -load[p], taken[p]))
        p = next(p for p in order if taken[p] < rounds)
        load[p] += change
        taken[p] += 1
    excess = sum(max(0, d - (players - 1)) for d in load)
    return math.ceil(excess / 2)


# Where arguments 1 and 2 fall short, exhaustive_fewest settled the minimum (tests/test_schedule.py
# runs it again): no schedule has fewer repeats, and schedule() finds one with this many.
_SEARCHED = {(6, 3): 5, (10, 3): 2, (11, 5): 1, (12, 5): 3, (13, 5): 3}


def fewest_repeats(players: int, rounds: int, *, table_size: int = 3) -> int:
    """A lower bound on the repeats of any schedule (see the module docstring); for tables of 3,
    :func:`schedule` reaches it in 3 to 5 rounds. For other sizes it is a bound only: 10 players at
    tables of 4 cannot play 3 rounds without a repeat, though the bound is 0.

    >>> fewest_repeats(9, 4), fewest_repeats(9, 5), fewest_repeats(12, 4)
    (0, 9, 0)
    """
    sizes = table_sizes(players, table_size)
    rounds = _rounds(rounds)
    bound = max(
        0,
        rounds * _pair_count(sizes) - players * (players - 1) // 2,
        _opponent_bound(players, rounds, sizes),
    )
    if table_size == 3:
        bound = max(bound, _SEARCHED.get((players, rounds), 0))
    return bound


# Below 14 players the fewest repeats crowd the odd table: exhaustive_fewest(..., odd_share=) finds
# no schedule with the fewest repeats and a smaller share (tests/test_schedule.py runs it again).
_CROWDED = {(10, 3): 3, (10, 4): 4, (10, 5): 3, (11, 5): 2, (13, 3): 2, (13, 4): 3, (13, 5): 3}


def odd_share(players: int, rounds: int, *, table_size: int = 3) -> int:
    """The most rounds anyone spends at the odd table in a :func:`schedule` (see the module docstring).

    Tables of another size than ``table_size`` are odd. The share is their seats over
    the rounds divided among the players, rounded up, except where the fewest repeats need
    more (below 14 players, see the module docstring). It holds for every schedule of 3 to
    5 rounds; for 6 or 7 rounds the module docstring names the few sizes that miss it.

    >>> odd_share(14, 4), odd_share(16, 5), odd_share(10, 4)
    (1, 2, 4)
    """
    sizes = table_sizes(players, table_size)
    rounds = _rounds(rounds)
    fair = math.ceil(rounds * sum(size for size in sizes if size != table_size) / players)
    return max(fair, _CROWDED.get((players, rounds), 0)) if table_size == 3 else fair


@cache
def exhaustive_fewest(
    players: int, rounds: int, below: int | None = None, *, odd_share: int | None = None
) -> int:
    """The fewest repeats with 3 per table, by trying every schedule (up to renaming); small cases only.

    Rounds are unordered and players can be renamed, so the first round is fixed, the
    second is one of each pattern (see the comments) and later rounds are taken in
    increasing order; a branch stops as soon as it cannot beat the best schedule found so far.
    With ``below``, only schedules with fewer repeats are looked for (``below`` is returned
    when there are none): quicker. With ``odd_share``, only schedules in which nobody sits
    at the odd table more than ``odd_share`` times.

    >>> exhaustive_fewest(6, 3), exhaustive_fewest(10, 3)
    (5, 2)
    """
    players = _players(players)
    rounds = _rounds(rounds)
    if odd_share is not None:
        odd_share = _inputs.whole_number(odd_share, "odd_share", minimum=1, example="2")
    if players > 13:
        raise ValueError(
            f"exhaustive_fewest tries every schedule, which is only quick up to 13 players; got {players}"
        )
    if rounds == 1:
        return 0
    masks, kind, odd = _every_round(players)
    first = masks[0]
    best = [math.inf if below is None else below]
    share = rounds if odd_share is None else odd_share

    # layers[i]: the players seated at the odd table more than i times, as bits; at_odd: a round's
    # players at the odd table. None: the round seats someone there beyond the share.
    def seated(layers: tuple[int, ...], at_odd: int) -> tuple[int, ...] | None:
        if layers[-1] & at_odd:
            return None
        return tuple(more | (prev & at_odd) for more, prev in zip(layers, (-1, *layers)))

    # options: the rounds that may come next, as (repeats it adds, its pairs, its odd table's players).
    def search(done: int, options: list[tuple[int, int, int]], seen: int, cost: int, layers: tuple) -> None:
        if done == rounds:
            best[0] = min(best[0], cost)
            return
        for k, (added, mask, at_odd) in enumerate(options):
            if cost + added >= best[0] or (now_layers := seated(layers, at_odd)) is None:
                continue
            if done + 1 == rounds:  # this round ends a schedule, with fewer repeats than the best
                best[0] = cost + added
                continue
            now, total, full = seen | mask, cost + added, now_layers[-1]
            # Keep the rounds that could still lead below the best (rounds in increasing order)
            # and seat nobody at the odd table beyond the share.
            later = itertools.islice(options, k, None)
            if done + 2 == rounds:
                # Every one kept would end a schedule: only the fewest repeats among them count.
                fewest = min(((m & now).bit_count() for _, m, o in later if not full & o), default=math.inf)
                best[0] = min(best[0], total + fewest)
                continue
            room = best[0] - total
            rest = [(c, m, o) for _, m, o in later if not full & o and (c := (m & now).bit_count()) < room]
            search(done + 1, rest, now, total, now_layers)

    seconds_ = {}
    for mask in masks:
        seconds_.setdefault(kind[mask], mask)
    for key in sorted(seconds_):
        second = seconds_[key]
        seen, cost = first | second, (second & first).bit_count()
        layers = seated(seated((0,) * share, odd[first]), odd[second])
        if cost >= best[0] or layers is None:
            continue
        full = layers[-1]
        later = [((m & seen).bit_count(), m, odd[m]) for m in masks if kind[m] >= key and not full & odd[m]]
        search(2, [(c, m, o) for c, m, o in later if cost + c < best[0]], seen, cost, layers)
    return int(best[0])


@cache
def _every_round(players: int) -> tuple[list[int], dict[int, tuple], dict[int, int]]:
    """Every round for :func:`exhaustive_fewest` as the bits of its pairs, with its pattern and odd table."""
    bit = {pair: 1 << i for i, pair in enumerate(itertools.combinations(range(players), 2))}
    # A round is the set of pairs it seats together, as the bits of one int. A pair meeting
    # again adds one repeat, so a round adds as many repeats as it has pairs already seen.
    # A table comes back in many rounds: its pairs' bits are added up once.
    pairs_at = cache(lambda table: sum(bit[pair] for pair in itertools.combinations(table, 2)))
    every = all_rounds(list(range(players)), table_sizes(players, 3))
    games = {sum(map(pairs_at, game)): game for game in every}
    masks = sorted(games)
    # Renaming players within a table of the first round, or swapping two tables of the same
    # size, keeps the first round. So a round matters only through its *pattern*: how many
    # players each of its tables takes from each table of the first round. The second round is
    # taken as one round of each pattern, the one whose pattern comes first among the later rounds.
    pattern = round_patterns(games[masks[0]])
    kind = {mask: pattern(games[mask]) for mask in masks}
    # odd[mask]: the players at the odd table, as bits (a table's bits added up once, as its pairs).
    odd_bits = cache(lambda table: 0 if len(table) == 3 else sum(1 << p for p in table))
    odd = {mask: sum(map(odd_bits, games[mask])) for mask in masks}
    return masks, kind, odd


# -- the schedule ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """A competition's game schedule: ``rounds[r][t]`` holds the players at table t + 1 in round r + 1.

    Players are numbered from 1, as on their entry cards. When there are fewer tables
    than a round needs, ``tables`` says how many there are and :meth:`rotations`
    splits each round into rotations played one after the other.
    """

    players: int
    rounds: tuple[Round, ...]
    tables: int
    seed: int | None = None
    method: str = "search"

    def repeats(self) -> int:
        """How many meetings are repeats (a pair meeting ``m`` times adds ``m - 1``)."""
        return repeats(self.rounds)

    def meetings(self) -> Counter:
        """How often each pair meets, see :func:`meetings`."""
        return meetings(self.rounds)

    def rotations(self, round: int) -> list[list[tuple[int, Table]]]:
        """The rotations of one round (from 1): each a list of ``(table number, players)``.

        The tables of a round are played ``tables`` at a time: the first rotation
        uses tables 1 to ``tables``, the next the same physical tables again.
        """
        game = self._round(round)
        numbered = list(enumerate(game, 1))
        return [numbered[i : i + self.tables] for i in range(0, len(numbered), self.tables)]

    def table_of(self, player: int, round: int) -> int:
        """The table (from 1) where ``player`` sits in ``round`` (from 1)."""
        player = _inputs.whole_number(player, "player", minimum=1, example="7")
        if player > self.players:
            raise ValueError(f"there are {self.players} players; got player {player}")
        for number, table in enumerate(self._round(round), 1):
            if player in table:
                return number
        # A player registered late has no table in the rounds before they came.
        raise ValueError(f"player {player} does not play in round {round}")

    def seat(self, player: int, round: int) -> str:
        """Where a player goes, in words: 'table 5', or 'table 7 (rotation 2, at table 1)' with rotations.

        The table's number is the one its scores are entered under (``Competition.record``);
        with rotations, the room's table where it is played follows in brackets. A player
        registered late has 'no game' in the rounds before they came.

        >>> schedule(9, 3).seat(4, 1)
        'table 2'
        """
        player = _inputs.whole_number(player, "player", minimum=1, example="7")
        if player <= self.players and not any(player in table for table in self._round(round)):
            return "no game"
        table = self.table_of(player, round)
        if len(self._round(round)) <= self.tables:
            return f"table {table}"
        rotation, place = self.place(round, table)
        return f"table {table} (rotation {rotation}, at table {place})"

    def place(self, round: int, table: int) -> tuple[int, int]:
        """Where table ``table`` of ``round`` is played: ``(rotation, the room's table)``, both from 1.

        A table's own number (``table``, as ``Competition.record`` takes it) never changes; this
        is the only place that works out the room's table from it, so that the coordinator's
        page, the slips and the score sheets all say the same.

        >>> schedule(21, 4, tables=5).place(1, 7)
        (2, 2)
        """
        count = len(self._round(round))
        table = _inputs.whole_number(table, "table", minimum=1, example="3")
        if table > count:
            raise ValueError(f"round {round} has {_words.count(count, 'table')}; got table {table}")
        rotation, place = divmod(table - 1, self.tables)
        return rotation + 1, place + 1

    def slip(self, player: int) -> str:
        """A player's own slip: 'Player 4: round 1: table 2; round 2: table 1; ...'."""
        parts = [f"round {r}: {self.seat(player, r)}" for r in range(1, len(self.rounds) + 1)]
        return f"Player {player}: " + "; ".join(parts)

    def _round(self, round: int) -> Round:
        round = _inputs.whole_number(round, "round", minimum=1, example="2")
        if round > len(self.rounds):
            raise ValueError(f"the schedule has {_words.count(len(self.rounds), 'round')}; got round {round}")
        return self.rounds[round - 1]

    def __str__(self) -> str:
        lines = [f"{_words.count(self.players, 'player')}, {_words.count(len(self.rounds), 'round')}"]
        for r, game in enumerate(self.rounds, 1):
            tables = "  ".join(f"{t}: {'-'.join(map(str, table))}" for t, table in enumerate(game, 1))
            lines.append(f"round {r}  {tables}")
        return "\n".join(lines)


def schedule(
    players: int,
    rounds: int,
    *,
    table_size: int = 3,
    tables: int | None = None,
    seed: int | random.Random | None = None,
) -> Schedule:
    """A game schedule for ``players`` players over ``rounds`` rounds, with the fewest repeats.

    Nobody sits at the odd table more than :func:`odd_share` times (in 3 to 5 rounds; for
    more, see the module docstring). ``table_size`` is
    the preferred number at a table (3, as in the guide; see :func:`table_sizes` for the
    odd table). ``tables`` is how many tables the room has; with fewer than a round needs,
    each round is played in rotations (see :meth:`Schedule.rotations`). ``seed`` makes the
    search repeatable (0 unless told: the same call always gives the same schedule).

    >>> plan = schedule(15, 4)
    >>> plan.repeats(), plan.method
    (0, 'Kirkman')
    >>> schedule(21, 4, tables=5).seat(21, 1)
    'table 7 (rotation 2, at table 2)'
    """
    sizes = table_sizes(players, table_size)
    rounds = _rounds(rounds)
    if tables is None:
        tables = len(sizes)
    tables = _inputs.whole_number(tables, "tables", minimum=1, example="6")
    tables = min(tables, len(sizes))
    rng, used = _inputs.rng_and_seed(0 if seed is None else seed)
    games, method = _geometry(players, rounds, table_size)
    if games is None:
        target = fewest_repeats(players, rounds, table_size=table_size)
        share = odd_share(players, rounds, table_size=table_size)
        games = search_rounds(players, rounds, sizes, target, rng, table_size=table_size, share=share)
        method = "search"
    return Schedule(players, tuple(games), tables, used, method)


def _geometry(players: int, rounds: int, table_size: int) -> tuple[list[Round] | None, str]:
    if table_size != 3:
        return None, ""
    if players == 9 and rounds <= 4:
        return plane_rounds(2)[:rounds], "plane"
    if players == 27 and rounds <= 13:
        return plane_rounds(3)[:rounds], "AG(3,3)"
    if players == 15 and rounds <= 7:
        return [tuple(tuple(sorted(t)) for t in game) for game in KIRKMAN_15[:rounds]], "Kirkman"
    return None, ""
