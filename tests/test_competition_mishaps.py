"""A class that does not turn up as registered: late players, tables left with one player, withdrawals.

Each test here failed before the fix it names (issue 37).
"""

from __future__ import annotations

import itertools
import re
import subprocess

import pytest

from setwidgets.competition import Competition, CompetitionError


def _event(players: int, rounds: int, divisions: bool = False, **plan) -> Competition:
    event = Competition(":memory:")
    for n in range(1, players + 1):
        event.register(n, f"P{n}", ("A" if n % 2 else "B") if divisions else None)
    event.plan(rounds, **plan)
    return event


def _everything(event: Competition):
    return event.players(), event.scores(), event.absences(), len(event.history())


# -- late players ------------------------------------------------------------------------------


def test_a_late_player_in_a_competition_with_divisions_must_be_given_one():
    event = _event(8, 3, divisions=True, seed=0)
    before = _everything(event)
    with pytest.raises(CompetitionError, match=r"has divisions \(A, B\): give the late player's division"):
        event.register_late(9, "Ivo")  # left at the default: refused, nothing saved
    assert _everything(event) == before
    assert event.register_late(9, "Ivo", "no division") == 1  # said outright: a group of their own
    assert event.players()[9] == ("Ivo", None) and "no division" in event.groups()


def test_a_late_player_without_divisions_needs_none():
    event = _event(8, 3, seed=0)
    assert event.register_late(9, "Ivo") == 1 and event.players()[9] == ("Ivo", None)


def _repeats(tables) -> int:
    met = [p for table in tables for p in table]
    return len(met) - len(set(met))


@pytest.mark.parametrize(("players", "rounds", "seed"), [(12, 3, 0), (12, 4, 1), (18, 4, 2), (21, 5, 0)])
def test_a_late_player_adds_the_fewest_repeats_any_seating_could(players, rounds, seed):
    event = _event(players, rounds, seed=seed)
    before = event.schedule().rounds  # every table is of 3 here: any of them may take the late player
    fewest = min(_repeats(choice) for choice in itertools.product(*before))
    # "The smallest, lowest-numbered table" took table 1 in every round: more repeats than needed.
    assert _repeats(game[0] for game in before) > fewest
    late = players + 1
    assert event.register_late(late, "Late") == 1
    plan = event.schedule()
    mine = [
        tuple(p for p in event.table(r, plan.table_of(late, r)) if p != late) for r in range(1, rounds + 1)
    ]
    assert _repeats(mine) == fewest, f"the late player meets {mine}"


def test_a_late_player_at_a_room_of_tables_of_two_takes_the_table_of_two():
    # 14 players: tables of 3, 3, 3, 3 and 2. The late player makes the table of two a table of three.
    event = _event(14, 3, seed=0)
    event.register_late(15, "Late")
    plan = event.schedule()
    for r in range(1, 4):
        assert len(event.table(r, plan.table_of(15, r))) == 3


# -- tables of one -----------------------------------------------------------------------------


def test_two_absentees_at_a_table_of_three_move_the_third_player_to_another_table():
    event = _event(9, 3, seed=0)
    first, second, third = event.table(2, 1)
    event.absent(2, first)
    before_moves = len(event.history())
    event.absent(2, second)
    # The third player would be alone: they play at another table of round 2, and the history says so.
    moved_to = event.schedule().table_of(third, 2)
    assert moved_to != 1 and third in event.table(2, moved_to) and len(event.table(2, moved_to)) == 4
    action, details = event.history()[-1][2:]
    assert len(event.history()) == before_moves + 1 and action == "absent"
    assert details["moved"] == [[2, third, 1, moved_to]]
    assert f"player {third} would have been alone at table 1, so plays at table {moved_to}" in details["note"]
    # The deck is not credited to one player: table 1 has nobody left to score.
    with pytest.raises(CompetitionError):
        event.record(2, 1, {third: 27})
    others = [p for p in event.table(2, moved_to) if p not in (first, second)]
    event.record(2, moved_to, dict.fromkeys(others, 5))
    assert event.schedule().rounds[1][0] == ()  # table 1 of round 2 keeps its number, with no game


