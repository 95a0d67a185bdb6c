"""Inputs bounded where they enter, and messages that name the call and stay short (issue 36).

Everything accepted can be saved and read back; a value that cannot is refused with a sentence
at the call that took it, and the sentence names that call, not a helper behind it.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from setwidgets import caps
from setwidgets.competition import Competition, CompetitionError
from setwidgets.game import Game, GameError
from setwidgets.geometry import is_magic_square
from setwidgets.hub.rosters import RosterError, parse_roster
from setwidgets.sim import wilson


def _six(path) -> Competition:
    event = Competition(path)
    for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
        event.register(number, name)
    return event


def test_plan_takes_a_generator_and_refuses_a_seed_its_history_could_not_hold(tmp_path):
    with _six(tmp_path / "a.sqlite") as event:
        planned = event.plan(3, seed=random.Random(1))
        # The seats are kept; the caller's generator is no seed, so none is written.
        assert event.schedule().rounds == planned.rounds
        assert event.history()[-1][3]["seed"] is None
    with _six(tmp_path / "b.sqlite") as event:
        with pytest.raises(
            CompetitionError, match=r"^plan\(\) takes a seed below 2\*\*128 \(39 digits\); got a whole"
        ):
            event.plan(3, seed=10**5000)
        assert event.rounds == 0
        assert event.plan(3, seed=2**100).seed == 2**100 and event.history()[-1][3]["seed"] == 2**100


def test_a_game_takes_only_what_its_save_holds_and_loads_as_itself():
    with pytest.raises(GameError, match=r"^seed must be a whole number below 2\*\*128"):
        Game(seed=10**5000)
    for reading in (np.float32(1.5), Fraction(3, 2)):
        game = Game(players=["Ana", "Ben"], seed=1, clock=lambda r=reading: r)
        game.call("Ana")
        again = Game.from_json(game.to_json(), clock=lambda: 1.5)
        assert again.to_json() == game.to_json() and again.time_left() == game.time_left() == 5.0


def test_a_damaged_save_says_so_in_a_short_sentence():
    data = json.loads(Game(seed=1, clock=lambda: 0.0).to_json())
    data["table_size"] = 10**4000 + 1  # was told whole: 4,074 characters
    with pytest.raises(
        GameError, match=r"^this saved game is damaged: table_size .*about 4001 digits$"
    ) as told:
        Game.from_json(json.dumps(data))
    assert len(str(told.value)) < 200


def test_wilson_takes_counts_of_any_size():
    assert wilson(10**400, 10**401) == pytest.approx((0.1, 0.1))
    assert wilson(0, 10**401) == (0.0, 0.0) and wilson(10**401, 10**401) == (1.0, 1.0)
    low, high = wilson(60, 1000)
    assert (round(low, 4), round(high, 4)) == (0.0469, 0.0765)


def test_messages_name_the_function_the_caller_used():
    with pytest.raises(
        TypeError, match=r"^is_set_free\(\) needs a list of cards, like is_set_free\(game.table\)"
    ):
        caps.is_set_free(None)
    # It took rows of 3 and advised is_magic_square(a, b, c), a call it does not take.
    with pytest.raises(
        TypeError, match=r"^is_magic_square\(\) takes 3 rows of 3 cards; row 2 holds 2 cards$"
    ):
        is_magic_square([["1RSO", "2RSO", "3RSO"], ["1GSO", "2GSO"], ["1PSO", "2PSO", "3PSO"]])


def test_a_number_that_is_not_taken_is_not_told_as_a_number():
    # It said "must be a number of seconds ...; got Decimal('2.5') (a number)".
    with pytest.raises(TypeError, match=r"got Decimal\('2\.5'\) \(a Decimal number\)$"):
        Game(players=2, claim_seconds=Decimal("2.5"))
    with pytest.raises(TypeError, match=r"got \(1\+2j\) \(a complex number\)$"):
        Game(players=2, claim_seconds=1 + 2j)


def test_a_roster_of_many_teachers_is_told_in_a_line():
    # Each teacher was named: 788,984 characters for a roster of 60,000.
    text = "\n".join(f"teacher{i},teacher" for i in range(200))
    with pytest.raises(
        RosterError, match=r"names 200 teachers \(teacher0, .*, teacher4 and 195 more\)"
    ) as told:
        parse_roster(text)
    assert len(str(told.value)) < 200
