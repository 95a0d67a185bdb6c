"""The coordinator's scoreboard: a whole competition, a killed kernel, bad input, corrections."""

from __future__ import annotations

import itertools
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_competition_store import _refused

from setwidgets._inputs import path_text
from setwidgets.competition import (
    Competition,
    CompetitionError,
    fewest_repeats,
    meetings,
    misprints,
    repeats,
    schedule,
)

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 30
ROUNDS = 4


def division(number: int) -> str:
    return "A" if number <= PLAYERS // 2 else "B"


def sets_of(round: int, player: int) -> tuple[int, int]:
    """The made-up result of one game: (SETs, penalties), different enough to rank the players."""
    return (player * 7 + round * 5) % 11, (player + round) % 3 == 0


def table_scores(event: Competition, round: int, table: int) -> dict[int, tuple[int, int]]:
    return {p: tuple(map(int, sets_of(round, p))) for p in event.table(round, table)}


def play_rounds(event: Competition, rounds) -> None:
    for r in rounds:
        for t in range(1, len(event.schedule().rounds[r - 1]) + 1):
            event.record(r, t, table_scores(event, r, t))


HALF = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, {tests!r})
    from test_competition import PLAYERS, ROUNDS, division, play_rounds
    from setwidgets.competition import Competition

    event = Competition({path!r})
    for n in range(1, PLAYERS + 1):
        event.register(n, f"Player {{n}}", division(n))
    event.plan(ROUNDS, seed=5)
    play_rounds(event, [1, 2])
    print("recorded", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_a_whole_competition_survives_a_killed_kernel(tmp_path):
    path = tmp_path / "class.sqlite"
    code = HALF.format(tests=str(ROOT / "tests"), path=str(path))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout.strip() == "recorded"

    event = Competition(path)
    assert len(event.players()) == PLAYERS and event.divisions() == ["A", "B"]
    assert event.rounds == ROUNDS and len(event.scores()) == 2 * PLAYERS
    assert event.schedule().repeats() == 0
    play_rounds(event, [3, 4])
    assert event.complete()

    totals = {
        p: sum(s - pen for s, pen in (sets_of(r, p) for r in range(1, ROUNDS + 1))) for p in range(1, 31)
    }
    for div in ("A", "B"):
        rows = event.standings(div)
        assert [row.total for row in rows] == sorted(
            (totals[p] for p in totals if division(p) == div), reverse=True
        )
        assert all(row.division == div for row in rows)
    overall = event.standings()
    assert overall[0].total == max(totals.values()) and overall[0].rank == 1
    assert all(len(row.scores) == ROUNDS and None not in row.scores for row in overall)

    finalists = event.finalists()
    best = {d: max(totals[p] for p in totals if division(p) == d) for d in "AB"}
    assert finalists == sorted(p for p in totals if totals[p] == best[division(p)])

    # The final ends in a tie, and so does the first tie-breaker; the second decides.
    event.record_final(dict.fromkeys(finalists, 6))
    assert event.still_tied() == finalists and event.champion() is None
    event.close()

    event = Competition(path)  # the laptop was closed between two games
    event.record_tiebreak(dict.fromkeys(finalists, 3))
    assert event.still_tied() == finalists
    winner = finalists[-1]
    event.record_tiebreak({p: 4 if p == winner else 2 for p in finalists})
    assert event.still_tied() == [] and event.champion() == winner
    actions = [action for _, _, action, _ in event.history()]
    assert actions.count("register") == 30 and actions.count("record") == 40
    assert actions[-3:] == ["final", "tiebreak", "tiebreak"]
    event.close()


@pytest.fixture
def event():
    with Competition(":memory:") as event:
        for n, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
            event.register(n, name, "A" if n <= 3 else "b")
        event.plan(3, seed=1)
        yield event


def _state(event: Competition):
    return event.players(), event.scores(), len(event.history())


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda e: e.record(1, 1, {1: 5, 2: 3, 3: 4}),
            CompetitionError,
            "round 1, table 1 already has scores",
        ),
        (
            lambda e: e.record(1, 2, {4: 1, 5: 2, 9: 3}),
            CompetitionError,
            "there is no player 9; the players are",
        ),
        (
            lambda e: e.record(1, 2, {4: 1, 5: 2, 1: 3}),
            CompetitionError,
            "player 1 did not play at round 1, table 2",
        ),
        (lambda e: e.record(1, 2, {4: 1, 5: 2, 6: -1}), CompetitionError, "counted from 0; got -1 SETs"),
        (
            lambda e: e.record(1, 2, {4: 1, 5: 2}),
            CompetitionError,
            "give a score for every player there; missing: 6",
        ),
        (
            lambda e: e.record(1, 2, {4: 1, 5: 2, 6: "3"}),
            TypeError,
            "player 6's score must be a number of SETs",
        ),
        (
            lambda e: e.record(4, 1, {}),
            CompetitionError,
            "the competition has 3 preliminary rounds; got round 4",
        ),
        (lambda e: e.record(1, 3, {}), CompetitionError, "round 1 has 2 tables; got table 3"),
        (lambda e: e.correct(2, 1, 3), CompetitionError, "player 1 has no score in round 2 to correct"),
        (
            lambda e: e.register(7, "Gus"),
            CompetitionError,
            r"the schedule is made; a player who comes now is registered with register_late",
        ),
        (lambda e: e.register(1, "Ada"), CompetitionError, r"player 1 is already registered \(Ada\)"),
        (lambda e: e.finalists(), CompetitionError, "once every preliminary score is entered"),
        (lambda e: e.record_tiebreak({}), CompetitionError, "nobody is tied"),
        (lambda e: e.standings("C"), CompetitionError, "division must be one of A, B; got 'C'"),
    ],
)
def test_bad_input_says_what_is_wrong_and_changes_nothing(event, call, error, message):
    event.record(1, 1, {1: 5, 2: 3, 3: (4, 1)})
    before = _state(event)
    with pytest.raises(error, match=message):
        call(event)
    assert _state(event) == before


def test_a_correction_changes_the_standings_and_is_kept_in_the_history(event):
    event.record(1, 1, {1: 5, 2: 3, 3: (4, 1)})
    assert [(row.number, row.total, row.rank) for row in event.standings("A")] == [
        (1, 5, 1),
        (2, 3, 2),
        (3, 3, 2),
    ]
    event.correct(1, 3, 6, 1)
    assert [(row.number, row.total) for row in event.standings("A")][:2] == [(3, 5), (1, 5)][::-1]
    _, _, action, details = event.history()[-1]
    assert action == "correct" and details == {"round": 1, "player": 3, "old": [4, 1], "new": [6, 1]}
    assert event.standings("B")[0].division == "B"  # divisions are written in capitals


def _nine_players(wins: dict[int, int], divisions: dict[int, str] | None = None) -> Competition:
    event = Competition(":memory:")
    for n in range(1, 10):
        event.register(n, f"P{n}", (divisions or {}).get(n))
    plan = event.plan(3)
    for r in (1, 2, 3):
        for t, table in enumerate(plan.rounds[r - 1], 1):
            event.record(r, t, {p: wins[p] for p in table})
    return event


def test_without_divisions_the_top_five_go_on_and_a_tie_for_fifth_plays_a_play_in():
    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 1, 8: 0, 9: 0})
    with pytest.raises(
        CompetitionError, match="players 5 and 6 are tied for 1 place, so they play a play-in"
    ):
        event.finalists()
    assert event.play_in() == [5, 6]
    before = _everything(event)
    with pytest.raises(CompetitionError, match="player 7 did not play at play-in 1"):
        event.record_play_in({5: 3, 6: 2, 7: 1})
    assert _everything(event) == before
    event.record_play_in({5: 3, 6: 3})  # a tie again: another play-in between the same two
    assert event.play_in() == [5, 6]
    event.record_play_in({5: 2, 6: 4})
    assert event.finalists() == [1, 2, 3, 4, 6] and event.play_in() == []
    with pytest.raises(CompetitionError, match="no play-in is needed"):
        event.record_play_in({5: 1, 6: 1})


