"""Competition schedules pinned exactly: the printed schedule, seats, refusals, the designs, the bounds.

Each exact answer is checked against a property that makes it right (every pair meets once in
the plane and in Kirkman's design, every player sits once a round, a bound argued by hand).
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from setwidgets.cards import mini_deck
from setwidgets.competition import designs, fewest_repeats, misprints, schedule
from setwidgets.competition import schedules as sch
from setwidgets.competition.schedules import Schedule
from setwidgets.competition.search import _Search, round_patterns, search_rounds
from setwidgets.rules import is_set

NINE_PRINTED = """\
9 players, 4 rounds
round 1  1: 1-2-3  2: 4-5-6  3: 7-8-9
round 2  1: 1-4-7  2: 2-5-8  3: 3-6-9
round 3  1: 1-5-9  2: 2-6-7  3: 3-4-8
round 4  1: 1-6-8  2: 2-4-9  3: 3-5-7"""


def read_printed(text: str) -> list[list[tuple[int, ...]]]:
    """The rounds of a printed schedule, read back from its lines (tables numbered 1, 2, ... in order)."""
    rounds = []
    for r, line in enumerate(text.splitlines()[1:], 1):
        head, *tables = line.split("  ")
        assert head == f"round {r}"
        game = []
        for t, table in enumerate(tables, 1):
            number, players = table.split(": ")
            assert number == str(t)
            game.append(tuple(int(p) for p in players.split("-")))
        rounds.append(game)
    return rounds


def every_pair_meets_once(rounds, players: int) -> bool:
    return Counter(sch.meetings(rounds)) == Counter(
        dict.fromkeys(itertools.combinations(range(1, players + 1), 2), 1)
    )


def everyone_sits_once_a_round(rounds, players: int) -> bool:
    return all(sorted(p for table in game for p in table) == list(range(1, players + 1)) for game in rounds)


# -- the printed schedule ------------------------------------------------------------------------


def test_the_nine_player_schedule_prints_word_for_word_and_is_the_plane():
    text = str(schedule(9, 4))
    assert text == NINE_PRINTED
    rounds = read_printed(text)
    assert len(rounds) == 4 and everyone_sits_once_a_round(rounds, 9) and every_pair_meets_once(rounds, 9)


def test_a_printed_schedule_says_one_round_in_the_singular_and_joins_a_table_of_four():
    plan = Schedule(7, (((1, 2, 3, 4), (5, 6, 7)),), tables=2)
    assert str(plan) == "7 players, 1 round\nround 1  1: 1-2-3-4  2: 5-6-7"


def test_a_printed_schedule_lists_the_tables_as_the_schedule_holds_them():
    plan = Schedule(4, (((3, 1, 2), (4,)), ((4, 1), (2, 3))), tables=2)
    assert str(plan) == "4 players, 2 rounds\nround 1  1: 3-1-2  2: 4\nround 2  1: 4-1  2: 2-3"


# -- meetings ------------------------------------------------------------------------------------


def test_a_schedules_meetings_count_each_pair():
    plan = Schedule(4, (((1, 2, 3), (4,)), ((1, 2), (3, 4))), tables=2)
    assert plan.meetings() == Counter({(1, 2): 2, (1, 3): 1, (2, 3): 1, (3, 4): 1})
    assert plan.repeats() == 1
    assert every_pair_meets_once(schedule(9, 4).rounds, 9) and set(schedule(9, 4).meetings().values()) == {1}


# -- Kirkman's schoolgirls -------------------------------------------------------------------------


def test_kirkmans_construction_seats_fifteen_in_seven_rounds_where_every_pair_meets_once():
    rounds = designs._kirkman()
    assert len(rounds) == 7
    assert all(sorted(map(len, game)) == [3] * 5 for game in rounds)
    assert everyone_sits_once_a_round(rounds, 15) and every_pair_meets_once(rounds, 15)
    assert rounds == sch.KIRKMAN_15


def test_kirkmans_rounds_turn_the_first_round_one_step_at_a_time():
    """Round k + 1 adds k (mod 7) to each girl of the first round, row by row; 15 stays put."""
    rounds = designs._kirkman()
    assert rounds[0] == ((15, 1, 8), (2, 3, 5), (4, 9, 13), (6, 12, 14), (7, 10, 11))
    assert rounds[1] == ((15, 2, 9), (3, 4, 6), (5, 10, 14), (7, 13, 8), (1, 11, 12))
    assert rounds[6] == ((15, 7, 14), (1, 2, 4), (3, 8, 12), (5, 11, 13), (6, 9, 10))

    def step(player: int, k: int) -> int:
        if player == 15:
            return 15
        row, place = divmod(player - 1, 7)
        return (place + k) % 7 + 1 + 7 * row

    for k, game in enumerate(rounds):
        assert game == tuple(tuple(step(p, k) for p in table) for table in rounds[0])


def test_fifteen_players_get_kirkmans_rounds_with_each_table_sorted():
    plan = schedule(15, 7)
    assert plan.method == "Kirkman" and plan.repeats() == 0
    assert plan.rounds == tuple(tuple(tuple(sorted(t)) for t in game) for game in sch.KIRKMAN_15)
    assert plan.rounds[0] == ((1, 8, 15), (2, 3, 5), (4, 9, 13), (6, 12, 14), (7, 10, 11))


# -- where a player sits ---------------------------------------------------------------------------


def test_a_player_sits_at_one_table_each_round():
    plan = schedule(9, 4)
    # Player 5 sits at 4-5-6, 2-5-8, 1-5-9 and 3-5-7 in NINE_PRINTED.
    assert [plan.table_of(5, round=r) for r in (1, 2, 3, 4)] == [2, 2, 1, 3]
    assert [plan.seat(5, r) for r in (1, 2, 3, 4)] == ["table 2", "table 2", "table 1", "table 3"]
    assert [plan.table_of(1, r) for r in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert [plan.table_of(9, r) for r in (1, 2, 3, 4)] == [3, 3, 1, 2]
    for r, game in enumerate(plan.rounds, 1):
        for player in range(1, 10):
            assert player in game[plan.table_of(player, r) - 1]


def test_a_player_number_outside_the_schedule_is_refused():
    plan = schedule(9, 4)
    for ask in (plan.table_of, plan.seat):
        with pytest.raises(ValueError, match=r"^player must be at least 1; got 0$"):
            ask(0, 1)
        with pytest.raises(ValueError, match=r"^player must be at least 1; got -1$"):
            ask(-1, 1)
        with pytest.raises(ValueError, match=r"^there are 9 players; got player 10$"):
            ask(10, 1)
        with pytest.raises(TypeError, match=r"^player must be a whole number like 7; got '7' \(a string\)$"):
            ask("7", 1)
    assert plan.table_of(9, 1) == 3 and plan.seat(1, 1) == "table 1"


def test_a_round_outside_the_schedule_is_refused():
    plan = schedule(9, 4)
    for ask in (plan.table_of, plan.seat):
        with pytest.raises(ValueError, match=r"^round must be at least 1; got 0$"):
            ask(1, 0)
        with pytest.raises(ValueError, match=r"^round must be at least 1; got -1$"):
            ask(1, -1)
        with pytest.raises(ValueError, match=r"^the schedule has 4 rounds; got round 5$"):
            ask(1, 5)
        with pytest.raises(TypeError, match=r"^round must be a whole number like 2; got '2' \(a string\)$"):
            ask(1, "2")
    with pytest.raises(ValueError, match=r"^round must be at least 1; got 0$"):
        plan.rotations(0)
    with pytest.raises(ValueError, match=r"^the schedule has 1 round; got round 2$"):
        schedule(9, 1).table_of(1, 2)
    assert plan.table_of(1, 4) == 1 and plan.seat(2, 4) == "table 2"


def test_a_player_registered_late_has_no_game_before_they_came():
    plan = Schedule(4, (((1, 2, 3),), ((1, 2), (3, 4))), tables=2)
    with pytest.raises(ValueError, match=r"^player 4 does not play in round 1$"):
        plan.table_of(4, 1)
    assert plan.seat(4, 1) == "no game"
    assert plan.table_of(4, 2) == 2 and plan.seat(4, 2) == "table 2"
    assert plan.slip(4) == "Player 4: round 1: no game; round 2: table 2"


def test_fewer_tables_than_a_round_needs_put_the_rest_in_a_second_rotation():
    plan = schedule(9, 4, tables=2)
    assert plan.tables == 2
    assert [plan.seat(p, 1) for p in (1, 4, 7)] == [
        "table 1 (rotation 1, at table 1)",
        "table 2 (rotation 1, at table 2)",
        "table 3 (rotation 2, at table 1)",
    ]
    assert schedule(9, 4, tables=3).seat(7, 1) == "table 3"
    assert plan.rotations(1) == [[(1, (1, 2, 3)), (2, (4, 5, 6))], [(3, (7, 8, 9))]]


# -- misprints -------------------------------------------------------------------------------------


def test_a_correct_schedule_has_no_misprints():
    assert misprints(schedule(9, 4).rounds, 9) == []
    assert misprints(read_printed(NINE_PRINTED), 9) == []


def test_a_misprint_names_the_players_listed_twice_left_out_and_unknown():
    assert misprints([[(1, 2, 3), (4, 5, 6)], [(2, 3, 3), (4, 4, 5, 6, 7)]], 6) == [
        "round 2: players 3 and 4 are listed twice and player 1 is left out"
        " and player 7 is beyond the 6 players"
    ]
    assert misprints([[(3, 4, 5), (6, 7, 8)]], 6) == [
        "round 1: players 1 and 2 are left out and players 7 and 8 are beyond the 6 players"
    ]
    assert misprints([[(1, 2, 3), (1, 2, 4)]], 4) == ["round 1: players 1 and 2 are listed twice"]
    assert misprints([[(2, 3, 4)]], 4) == ["round 1: player 1 is left out"]
    assert misprints([[(1, 2, 3), (4, 5, 6)], [(1, 1, 2), (3, 4, 5)]], 6) == [
        "round 2: player 1 is listed twice and player 6 is left out"
    ]


def test_misprints_need_at_least_three_players():
    with pytest.raises(ValueError, match=r"^players must be at least 3; got 2$"):
        misprints([[(1, 2)]], 2)
    assert misprints([[(1, 2, 3)]], 3) == []


# -- players, rounds, table sizes ------------------------------------------------------------------


def test_the_number_of_players_runs_from_three_to_a_thousand():
    assert sch.table_sizes(3) == (3,)
    assert sch.table_sizes(1000) == (4,) + (3,) * 332 and sum(sch.table_sizes(1000)) == 1000
    with pytest.raises(ValueError, match=r"^players must be at least 3; got 2$"):
        sch.table_sizes(2)
    with pytest.raises(
        ValueError,
        match=r"^players must be at most 1000 \(a schedule for more takes too long to find\); got 1001$",
    ):
        sch.table_sizes(1001)
    with pytest.raises(TypeError, match=r"^players must be a whole number like 12; got '9' \(a string\)$"):
        sch.table_sizes("9")
    with pytest.raises(ValueError, match=r"^players must be at most 1000 "):
        schedule(1001, 3)


def test_the_number_of_rounds_runs_from_one_to_thirty():
    assert fewest_repeats(9, 1) == 0
    # 30 rounds of 9 pairs each among 36 pairs; each player meets 60 times among 8 others.
    assert fewest_repeats(9, 30) == 30 * 9 - 36 == 9 * (60 - 8) // 2
    with pytest.raises(ValueError, match=r"^rounds must be at least 1; got 0$"):
        fewest_repeats(9, 0)
    with pytest.raises(ValueError, match=r"^rounds must be at most 30; got 31$"):
        fewest_repeats(9, 31)
    with pytest.raises(TypeError, match=r"^rounds must be a whole number like 4; got '4' \(a string\)$"):
        sch.odd_share(9, "4")
    with pytest.raises(ValueError, match=r"^rounds must be at most 30; got 31$"):
        schedule(9, 31)
    assert len(schedule(9, 1).rounds) == 1


@pytest.mark.parametrize(
    ("players", "table_size", "sizes"),
    [
        (12, 3, (3, 3, 3, 3)),
        (13, 3, (4, 3, 3, 3)),
        (14, 3, (3, 3, 3, 3, 2)),
        (4, 3, (4,)),
        (5, 3, (3, 2)),
        (3, 2, (3,)),
        (4, 2, (2, 2)),
        (5, 2, (3, 2)),
        (8, 4, (4, 4)),
        (9, 4, (5, 4)),
        (10, 4, (4, 4, 2)),
        (11, 4, (4, 4, 3)),
        (10, 5, (5, 5)),
        (11, 5, (5, 3, 3)),
        (6, 5, (3, 3)),
        (16, 5, (5, 5, 3, 3)),
        (13, 5, (5, 5, 3)),
        (14, 5, (5, 5, 4)),
    ],
)
def test_tables_have_the_size_asked_and_one_odd_table_takes_the_rest(players, table_size, sizes):
    assert sch.table_sizes(players, table_size) == sizes
    assert sum(sizes) == players and sizes == tuple(sorted(sizes, reverse=True))
    assert all(2 <= s <= 5 for s in sizes)


def test_a_table_size_runs_from_two_to_five():
    assert sch.table_sizes(9, 2) == (3, 2, 2, 2) and sch.table_sizes(9, 5) == (5, 4)
    with pytest.raises(ValueError, match=r"^table_size must be at least 2; got 1$"):
        sch.table_sizes(9, 1)
    with pytest.raises(
        ValueError, match=r"^table_size must be 2 to 5 \(the guide's tables seat 2 to 5 players\); got 6$"
    ):
        sch.table_sizes(9, 6)
    with pytest.raises(TypeError, match=r"^table_size must be a whole number like 3; got '3' \(a string\)$"):
        sch.table_sizes(9, "3")


# -- the bounds ------------------------------------------------------------------------------------


def test_the_pair_argument_counts_meetings_beyond_the_pairs():
    # 9 players, 5 rounds of 9 pairs: 45 meetings among 36 pairs.
    assert fewest_repeats(9, 5) == 9
    # 4 players at one table: 6 pairs a round, all of them met after the first round.
    assert fewest_repeats(4, 3) == 12 == schedule(4, 3).repeats()
    # 13 players, 6 rounds: (6 + 3 * 3) * 6 = 90 meetings among 78 pairs.
    assert fewest_repeats(13, 6) == 12


def test_the_opponent_argument_gives_the_extra_meetings_to_the_fewest():
    """6 players at tables of 4 and 2, two rounds: four seats at the table of 2 leave two players
    at the table of 4 twice, 6 meetings each with 5 others: 2 excess, halved, 1 repeat."""
    sizes = sch.table_sizes(6, 4)
    assert sizes == (4, 2)
    assert 2 * sch._pair_count(sizes) - 15 == -1
    assert sch._opponent_bound(6, 2, sizes) == 1 == fewest_repeats(6, 2, table_size=4)
    # 7 players at 5 and 2: three stay at the table of 5 both rounds, 8 meetings with 6 others each.
    assert sch._opponent_bound(7, 2, (5, 2)) == 3 == fewest_repeats(7, 2, table_size=5)
    # 8 players at 5 and 3: six at the table of 3 once, two at the table of 5 twice (8 meetings for 7).
    assert sch._opponent_bound(8, 2, (5, 3)) == 1 == fewest_repeats(8, 2, table_size=5)
    # 12 players at 5, 5 and 2, three rounds: six stay at a table of 5 all along, 12 meetings for 11.
    assert sch._opponent_bound(12, 3, (5, 5, 2)) == 3 == fewest_repeats(12, 3, table_size=5)


def test_the_opponent_argument_halves_each_players_excess_over_everyone_else():
    # Tables of 3 only: each player meets 2 R others among N - 1.
    assert sch._opponent_bound(9, 5, (3, 3, 3)) == 9 * (10 - 8) // 2
    assert sch._opponent_bound(9, 4, (3, 3, 3)) == 0
    assert sch._opponent_bound(6, 3, (3, 3)) == 3  # 6 meetings among 5: one each, halved
    # 7 players at 4 and 3 (both sizes once: the first listed counts as the base), four rounds:
    # twelve seats at the table of 3 spread one or two a player, loads 11 (twice) and 10 (five times).
    assert sch._opponent_bound(7, 4, (4, 3)) == (2 * 5 + 5 * 4) // 2 == 15
    # 11 players in pairs and one table of 3, seven rounds: 21 seats at the table of 3, at most
    # two a player, so at most 7 + 2 = 9 meetings among 10 others: no repeat is forced.
    assert sch._opponent_bound(11, 7, (3, 2, 2, 2, 2)) == 0
    # One round never forces a repeat, odd table or not.
    assert [fewest_repeats(n, 1) for n in (4, 5, 7, 13, 14)] == [0] * 5
    assert sch._opponent_bound(5, 1, (3, 2)) == 0 and sch._opponent_bound(7, 1, (5, 2)) == 0


def test_the_fewest_repeats_are_a_whole_number():
    assert [repr(fewest_repeats(n, r)) for n, r in [(9, 5), (4, 3), (13, 6), (9, 4)]] == [
        "9",
        "12",
        "12",
        "0",
    ]


def test_the_searched_small_cases_hold_for_tables_of_three_only():
    assert fewest_repeats(6, 3) == 5 and fewest_repeats(10, 3) == 2
    assert fewest_repeats(11, 5) == 1 and fewest_repeats(12, 5) == 3 and fewest_repeats(13, 5) == 3
    # Six players in pairs: three rounds of a 1-factorization of K6, no repeat at all.
    assert fewest_repeats(6, 3, table_size=2) == 0
    plan = schedule(6, 3, table_size=2)
    assert plan.repeats() == 0 and everyone_sits_once_a_round(plan.rounds, 6)
    assert all(sorted(map(len, game)) == [2, 2, 2] for game in plan.rounds)


def test_the_odd_table_share_is_the_fair_share_except_where_repeats_crowd_it():
    assert sch.odd_share(9, 4) == 0  # no odd table
    assert sch.odd_share(14, 4) == 1  # 2 seats * 4 rounds over 14 players
    assert sch.odd_share(16, 5) == 2  # 4 seats * 5 rounds over 16: 1.25, rounded up
    assert sch.odd_share(16, 4) == 1  # exactly 1
    assert sch.odd_share(10, 4) == 4 and sch.odd_share(13, 3) == 2  # crowded
    # Tables of 4: 10 players at 4, 4 and 2 in 4 rounds, 8 seats over 10 players: the crowding is for threes.
    assert sch.odd_share(10, 4, table_size=4) == 1
    assert sch.odd_share(13, 3, table_size=2) == 1  # one table of 3 among pairs, 9 seats over 13
    with pytest.raises(ValueError, match=r"^rounds must be at least 1; got 0$"):
        sch.odd_share(9, 0)


# -- which construction ----------------------------------------------------------------------------


def test_the_designs_are_used_up_to_their_last_round_and_the_search_after():
    assert schedule(9, 4).method == "plane" and schedule(9, 5).method == "search"
    assert schedule(9, 3).rounds == tuple(sch.plane_rounds(2)[:3])
    assert schedule(15, 7).method == "Kirkman" and schedule(15, 8).method == "search"
    assert schedule(27, 13).method == "AG(3,3)" and schedule(27, 13).repeats() == 0
    assert schedule(10, 3).method == "search"
    assert sch._geometry(9, 3, 4) == (None, "") and sch._geometry(15, 3, 5) == (None, "")
    assert sch._geometry(27, 3, 2) == (None, "")
    assert sch._geometry(27, 14, 3) == (None, "") and sch._geometry(15, 8, 3) == (None, "")
    assert sch._geometry(12, 3, 3) == (None, "")
    rounds, method = sch._geometry(27, 2, 3)
    assert method == "AG(3,3)" and rounds == sch.plane_rounds(3)[:2]


def test_a_schedule_is_made_with_seed_zero_and_every_table_unless_told():
    plan = schedule(10, 3)
    assert plan.seed == 0 and plan.rounds == schedule(10, 3, seed=0).rounds
    assert plan.tables == 3 == len(sch.table_sizes(10))
    assert schedule(10, 3, tables=99).tables == 3 and schedule(10, 3, tables=1).tables == 1
    assert everyone_sits_once_a_round(plan.rounds, 10) and plan.repeats() == fewest_repeats(10, 3) == 2
    with pytest.raises(ValueError, match=r"^tables must be at least 1; got 0$"):
        schedule(10, 3, tables=0)
    with pytest.raises(TypeError, match=r"^tables must be a whole number like 6; got '2' \(a string\)$"):
        schedule(10, 3, tables="2")


def test_the_module_example_holds():
    plan = schedule(9, 4)
    assert plan.rounds[0] == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert plan.table_of(5, round=2) == 2
    assert re.fullmatch(r"9 players, 4 rounds(\nround \d(  \d: \d-\d-\d){3}){4}", str(plan))


def test_the_plane_s_rounds_are_its_parallel_classes_in_order_of_their_step():
    """9 players: the red solid cards; each table a SET, each round everyone once, each pair once."""
    rounds = sch.plane_rounds()  # the plane unless told
    assert rounds == [
        ((1, 2, 3), (4, 5, 6), (7, 8, 9)),
        ((1, 4, 7), (2, 5, 8), (3, 6, 9)),
        ((1, 5, 9), (2, 6, 7), (3, 4, 8)),
        ((1, 6, 8), (2, 4, 9), (3, 5, 7)),
    ]
    cards = [c for c in mini_deck() if c.shading == "solid"]
    assert all(is_set(*(cards[p - 1] for p in table)) for game in rounds for table in game)
    assert sch.meetings([list(game) for game in rounds]) == Counter(
        dict.fromkeys(itertools.combinations(range(1, 10), 2), 1)
    )


def test_the_space_s_rounds_seat_27_players_in_13_rounds_where_every_pair_meets_once():
    rounds = sch.plane_rounds(3)
    cards = list(mini_deck())
    assert len(rounds) == 13
    assert all(sorted(p for t in game for p in t) == list(range(1, 28)) for game in rounds)
    assert all(table == tuple(sorted(table)) for game in rounds for table in game)
    assert all(game == tuple(sorted(game)) for game in rounds)
    assert all(is_set(*(cards[p - 1] for p in table)) for game in rounds for table in game)
    assert set(sch.meetings([list(game) for game in rounds]).values()) == {1}
    assert len(sch.meetings([list(game) for game in rounds])) == 27 * 26 // 2
    # In order of each round's steps between a table's first two players.
    assert rounds == sorted(rounds, key=lambda game: [t[1] - t[0] for t in game])
    assert rounds[0] == tuple((i, i + 1, i + 2) for i in range(1, 28, 3))
    assert rounds[-1][0] == (1, 18, 23)


def test_a_space_of_another_dimension_is_refused():
    for dimension in (1, 4, "2"):
        with pytest.raises(ValueError) as refused:
            sch.plane_rounds(dimension)
        assert str(refused.value) == f"dimension must be 2 (9 players) or 3 (27 players); got {dimension!r}"


def test_rounds_that_are_not_lists_of_tables_are_refused_with_an_example():
    with pytest.raises(TypeError) as refused:
        sch.rounds_of_tables(5)
    assert str(refused.value) == (
        "rounds must be a list of rounds like [[(1, 2, 3), (4, 5, 6)], [(1, 4, 5), (2, 3, 6)]];"
        " got 5 (a number)"
    )
    with pytest.raises(ValueError) as refused:
        sch.rounds_of_tables([[(1, 2, 3)], [(0, 1, 2)]])
    assert str(refused.value) == "rounds: round 2, table 1: a player's number must be at least 1; got 0"
    with pytest.raises(TypeError) as refused:
        sch.rounds_of_tables([[(1.5, 1, 2)]])
    assert str(refused.value) == (
        "rounds: round 1, table 1: a player's number must be a whole number like 7; got 1.5 (a number)"
    )


def test_a_rounds_pattern_is_the_same_for_renamed_rounds_and_tells_apart_rounds_that_are_not():
    pattern = round_patterns([(1, 2, 3, 4), (5, 6, 7, 8)])
    two_and_two = pattern([(1, 2, 5, 6), (3, 4, 7, 8)])
    three_and_one = pattern([(1, 2, 3, 5), (4, 6, 7, 8)])
    assert two_and_two != three_and_one  # both mix the two tables, in other numbers
    assert pattern([(1, 2, 3, 4), (5, 6, 7, 8)]) not in (two_and_two, three_and_one)
    # With three tables in the first round, the same round up to renaming them has other counts.
    pattern = round_patterns([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    assert pattern([(1, 2, 4), (3, 5, 7), (6, 8, 9)]) == pattern([(4, 5, 1), (6, 2, 7), (3, 8, 9)])


def test_rounds_written_as_bytes_are_refused_with_the_text_they_meant():
    for rounds, where in (
        (b"ab", "rounds"),
        ([b"ab"], "rounds: round 1"),
        ([[b"ab"]], "rounds: round 1, table 1"),
    ):
        with pytest.raises(TypeError) as refused:
            sch.meetings(rounds)
        assert str(refused.value).startswith(f"{where} must be a list of ")
        assert str(refused.value).endswith("; got b'ab' (bytes, not text): write 'ab', without the b")


def _in_trouble(state, r, a):
    table = state.tables[r][state.seat[r][a]]
    repeat = any(state.met[a][q] >= 2 for q in table if q != a)
    return repeat or (a in state.over and state.seat[r][a] in state.odd)


def test_where_trouble_is_everywhere_the_search_checks_players_picked_at_random():
    """198 players in 30 random rounds: hundreds of pairs meet twice, too many to list each time."""
    players, rounds = 198, 30
    state = _Search(players, rounds, (3,) * 66, frozenset(), rounds, players * rounds + 1, random.Random(0))
    assert len(state.twice) + len(state.over) > 40 * 7  # the random branch, for 7 wanted
    seen = set()
    for _ in range(60):
        trouble, work = state.troubled(7)
        assert len(trouble) == 7 and trouble == sorted(set(trouble))
        assert 7 * 3 <= work <= 40 * 7 * 3 and work % 3 == 0  # three seats looked at each try
        assert all(_in_trouble(state, r, a) for r, a in trouble)  # a repeat: there is no odd table
        seen.update(trouble)
    rounds_seen, players_seen = {r for r, _ in seen}, {a for _, a in seen}
    assert min(rounds_seen) == 1 and max(rounds_seen) == rounds - 1  # rounds 1 to 29: never the first
    assert max(players_seen) == players


def test_the_search_puts_each_rounds_odd_table_last_and_the_others_in_order_of_their_lowest_player():
    games = search_rounds(11, 4, (2, 3, 3, 3), target=10, rng=random.Random(0))  # tables of 3 unless told
    assert len(games) == 4
    for game in games:
        assert [len(t) for t in game] == [3, 3, 3, 2]
        assert all(t == tuple(sorted(t)) for t in game)
        assert [t[0] for t in game[:3]] == sorted(t[0] for t in game[:3])
    assert any(game[-1][0] < game[0][0] for game in games)  # last for being odd, not for its players


def test_two_rounds_are_searched_and_one_round_seats_the_players_in_order():
    first, second = search_rounds(9, 2, (3, 3, 3), target=0, rng=random.Random(0))
    assert first == ((1, 2, 3), (4, 5, 6), (7, 8, 9)) and sch.repeats([first, second]) == 0
    assert search_rounds(9, 1, (3, 3, 3), target=0, rng=random.Random(0)) == [first]


def test_where_trouble_is_rare_the_search_lists_every_seat_in_trouble_odd_table_included():
    players, rounds = 10, 6
    state = _Search(players, rounds, (3, 3, 4), frozenset({2}), 1, players * rounds + 1, random.Random(1))
    assert state.over and state.twice
    trouble, work = state.troubled(1000)
    expected = [(r, a) for r in range(1, rounds) for a in range(1, players + 1) if _in_trouble(state, r, a)]
    assert trouble == expected  # every one, in order: no sample is drawn when all are wanted
    assert work == (len(state.twice) + len(state.over)) * rounds // 8 + len(expected)
    assert state.troubled(len(expected)) == (trouble, work)  # just as many wanted: all of them still
    assert any(not _in_trouble(state, r, a) for r in range(1, rounds) for a in range(1, players + 1))


def test_where_trouble_is_everywhere_the_odd_table_counts_only_for_players_over_their_share():
    players, rounds = 199, 30  # 65 tables of 3 and the odd table of 4
    state = _Search(
        players, rounds, (3,) * 65 + (4,), frozenset({65}), 1, players * rounds + 1, random.Random(2)
    )
    assert len(state.twice) + len(state.over) > 40 * 7 and state.over
    for _ in range(60):
        trouble, _ = state.troubled(7)
        assert len(trouble) == 7 and all(_in_trouble(state, r, a) for r, a in trouble)
