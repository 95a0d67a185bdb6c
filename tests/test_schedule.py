"""Competition schedules: everyone plays every round, repeats at the proven minimum, reproducible.

The whole grid (3 to 60 players, 3 to 5 rounds) takes about 6 seconds; the exhaustive
searches that settle the small cases about 20 more.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from setwidgets.competition import fewest_repeats, meetings, misprints, repeats, schedule
from setwidgets.competition import schedules as sch

GUIDE = json.loads((Path(__file__).parent / "data" / "competition_guide_schedules.json").read_text())[
    "schedules"
]

GRID = [(n, r) for n in range(3, 61) for r in (3, 4, 5)]


@pytest.fixture(scope="module")
def plans():
    return {(n, r): schedule(n, r) for n, r in GRID}


def test_everyone_plays_every_round_at_the_tables_the_rule_gives(plans):
    for (n, r), plan in plans.items():
        assert len(plan.rounds) == r
        for number, game in enumerate(plan.rounds, 1):
            seated = sorted(p for table in game for p in table)
            assert seated == list(range(1, n + 1)), f"{n} players, round {number}: {game}"
            assert sorted(map(len, game), reverse=True) == sorted(sch.table_sizes(n), reverse=True)


def test_table_sizes_are_threes_and_one_odd_table():
    for n in range(3, 61):
        sizes = sch.table_sizes(n)
        assert sum(sizes) == n
        assert Counter(s for s in sizes if s != 3) in (Counter(), Counter({4: 1}), Counter({2: 1}))
    assert sch.table_sizes(4) == (4,) and sch.table_sizes(5) == (3, 2)


def test_repeats_reach_the_proven_minimum(plans):
    for (n, r), plan in plans.items():
        bound = fewest_repeats(n, r)
        assert plan.repeats() == bound, f"{n} players, {r} rounds: {plan.repeats()} repeats, bound {bound}"
    zero = [key for key in GRID if fewest_repeats(*key) == 0]
    assert len(zero) > 140 and (9, 4) in zero and (12, 4) in zero and (9, 5) not in zero


def test_the_odd_table_falls_to_different_players(plans):
    # Below 14 players the fewest repeats can need the same players at the odd table
    # (13 players: a second table of 4 takes two players from one table of round 1).
    for (n, r), plan in plans.items():
        if n < 14:
            continue
        common = Counter(len(t) for t in plan.rounds[0]).most_common(1)[0][0]
        odd = Counter(p for game in plan.rounds for t in game if len(t) != common for p in t)
        if odd:
            size = next(len(t) for t in plan.rounds[0] if len(t) != common)
            fair = math.ceil(r * size / n)
            assert max(odd.values()) <= fair, f"{n} players, {r} rounds: odd-table seats {odd}"


def test_the_same_seed_gives_the_same_schedule_and_another_seed_may_differ():
    for n, r in [(6, 3), (10, 5), (14, 4), (22, 5), (40, 5), (59, 3)]:
        assert schedule(n, r, seed=3) == schedule(n, r, seed=3)
    assert schedule(40, 5, seed=1).rounds != schedule(40, 5, seed=2).rounds


def test_the_geometry_gives_nine_fifteen_and_twenty_seven():
    plane = schedule(9, 4)
    assert plane.method == "plane" and set(meetings(plane.rounds).values()) == {1}
    assert len(meetings(plane.rounds)) == 36  # every pair once
    space = sch.plane_rounds(3)
    assert len(space) == 13 and len(meetings(space)) == 27 * 26 // 2 and repeats(space) == 0
    kirkman = sch.KIRKMAN_15
    assert len(kirkman) == 7 and len(meetings(kirkman)) == 105 and repeats(kirkman) == 0
    assert schedule(15, 5).method == "Kirkman" and schedule(27, 4).method == "AG(3,3)"


@pytest.mark.parametrize(("players", "rounds"), [(6, 3), (10, 3)])
def test_exhaustive_search_settles_the_small_cases(players, rounds):
    assert sch.exhaustive_fewest(players, rounds) == fewest_repeats(players, rounds) > 0
    assert schedule(players, rounds).repeats() == fewest_repeats(players, rounds)


@pytest.mark.parametrize(("players", "rounds", "fewest"), [(11, 5, 1), (12, 5, 3), (13, 5, 3)])
def test_exhaustive_search_finds_no_five_round_schedule_with_fewer_repeats(players, rounds, fewest):
    # Only schedules with fewer repeats than schedule() finds are looked for: none exists.
    assert sch.exhaustive_fewest(players, rounds, below=fewest) == fewest == fewest_repeats(players, rounds)
    assert schedule(players, rounds).repeats() == fewest


def test_exhaustive_search_agrees_with_the_counting_bounds_where_they_are_reached():
    for players, rounds in [(5, 5), (6, 4), (7, 4), (8, 5), (9, 5), (10, 4)]:
        assert sch.exhaustive_fewest(players, rounds) == fewest_repeats(players, rounds)


def test_the_counting_bounds():
    # 9 players, 5 rounds: each meets 10 others but there are only 8.
    assert fewest_repeats(9, 5) == 9
    # 4 players sit at one table every round: 6 pairs meet again each round after the first.
    assert fewest_repeats(4, 3) == 12 == schedule(4, 3).repeats()


def test_fewer_tables_split_a_round_into_rotations():
    plan = schedule(21, 4, tables=5)
    rotations = plan.rotations(1)
    assert [len(r) for r in rotations] == [5, 2]
    assert [t for t, _ in rotations[1]] == [6, 7]
    player = rotations[1][0][1][0]
    assert plan.seat(player, 1) == "table 6 (rotation 2, at table 1)"
    assert plan.slip(player).startswith(
        f"Player {player}: round 1: table 6 (rotation 2, at table 1); round 2: "
    )
    assert schedule(21, 4).seat(player, 1) == "table 6"


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="players must be at least 3; got 2"):
        schedule(2, 3)
    with pytest.raises(TypeError, match="rounds must be a whole number like 4; got '4'"):
        schedule(9, "4")
    with pytest.raises(ValueError, match="table_size must be 2 to 5"):
        schedule(9, 3, table_size=6)
    with pytest.raises(ValueError, match="there are 9 players; got player 10"):
        schedule(9, 3).table_of(10, 1)
    with pytest.raises(ValueError, match="the schedule has 3 rounds; got round 4"):
        schedule(9, 3).seat(1, 4)


def test_the_guides_schedules_checked():
    found = {int(n): (repeats(rounds), misprints(rounds, int(n))) for n, rounds in GUIDE.items()}
    assert sorted(found) == list(range(9, 37, 3))
    assert found[21][1] == ["round 3: player 16 is listed twice and player 12 is left out"]
    assert found[9] == (0, [])
    twice = [n for n, (rep, _) in found.items() if rep]
    assert twice == [12, 15, 18, 21, 24, 27, 30]
    for n in found:
        assert schedule(n, len(GUIDE[str(n)])).repeats() == 0


def test_the_packaged_guide_schedules_are_the_data():
    from setwidgets.competition.guide import GUIDE_SCHEDULES

    assert {int(n): rounds for n, rounds in GUIDE.items()} == GUIDE_SCHEDULES