def test_ties_that_fit_at_one_table_all_go_on_to_the_final():
    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 5, 5: 5, 6: 1, 7: 1, 8: 0, 9: 0})
    assert event.finalists() == [1, 2, 3, 4, 5]
    for r in (1, 2, 3):
        event.correct(r, 6, 5)  # player 6 now ties for fourth too: three tied for two places
    assert event.play_in() == [4, 5, 6]
    event.record_play_in({4: 5, 5: 1, 6: 5})
    assert event.finalists() == [1, 2, 3, 4, 6]


def test_a_play_in_whose_players_are_no_longer_tied_no_longer_counts():
    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 1, 8: 0, 9: 0})
    event.record_play_in({5: 1, 6: 4})
    assert event.finalists() == [1, 2, 3, 4, 6]
    event.correct(1, 5, 7)  # player 5 is now fifth on their own: no tie, the play-in is moot
    assert event.finalists() == [1, 2, 3, 4, 5] and event.play_in() == []


TIED_FOR_FIFTH = {1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 1, 8: 0, 9: 0}


def test_a_play_in_score_is_corrected_and_the_history_keeps_both():
    event = _nine_players(TIED_FOR_FIFTH)
    event.record_play_in({5: 3, 6: 2})
    assert event.finalists() == [1, 2, 3, 4, 5]
    event.correct_play_in(1, 6, 5, 1)  # the judge had missed three SETs and a penalty of player 6
    assert event.scores("playin") == {(1, 5): 3, (1, 6): 4}
    assert event.finalists() == [1, 2, 3, 4, 6] and event.play_in() == []
    _, _, action, details = event.history()[-1]
    assert action == "correct play-in"
    assert details == {
        "stage": "playin",
        "round": 1,
        "player": 6,
        "old": [2, 0],
        "new": [5, 1],
        "dropped": {},
        "note": "player 6 now goes on to the final; player 5 no longer goes on.",
    }


def test_a_play_in_correction_drops_the_later_play_ins_it_makes_moot():
    event = _nine_players(TIED_FOR_FIFTH)
    event.record_play_in({5: 3, 6: 3})  # tied again
    event.record_play_in({5: 2, 6: 4})  # the second play-in between the same two
    assert event.finalists() == [1, 2, 3, 4, 6]
    event.correct_play_in(1, 5, 4)  # player 5 had won the first one: the second never applied
    assert event.finalists() == [1, 2, 3, 4, 5] and sorted(event.scores("playin")) == [(1, 5), (1, 6)]
    assert event.history()[-1][3]["dropped"] == {"2:5": 2, "2:6": 4}
    event.correct_play_in(1, 5, 3)  # and that was a mistake: the two are tied again
    assert event.play_in() == [5, 6]
    with pytest.raises(CompetitionError, match="tied for 1 place"):
        event.finalists()
    event.record_play_in({5: 1, 6: 2})
    assert event.finalists() == [1, 2, 3, 4, 6]


def test_a_play_in_correction_keeps_the_other_groups_play_ins_and_numbers_go_on():
    divisions = dict.fromkeys([1, 2, 3, 4], "A") | dict.fromkeys([5, 6, 7, 8, 9], "B")
    # Three tied at the top of each division: six would sit at the final, so each group plays in.
    event = _nine_players({1: 5, 2: 5, 3: 5, 4: 1, 5: 5, 6: 5, 7: 5, 8: 0, 9: 0}, divisions)
    assert event.play_in() == [1, 2, 3]
    event.record_play_in({1: 4, 2: 4, 3: 1})  # game 1: players 1 and 2 still tied
    assert event.play_in() == [1, 2]
    event.record_play_in({1: 5, 2: 2})  # game 2, division A's second
    assert event.play_in() == [5, 6, 7]
    event.record_play_in({5: 1, 6: 6, 7: 2})  # game 3, division B's
    assert event.finalists() == [1, 6]

    event.correct_play_in(1, 2, 5)  # player 2 had won division A's first play-in outright
    assert event.finalists() == [2, 6]
    assert sorted({g for g, _ in event.scores("playin")}) == [1, 3]  # only game 2 was moot
    event.correct_play_in(1, 2, 4)  # put back: players 1 and 2 play again
    assert event.play_in() == [1, 2]
    event.record_play_in({1: 1, 2: 3})
    assert event.scores("playin")[4, 2] == 3  # after the last game entered, never on top of one
    assert event.finalists() == [2, 6]


def test_a_play_in_corrected_after_the_final_names_no_stale_champion():
    event = _nine_players(TIED_FOR_FIFTH)
    event.record_play_in({5: 3, 6: 2})
    event.record_final({1: 3, 2: 2, 3: 2, 4: 2, 5: 6})
    assert event.champion() == 5
    event.correct_play_in(1, 6, 4)
    assert event.finalists() == [1, 2, 3, 4, 6]
    before = _everything(event)
    with pytest.raises(CompetitionError, match="names no champion") as refused:
        event.champion()
    assert "player 5, who played it, no longer goes on" in str(refused.value)
    assert "correct_play_in(game, player, sets, penalties)" in str(refused.value)
    assert _everything(event) == before
    event.correct_play_in(1, 6, 2)  # the correction was a mistake: the final stands again
    assert event.champion() == 5


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e.correct_play_in(3, 5, 3), "the play-ins entered are 1 and 2; got game 3"),
        (lambda e: e.correct_play_in(0, 5, 3), "game must be"),
        (lambda e: e.correct_play_in("1", 5, 3), "game must be a whole number"),
        (
            lambda e: e.correct_play_in(1, 7, 3),
            "player 7 did not play play-in 1; the players there are 5 and 6",
        ),
        (lambda e: e.correct_play_in(1, 5, 25), "play-in 1: one game gives at most 27 SETs"),
        (lambda e: e.correct_play_in(1, 5, -1), "counted from 0"),
        (lambda e: e.correct_play_in(1, 5, 3, None), "penalties must be"),
        (lambda e: e.correct_play_in(2, 5, (3, 1)), "SETs must be"),
    ],
)
def test_a_wrong_correction_of_a_play_in_changes_nothing(change, words):
    event = _nine_players(TIED_FOR_FIFTH)
    event.record_play_in({5: 3, 6: 3})
    event.record_play_in({5: 2, 6: 4})
    before = _everything(event)
    with pytest.raises((TypeError, CompetitionError), match=words):
        change(event)
    assert _everything(event) == before


def test_nothing_to_correct_before_a_play_in():
    event = _nine_players(TIED_FOR_FIFTH)
    before = _everything(event)
    with pytest.raises(CompetitionError, match="no play-in has scores yet"):
        event.correct_play_in(1, 5, 3)
    assert _everything(event) == before


def test_the_standings_widget_follows_the_scores_and_explains_a_bad_entry(event):
    from setwidgets.widgets.standings import Standings, standings_html

    view = Standings(event)
    assert view.division.options == ("Overall", "A", "B")
    assert "<td>Ada</td>" not in view.table.value and '<td class="name">Ada</td>' in view.table.value
    event.record(1, 1, {1: 5, 2: 3, 3: (4, 1)})  # from code: the view redraws itself
    assert view.table.value == standings_html(event) and "<td>5</td>" in view.table.value
    view.round.value, view.table_number.value, view.scores.value = 1, 2, "4: 2, 5: 7 1, 6: 1"
    assert view.submit() and "scores entered" in view.message.value and view.table_number.value == 3
    assert event.standings()[0].total == 6 and event.standings()[0].name == "Eli"
    before = _state(event)
    view.round.value, view.table_number.value, view.scores.value = 1, 2, "4: 2, 5: 7, 6: 1"
    assert not view.submit() and "already has scores" in view.message.value
    view.scores.value = "4 = 2"
    assert not view.submit() and "write each score as 'player: SETs'" in view.message.value
    view.round.value, view.table_number.value, view.scores.value = 2, 1, "4: 5, 4: 3"
    assert not view.submit() and "player 4 is written twice in '4: 5, 4: 3'" in view.message.value
    assert _state(event) == before
    view.division.value = "B"
    assert "Division B" in view.table.value and "Ada" not in view.table.value
    view.division.value = "Overall"
    shown = view.table.value
    view.close()  # a closed view stops following the competition
    event.record(2, 1, {p: 3 for p in event.table(2, 1)})
    assert view.table.value == shown != standings_html(event)


