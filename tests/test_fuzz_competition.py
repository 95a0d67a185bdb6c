"""Fuzzing the competition's public API: every odd input is answered in our words, at once.

Schedules (``schedule``, ``fewest_repeats``, ``meetings``, ``repeats``, ``misprints`` and a
Schedule's methods) and the scoreboard (:class:`Competition`: register, plan, table, record,
correct, the play-ins, the final and the tiebreak) are called with drawn arguments of every
kind through ``fuzzing.attempt``, which fails on a raw error or a hang. A refusal by the scoreboard must
also leave its file as it was: its history and scores are compared before and after.
"""

from __future__ import annotations

import itertools

import fuzzing
import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets.competition import Competition, fewest_repeats, meetings, misprints, repeats, schedule

MODULE = "competition"

odd_text = st.sampled_from(
    ["", " ", "\x00", "Ada\x00", "\u202eadA", "\u200b", "\u200b\u200b", "\x07\x1b", "Zoë", "李", "x" * 500]
) | st.text(max_size=20)
odd_number = (
    st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([0, -1, 2**63, 2**64, 10**9, 10**18])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
    | st.text(max_size=5)
    | st.binary(max_size=5)
)
anything = st.recursive(
    odd_number | odd_text | st.binary(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(odd_number, inner, max_size=3)
    ),
    max_leaves=8,
)
FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def endless():
    """An iterable that never ends: a function that reads it all must refuse it, not hang."""
    return itertools.count(1)


def _state(event: Competition) -> tuple:
    return (
        event.history(),
        event.players(),
        *(event.scores(stage) for stage in ("round", "playin", "final", "tiebreak")),
    )


@FUZZ
@given(
    players=odd_number,
    rounds=odd_number,
    table_size=odd_number,
    tables=odd_number | st.none(),
    seed=odd_number,
)
def test_schedule_answers_every_size_at_once(players, rounds, table_size, tables, seed):
    fuzzing.attempt(MODULE, schedule, players, rounds, table_size=table_size, tables=tables, seed=seed)


@FUZZ
@given(players=odd_number, rounds=odd_number, table_size=odd_number)
def test_fewest_repeats_answers_every_size_at_once(players, rounds, table_size):
    fuzzing.attempt(MODULE, fewest_repeats, players, rounds, table_size=table_size)


@FUZZ
@given(rounds=anything, players=odd_number)
def test_the_schedule_readers_refuse_what_is_not_rounds_of_tables(rounds, players):
    for function in (meetings, repeats):
        fuzzing.attempt(MODULE, function, rounds)
    fuzzing.attempt(MODULE, misprints, rounds, players)


@pytest.mark.parametrize("function", [meetings, repeats])
def test_the_schedule_readers_refuse_endless_rounds(function):
    fuzzing.attempt(MODULE, function, endless())
    fuzzing.attempt(MODULE, function, [endless()])


def test_misprints_refuses_endless_rounds():
    fuzzing.attempt(MODULE, misprints, endless(), 9)


@FUZZ
@given(player=odd_number, round=odd_number)
def test_a_schedules_seats_answer_every_question(player, round):
    plan = schedule(9, 3)
    for method in (plan.table_of, plan.seat):
        fuzzing.attempt(MODULE, method, player, round)
    fuzzing.attempt(MODULE, plan.slip, player)
    fuzzing.attempt(MODULE, plan.rotations, round)


@FUZZ
@given(number=odd_number, name=odd_text | odd_number, division=odd_text | st.none() | odd_number)
def test_register_refuses_and_changes_nothing(number, name, division):
    with Competition(":memory:") as event:
        event.register(1, "Ada")
        before = _state(event)
        outcome = fuzzing.attempt(MODULE, event.register, number, name, division)
        if outcome.kind == "refused":
            assert _state(event) == before
        else:
            stored = event.players()[number][0]
            assert stored.isprintable() and stored.strip() == stored and stored


