"""The scoreboard's answers, word for word: refusals, the history of each change, ranks and adjusted totals.

tests/test_competition.py plays whole competitions; here each of the Competition's own
checks (setwidgets.competition.store) is pinned down as the coordinator reads it: the exact
sentence of a refusal (and that it changed nothing), what the history keeps, the boundaries
of a score and of a schedule, how ties share a rank.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import setwidgets
from setwidgets.competition import Competition, CompetitionError, schedule

PACKAGE = Path(setwidgets.__file__).resolve().parent


def _register(event: Competition, count: int, divisions: dict[int, str] | None = None) -> None:
    for number in range(1, count + 1):
        event.register(number, f"P{number}", (divisions or {}).get(number))


def _state(event: Competition):
    stages = ("round", "playin", "final", "tiebreak")
    return event.players(), {s: event.scores(s) for s in stages}, event.history(), event.rounds


@pytest.fixture
def six():
    """Six players, three rounds of two tables of three; round 1: (1, 2, 3) and (4, 5, 6)."""
    with Competition(":memory:") as event:
        _register(event, 6)
        event.plan(3, seed=1)
        assert event.table(1, 1) == (1, 2, 3) and event.table(1, 2) == (4, 5, 6)
        yield event


def _refused(event: Competition, call, error: type[Exception] = CompetitionError) -> str:
    """The sentence ``call`` is refused with, after checking that it changed nothing."""
    before = _state(event)
    with pytest.raises(error) as refused:
        call()
    assert type(refused.value) is error
    assert _state(event) == before
    return str(refused.value)


# -- what a competition says of itself -----------------------------------------------------------


def test_a_competition_names_its_file_players_and_rounds():
    event = Competition(":memory:")
    assert repr(event) == "Competition(':memory:': 0 players, 0 rounds)"
    event.register(1, "Ada")
    assert repr(event) == "Competition(':memory:': 1 player, 0 rounds)"
    event.register(2, "Ben")
    event.register(3, "Cleo")
    event.plan(1)
    assert repr(event) == "Competition(':memory:': 3 players, 1 round)"


def test_a_kept_schedule_is_the_planned_one_read_back_from_the_file(tmp_path):
    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        _register(event, 9)
        planned = event.plan()
    with Competition(path) as event:
        kept = event.schedule()
    assert kept.rounds == planned.rounds and kept.tables == planned.tables and kept.players == 9
    assert kept.method == "kept"  # read from the file, not searched again


# -- players -------------------------------------------------------------------------------------


def test_a_division_that_is_not_text_is_refused_and_nobody_is_registered():
    event = Competition(":memory:")
    message = _refused(event, lambda: event.register(1, "Ada", 1), TypeError)
    assert message == "division must be one of A, B, C, D or None; got 1 (a number)"


def test_a_number_past_what_a_schedule_seats_is_refused_word_for_word():
    event = Competition(":memory:")
    event.register(1000, "Ada")  # the most a schedule seats is still a number
    message = _refused(event, lambda: event.register(1001, "Ben"))
    assert message == "number must be at most 1000, the most players a schedule seats; got 1001"


# -- the schedule --------------------------------------------------------------------------------


def test_plan_by_default_makes_four_rounds_with_seed_0():
    event = Competition(":memory:")
    _register(event, 9)
    plan = event.plan()
    assert plan.rounds == schedule(9, 4, seed=0).rounds
    assert event.rounds == 4
    _, _, action, details = event.history()[-1]
    assert action == "plan" and details == {"rounds": 4, "seed": 0, "tables": 3, "table_size": 3}


def test_three_players_are_enough_for_a_schedule():
    event = Competition(":memory:")
    _register(event, 3)
    assert event.plan(2).rounds == (((1, 2, 3),), ((1, 2, 3),))


@pytest.mark.parametrize(
    ("numbers", "listed"),
    [((1, 2), "[1, 2]"), ((1, 2, 4), "[1, 2, 4]"), ((2, 3, 4, 5), "[2, 3, 4, 5]"), ((), "[]")],
)
def test_plan_refuses_too_few_players_or_a_gap_in_their_numbers(numbers, listed):
    event = Competition(":memory:")
    for n in numbers:
        event.register(n, f"P{n}")
    message = _refused(event, lambda: event.plan(2))
    assert message == f"players must be numbered 1, 2, 3, ... without gaps, at least 3; registered: {listed}"


def test_the_schedule_is_made_once(six):
    message = _refused(six, lambda: six.plan(3, seed=2))
    assert message == "the schedule is already made; it stays the same for the whole competition"


def test_before_plan_there_is_no_schedule_and_no_round():
    event = Competition(":memory:")
    _register(event, 3)
    no_schedule = "there is no schedule yet; call plan(rounds) first"
    assert _refused(event, event.schedule) == no_schedule
    assert _refused(event, lambda: event.table(1, 1)) == no_schedule
    assert _refused(event, lambda: event.record(1, 1, {1: 1, 2: 1, 3: 1})) == no_schedule


@pytest.mark.parametrize(
    ("table", "error", "words"),
    [
        (0, CompetitionError, "table must be at least 1; got 0"),
        (-2, CompetitionError, "table must be at least 1; got -2"),
        ("2", TypeError, "table must be a whole number like 3; got '2' (a string)"),
        (3, CompetitionError, "round 1 has 2 tables; got table 3"),
    ],
)
def test_a_table_that_is_not_one_of_the_rounds_is_refused(six, table, error, words):
    assert _refused(six, lambda: six.table(1, table), error) == words
    assert _refused(six, lambda: six.record(1, table, {1: 1, 2: 1, 3: 1}), error) == words


# -- scores --------------------------------------------------------------------------------------


def test_a_record_is_kept_in_the_history_with_its_table_and_every_score(six):
    six.record(1, 2, {4: 5, 5: (3, 1), 6: 0})
    _, at, action, details = six.history()[-1]
    assert action == "record"
    assert details == {
        "stage": "round",
        "round": 1,
        "table": 2,
        "scores": {"4": [5, 0], "5": [3, 1], "6": [0, 0]},
    }
    assert at.endswith("+00:00") and len(at) == len("2025-01-01T12:00:00+00:00")  # UTC, to the second
    assert six.scores() == {(1, 4): 5, (1, 5): 2, (1, 6): 0}


def test_one_player_may_keep_all_27_sets_of_a_game_but_not_28(six):
    six.record(1, 1, {1: 27, 2: 0, 3: 0})
    assert six.scores()[1, 1] == 27
    message = _refused(six, lambda: six.record(1, 2, {4: 28, 5: 0, 6: 0}))
    assert message == "player 4: a deck holds only 27 SETs; got 28"


@pytest.mark.parametrize(
    ("entry", "error", "words"),
    [
        ((2.5, 0), TypeError, "player 6's SETs must be a whole number like 5; got 2.5 (a number)"),
        ((2, "1"), TypeError, "player 6's penalties must be a whole number like 1; got '1' (a string)"),
        (
            (2, 1.0),
            TypeError,
            "player 6's penalties must be a whole number like 1; got 1.0 (a number): "
            "write 1, without the '.0'",
        ),
        (
            [2, 1],
            TypeError,
            "player 6's score must be a number of SETs like 5, or (SETs, penalties) like (5, 1); "
            "got [2, 1] (a list)",
        ),
        (
            (2, -1),
            CompetitionError,
            "player 6: SETs and penalty points are counted from 0; got 2 SETs and -1 penalties",
        ),
    ],
)
def test_a_score_that_is_not_sets_and_penalties_is_refused_in_words(six, entry, error, words):
    assert _refused(six, lambda: six.record(1, 2, {4: 1, 5: 2, 6: entry}), error) == words


@pytest.mark.parametrize(
    ("scores", "error", "words"),
    [
        (
            [(4, 1), (5, 2), (6, 3)],
            TypeError,
            "scores must be a dict like {4: 5, 9: (3, 1)} (player: SETs); "
            "got [(4, 1), (5, 2), (6, 3)] (a list)",
        ),
        ({0: 1, 5: 2, 6: 3}, CompetitionError, "a player's number must be at least 1; got 0"),
        (
            {"4": 1, 5: 2, 6: 3},
            TypeError,
            "a player's number must be a whole number like 7; got '4' (a string)",
        ),
    ],
)
def test_scores_that_are_not_a_dict_of_player_numbers_are_refused_in_words(six, scores, error, words):
    assert _refused(six, lambda: six.record(1, 2, scores), error) == words


def test_a_table_whose_sets_pass_one_game_lists_every_players_sets(six):
    message = _refused(six, lambda: six.record(1, 2, {6: (8, 2), 4: 10, 5: 10}))
    assert message == (
        "round 1, table 2: one game gives at most 27 SETs at a table (81 cards, 3 to a SET), "
        "so the players' SETs there add up to at most 27; got 28 (4: 10, 5: 10, 6: 8); "
        "penalties are not counted in it"
    )


@pytest.mark.parametrize(
    ("player", "sets", "error", "words"),
    [
        (0, 3, CompetitionError, "player must be at least 1; got 0"),
        ("1", 3, TypeError, "player must be a whole number like 7; got '1' (a string)"),
        (
            1,
            -1,
            CompetitionError,
            "player 1: SETs and penalty points are counted from 0; got -1 SETs and 0 penalties",
        ),
        (1, 28, CompetitionError, "player 1: a deck holds only 27 SETs; got 28"),
    ],
)
def test_a_correction_of_a_player_who_is_not_one_or_a_score_out_of_range_is_refused(
    six, player, sets, error, words
):
    six.record(1, 1, {1: 5, 2: 3, 3: 4})
    assert _refused(six, lambda: six.correct(1, player, sets), error) == words


def test_a_correction_is_kept_with_both_scores(six):
    six.record(1, 1, {1: 5, 2: 3, 3: 4})
    six.correct(1, 2, 6, 2)
    assert six.scores() == {(1, 1): 5, (1, 2): 4, (1, 3): 4}
    _, _, action, details = six.history()[-1]
    assert action == "correct" and details == {"round": 1, "player": 2, "old": [3, 0], "new": [6, 2]}


# -- standings -----------------------------------------------------------------------------------


def test_without_divisions_a_division_asked_for_is_refused_naming_none(six):
    assert _refused(six, lambda: six.standings("A")) == "division must be one of none; got 'A'"


def test_before_any_score_every_player_shares_the_first_rank(six):
    assert [(row.rank, row.number, row.total) for row in six.standings()] == [(1, n, 0) for n in range(1, 7)]


def test_tied_players_are_listed_by_number_not_name():
    event = Competition(":memory:")
    for number, name in enumerate(["Zoe", "Yan", "Xia"], 1):
        event.register(number, name)
    event.plan(1)
    event.record(1, 1, {1: 4, 2: 4, 3: 4})
    assert [(row.rank, row.number, row.name) for row in event.standings()] == [
        (1, 1, "Zoe"),
        (1, 2, "Yan"),
        (1, 3, "Xia"),
    ]


def test_at_a_table_of_four_tied_totals_share_a_rank_and_adjusted_totals_keep_one_decimal():
    event = Competition(":memory:")
    _register(event, 4)
    event.plan(1, table_size=4)
    event.record(1, 1, {1: 5, 2: 5, 3: 4, 4: 1})
    rows = [(row.rank, row.number, row.total, row.adjusted) for row in event.standings()]
    # Each score times 4 players at the table, divided by 3 (20 / 3 = 6.67), to one decimal.
    assert rows == [(1, 1, 5, 6.7), (1, 2, 5, 6.7), (3, 3, 4, 5.3), (4, 4, 1, 1.3)]


def test_a_late_players_missed_round_counts_0_in_the_adjusted_total(six):
    six.record(1, 1, {1: 5, 2: 3, 3: 4})
    assert six.register_late(7, "Gus") == 2
    table = six.schedule().table_of(7, 2)
    seated = six.table(2, table)
    six.record(2, table, dict.fromkeys(seated, 3))
    rows = {row.number: row for row in six.standings()}
    assert rows[7].scores == (0, 3, None)
    assert rows[7].total == 3 and rows[7].adjusted == round(3 * len(seated) / 3, 1)


# -- the file and the history of changes ---------------------------------------------------------


def test_without_a_path_the_competition_is_kept_in_competition_sqlite_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with Competition() as event:
        event.register(1, "Ada")
        assert event.path == "competition.sqlite"
    with Competition(tmp_path / "competition.sqlite") as again:
        assert again.players() == {1: ("Ada", None)}


@pytest.mark.parametrize(
    ("path", "error", "words"),
    [
        (42, TypeError, "path must be a path, like 'class.sqlite'; got 42 (a number)"),
        (
            "",
            CompetitionError,
            "path must be a path, like 'class.sqlite', not empty and without NUL characters; got ''",
        ),
    ],
)
def test_a_path_that_is_not_one_is_refused_in_words(tmp_path, monkeypatch, path, error, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error) as refused:
        Competition(path)
    assert type(refused.value) is error and str(refused.value) == words
    assert list(tmp_path.iterdir()) == []


def test_the_history_is_saved_as_json_with_its_keys_in_order(tmp_path):
    import sqlite3

    path = tmp_path / "c.sqlite"
    with Competition(path) as event:
        event.register(1, "Ada", "b")
        _, _, action, details = event.history()[-1]
        assert action == "register" and details == {"number": 1, "name": "Ada", "division": "B"}
    with sqlite3.connect(path) as db:
        saved = db.execute("SELECT action, details FROM history").fetchall()
    db.close()
    assert saved == [("register", '{"division": "B", "name": "Ada", "number": 1}')]


def broken():
    raise KeyError("a bug in a view")


def test_a_watcher_that_fails_is_reported_at_the_line_that_made_the_change(six):
    six.watch(broken)
    calls = [
        lambda: six.record(1, 1, {1: 5, 2: 3, 3: 4}),
        lambda: six.correct(1, 1, 6),
        lambda: six.absent(2, 4),
        lambda: six.register_late(7, "Gus"),
    ]
    for call in calls:
        with pytest.warns(RuntimeWarning) as caught:
            call()
        assert [str(w.message) for w in caught] == [
            "the watch callback broken raised KeyError: 'a bug in a view' (the change was saved; "
            "the other callbacks were told)"
        ]
        # The notebook's line that made the change (here, this file), never a line of the package.
        assert not caught[0].filename.startswith(str(PACKAGE)), caught[0].filename
    assert six.scores()[1, 1] == 6 and len(six.players()) == 7


def test_a_change_another_notebook_saved_a_moment_earlier_is_refused_whole(tmp_path):
    path = tmp_path / "c.sqlite"
    first, second = Competition(path), Competition(path)
    _register(first, 6)
    first.plan(2, seed=1)
    first.record(1, 1, {1: 2, 2: 2, 3: 2})
    before = _state(first)
    # What record() saves once its checks passed, in the second notebook a moment too late.
    with pytest.raises(CompetitionError) as refused:
        second._save_scores("record", "round", 1, {1: (3, 0), 2: (3, 0), 3: (3, 0)}, {"table": 1})
    assert str(refused.value) == (
        "another notebook or program saved a change to the same scores at the same moment; "
        "nothing was saved from here: look at the standings and enter what is still missing"
    )
    assert _state(first) == before
    first.close()
    second.close()


# -- players and rounds, word for word -----------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "error", "words"),
    [
        (0, CompetitionError, "number must be at least 1; got 0"),
        ("7", TypeError, "number must be a whole number like 7; got '7' (a string)"),
    ],
)
def test_a_players_number_that_is_not_one_is_refused_in_words(number, error, words):
    event = Competition(":memory:")
    assert _refused(event, lambda: event.register(number, "Ada"), error) == words


def test_a_division_that_is_not_one_of_the_guides_is_refused_in_words():
    event = Competition(":memory:")
    message = _refused(event, lambda: event.register(1, "Ada", "E"))
    assert message == "division must be one of A, B, C, D or None; got 'E'"


def test_after_the_schedule_a_new_player_is_sent_to_register_late(six):
    assert _refused(six, lambda: six.register(7, "Gus")) == (
        "the schedule is made; a player who comes now is registered with register_late(number, name)"
    )


@pytest.mark.parametrize(
    ("round", "error", "words"),
    [
        (0, CompetitionError, "round must be at least 1; got 0"),
        ("1", TypeError, "round must be a whole number like 2; got '1' (a string)"),
        (4, CompetitionError, "the competition has 3 preliminary rounds; got round 4"),
    ],
)
def test_a_round_that_is_not_one_of_the_schedules_is_refused_in_words(six, round, error, words):
    assert _refused(six, lambda: six.table(round, 1), error) == words
    assert _refused(six, lambda: six.record(round, 1, {1: 1, 2: 1, 3: 1}), error) == words
    assert _refused(six, lambda: six.correct(round, 1, 1), error) == words