def test_the_standings_widget_marks_absent_withdrawn_and_late_players(event):
    from setwidgets.widgets.standings import Standings

    view = Standings(event)
    refused = "color:#b3261e"
    # The competition has divisions: no division is assumed for a late player.
    assert view.late_division.value == "choose\u2026"
    assert view.late_division.options == ("choose\u2026", "A", "B", "C", "D", "no division")
    view.late_name.value = "Wil"
    before = _everything(event)
    view.register_late_player.click()  # the division left at "choose": refused, nothing saved
    assert refused in view.message.value and "choose the late player's division" in view.message.value
    assert _everything(event) == before and view.late_name.value == "Wil"

    view.round.value, view.player.value = 1, 2
    view.mark_absent.click()
    assert event.absences() == {(1, 2): "absent"} and refused not in view.message.value
    assert "Player 2 is absent in round 1" in view.message.value
    before = _everything(event)
    view.mark_absent.click()  # twice: refused, and nothing changes
    assert (
        "player 2 is already marked absent in round 1" in view.message.value and refused in view.message.value
    )
    assert _everything(event) == before

    view.player.value = 3
    view.withdraw_player.click()
    assert event.withdrawn() == [3] and "Player 3 has withdrawn" in view.message.value
    before = _everything(event)
    view.withdraw_player.click()
    assert "player 3 has already withdrawn" in view.message.value
    view.player.value = 99
    view.withdraw_player.click()
    assert "there is no player 99; the players are 1 to 6" in view.message.value
    view.player.value, view.round.value = 4, 9
    view.mark_absent.click()
    assert "got round 9" in view.message.value
    assert _everything(event) == before

    view.late_name.value, view.late_division.value = "  ", "B"
    view.register_late_player.click()  # no name: refused
    assert refused in view.message.value and _everything(event) == before
    view.late_name.value = "Zoë"
    view.register_late_player.click()
    assert event.players()[7] == ("Zoë", "B") and view.late_name.value == ""
    assert view.late_division.value == "choose\u2026"  # the next late player's division is chosen anew
    said = view.message.value
    assert "Zoë is player 7, playing from round 1." in said and event.schedule().slip(7) in said
    assert '<td class="name">Zoë</td>' in view.table.value  # the table follows at once

    view.late_name.value, view.late_division.value = "Yan", "C"
    view.register_late_player.click()  # a division nobody had: the picker offers it
    assert view.division.options == ("Overall", "A", "B", "C") and view.division.value == "Overall"
    view.division.value = "C"
    assert "Division C" in view.table.value and "Yan" in view.table.value
    view.late_name.value, view.late_division.value = "Xu", "no division"
    view.register_late_player.click()
    assert event.players()[9] == ("Xu", None)
    assert "ranked in the group 'no division'" in view.message.value  # said outright
    # Xu has no division while the others have one: the picker offers their group too.
    assert view.division.options == ("Overall", "A", "B", "C", "no division") == ("Overall", *event.groups())
    assert view.division.value == "C"
    view.division.value = "no division"
    assert "Players without a division" in view.table.value and "Xu" in view.table.value
    assert "Zoë" not in view.table.value and "Yan" not in view.table.value


def test_the_standings_form_takes_the_table_number_a_rotations_slip_prints():
    from setwidgets.widgets.standings import Standings

    event = Competition(":memory:")
    for n in range(1, 24):
        event.register(n, f"Player {n}")
    plan = event.plan(4, tables=6)  # 8 tables a round, 6 in the room: two rotations
    assert plan.seat(plan.rounds[0][6][0], 1).startswith("table 7 (rotation 2, at table 1)")
    view = Standings(event)
    view.round.value, view.table_number.value = 1, 7
    view.scores.value = ", ".join(f"{p}: 2" for p in plan.rounds[0][6])
    assert view.submit() and "Round 1, table 7: scores entered." in view.message.value
    assert {p for (r, p) in event.scores() if r == 1} == set(plan.rounds[0][6])


def test_the_standings_pickers_groups_are_the_competitions_own():
    from setwidgets.widgets.standings import Standings

    # Without divisions: one group, so nothing to pick but everyone.
    plain = Competition(":memory:")
    for number in range(1, 4):
        plain.register(number, f"P{number}")
    assert plain.groups() == [] and Standings(plain).division.options == ("Overall",)
    # Some players without a division: they form the group "no division", the final's rule.
    event = Competition(":memory:")
    for number, division in enumerate(["A", None, "B", None, "A", "B"], 1):
        event.register(number, f"P{number}", division)
    event.plan(3)
    assert event.groups() == ["A", "B", "no division"]
    view = Standings(event)
    assert view.division.options == ("Overall", "A", "B", "no division")
    for group, members in [("A", {1, 5}), ("B", {3, 6}), ("no division", {2, 4})]:
        view.division.value = group
        assert {row.number for row in event.standings(group)} == members
        shown = set(re.findall(r'<td class="name">P(\d+)</td>', view.table.value))
        assert shown == {str(n) for n in members}, group
    for r in range(1, 4):
        for t in range(1, 3):
            event.record(r, t, {p: p for p in event.table(r, t)})
    # Each group's best goes on: the picker's groups are the final's.
    assert sorted(event.finalists()) == [4, 5, 6]


def test_the_standings_widget_enters_a_play_in():
    from setwidgets.widgets.standings import Standings

    waiting = Standings(Competition(":memory:"))
    assert "no play-in yet" in waiting.play_in_players.value

    event = _nine_players(TIED_FOR_FIFTH)
    view = Standings(event)
    assert "players 5 and 6 play it" in view.play_in_players.value
    before = _everything(event)
    for typed, words in [
        ("5: 3, 6: 3, 7: 1", "player 7 did not play at play-in 1; the players there are 5 and 6"),
        ("5: 3", "play-in 1: give a score for every player there; missing: 6"),
        ("5: 20, 6: 8", "play-in 1: one game gives at most 27 SETs"),
        ("5 3, 6 2", "write each score as 'player: SETs'"),
    ]:
        view.play_in_scores.value = typed
        view.enter_play_in.click()
        assert words in view.message.value and view.play_in_scores.value == typed
    assert _everything(event) == before

    view.play_in_scores.value = "5: 3, 6: 2 1"
    view.enter_play_in.click()
    assert "Play-in: scores entered." in view.message.value and view.play_in_scores.value == ""
    assert event.scores("playin") == {(1, 5): 3, (1, 6): 1} and event.finalists() == [1, 2, 3, 4, 5]
    assert "no play-in is needed" in view.play_in_players.value
    before = _everything(event)
    view.play_in_scores.value = "5: 3, 6: 2"
    view.enter_play_in.click()
    assert "no play-in is needed: the finalists fit at one table" in view.message.value
    assert _everything(event) == before