@FUZZ
@given(rounds=odd_number, table_size=odd_number, tables=odd_number | st.none(), seed=odd_number)
def test_plan_answers_every_size_at_once(rounds, table_size, tables, seed):
    with Competition(":memory:") as event:
        for n in range(1, 10):
            event.register(n, f"P{n}")
        before = _state(event)
        outcome = fuzzing.attempt(MODULE, event.plan, rounds, table_size=table_size, tables=tables, seed=seed)
        if outcome.kind == "refused":
            assert _state(event) == before


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("fuzz") / "class.sqlite"
    with Competition(path) as event:
        for n in range(1, 10):
            event.register(n, f"P{n}")
        event.plan(3)
        event.record(1, 1, dict.fromkeys(event.table(1, 1), 2))
    return str(path)


@FUZZ
@given(round=odd_number, table=odd_number, scores=anything)
def test_record_refuses_and_changes_nothing(planned, round, table, scores):
    with Competition(planned) as event:
        before = _state(event)
        outcome = fuzzing.attempt(MODULE, event.record, round, table, scores)
        if outcome.kind == "accepted":
            event._db.execute("DELETE FROM scores WHERE round != 1 OR player NOT IN (1, 2, 3)")
            event._db.execute("DELETE FROM history WHERE id > ?", (before[0][-1][0],))
            event._db.commit()
        else:
            assert _state(event) == before


@FUZZ
@given(round=odd_number, player=odd_number, sets=odd_number, penalties=odd_number)
def test_correct_refuses_and_changes_nothing(planned, round, player, sets, penalties):
    with Competition(planned) as event:
        before = _state(event)
        outcome = fuzzing.attempt(MODULE, event.correct, round, player, sets, penalties)
        if outcome.kind == "refused":
            assert _state(event) == before


@FUZZ
@given(stage=anything, division=anything)
def test_the_readers_answer_every_question(planned, stage, division):
    with Competition(planned) as event:
        fuzzing.attempt(MODULE, event.scores, stage)
        fuzzing.attempt(MODULE, event.standings, division)


@FUZZ
@given(scores=anything)
def test_the_final_and_tiebreak_refuse_and_change_nothing(planned, scores):
    with Competition(planned) as event:
        before = _state(event)
        for method in (event.record_final, event.record_tiebreak):
            outcome = fuzzing.attempt(MODULE, method, scores)
            assert outcome.kind == "refused"  # the rounds are not all played
        assert fuzzing.attempt(MODULE, event.replay_final).kind == "refused"
        assert _state(event) == before


@FUZZ
@given(game=odd_number, player=odd_number, sets=odd_number, penalties=odd_number)
def test_corrections_of_the_final_refuse_and_change_nothing(game, player, sets, penalties):
    with Competition(":memory:") as event:
        for n in range(1, 7):
            event.register(n, f"P{n}")
        event.plan(1)
        for t, table in enumerate(event.schedule().rounds[0], 1):
            event.record(1, t, {p: p for p in table})
        event.record_final({p: 3 for p in event.finalists()})
        event.record_tiebreak({p: 2 for p in event.still_tied()})
        for method, args in ((event.correct_final, ()), (event.correct_tiebreak, (game,))):
            before = _state(event)
            if fuzzing.attempt(MODULE, method, *args, player, sets, penalties).kind == "refused":
                assert _state(event) == before


@FUZZ
@given(game=odd_number, player=odd_number, sets=odd_number, penalties=odd_number)
def test_corrections_of_a_play_in_refuse_and_change_nothing(game, player, sets, penalties):
    with Competition(":memory:") as event:
        for n in range(1, 10):
            event.register(n, f"P{n}")
        event.plan(1)
        wins = {1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 5, 7: 5, 8: 0, 9: 0}  # three tied for the fifth place
        for t, table in enumerate(event.schedule().rounds[0], 1):
            event.record(1, t, {p: wins[p] for p in table})
        event.record_play_in({5: 2, 6: 2, 7: 1})
        event.record_play_in({5: 3, 6: 1})
        before = _state(event)
        if fuzzing.attempt(MODULE, event.correct_play_in, game, player, sets, penalties).kind == "refused":
            assert _state(event) == before
        fuzzing.attempt(MODULE, event.finalists)  # always answers from the scores as they are


@FUZZ
@given(path=anything)
def test_a_competition_opens_only_a_file_name(path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("open")
    outcome = fuzzing.attempt(
        MODULE, lambda: Competition(path if not isinstance(path, str) else folder / path)
    )
    if outcome.kind == "accepted":
        outcome.value.close()
