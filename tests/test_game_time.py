"""One rule for time in a game (issue 36): its clock is the one source of its time.

A ``now`` given to ``expire`` ahead of the game's time moves the clock itself on, for good (the
game then reads its clock plus that step); ``time_left(now)`` only asks; a ``now`` or a clock
reading must be a finite number of seconds within ``TIME_LIMIT``. So a save, made at the
game's time, loads as the same game and plays on alike. tests/test_save.py plays the original
and its copy side by side; the walk here also lets the clock step back, gives times behind the
game's, asks ``time_left`` at odd times, and round-trips the save after every step, checking
what must always hold.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from setwidgets.game import Game, GameError
from setwidgets.game.inputs import TIME_LIMIT
from setwidgets.rules import is_set


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_a_now_ahead_moves_the_clock_on_for_good_and_a_question_moves_nothing():
    clock = Clock(100.0)
    game = Game(players=["Ana", "Ben"], seed=1, clock=clock)
    game.call("Ana")
    assert game.time_left(now=103.0) == 2.0 and game.time_left() == 5.0  # asking moves nothing
    assert game.expire(now=103.0) == [] and game.time_left() == 2.0  # the game's time is now 103
    clock.t = 101.0  # one second on the clock: 104 in the game, whatever was said before
    assert game.time_left() == 1.0
    copy = Game.from_json(game.to_json(), clock=Clock(104.0))
    assert copy.time_left() == 1.0 and copy.to_json() == game.to_json()
    assert game.expire(now=50.0) == [] and game.time_left() == 1.0  # a time behind changes nothing


@pytest.mark.parametrize("now", [1e308, TIME_LIMIT, -TIME_LIMIT, 1.7e12])
def test_a_time_the_game_could_not_count_seconds_at_is_refused(now):
    game = Game(players=["Ana"], seed=1, clock=Clock(0.0))
    with pytest.raises(
        GameError, match=r"^now must be a time in seconds within 2\*\*40 \(about 35,000 years"
    ):
        game.expire(now=now)
    with pytest.raises(GameError, match=r"^the game's clock must give a time in seconds within 2\*\*40"):
        Game(seed=1, clock=Clock(now))
    assert game.expire(now=TIME_LIMIT - 1) == []


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["call", "claim", "miss", "no_set", "wait", "back", "ahead", "behind", "ask"]),
        st.integers(0, 2),
        # Eighths of a second: their sums are exact, so times can be compared exactly.
        st.integers(0, 64).map(lambda eighths: eighths / 8),
    ),
    min_size=1,
    max_size=30,
)


def _wrong(table):
    for i in range(len(table) - 2):
        if not is_set(table[i : i + 3]):
            return table[i : i + 3]
    return None


def _check(game: Game, clock_time: float) -> None:
    """What must hold after every step, and the save's exact round trip at the game's time."""
    data = json.loads(game.to_json())
    seconds = game.time_left()
    assert seconds is None or 0.0 <= seconds <= 5.0
    assert game.scores == {p.name: len(p.sets) - p.penalties for p in game.players}
    # The save holds no moment after the game's time: loaded with a clock at that time (the game
    # reads its clock, moved on by what expire was told), it is the same game, to the last digit.
    game_time = game._now()  # the private reading: the one time the test cannot see otherwise
    assert game_time >= clock_time
    assert all(event["time"] <= game_time for event in data["history"])
    copy = Game.from_json(game.to_json(), clock=Clock(game_time))
    assert copy.to_json() == game.to_json() and copy.time_left() == seconds


def _play(game: Game, clock: Clock, what: str, who: int, amount: float) -> object:
    """One step on ``game``; what it answered (or the refusal's words), to compare two games by."""
    try:
        if what == "wait":
            clock.t += amount
        elif what == "back":  # a clock that steps back (a wall clock set right, say)
            clock.t -= amount
        elif what == "ahead":
            return game.expire(now=game._now() + amount)
        elif what == "behind":
            return game.expire(now=game._now() - amount)
        elif what == "ask":
            before = game.to_json()
            left = game.time_left(now=game._now() + amount)
            assert game.to_json() == before
            return left
        elif what == "call":
            return game.call(who)
        elif what == "claim":
            sets = game.sets_on_table()
            return game.claim(sets[who % len(sets)], player=who) if sets else None
        elif what == "miss":
            wrong = _wrong(game.table)
            return None if wrong is None else game.claim(wrong, player=who)
        elif what == "no_set":
            return game.no_set()
    except GameError as refused:  # a refused move changes nothing; the checks still hold
        return ("refused", str(refused))
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS, st.integers(0, 29))
# The clock stepped back 5 s, the game was loaded, 3 s passed: the original held its time until
# its clock caught up (5 s left) while the copy's ran on (2 s left).
@example([("call", 0, 0.0), ("back", 0, 5.0), ("wait", 0, 3.0), ("ask", 0, 0.0)], 2)
# expire(now) ahead, then 1 s: the case (the copy took a point the original did not).
@example([("call", 0, 0.0), ("ahead", 0, 3.0), ("wait", 0, 1.0), ("wait", 0, 1.5), ("call", 1, 0.0)], 2)
# A copy loaded, then the clock a moment back: the copy went back before the moment it was loaded
# at (5.125 s left against the original's 5.0; found by this walk).
@example([("call", 0, 0.0), ("back", 0, 0.125)], 1)
def test_a_random_walk_with_times_ahead_and_behind_keeps_every_rule_and_every_save_exact(steps, load_at):
    """After every step the save round-trips exactly; from step ``load_at`` on, a copy loaded
    from the save at the game's time plays every later step alongside, alike to the last digit
    (with the clock stepping back too: the game's time goes on from the latest it holds)."""
    clock = Clock(100.0)
    game = Game(players=["Ana", "Ben", "Cy"], seed=3, claim_seconds=5.0, clock=clock)
    copy = copy_clock = None
    for number, (what, who, amount) in enumerate(steps):
        if number == load_at:
            copy_clock = Clock(game._now())
            copy = Game.from_json(game.to_json(), clock=copy_clock)
        answer = _play(game, clock, what, who, amount)
        _check(game, clock.t)
        if copy is not None:
            assert _play(copy, copy_clock, what, who, amount) == answer
            # Read as the original was: a game's time after its clock steps back goes on from the
            # latest moment it read, so both are asked alike.
            _check(copy, copy_clock.t)
            assert copy.to_json() == game.to_json() and copy.time_left() == game.time_left()