def test_the_standings_form_enters_the_final_tie_breakers_and_corrections_with_the_codes_refusals():
    import html

    from setwidgets.widgets.standings import Standings

    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 4, 7: 1, 8: 0, 9: 0})
    view = Standings(event)
    assert "players 1, 2, 3, 4 and 5 play the final" in view.final_players.value

    def refused_alike(field, button, typed, call) -> None:
        """The form's entry is refused in the code's sentence for the same entry, and saves nothing."""
        before = _everything(event)
        with pytest.raises((CompetitionError, TypeError)) as error:
            call()
        field.value = typed
        button.click()
        assert str(error.value) in html.unescape(view.message.value), (typed, view.message.value)
        assert field.value == typed and _everything(event) == before

    correct = (view.correct_score, view.correct_button)
    refused_alike(
        view.tiebreak_scores, view.enter_tiebreak, "1: 3, 2: 1", lambda: event.record_tiebreak({1: 3})
    )
    view.stage.value = "final"
    refused_alike(*correct, "5", lambda: event.correct_final(1, 5))
    refused_alike(view.final_scores, view.enter_final, "1: 6, 9: 2", lambda: event.record_final({1: 6, 9: 2}))
    refused_alike(
        view.final_scores,
        view.enter_final,
        "1: 20, 2: 6, 3: 5, 4: 4, 5: 2",
        lambda: event.record_final({1: 20, 2: 6, 3: 5, 4: 4, 5: 2}),
    )
    view.final_scores.value = "1: 6, 2: 6, 3: 5, 4: 4, 5: 2"
    view.enter_final.click()
    assert "Final: scores entered. Players 1 and 2 are tied" in view.message.value
    assert "players 1 and 2 are tied: they play a tie-breaker" in view.final_players.value
    view.tiebreak_scores.value = "1: 3, 2: 1"
    view.enter_tiebreak.click()
    assert event.champion() == 1 and "the champion is player 1 (P1)" in view.final_players.value

    # Corrections: a tie-breaker's, then the final's, which drops the tie-breaker it makes moot.
    view.stage.value, view.game.value, view.correct_player.value = "tie-breaker", 3, 2
    refused_alike(*correct, "4", lambda: event.correct_tiebreak(3, 2, 4))
    view.game.value = 1
    refused_alike(*correct, str(10**30), lambda: event.correct_tiebreak(1, 2, 10**30))
    refused_alike(*correct, f"4 {2**62}", lambda: event.correct_tiebreak(1, 2, 4, 2**62))
    refused_alike(*correct, "four", lambda: parse_score_of_form("four"))
    view.correct_score.value = "4"
    view.correct_button.click()
    assert "Tie-breaker 1, player 2: 4 SETs (was 1 SET)." in view.message.value and event.champion() == 2
    view.stage.value, view.correct_player.value = "final", 1
    view.correct_score.value = "7"
    view.correct_button.click()
    message = html.unescape(view.message.value)
    assert "The final, player 1: 7 SETs (was 6 SETs). Tie-breaker 1 no longer applies: dropped" in message
    assert event.scores("tiebreak") == {} and event.champion() == 1

    # A preliminary score corrected after the final: its consequence for the final is said.
    view.stage.value, view.game.value, view.correct_player.value = "round", 9, 6
    refused_alike(*correct, "9", lambda: event.correct(9, 6, 9))  # a round the competition lacks
    view.game.value = 1
    view.correct_score.value = "9"
    view.correct_button.click()
    note = event.history()[-1][3]["note"]
    assert "Round 1, player 6: 9 SETs (was 4 SETs)." in html.unescape(view.message.value)
    assert note[1:] in html.unescape(view.message.value) and "no final yet" in view.final_players.value
    view.replay.click()
    assert "players 1, 2, 3, 4 and 6 play the final" in view.final_players.value and not event.scores("final")
    refused_alike(view.final_scores, view.replay, "", event.replay_final)


def parse_score_of_form(text: str):
    from setwidgets.widgets.standings import parse_score

    return parse_score(text)


# -- the file: refused in one sentence when it holds no competition of ours ---------------------


def _players(event: Competition) -> None:
    for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
        event.register(number, name)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: None, "does not exist"),  # the parent folder, below
        (lambda p: p.write_bytes(b""), "is empty, so it holds no competition"),
        (lambda p: p.write_bytes(b"S"), "is not an SQLite database"),
        (lambda p: p.write_text("name,score\nAda,5\n"), "is not an SQLite database"),
    ],
)
def test_a_path_that_holds_no_competition_is_refused_in_one_sentence(tmp_path, make, words):
    path = tmp_path / "class.sqlite"
    if words == "does not exist":
        path = tmp_path / "missing" / "class.sqlite"
    make(path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    with pytest.raises(CompetitionError, match=words):
        Competition(path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    import sqlite3

    path = tmp_path / "gradebook.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE grade (id INTEGER PRIMARY KEY, score REAL)")
    before = path.read_bytes()
    with pytest.raises(CompetitionError, match="another program's database .* grade"):
        Competition(path)
    assert path.read_bytes() == before


def test_a_file_of_another_version_is_refused(tmp_path):
    import sqlite3

    path = tmp_path / "class.sqlite"
    Competition(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE settings SET value = '99' WHERE key = 'schema'")
    with pytest.raises(CompetitionError, match="another version of setwidgets .*'99'"):
        Competition(path)


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("attempt to write a readonly database", "cannot be written (it is read-only)"),
        ("database is locked", "kept the file busy for 5 s"),
        ("database disk image is malformed", "the file is damaged; open a copy saved earlier"),
        ("disk I/O error", "SQLite says 'disk I/O error'"),
    ],
)
def test_sqlites_own_words_become_a_remedy(said, words):
    """Read-only files cannot be made as root, who writes them anyway: SQLite's message is given."""
    import sqlite3

    from setwidgets.competition.database import file_trouble

    assert words in file_trouble(sqlite3.OperationalError(said))


def test_a_file_held_by_another_writer_says_what_holds_it_and_saves_nothing(tmp_path, monkeypatch):
    import sqlite3

    from setwidgets.competition import database

    monkeypatch.setattr(database, "WAIT_SECONDS", 0.2)
    path = tmp_path / "class.sqlite"
    event = Competition(path)
    _players(event)
    event.plan(rounds=2, seed=1)
    holder = sqlite3.connect(path)
    holder.execute("BEGIN IMMEDIATE")  # another notebook in the middle of a change
    try:
        with pytest.raises(CompetitionError, match="another notebook or program kept the file busy"):
            event.record(1, 1, {1: 5, 2: 3, 3: 4})
    finally:
        holder.rollback()
        holder.close()
    assert all(score is None for row in event.standings() for score in row.scores)
    event.record(1, 1, {1: 5, 2: 3, 3: 4})  # once it is free, the same entry goes in


def test_a_reader_of_the_standings_does_not_block_a_writer(tmp_path):
    path = tmp_path / "class.sqlite"
    event = Competition(path)
    _players(event)
    event.plan(rounds=2, seed=1)
    reader = Competition(path)
    reader._db.execute("BEGIN")
    reader._db.execute("SELECT * FROM scores").fetchall()  # a read transaction left open
    event.record(1, 1, {1: 5, 2: 3, 3: 4})
    reader._db.rollback()
    assert [row.total for row in reader.standings()][:1] == [5]


def test_a_watcher_that_fails_is_reported_and_the_change_stands(tmp_path):
    path = tmp_path / "class.sqlite"
    event = Competition(path)
    _players(event)
    event.plan(rounds=2, seed=1)
    seen = []

    def broken():
        raise KeyError("a bug in a view")

    event.watch(broken)
    event.watch(lambda: seen.append("called"))
    with pytest.warns(
        RuntimeWarning, match="the watch callback .*broken raised KeyError: .*the change was saved"
    ):
        event.record(1, 1, {1: 5, 2: 3, 3: 4})
    assert seen == ["called"]
    assert [row.total for row in Competition(path).standings()][:1] == [5]


def test_a_watcher_is_called_once_per_change_until_it_is_removed():
    event = Competition(":memory:")
    heard = []

    def refresh():
        heard.append(len(event.players()))

    event.watch(refresh)
    event.watch(refresh)  # watching twice still calls once
    event.register(1, "Ada")
    assert heard == [1]
    event.watch(refresh, remove=True)
    event.register(2, "Ben")
    assert heard == [1], "a removed watcher hears nothing more"
    event.watch(refresh, remove=True)  # removing what is not watched is quietly nothing
    with pytest.raises(TypeError, match="^watch\\(\\) needs a function taking no argument, like def refresh"):
        event.watch(lambda change: None)
    with pytest.raises(TypeError, match="^watch\\(\\) needs a function taking no argument; got 'refresh'"):
        event.watch("refresh")
    event.register(3, "Cleo")
    assert heard == [1], "a refused watcher was not added"


# -- the final follows the scores as they are now; a table's SETs; every schedule option ---------


