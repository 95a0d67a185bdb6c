"""Fuzzing the saved game: every tampered save is loaded as a game that agrees with it, or refused.

Real saves of every variant (games played by random moves, some with callers in line, some
over) are tampered with: a field changed, dropped or swapped with another, a value of the wrong
kind, a huge or negative number, odd text, the text cut short or given as bytes. Each is given
to ``Game.from_json`` through ``fuzzing.attempt``, which fails on a raw error or a hang. A save
that loads must be the game it says: its own ``to_json`` gives the same data back. Tampering
that makes a save contradict itself (a SET moved to another player, a penalty the history does
not tell, a table size that does not fit the table, a game over or not over against its history,
a history cut to one event) must be refused; the row ``save: contradictions`` of the printed
table counts these saves by outcome.

The times a caller gives the moves are fuzzed too: a refused time changes nothing, and after an
accepted one the game still loads from its own save.
"""

from __future__ import annotations

import copy
import json
import math
import random

import fuzzing
from conftest import Clock, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import Game
from setwidgets.game import VARIANTS

MODULE = "save"
FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(variant: str, seed: int, moves: int) -> tuple[str, float]:
    """A game of ``variant`` after up to ``moves`` random moves: its save and the clock's time then."""
    rng = random.Random(seed)
    clock = Clock(rng.uniform(0, 1000))
    players = 1 if variant == "solitaire" else rng.randint(2, 3)
    deck = "mini" if rng.random() < 0.3 else "full"
    game = Game(deck=deck, players=players, variant=variant, seed=seed, clock=clock)
    for _ in range(moves):
        if game.over:
            break
        clock.advance(rng.choice([0.0, 0.5, 2.0, 7.0]))
        who = rng.randrange(len(game.players))
        sets = game.sets_on_table()
        action = rng.random()
        try:
            if action < 0.45 and sets:
                game.claim(rng.choice(sets), player=game.caller if game.caller is not None else who)
            elif action < 0.6:
                game.call(who)
            elif action < 0.7:
                game.hint()
            elif action < 0.8 and game.caller is not None:
                game.claim(game.table[:3], player=game.caller)
            else:
                game.no_set()
        except ValueError:
            pass  # a move the rules refuse: the game is as it was
    return game.to_json(), clock()


SAVES = [played(v, seed, moves) for v in VARIANTS for seed in range(4) for moves in (0, 3, 12, 60, 400)]

odd_text = st.sampled_from(
    ["", " ", "\x00", "Ana\x00", "\u202eAna", "\u200bBen", "2RTO\x00", "\u202e2RTO", "x" * 300, "start"]
) | st.text(max_size=8)
huge = st.sampled_from([-1, -(10**30), 2**31, 2**53 + 1, 2**63, 2**64, 10**30, 10**400, 1e308, -1e308])
odd_value = (
    st.none()
    | st.booleans()
    | st.integers(-5, 30)
    | huge
    | st.floats(allow_nan=False, allow_infinity=False)
    | odd_text
    | st.lists(st.integers(0, 3) | odd_text, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "name", "player", "time"]), st.integers(0, 3) | odd_text)
)