def test_a_withdrawal_at_a_table_of_two_moves_the_other_player():
    event = _event(8, 3, seed=0)  # tables of 3, 3 and 2
    pair = next(t for t, seated in enumerate(event.schedule().rounds[1], 1) if len(seated) == 2)
    leaving, staying = event.table(2, pair)
    event.withdraw(leaving)
    assert event.schedule().table_of(staying, 2) != pair
    assert any(move[1] == staying for move in event.history()[-1][3]["moved"])


def test_a_lone_player_no_table_can_take_is_marked_absent_and_told_so():
    event = _event(6, 1, seed=0)  # one round, two tables of three
    event.record(1, 2, dict.fromkeys(event.table(1, 2), 4))  # the other table has played
    a, b, c = event.table(1, 1)
    event.absent(1, a)
    event.absent(1, b)
    assert event.absences()[1, c] == "absent" and event.scores()[1, c] == 0  # not 27 alone
    note = event.history()[-1][3]["note"]
    assert f"player {c} would have been alone at table 1 and no table that has not played has room" in note
    assert event.complete()


def test_three_withdrawals_at_a_table_of_three_leave_nobody_alone_to_score():
    event = Competition(":memory:")
    for n in range(1, 4):
        event.register(n, f"P{n}")
    event.plan(2)
    event.record(1, 1, {1: 1, 2: 1, 3: 1})
    event.withdraw(1)
    event.withdraw(2)  # player 3 would be alone in round 2: marked absent there
    assert event.absences()[2, 3] == "absent"
    event.withdraw(3)  # and may still withdraw: the absent round becomes a withdrawn one
    assert event.withdrawn() == [1, 2, 3] and event.absences()[2, 3] == "withdrawn"


def test_withdrawn_players_are_off_the_sheets_and_slips_printed_after_they_left(tmp_path):
    from setwidgets.printables import schedule_pages, score_sheets

    event = _event(12, 3, seed=0)
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 3))
    leaving = event.table(1, 1)[0]
    event.withdraw(leaving)
    plan = event.schedule()
    assert plan.seat(leaving, 1).startswith("table") and plan.seat(leaving, 2) == "no game"
    sheets = score_sheets(tmp_path / "sheets.pdf", event)
    text = subprocess.run(["pdftotext", "-layout", str(sheets), "-"], capture_output=True, text=True).stdout
    # Round 1's sheet (printed as it was played) lists them; no later round's sheet does.
    for sheet in text.split("Round ")[1:]:
        rows = {int(n) for n in re.findall(r"^\s*(\d+)\s+P\d+", sheet, flags=re.MULTILINE)}
        if sheet.startswith("1 "):
            continue
        assert leaving not in rows, sheet[:80]
    slips = schedule_pages(tmp_path / "schedule.pdf", plan)
    assert (
        "Round 2: no game"
        in subprocess.run(["pdftotext", "-layout", str(slips), "-"], capture_output=True, text=True).stdout
    )


def test_the_standings_form_says_who_was_moved_when_a_withdrawal_leaves_one_alone():
    from setwidgets.widgets.standings import Standings

    event = _event(8, 3, seed=0)  # tables of 3, 3 and 2
    pair = next(t for t, seated in enumerate(event.schedule().rounds[1], 1) if len(seated) == 2)
    leaving, staying = event.table(2, pair)
    view = Standings(event)
    view.player.value = leaving
    view.withdraw_player.click()
    assert f"Player {leaving} has withdrawn" in view.message.value
    assert f"player {staying} would have been alone at table {pair}, so plays at table" in view.message.value
    view.close()


# -- corrections with side effects ---------------------------------------------------------------


def _nine_players(wins: dict[int, int], divisions: dict[int, str] | None = None) -> Competition:
    """Nine players, three rounds, each player scoring ``wins[player]`` in every round."""
    event = Competition(":memory:")
    for n in range(1, 10):
        event.register(n, f"P{n}", (divisions or {}).get(n))
    plan = event.plan(3)
    for r in (1, 2, 3):
        for t, table in enumerate(plan.rounds[r - 1], 1):
            event.record(r, t, {p: wins[p] for p in table})
    return event