def _everything(event: Competition):
    stages = ("round", "playin", "final", "tiebreak")
    return event.players(), {s: event.scores(s) for s in stages}, event.history()


def _play_all(event: Competition, wins: dict[int, int]) -> None:
    for r in range(1, event.rounds + 1):
        for t, table in enumerate(event.schedule().rounds[r - 1], 1):
            event.record(r, t, {p: wins[p] for p in table})


def test_a_correction_after_the_final_that_changes_the_finalists_names_no_stale_champion(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    assert event.finalists() == [1, 4]
    event.record_final({1: 5, 4: 3})
    assert event.champion() == 1

    event.correct(1, 2, 10)  # player 2 now leads division A: 16 against player 1's 15
    assert event.finalists() == [2, 4]
    before = _everything(event)
    for ask in (event.champion, event.still_tied):
        with pytest.raises(CompetitionError, match="names no champion") as refused:
            ask()
        said = str(refused.value)
        assert "played by 1 and 4" in said and "makes the finalists 2 and 4" in said
        assert (
            "player 1, who played it, no longer goes on" in said
            and "player 2 now goes on but did not" in said
        )
    with pytest.raises(CompetitionError, match="names no champion"):
        event.record_tiebreak({1: 3, 4: 3})
    assert _everything(event) == before

    event.correct(1, 2, 3)  # the correction was a mistake: put back, the final stands again
    assert event.finalists() == [1, 4] and event.champion() == 1


def test_a_table_cannot_keep_more_sets_than_one_game_gives(event):
    seated = event.table(1, 1)
    before = _everything(event)
    with pytest.raises(CompetitionError, match=r"at most 27 SETs at a table .*got 28") as refused:
        event.record(1, 1, dict(zip(seated, (10, 10, 8), strict=True)))
    assert "penalties are not counted" in str(refused.value)
    assert _everything(event) == before

    # Penalties are entered apart and do not count towards the 27.
    event.record(1, 1, dict(zip(seated, ((10, 5), 9, 8), strict=True)))
    assert event.scores()[1, seated[0]] == 5

    before = _everything(event)
    with pytest.raises(CompetitionError, match="round 1, table 1: .*at most 27 .*got 28"):
        event.correct(1, seated[1], 10)
    assert _everything(event) == before
    event.correct(1, seated[1], 8)  # within the 27: accepted
    assert event.scores()[1, seated[1]] == 8


def test_the_final_and_a_tie_breaker_keep_within_one_games_sets_too(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    before = _everything(event)
    with pytest.raises(CompetitionError, match="the final: one game gives at most 27 SETs"):
        event.record_final({1: 14, 4: 14})
    assert _everything(event) == before
    event.record_final({1: 13, 4: 13})
    before = _everything(event)
    with pytest.raises(CompetitionError, match="tie-breaker 1: one game gives at most 27 SETs"):
        event.record_tiebreak({1: 20, 4: (8, 2)})
    assert _everything(event) == before


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda e: e.record(1, 2, {4: 1, 5: 2, 6: 3, 1: 3}), "player 1 did not play at round 1, table 2"),
        (
            lambda e: e.record(2, 1, {**{p: 1 for p in e.table(2, 1)}, **{p: 1 for p in e.table(2, 2)}}),
            "did not play at round 2, table 1",
        ),
        (lambda e: e.record_final({1: 5, 4: 3, 2: 1}), "player 2 did not play at the final"),
    ],
)
def test_scores_for_players_not_at_that_table_are_refused(event, call, message):
    if "final" in message:
        _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    before = _everything(event)
    with pytest.raises(CompetitionError, match=message):
        call(event)
    assert _everything(event) == before


def test_plan_passes_every_option_of_schedule_on():
    import inspect

    from setwidgets.competition.schedules import schedule

    options = {
        name
        for name, param in inspect.signature(schedule).parameters.items()
        if param.kind is inspect.Parameter.KEYWORD_ONLY
    }
    assert options <= set(inspect.signature(Competition.plan).parameters)

    with Competition(":memory:") as event:
        for n in range(1, 12):
            event.register(n, f"P{n}")
        plan = event.plan(3, table_size=4, tables=2, seed=7)
        assert plan.rounds == schedule(11, 3, table_size=4, tables=2, seed=7).rounds
        assert [len(table) for table in plan.rounds[0]] == [4, 4, 3]
        assert event.schedule().rounds == plan.rounds and event.schedule().tables == 2
        assert event.history()[-1][3] == {"rounds": 3, "seed": 7, "tables": 2, "table_size": 4}


def test_players_without_a_division_form_a_group_whose_best_goes_on():
    with Competition(":memory:") as event:
        for n, div in enumerate(["A", "A", "A", "B", "B", "B", None, None, None], 1):
            event.register(n, f"P{n}", div)
        event.plan(3)
        _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0, 7: 9, 8: 4, 9: 4})
        assert event.divisions() == ["A", "B"]
        assert [row.number for row in event.standings("no division")] == [7, 8, 9]
        assert event.finalists() == [1, 4, 7]
        with pytest.raises(CompetitionError, match="division must be one of A, B, no division; got 'C'"):
            event.standings("C")


def test_a_damaged_page_is_found_when_the_file_is_opened(tmp_path):
    path = tmp_path / "class.sqlite"
    with Competition(path) as event:
        _players(event)
        event.plan(3)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[2 * page + 8 : 2 * page + 200] = b"\xff" * 192  # the cells of a table's page, overwritten
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(CompetitionError, match="is damaged .*open a copy saved earlier"):
        Competition(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: schedule(10**6, 4), "players must be at most 1000"),
        (lambda: schedule(10**18, 4), "players must be at most 1000"),
        (lambda: schedule(9, 10**6), "rounds must be at most 30"),
        (lambda: fewest_repeats(10**18, 4), "players must be at most 1000"),
        (lambda: misprints(5, 6), "rounds must be a list of rounds like"),
        (lambda: misprints("123", 6), "rounds must be a list of rounds like .*got '123'"),
        (lambda: misprints([[(1, 2, 3)]], 10**18), "players must be at most 1000"),
        (lambda: meetings([None]), r"rounds: round 1 must be a list of tables .*got None"),
        (
            lambda: repeats([["abc"]]),
            r"rounds: round 1, table 1 must be a list of player numbers .*got 'abc'",
        ),
        (lambda: repeats([[(1, 2.5)]]), r"round 1, table 1: a player's number must be a whole number"),
        (lambda: repeats(itertools.count()), "with at most 10000 items; got more"),
    ],
)
def test_schedules_of_absurd_sizes_or_shapes_are_refused_at_once(call, words):
    with pytest.raises((TypeError, ValueError), match=words):
        call()


def test_misprints_names_players_beyond_the_count():
    assert misprints([[(1, 2, 3), (4, 5, 9)]], 6) == [
        "round 1: player 6 is left out and player 9 is beyond the 6 players"
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Ada\x00", r"U\+0000"),
        ("\u202eadA", r"U\+202E \(RIGHT-TO-LEFT OVERRIDE\)"),
        ("A\u200bda", r"U\+200B \(ZERO WIDTH SPACE\)"),
        ("\x07\x1b", r"U\+0007"),
        ("   ", "name must be 1 to 60 characters"),
        ("\u200dAda", "name may hold a joiner only inside a word"),
        ("Ana \U0001f600", r"U\+1F600 \(GRINNING FACE\)"),  # the class game refuses emoji too
        ("Ben, Cleo, Dan", "which holds ','"),
    ],
)
def test_a_name_a_reader_cannot_see_is_refused_and_nobody_is_registered(name, words):
    event = Competition(":memory:")
    with pytest.raises(CompetitionError, match=words):
        event.register(1, name)
    assert event.players() == {} and event.history() == []