def paths(value, prefix=()):
    """Every path into a JSON value (a list of keys and indexes), the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:30]):  # the generator's 625 words need not all be tried
            yield from paths(item, (*prefix, index))


def at(data, path):
    for key in path:
        data = data[key]
    return data


@st.composite
def tampered(draw) -> tuple[str, bool]:
    """A real save tampered with, as text, and whether the tampering makes it contradict itself."""
    text, _ = draw(st.sampled_from(SAVES))
    data = json.loads(text)
    kinds = ["change", "drop", "swap", "duplicate", "move", "truncate", "constant", "contradict"]
    kind = draw(st.sampled_from([*kinds, "contradict"]))  # the survey's kinds twice as often
    if kind == "truncate":
        return text[: draw(st.integers(0, len(text) - 1))], False
    if kind == "constant":
        word = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 5000]))
        key = draw(st.sampled_from(["seed", "table_size", "claim_seconds", "saved_at", "hint_shown"]))
        data[key] = "@@"
        return json.dumps(data).replace('"@@"', word), False
    if kind == "contradict":
        return contradiction(draw, data)
    every = [p for p in paths(data) if p]
    path = draw(st.sampled_from(every))
    parent, key = at(data, path[:-1]), path[-1]
    if kind == "change":
        parent[key] = draw(odd_value)
    elif kind == "drop":
        del parent[key]
    elif kind == "swap":
        other = draw(st.sampled_from([p for p in every if len(p) == len(path) and p[:-1] == path[:-1]]))
        parent[key], parent[other[-1]] = parent[other[-1]], parent[key]
    elif kind == "duplicate" and isinstance(parent[key], list) and parent[key]:
        parent[key].append(copy.deepcopy(parent[key][draw(st.integers(0, len(parent[key]) - 1))]))
    elif kind == "move" and isinstance(parent[key], list) and parent[key]:
        parent[key].pop(draw(st.integers(0, len(parent[key]) - 1)))
    return json.dumps(data), False


def contradiction(draw, data: dict) -> tuple[str, bool]:
    """The survey's kinds of self-contradictory saves; ``False`` when this save cannot take the kind."""
    players = data["players"]
    events = data["history"]
    kinds = ["penalty", "over", "table_size", "history"]
    holders = [p for p in players if p["sets"]]
    if holders and len(players) > 1:
        kinds.append("set moved")
    kind = draw(st.sampled_from(kinds))
    if kind == "penalty":
        player = draw(st.sampled_from(players))
        player["penalties"] += draw(st.sampled_from([1, 2, 5]))
    elif kind == "set moved":
        giver = draw(st.sampled_from(holders))
        taker = draw(st.sampled_from([p for p in players if p is not giver]))
        taker["sets"].append(giver["sets"].pop(draw(st.integers(0, len(giver["sets"]) - 1))))
    elif kind == "over":
        data["over"] = not data["over"]
        data["lost"] = data["over"] and draw(st.booleans())
        if data["over"]:
            data["callers"], data["turn_start"] = [], None
            data.pop("saved_at", None)
    elif kind == "table_size":
        size = draw(st.sampled_from([3, 999, data["table_size"] + 3, data["table_size"] - 3]))
        if size <= 0 or size == data["table_size"]:
            return json.dumps(data), False
        data["table_size"] = size
    else:
        if len(events) == 1:
            return json.dumps(data), False
        data["history"] = [draw(st.sampled_from(events))]
    return json.dumps(data), True


def agrees(game: Game, text: str, now: float) -> bool:
    """Whether a loaded game is the game its save says: its own save gives the same data back."""
    again = json.loads(game.to_json())
    given = json.loads(text)
    if "saved_at" in given:
        given["saved_at"] = now
    return again == given


@FUZZ
@given(tampered())
def test_a_tampered_save_is_loaded_as_itself_or_refused_in_our_words(case):
    text, contradictory = case
    now = 0.0
    try:
        now = json.loads(text).get("saved_at", 0.0)
    except (ValueError, AttributeError):
        pass
    if not isinstance(now, float) or not math.isfinite(now):
        now = 0.0
    outcome = fuzzing.attempt(MODULE, Game.from_json, text, clock=lambda: now)
    if contradictory:
        fuzzing.COUNTS[f"{MODULE}: contradictions"][outcome.kind] += 1
    if outcome.kind != "accepted":
        return
    assert not contradictory or fuzzing.COUNT_ONLY, f"a save that contradicts itself was loaded: {text[:300]}"
    assert agrees(outcome.value, text, now) or fuzzing.COUNT_ONLY


@FUZZ
@given(
    st.sampled_from(SAVES),
    st.sampled_from(["text", "bytes", "bytearray", "utf-16", "object"]),
    st.one_of(st.none(), st.integers(), st.lists(st.integers(), max_size=3), odd_text, st.binary(max_size=8)),
)
def test_a_save_given_as_another_kind_of_object_is_loaded_or_refused(save, form, other):
    text, now = save
    argument = {
        "text": text,
        "bytes": text.encode(),
        "bytearray": bytearray(text.encode()),
        "utf-16": text.encode("utf-16"),
        "object": other,
    }[form]
    kept = copy.copy(argument)
    outcome = fuzzing.attempt(MODULE, Game.from_json, argument, clock=lambda: now)
    assert argument == kept  # a bytearray given is read, never changed
    if outcome.kind == "accepted":
        assert json.loads(outcome.value.to_json()) == json.loads(text) or fuzzing.COUNT_ONLY


odd_now = (
    st.floats(allow_nan=True, allow_infinity=True)
    | huge
    | st.integers(-5, 2000)
    | st.sampled_from([None, True, "later", b"1", [1.0]])
)


@FUZZ
@given(
    st.sampled_from(SAVES),
    st.lists(st.tuples(st.sampled_from(["expire", "time_left"]), odd_now), max_size=4),
)
def test_times_given_to_a_game_keep_it_loadable_and_a_refused_time_changes_nothing(save, calls):
    text, now = save
    clock = Clock(now)
    game = Game.from_json(text, clock=clock)
    for name, when in calls:
        before = game.to_json()
        outcome = fuzzing.attempt(MODULE, getattr(game, name), now=when)
        if outcome.kind == "refused":
            assert game.to_json() == before
        saved = game.to_json()
        reloaded = fuzzing.attempt(MODULE, Game.from_json, saved, clock=clock)
        assert reloaded.kind == "accepted" or fuzzing.COUNT_ONLY, reloaded.message
        clock.advance(1.0)