def test_a_correction_in_one_division_that_brings_back_anothers_play_in_losers_says_so():
    divisions = dict.fromkeys([1, 2, 3, 4], "A") | dict.fromkeys([5, 6, 7, 8, 9], "B")
    # Three tied at the top of each division: six would sit at the final, so each group plays in.
    event = _nine_players({1: 5, 2: 5, 3: 5, 4: 1, 5: 5, 6: 5, 7: 5, 8: 0, 9: 0}, divisions)
    event.record_play_in({1: 6, 2: 2, 3: 1})  # game 1: division A's, won by player 1
    event.record_play_in({5: 1, 6: 6, 7: 2})  # game 2: division B's, won by player 6
    event.record_final({1: 4, 6: 3})
    assert event.correct(2, 8, 1) is None  # no change to the finalists: nothing more to say
    assert "note" not in event.history()[-1][3]

    note = event.correct(1, 1, 6)  # player 1 is now ahead in division A: no tie there
    # Four players fit at the final's table: division B's play-in no longer counts.
    assert event.finalists() == [1, 5, 6, 7]
    assert note is not None and event.history()[-1][3]["note"] == note
    assert "players 5 and 7 now go on to the final" in note
    assert "play-ins 1 and 2 no longer count" in note
    assert "names no champion until it is played again (replay_final())" in note


def test_a_play_in_correction_that_changes_the_finalists_says_so():
    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 1, 8: 0, 9: 0})
    event.record_play_in({5: 4, 6: 2})
    assert event.finalists() == [1, 2, 3, 4, 5]
    note = event.correct_play_in(1, 6, 5)
    assert note == "player 6 now goes on to the final; player 5 no longer goes on."
    assert event.history()[-1][3]["note"] == note


# -- numbers bounded where they enter ------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda e: e.record(1, 2, {10**30: 5}), "a player's number must be at most 1000"),
        (
            lambda e: e.record(1, 2, dict.fromkeys(e.table(1, 2), (5, 2**62))),
            "at most 81 penalty points in one",
        ),
        (lambda e: e.record(1, 2, dict.fromkeys(e.table(1, 2), (10**30, 0))), "a deck holds only 27 SETs"),
        (lambda e: e.correct(1, 10**30, 5), "player must be at most 1000"),
        (lambda e: e.correct(1, 1, 5, 10**5000), "at most 81 penalty points"),
        (lambda e: e.absent(1, 10**30), "player must be at most 1000"),
    ],
)
def test_numbers_past_any_game_are_refused_in_a_sentence_and_change_nothing(call, words):
    event = _event(9, 3, seed=0)
    assert event.table(1, 1) == (1, 2, 3)
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))  # so that correct() has a score to change
    before = _everything(event)
    with pytest.raises(CompetitionError, match=words):
        call(event)
    assert _everything(event) == before


def test_the_form_refuses_a_huge_player_number_in_a_sentence():
    from setwidgets.widgets.standings import Standings

    event = _event(9, 3, seed=0)
    view = Standings(event)
    view.round.value, view.table_number.value = 1, 1
    view.scores.value = "99999999999999999999: 5"
    assert view.submit() is False
    assert "must be at most 1000" in view.message.value and not event.scores()
    view.close()


def test_the_forms_division_menu_starts_at_choose_once_a_division_exists():
    from setwidgets.widgets.standings import CHOOSE, Standings

    event = _event(8, 3, seed=0)  # no divisions: a late player needs none
    view = Standings(event)
    assert view.late_division.value == "no division"
    view.late_name.value, view.late_division.value = "Ivo", "C"
    view.register_late_player.click()
    assert event.players()[9] == ("Ivo", "C")
    # Now the competition has a division: the next late player's is chosen, not assumed.
    assert view.late_division.value == CHOOSE
    view.late_name.value = "Jun"
    view.register_late_player.click()
    assert 10 not in event.players() and "choose the late player's division" in view.message.value
    view.close()