def test_names_go_through_the_class_games_policy_with_joiners_inside_a_word():
    from setwidgets.game.inputs import player_name

    # Persian (ZWNJ), Sinhala (ZWJ), an apostrophe, a hyphen, 60 characters: taken as the game takes them.
    persian = "\u0639\u0644\u06cc\u200c\u0631\u0636\u0627"
    sinhala = "\u0dc1\u0dca\u200d\u0dbb\u0dd3\u0db1\u0dcf\u0dad\u0dca"
    names = [persian, sinhala, "O'Brien", "Jean-Luc", "x" * 60]
    event = Competition(":memory:")
    for number, name in enumerate(names, 1):
        event.register(number, name)
        assert name == player_name(name, longest=60)
    assert [name for name, _ in event.players().values()] == names
    with pytest.raises(CompetitionError, match="name must be 1 to 60 characters"):
        event.register(9, "x" * 61)


def test_a_player_number_past_what_a_schedule_seats_is_refused():
    event = Competition(":memory:")
    with pytest.raises(CompetitionError, match="number must be at most 1000"):
        event.register(2**63, "Ada")
    assert event.players() == {}


def test_plan_refuses_a_million_rounds_at_once():
    event = Competition(":memory:")
    _players(event)
    with pytest.raises(ValueError, match="rounds must be at most 30"):
        event.plan(rounds=10**6)
    assert event.rounds == 0


def test_scores_of_an_unknown_stage_are_refused():
    with pytest.raises(
        CompetitionError, match="stage must be one of 'round', 'playin', 'final' or 'tiebreak'; got 'semi'"
    ):
        Competition(":memory:").scores("semi")


def test_a_final_score_is_corrected_and_the_history_keeps_both(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 3})
    assert event.champion() == 1
    event.correct_final(4, 7, 1)  # the judge had missed four SETs and a penalty
    assert event.scores("final") == {(1, 1): 5, (1, 4): 6} and event.champion() == 4
    _, _, action, details = event.history()[-1]
    assert action == "correct final" and details["old"] == [3, 0] and details["new"] == [7, 1]


def test_a_correction_that_changes_who_is_tied_drops_the_tie_breakers_that_no_longer_apply(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 3})
    event.record_tiebreak({1: 4, 4: 2})
    assert event.champion() == 1
    event.correct_tiebreak(1, 4, 5)  # player 4 won the first tie-breaker: the second never applied
    assert event.champion() == 4 and event.still_tied() == []
    assert sorted(event.scores("tiebreak")) == [(1, 1), (1, 4)]
    assert event.history()[-1][3]["dropped"] == {"2:1": 4, "2:4": 2}
    event.correct_final(1, 4)  # and the final was no tie at all
    assert event.scores("tiebreak") == {} and event.champion() == 4


def test_a_final_played_by_the_wrong_players_is_played_again(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 3})
    event.correct(1, 2, 10)
    with pytest.raises(CompetitionError, match=r"replay_final\(\)"):
        event.champion()
    event.replay_final()
    assert event.scores("final") == {} and event.champion() is None
    assert event.history()[-1][3]["final"] == {"1": 5, "4": 3}
    event.record_final({2: 4, 4: 6})
    assert event.champion() == 4


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e.correct_final(2, 3), "player 2 did not play the final; the players there are 1 and 4"),
        (lambda e: e.correct_final(1, 23), "the final: one game gives at most 27 SETs"),
        (lambda e: e.correct_final(1, -1), "counted from 0"),
        (lambda e: e.correct_tiebreak(2, 1, 3), "there is 1 tie-breaker so far; got game 2"),
        (lambda e: e.correct_tiebreak(1, 1, 26), "tie-breaker 1: one game gives at most 27 SETs"),
        (lambda e: e.correct_tiebreak("1", 1, 3), "game must be a whole number"),
    ],
)
def test_a_wrong_correction_of_the_final_changes_nothing(event, change, words):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 2})
    before = _everything(event)
    with pytest.raises((TypeError, CompetitionError), match=words):
        change(event)
    assert _everything(event) == before


def test_nothing_to_correct_or_replay_before_the_final(event):
    with pytest.raises(CompetitionError, match="the final has no scores yet"):
        event.correct_final(1, 3)
    with pytest.raises(CompetitionError, match="nothing to play again"):
        event.replay_final()


def test_corrections_of_the_final_and_the_tie_breakers_say_exactly_what_is_wrong(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    assert _refused(event, lambda: event.correct_final(1, 3)) == (
        "the final has no scores yet; enter them with record_final(scores)"
    )
    assert _refused(event, event.replay_final) == (
        "the final has no scores yet: there is nothing to play again"
    )
    assert _refused(event, lambda: event.correct_tiebreak(1, 1, 3)) == (
        "there are 0 tie-breakers so far; got game 1"
    )
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 3})
    event.record_tiebreak({1: 4, 4: 4})
    for move, (error, message) in {
        lambda: event.correct_tiebreak(0, 1, 3): (CompetitionError, "game must be at least 1; got 0"),
        lambda: event.correct_tiebreak(1.0, 1, 3): (
            TypeError,
            "game must be a whole number like 1; got 1.0 (a number): write 1, without the '.0'",
        ),
        lambda: event.correct_tiebreak(3, 1, 3): (
            CompetitionError,
            "there are 2 tie-breakers so far; got game 3",
        ),
        lambda: event.correct_final("1", 3): (
            TypeError,
            "player must be a whole number like 7; got '1' (a string)",
        ),
        lambda: event.correct_final(0, 3): (CompetitionError, "player must be at least 1; got 0"),
    }.items():
        assert _refused(event, move, error) == message


def test_a_penalty_in_a_correction_counts_against_the_sets_when_deciding_the_tie_breakers(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 2})
    event.correct_final(4, 6, 1)  # 6 SETs less a penalty: still 5, still tied
    assert event.scores("tiebreak") == {(1, 1): 3, (1, 4): 2} and event.champion() == 1
    event.correct_final(4, 6)  # no penalty unless one is given: 6, no tie, no tie-breaker
    assert event.scores("tiebreak") == {} and event.champion() == 4
    _, _, action, details = event.history()[-1]
    assert action == "correct final" and details["old"] == [6, 1] and details["new"] == [6, 0]
    assert details["dropped"] == {"1:1": 3, "1:4": 2}


def test_a_tie_breaker_corrected_without_a_penalty_has_none(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 2})
    event.correct_tiebreak(1, 4, 4)
    assert event.history()[-1][3]["new"] == [4, 0] and event.champion() == 4


def test_a_replayed_final_keeps_its_scores_and_tie_breakers_in_the_history(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 5})
    event.record_tiebreak({1: 3, 4: 2})
    event.replay_final()
    _, _, action, details = event.history()[-1]
    assert action == "replay final"
    assert details == {"final": {"1": 5, "4": 5}, "tiebreaks": {"1:1": 3, "1:4": 2}}
    assert event.scores("final") == {} and event.scores("tiebreak") == {}


def test_play_ins_are_entered_and_corrected_with_exact_refusals():
    event = _nine_players(TIED_FOR_FIFTH)
    assert _refused(event, lambda: event.correct_play_in(1, 5, 3)) == (
        "no play-in has scores yet; enter one with record_play_in(scores)"
    )
    event.record_play_in({5: 3, 6: 3})
    event.record_play_in({5: 2, 6: 4})
    assert [(action, details["round"]) for _, _, action, details in event.history()[-2:]] == [
        ("play-in", 1),
        ("play-in", 2),
    ]
    for move, (error, message) in {
        lambda: event.record_play_in({5: 1, 6: 2}): (
            CompetitionError,
            "no play-in is needed: the finalists fit at one table",
        ),
        lambda: event.correct_play_in(0, 5, 3): (CompetitionError, "game must be at least 1; got 0"),
        lambda: event.correct_play_in("1", 5, 3): (
            TypeError,
            "game must be a whole number like 1; got '1' (a string)",
        ),
        lambda: event.correct_play_in(1, 0, 3): (CompetitionError, "player must be at least 1; got 0"),
    }.items():
        assert _refused(event, move, error) == message


def test_each_group_that_must_play_a_play_in_is_named_in_the_refusal_in_turn():
    divisions = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C"}  # 7, 8 and 9: no division
    event = _nine_players({1: 5, 2: 5, 3: 4, 4: 1, 5: 3, 6: 1, 7: 2, 8: 2, 9: 0}, divisions)
    # Before any play-in the ties would seat six. Division A's play-in leaves five, yet 7 and 8
    # still play theirs: the count before the play-ins decides which groups play one.
    for group, tied, play_in in (
        ("division A", "1 and 2", {1: 3, 2: 1}),
        ("no division", "7 and 8", {7: 3, 8: 1}),
    ):
        assert _refused(event, event.finalists) == (
            f"ties would seat more than 5 players at the final: players {tied} of {group} are tied "
            "for 1 place, so they play a play-in first; enter it with record_play_in(scores)"
        )
        event.record_play_in(play_in)
    assert event.finalists() == [1, 3, 5, 7]


def test_a_tie_that_brings_the_final_to_exactly_five_players_needs_no_play_in():
    divisions = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C", 7: "D", 8: "D", 9: "D"}
    event = _nine_players({1: 5, 2: 5, 3: 4, 4: 1, 5: 3, 6: 1, 7: 2, 8: 1, 9: 0}, divisions)
    assert event.finalists() == [1, 2, 3, 5, 7] and event.play_in() == []


def test_finalists_are_refused_exactly_before_the_scores_are_in_and_when_everyone_withdrew():
    event = Competition(":memory:")
    for n in range(1, 4):
        event.register(n, f"P{n}")
    event.plan(2, table_size=3)
    assert _refused(event, event.finalists) == (
        "the finalists are known once every preliminary score is entered"
    )
    event.record(1, 1, {1: 1, 2: 1, 3: 1})
    for player in (1, 2, 3):
        event.withdraw(player)
    assert event.complete()
    assert _refused(event, event.finalists) == "every player has withdrawn: nobody goes on to the final"


def test_a_final_whose_players_changed_names_everyone_who_left_and_came_in_its_refusal():
    event = _nine_players({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 4, 7: 3, 8: 0, 9: 0})
    event.record_final(dict.fromkeys(range(1, 6), 1))
    assert _refused(event, lambda: event.record_final(dict.fromkeys(range(1, 6), 1))) == (
        "the final already has scores; to change one, use correct_final(player, sets, penalties)"
    )
    for r in (1, 2, 3):
        event.correct(r, 6, 8)
        event.correct(r, 7, 8)
    assert _refused(event, event.champion) == (
        "the final was played by 1, 2, 3, 4 and 5, but a score corrected since then makes the finalists "
        "1, 2, 3, 6 and 7 (players 4 and 5, who played it, no longer go on; players 6 and 7 now go on "
        "but did not play it), so the final names no champion; play it again with replay_final() and "
        "record_final(scores), or, if that correction was a mistake, put the score back with "
        "correct(round, player, sets, penalties) "
        "(a play-in's: correct_play_in(game, player, sets, penalties))"
    )


def test_a_tie_breaker_without_a_tie_and_a_wrong_corrected_score_are_refused_exactly(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    event.record_final({1: 5, 4: 3})
    assert _refused(event, lambda: event.record_tiebreak({1: 1, 4: 2})) == (
        "nobody is tied: there is no tie-breaker to play"
    )
    assert _refused(event, lambda: event.correct_final(4, "7"), TypeError) == (
        "player 4's SETs must be a whole number like 5; got '7' (a string)"
    )


def test_a_rotation_tournament_is_entered_under_the_numbers_on_the_slips():
    """23 players, 6 tables in the room: each round is played in two rotations."""
    import re

    event = Competition(":memory:")
    for n in range(1, 24):
        event.register(n, f"Player {n}", "AB"[n % 2])
    plan = event.plan(4, tables=6)
    assert len(plan.rotations(1)) == 2
    for r in range(1, 5):
        tables: dict[int, list[int]] = {}
        for player in range(1, 24):
            seat = plan.seat(player, r)  # what the slip and the score sheet print
            tables.setdefault(int(re.match(r"table (\d+)", seat).group(1)), []).append(player)
        for number, seated in tables.items():
            event.record(r, number, dict.fromkeys(seated, 2))
    assert event.complete()


# -- absent, withdrawn and late players -------------------------------------------------------------


def test_an_absent_player_scores_0_and_the_table_plays_without_them(event):
    table = event.table(1, 1)
    away, *playing = table
    event.absent(1, away)
    before = _everything(event)
    with pytest.raises(CompetitionError, match=f"player {away} is marked absent at round 1, table 1"):
        event.record(1, 1, dict.fromkeys(table, 2))
    assert _everything(event) == before
    event.record(1, 1, dict.fromkeys(playing, 4))
    assert event.scores()[1, away] == 0 and event.absences() == {(1, away): "absent"}
    with pytest.raises(CompetitionError, match="is marked absent in round 1, so has no score to correct"):
        event.correct(1, away, 3)
    with pytest.raises(CompetitionError, match="already marked absent in round 1"):
        event.absent(1, away)


def test_a_player_who_scored_cannot_be_marked_absent(event):
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))
    before = _everything(event)
    with pytest.raises(
        CompetitionError, match=r"already has a score in round 1; to change it, use correct\(1, "
    ):
        event.absent(1, event.table(1, 1)[0])
    assert _everything(event) == before


def test_a_withdrawn_player_keeps_their_scores_and_does_not_go_on(event):
    _play_round = {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0}
    for t, table in enumerate(event.schedule().rounds[0], 1):
        event.record(1, t, {p: _play_round[p] for p in table})
    event.withdraw(4)  # the best of division B so far
    assert event.withdrawn() == [4]
    assert event.absences() == {(r, 4): "withdrawn" for r in range(2, event.rounds + 1)}
    for r in range(2, event.rounds + 1):
        for t, table in enumerate(event.schedule().rounds[r - 1], 1):
            event.record(r, t, {p: _play_round[p] for p in table if p != 4})
    assert event.complete() and 4 not in event.finalists()
    assert [row.number for row in event.standings() if row.number == 4] == [4]
    with pytest.raises(CompetitionError, match="player 4 has already withdrawn"):
        event.withdraw(4)


def test_a_late_player_gets_the_next_number_and_a_seat_in_every_round_left(event):
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))
    with pytest.raises(CompetitionError, match="a late player gets the next number, 7; got 9"):
        event.register_late(9, "Gus")
    with pytest.raises(CompetitionError, match="U\\+0000"):
        event.register_late(7, "Gus\x00")
    assert event.register_late(7, "Gus", "b") == 2
    assert event.players()[7] == ("Gus", "B")
    assert event.absences() == {(1, 7): "late"} and event.scores()[1, 7] == 0
    assert 7 in event.schedule().rounds[1][0]  # round 2: every table is of 3, the lowest number
    assert all(7 in event.table(r, event.schedule().table_of(7, r)) for r in (2, 3))
    assert event.schedule().players == 7


def test_absences_and_late_players_before_the_schedule_or_with_a_wrong_number_are_refused_as_such():
    event = Competition(":memory:")
    _players(event)
    for move, message in (
        (
            lambda: event.register_late(7, "Gus"),
            "the schedule is not made yet: register the player with register()",
        ),
        (lambda: event.absent(1, 2), "there is no schedule yet; call plan(rounds) first"),
        (lambda: event.withdraw(2), "there is no schedule yet; call plan(rounds) first"),
    ):
        assert _refused(event, move) == message
    event.plan(2, seed=1)
    for move, (error, message) in {
        lambda: event.register_late("7", "Gus"): (
            TypeError,
            "number must be a whole number like 7; got '7' (a string)",
        ),
        lambda: event.register_late(0, "Gus"): (CompetitionError, "number must be at least 1; got 0"),
        lambda: event.withdraw(2.5): (TypeError, "player must be a whole number like 7; got 2.5 (a number)"),
        lambda: event.withdraw(0): (CompetitionError, "player must be at least 1; got 0"),
        lambda: event.absent(1, 9): (CompetitionError, "there is no player 9; the players are 1 to 6"),
    }.items():
        assert _refused(event, move, error) == message


def test_every_absence_and_late_player_is_written_in_the_history_with_its_details(event):
    assert event.table(1, 1) == (1, 2, 3)
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))  # player 2 has played round 1
    event.absent(2, 1)
    event.withdraw(2)
    assert event.register_late(7, "Gus", "b") == 2
    changes = [(action, details) for _, _, action, details in event.history()[-3:]]
    assert changes == [
        ("absent", {"player": 1, "rounds": [2]}),
        (
            "withdrawn",
            {
                "player": 2,
                "rounds": [2, 3],
                "moved": [[2, 5, 1, 2]],  # player 5 would have been alone at table 1 of round 2
                "note": "round 2: player 5 would have been alone at table 1, so plays at table 2 "
                "(print the score sheets and slips again).",
            },
        ),
        ("register late", {"number": 7, "name": "Gus", "division": "B", "first round": 2}),
    ]


def test_a_player_who_played_every_round_has_nothing_to_withdraw_from(event):
    _play_all(event, {1: 5, 2: 3, 3: 1, 4: 6, 5: 2, 6: 0})
    assert _refused(event, lambda: event.withdraw(3)) == (
        "player 3 has played every round: there is nothing to withdraw from"
    )


def test_a_late_player_when_every_table_is_full_or_every_round_begun_is_refused():
    event = Competition(":memory:")
    for n in range(1, 6):
        event.register(n, f"P{n}")
    event.plan(1, table_size=5)
    before = _everything(event)
    with pytest.raises(CompetitionError, match="every table of round 1 already seats 5 players"):
        event.register_late(6, "Gus")
    event.record(1, 1, dict.fromkeys(range(1, 6), 2))
    with pytest.raises(
        CompetitionError, match="^every round already has scores: a late player has no round left to play$"
    ):
        event.register_late(6, "Gus")
    assert _everything(event)[0] == before[0]


def test_a_file_of_the_first_version_opens_and_gains_the_table_of_absences(tmp_path):
    import sqlite3

    path = tmp_path / "class.sqlite"
    with Competition(path) as event:
        _players(event)
        event.plan(2)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE absences")
        db.execute("UPDATE settings SET value = '1' WHERE key = 'schema'")
    db.close()
    with Competition(path) as event:
        assert len(event.players()) == 6 and event.absences() == {}
        event.absent(1, 1)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM settings WHERE key = 'schema'").fetchone() == ("2",)
    db.close()


def test_a_closed_competition_says_how_to_open_it_again(tmp_path):
    event = Competition(tmp_path / "class.sqlite")
    _players(event)
    event.close()
    for use in (event.players, event.standings, lambda: event.register(7, "Gus"), event.close):
        if use == event.close:
            use()  # closing twice is harmless
            continue
        with pytest.raises(
            CompetitionError, match=r"file .*class.sqlite' is closed; open it again with Competition"
        ):
            use()
    assert len(Competition(tmp_path / "class.sqlite").players()) == 6


def test_the_adjusted_total_scales_each_game_to_a_table_of_three():
    event = Competition(":memory:")
    for n in range(1, 6):
        event.register(n, f"P{n}")
    event.plan(1)  # 5 players: a table of 3 and a table of 2
    three, two = event.schedule().rounds[0]
    event.record(1, 1, dict.fromkeys(three, 8))
    event.record(1, 2, dict.fromkeys(two, 12))
    rows = {row.number: row for row in event.standings()}
    assert {rows[p].total for p in two} == {12} and {rows[p].adjusted for p in two} == {8.0}
    assert {rows[p].adjusted for p in three} == {8.0}
    assert [row.number for row in event.standings()][:2] == list(two)  # ranks follow the raw total


def test_a_late_player_has_a_slip_and_counts_in_the_adjusted_totals_only_where_present(event):
    event.absent(1, 1)  # an absence entered ahead does not start the round
    assert event.register_late(7, "Gus", "A") == 1
    event.withdraw(2)
    plan = event.schedule()
    assert plan.slip(7).startswith("Player 7: round 1: table ")
    seated = event.table(1, plan.table_of(7, 1))
    playing = [p for p in seated if p not in (1, 2)]
    event.record(1, plan.table_of(7, 1), dict.fromkeys(playing, 3))
    rows = {row.number: row for row in event.standings()}
    assert rows[7].scores[0] == 3 and rows[7].adjusted == 3 * len(playing) / 3


def test_a_late_players_slip_says_no_game_for_the_rounds_before_they_came(event):
    event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))
    event.register_late(7, "Gus", "b")
    assert event.schedule().slip(7).startswith("Player 7: round 1: no game; round 2: table ")


def test_the_adjusted_total_counts_only_the_players_who_played_at_the_table():
    event = Competition(":memory:")
    for n in range(1, 7):
        event.register(n, f"P{n}")
    event.plan(1)
    first, second = event.schedule().rounds[0]
    event.absent(1, first[0])
    event.record(1, 1, dict.fromkeys(first[1:], 12))  # two played: each kept about a game's half
    event.record(1, 2, dict.fromkeys(second, 8))
    rows = {row.number: row for row in event.standings()}
    assert {rows[p].adjusted for p in first[1:]} == {8.0} and {rows[p].adjusted for p in second} == {8.0}
    assert rows[first[0]].total == 0


def test_two_notebooks_recording_one_table_at_once_save_it_once_and_say_so(tmp_path):
    """The second writer checked the table before the first saved it: its insert is refused whole."""
    path = tmp_path / "class.sqlite"
    first, second = Competition(path), Competition(path)
    _players(first)
    first.plan(2)
    seated = first.table(1, 1)
    first.record(1, 1, dict.fromkeys(seated, 2))
    before = _everything(first)
    # What record() does after its checks passed, as in the second notebook a moment too late.
    with pytest.raises(CompetitionError, match="saved a change to the same scores at the same moment"):
        second._save_scores("record", "round", 1, dict.fromkeys(seated, (3, 0)), {"table": 1})
    assert _everything(first) == before
    first.close()
    second.close()


# -- the file's refusals, word for word ---------------------------------------------------------


def test_a_file_whose_tables_are_missing_names_them(tmp_path):
    import sqlite3

    path = tmp_path / "class.sqlite"
    Competition(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE seats")
        db.execute("DROP TABLE players")
    db.close()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} is damaged: its tables players and seats are missing; open a copy saved earlier"
    )


def test_another_programs_database_is_named_by_four_of_its_tables(tmp_path):
    import sqlite3

    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        for name in "abcde":
            db.execute(f"CREATE TABLE {name} (x)")
    db.close()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} is another program's database (it holds the tables a, b, c and d): "
        "a competition needs a file of its own"
    )


def test_a_file_of_another_version_names_the_file_and_both_versions(tmp_path):
    import sqlite3

    path = tmp_path / "class.sqlite"
    Competition(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE settings SET value = '7' WHERE key = 'schema'")
    db.close()
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} was written by another version of setwidgets (file version '7', this one reads 2)"
    )


def test_a_file_sqlite_cannot_open_is_refused_with_sqlites_reason(tmp_path, monkeypatch):
    import sqlite3

    from setwidgets.competition import database

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(database.sqlite3, "connect", refuse)
    path = tmp_path / "class.sqlite"
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} cannot be opened: SQLite says 'unable to open database file'"
    )


def test_a_cut_file_is_refused_word_for_word(tmp_path):
    path = tmp_path / "class.sqlite"
    path.write_bytes(b"SQLite")
    with pytest.raises(CompetitionError) as refused:
        Competition(path)
    assert str(refused.value) == (
        f"{path_text(path)} is not an SQLite database, so it holds no competition: it may have been cut "
        "short or overwritten; open a copy saved earlier, or give a new file name"
    )


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("database table is busy", "kept the file busy"),
        ("database is locked", "kept the file busy"),
        ("attempt to write a read-only database", "cannot be written (it is read-only)"),
        ("file is not a database", "the file is damaged"),
    ],
)
def test_each_of_sqlites_words_for_a_trouble_has_its_remedy(said, words):
    import sqlite3

    from setwidgets.competition.database import file_trouble

    assert words in file_trouble(sqlite3.DatabaseError(said))
