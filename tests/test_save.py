"""Saving and loading games: the text is valid JSON, and loading refuses every damaged save with a reason.

A save is checked as strictly as a move: each damaged save below must raise GameError with a
message that says what is wrong, and random damage (Hypothesis) must either load a game that
is consistent and plays on to its end, or raise GameError, never another exception.
"""

import copy
import itertools
import json

import pytest
from conftest import Clock, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import Game, GameError, has_set, is_set
from setwidgets.game import VARIANTS, save

CAP20 = [
    *("1GSS", "1GTS", "1GTD", "1PTO", "1POO", "1PTD", "2ROO", "2RSS", "2ROS", "2GOO"),
    *("2GSD", "2PSS", "2POS", "2PSD", "3RTO", "3RSD", "3RTD", "3GTO", "3GTS", "3GOS"),
]
CAP21 = [*CAP20, "1RSO"]


def strict_json(text: str):
    """The JSON text parsed, refusing NaN and Infinity, which are not JSON."""

    def refuse(constant):
        raise AssertionError(f"{constant} in the JSON text")

    return json.loads(text, parse_constant=refuse)


def not_a_set(cards):
    return next(t for t in itertools.combinations(cards, 3) if not is_set(t))


# -- the saves to damage -------------------------------------------------------------------


def in_progress() -> dict:
    """Two players, a kept SET, a penalty, a hint showing two cards and two callers in line."""
    clock = Clock()
    g = Game(players=["Ana", "Ben"], seed=11, clock=clock)
    g.claim(g.sets_on_table()[0], player="Ana")
    g.claim(not_a_set(g.table), player="Ben")
    g.hint()
    g.hint()
    g.call("Ben")
    clock.advance(1)
    g.call("Ana")
    return json.loads(g.to_json())


def quiet() -> dict:
    """Like in_progress, but nobody is calling."""
    g = Game(players=["Ana", "Ben"], seed=11, clock=Clock())
    g.claim(g.sets_on_table()[0], player="Ana")
    g.hint()
    return json.loads(g.to_json())


def stuck(variant: str = "standard") -> dict:
    """No SET on the table, one in the deck: every SET of CAP21 holds 1RSO, which is still in the deck."""
    for seed in itertools.count():
        g = Game(deck=CAP21, table_size=12, seed=seed, variant=variant, clock=Clock())
        if "1RSO" in [c.code for c in g.deck]:
            return json.loads(g.to_json())
    raise AssertionError("unreachable")  # pragma: no cover


def ended(variant: str = "standard", players: int = 1) -> dict:
    """A game over at its first deal: its twenty cards hold no SET."""
    return json.loads(Game(deck=CAP20, table_size=12, seed=1, variant=variant, players=players).to_json())


def solitaire_won() -> dict:
    """Solitaire that ends on a short table (9 of table_size 12) without a SET: won."""
    return json.loads(Game(deck=CAP20[:9], table_size=12, seed=1, variant="solitaire").to_json())


def table_card_not_making_a_set(data: dict, kept: list[str]) -> str:
    return next(code for code in data["table"] if not is_set([*kept[:2], code]))


def swap_into_a_kept_set(data: dict) -> None:
    kept = data["players"][0]["sets"][0]
    code = table_card_not_making_a_set(data, kept)
    data["table"][data["table"].index(code)] = kept[2]
    kept[2] = code


def two_of_ana(data: dict) -> None:
    kept = data["players"][0]["sets"][0]
    data["deck"].append(kept.pop())


def set_path(data, path, value):
    *where, last = path
    for key in where:
        data = data[key]
    data[last] = value


def with_(path, value):
    return lambda data: set_path(data, path, value)


def without(key):
    return lambda data: data.pop(key)


DAMAGED = [
    # (what, the save to start from, the damage, the message it must give)
    (
        "negative penalties",
        quiet,
        with_(["players", 1, "penalties"], -1),
        "Ben's penalties must be at least 0",
    ),
    (
        "penalties as a float",
        quiet,
        with_(["players", 1, "penalties"], 1.0),
        "Ben's penalties must be a whole",
    ),
    ("penalties as true", quiet, with_(["players", 1, "penalties"], True), "Ben's penalties must be a whole"),
    ("a kept SET that is not one", quiet, swap_into_a_kept_set, "Ana keeps "),
    ("a kept SET of two cards", quiet, two_of_ana, "Ana's SETs must be three different cards"),
    (
        "solitaire with two players",
        quiet,
        with_(["variant"], "solitaire"),
        "players: solitaire is a game for 1 player; got 2 players (Ana, Ben)",
    ),
    ("an unknown variant", quiet, with_(["variant"], "speed"), "variant: unknown variant 'speed'"),
    ("a variant as a number", quiet, with_(["variant"], 2), "damaged: variant must be one of 'standard'"),
    ("over with players in line", in_progress, with_(["over"], True), "the game is over, yet players are"),
    ("over with a SET on the table", quiet, with_(["over"], True), "the game is over, yet the table still"),
    (
        "over while the deck can still make a SET",
        stuck,
        with_(["over"], True),
        "the game is over, yet the cards left in the deck and on the table still hold a SET",
    ),
    ("not over though nothing is left", ended, with_(["over"], False), "not over, but the history ends it"),
    (
        "not over though nothing is left, and the history's end cut off",
        ended,
        lambda data: data.update(over=False, history=data["history"][:-1]),
        "no SET can be made from the cards left, so the game should be over",
    ),
    ("over as a string", quiet, with_(["over"], "no"), "over must be true or false; got 'no' (a string)"),
    ("over as 0", quiet, with_(["over"], 0), "over must be true or false; got 0 (a number)"),
    (
        "online stopped before its deal",
        lambda: stuck("standard"),
        with_(["variant"], "online"),
        "the history's start names another variant",
    ),
    (
        "online stopped before its deal, its history's start changed too",
        lambda: stuck("standard"),
        lambda data: [set_path(data, path, "online") for path in (["variant"], ["history", 0, "variant"])],
        "by the online rules more cards would be dealt now",
    ),
    (
        "a table smaller than table_size with a deck",
        quiet,
        with_(["table_size"], 15),
        "the table holds 12 cards while cards are left in the deck, but a standard table then holds "
        "from 15 to 21 cards, three at a time",
    ),
    (
        "a table of 13 with a deck",
        quiet,
        lambda d: d["table"].append(d["deck"].pop()),
        "the table holds 13 cards while cards are left in the deck, but a standard table then holds "
        "from 12 to 21 cards, three at a time",
    ),
    (
        "a competition table of 18 with a deck",
        quiet,
        lambda d: (
            (d.update(variant="competition"), d["table"].extend(d["deck"][-6:]), d["deck"][-6:].clear())
            and d.update(deck=d["deck"][:-6])
        ),
        "the table holds 18 cards while cards are left in the deck, but a competition table then holds "
        "from 12 to 15 cards, three at a time",
    ),
    (
        "a solitaire table of 15 with a deck",
        lambda: json.loads(Game(variant="solitaire", seed=3, clock=Clock()).to_json()),
        lambda d: (d["table"].extend(d["deck"][-3:]), d.update(deck=d["deck"][:-3])),
        "the table holds 15 cards while cards are left in the deck, but a solitaire table then holds "
        "from 12 to 12 cards, three at a time",
    ),
    (
        "a call after the save",
        in_progress,
        with_(["callers", 1, "called_at"], 10**6),
        "a call or a turn starts after saved_at, the time the game was saved",
    ),
    (
        "table_size not a multiple of 3",
        quiet,
        with_(["table_size"], 10),
        "table_size must be a positive multiple",
    ),
    ("table_size as text", quiet, with_(["table_size"], "12"), "table_size must be a whole number like 12"),
    ("table_size missing its value", quiet, with_(["table_size"], None), "table_size must be a whole number"),
    (
        "a seed as text",
        quiet,
        with_(["seed"], "abc"),
        "seed must be a whole number or null; got 'abc' (a string)",
    ),
    ("a seed as a float", quiet, with_(["seed"], 2.5), "seed must be a whole number or null; got 2.5"),
    ("a seed as true", quiet, with_(["seed"], True), "seed must be a whole number or null; got True"),
    (
        "claim_seconds as text",
        quiet,
        with_(["claim_seconds"], "5"),
        "claim_seconds must be a number of seconds",
    ),
    (
        "claim_seconds of 0",
        quiet,
        with_(["claim_seconds"], 0),
        "claim_seconds must be a finite number of seconds",
    ),
    ("claim_seconds too large", quiet, with_(["claim_seconds"], 10**400), "claim_seconds"),
    (
        "a player twice in line",
        in_progress,
        with_(["callers", 1, "player"], 1),
        "Ben is twice in the line of callers",
    ),
    (
        "a caller who is not a player",
        in_progress,
        with_(["callers", 1, "player"], 5),
        "caller 5 is not a player",
    ),
    (
        "a caller as a name",
        in_progress,
        with_(["callers", 0, "player"], "Ben"),
        "callers' player must be a whole",
    ),
    (
        "a call time as text",
        in_progress,
        with_(["callers", 0, "called_at"], "now"),
        "called_at must be a time in seconds (a finite number); got 'now' (a string)",
    ),
    (
        "a call time too large for a float",
        in_progress,
        with_(["callers", 0, "called_at"], 10**400),
        "called_at must be a time in seconds",
    ),
    (
        "a taken card not held",
        in_progress,
        with_(["callers", 1, "taken"], [["1RSO", 0]]),
        "noted as taken by",
    ),
    (
        "a taken card by nobody",
        in_progress,
        with_(["callers", 1, "taken"], [["1RSO", 9]]),
        "player 9, who is not",
    ),
    ("a taken card twice", in_progress, with_(["callers", 1, "taken"], [["1RSO", 0]] * 2), "name 1RSO twice"),
    (
        "a taken pair of three",
        in_progress,
        with_(["callers", 1, "taken"], [["1RSO", 0, 1]]),
        "[card, player] pairs",
    ),
    (
        "no turn_start with callers",
        in_progress,
        with_(["turn_start"], None),
        "turn_start must be a time exactly",
    ),
    ("a turn_start with no caller", quiet, with_(["turn_start"], 5.0), "turn_start must be a time exactly"),
    ("saved_at missing", in_progress, without("saved_at"), "the field 'saved_at' is missing"),
    (
        "saved_at with no caller",
        quiet,
        with_(["saved_at"], 5.0),
        "it has a field 'saved_at' that a saved game",
    ),
    ("saved_at as text", in_progress, with_(["saved_at"], "noon"), "saved_at must be a time in seconds"),
    (
        "two players with one name",
        quiet,
        with_(["players", 1, "name"], "Ana"),
        "two players are called 'Ana'",
    ),
    ("a nameless player", quiet, with_(["players", 1, "name"], ""), "a player's name is a non-empty string"),
    ("a name as a number", quiet, with_(["players", 1, "name"], 7), "a player's name is a string like 'Ana'"),
    ("no players", quiet, with_(["players"], []), "a game needs at least one player"),
    ("a player with a field less", quiet, lambda d: d["players"][0].pop("sets"), "an object with the fields"),
    ("a player as a list", quiet, with_(["players", 0], ["Ana", [], 0]), "an object with the fields 'name'"),
    (
        "lost while playing",
        quiet,
        with_(["lost"], True),
        "it says the game is lost, but the game is not over",
    ),
    ("a lost standard game", ended, with_(["lost"], True), "a standard game cannot be lost"),
    (
        "a lost competition",
        lambda: ended("competition"),
        with_(["lost"], True),
        "a competition game cannot be",
    ),
    (
        "a solitaire loss called a win",
        lambda: ended("solitaire"),
        with_(["lost"], False),
        "it says the game is won, but by the solitaire rules this table is lost",
    ),
    (
        "a solitaire win called a loss",
        solitaire_won,
        with_(["lost"], True),
        "it says the game is lost, but the table is not a full table without a SET",
    ),
    (
        "a hint count of 4",
        in_progress,
        with_(["hint_shown"], 4),
        "hint_shown counts the hinted cards shown, 1 to 3",
    ),
    (
        "a hint count of 0",
        in_progress,
        with_(["hint_shown"], 0),
        "hint_shown counts the hinted cards shown, 1 to 3",
    ),
    ("a hint count below 0", in_progress, with_(["hint_shown"], -1), "hint_shown must be at least 0"),
    ("a count with no hint", in_progress, with_(["hint"], None), "hint_shown is 2 but no SET is hinted at"),
    (
        "hint cards not on the table",
        quiet,
        lambda d: d.update(hint=d["players"][0]["sets"][0], hint_shown=1),
        "the hinted cards are not all on the table",
    ),
    ("a hint that is not a SET", quiet, lambda d: d.update(hint=not_a_set(d["table"])), "is not a SET"),
    (
        "a hint of two cards",
        quiet,
        lambda d: d.update(hint=d["table"][:2]),
        "hint must be three different cards",
    ),
    ("a card missing", quiet, lambda d: d["deck"].pop(), "do not hold each card once: missing "),
    ("a card twice", quiet, lambda d: d["deck"].append(d["table"][0]), "do not hold each card once: twice "),
    (
        "a card from another deck",
        lambda: json.loads(Game(deck="mini", seed=3).to_json()),
        lambda d: d["deck"].__setitem__(0, "1GSO"),
        "not among its cards 1GSO",
    ),
    ("not a card code", quiet, with_(["table", 0], "9XXX"), "table holds '9XXX', which is not a card"),
    ("a card as a number", quiet, with_(["table", 0], 5), "table holds 5 (a number) where a card code"),
    ("the table as text", quiet, with_(["table"], "1RSO"), "table must be a list of card codes; got '1RSO'"),
    ("the cards doubled", quiet, lambda d: d["cards"].append(d["cards"][0]), "cards: the deck holds"),
    ("too few cards", quiet, with_(["cards"], ["1RSO"]), "cards: a deck needs at least three cards"),
    ("the cards as a name", quiet, with_(["cards"], "full"), "cards must be a list of card codes"),
    (
        "an rng of the wrong size",
        quiet,
        with_(["rng", 1], [0] * 10),
        "rng must be a random generator's state",
    ),
    (
        "an rng position past the end",
        quiet,
        with_(["rng", 1, -1], 700),
        "rng must be a random generator's state",
    ),
    ("an rng word below 0", quiet, with_(["rng", 1, 0], -1), "rng must be a random generator's state"),
    ("an rng word too large", quiet, with_(["rng", 1, 0], 2**32), "rng must be a random generator's state"),
    ("an rng of another version", quiet, with_(["rng", 0], 2), "rng must be a random generator's state"),
    ("an rng gauss as text", quiet, with_(["rng", 2], "x"), "rng must be a random generator's state"),
    ("an rng as text", quiet, with_(["rng"], "seeded"), "rng must be a random generator's state"),
    ("history as an object", quiet, with_(["history"], {}), "history must be a list of events"),
    ("an empty history", quiet, with_(["history"], []), "the history must begin with the 'start' event"),
    (
        "an event without a type",
        quiet,
        with_(["history", 1], {"time": 1}),
        "each event of the history is an object",
    ),
    ("an event as a number", quiet, with_(["history", 0], 5), "each event of the history is an object"),
    (
        "a field too many",
        quiet,
        with_(["extra"], 1),
        "it has a field 'extra' that a saved game does not have",
    ),
    ("a field missing", quiet, without("deck"), "the field 'deck' is missing"),
]


# -- saves that contradict themselves: the state against its history (issue 25) ----------------


def finished() -> dict:
    """A standard game of two players played to its end: the deck is empty, a few cards are left."""
    clock = Clock()
    g = Game(players=["Ana", "Ben"], seed=3, clock=clock)
    while not g.over:
        sets = g.sets_on_table()
        g.claim(sets[0], player=len(g.history) % 2) if sets else g.no_set()
    assert not g.deck and 0 < len(g.table) < 12
    return json.loads(g.to_json())


def solitaire_stuck(lost: bool) -> dict:
    """Solitaire on a full table without a SET, cards left in the deck; ``lost``: the player said so."""
    for seed in itertools.count():
        g = Game(variant="solitaire", seed=seed, clock=Clock())
        while g.sets_on_table() and len(g.deck) > 3:
            g.claim(g.sets_on_table()[0])
        if not g.sets_on_table() and g.deck and len(g.table) == 12:
            if lost:
                g.no_set()
                assert g.over and g.lost
            return json.loads(g.to_json())
    raise AssertionError("unreachable")  # pragma: no cover


def give_anas_set_to_ben(data: dict) -> None:
    data["players"][1]["sets"].append(data["players"][0]["sets"].pop())


def only_the_start(data: dict) -> None:
    data["history"] = data["history"][:1]


def not_over(data: dict) -> None:
    data["over"] = data["lost"] = False


def over_and_lost(data: dict) -> None:
    data["over"] = data["lost"] = True


CONTRADICTIONS = [
    # (what, the save, the damage, the message): each kind the survey found loaded (issue 25)
    (
        "a penalty the history does not tell",
        quiet,
        with_(["players", 1, "penalties"], 2),
        "Ben has 2 penalties, but the history tells of 0",
    ),
    (
        "a penalty taken away",
        in_progress,
        with_(["players", 1, "penalties"], 0),
        "Ben has 0 penalties, but the history tells of 1",
    ),
    (
        "one player's SET moved to another",
        quiet,
        give_anas_set_to_ben,
        "Ana keeps other SETs than the 1 SET the history says Ana took",
    ),
    (
        "table_size 3 beside 12 cards",
        quiet,
        with_(["table_size"], 3),
        "the history's first deal laid out 12 cards, but a table_size of 3 and a deck of 81 lay out 3",
    ),
    (
        "table_size 999 beside the last cards of a finished game",
        finished,
        with_(["table_size"], 999),
        "the history's first deal laid out 12 cards, but a table_size of 999 and a deck of 81 lay out 81",
    ),
    (
        "over: false in a lost solitaire game",
        lambda: solitaire_stuck(lost=True),
        not_over,
        "it says the game is not over, but the history ends it",
    ),
    (
        "over: true in a solitaire game the player has not given up",
        lambda: solitaire_stuck(lost=False),
        over_and_lost,
        "it says the game is over, but the history does not end it",
    ),
    (
        "over: false in a finished game",
        finished,
        not_over,
        "it says the game is not over, but the history ends it",
    ),
    ("a history replaced by its start", quiet, only_the_start, "Ana keeps other SETs than the 0 SETs"),
    (
        "a history replaced by its last event",
        quiet,
        lambda data: data.update(history=data["history"][-1:]),
        "the history must begin with the 'start' event",
    ),
    (
        "a caller the history did not call",
        in_progress,
        lambda data: data["callers"].reverse(),
        "the line of callers is not the one the history leaves",
    ),
    (
        "a table in another order",
        quiet,
        lambda data: data["table"].reverse(),
        "the table is not the one the history lays out",
    ),
    (
        "a hint the history did not show",
        quiet,
        lambda data: data.update(hint=data["hint"][::-1]),
        "the hint shown is not the last one the history shows",
    ),
    (
        "an event of an unknown type",
        quiet,
        lambda data: data["history"].append({"type": "cheat", "time": 1.0}),
        "event 5 of the history is of an unknown type, 'cheat'",
    ),
    (
        "a claim without its cards",
        quiet,
        lambda data: data["history"][2].pop("cards"),
        "event 3 of the history (claim) must have the fields",
    ),
    (
        "a claim by a player who is not there",
        quiet,
        with_(["history", 2, "player"], 7),
        "event 3 of the history (claim): it names player 7, but the players are 0 to 1",
    ),
    (
        "the start of another seed",
        quiet,
        with_(["history", 0, "seed"], 12),
        "the history's start names another variant, other players or another seed",
    ),
]


@pytest.mark.parametrize(
    ("what", "base", "damage", "message"), CONTRADICTIONS, ids=[c[0] for c in CONTRADICTIONS]
)
def test_a_save_that_contradicts_its_history_is_refused_whole(what, base, damage, message):
    data = base()
    assert Game.from_json(json.dumps(data), clock=Clock())  # the save loads before the damage
    damage(data)
    text = json.dumps(data)
    with pytest.raises(GameError) as info:
        Game.from_json(text, clock=Clock())
    assert str(info.value) == f"this saved game is damaged: {message}" or message in str(info.value)
    assert str(info.value).startswith("this saved game is damaged: ")
    assert str(info.value).count(". ") == 0  # one sentence


@pytest.mark.parametrize(("what", "base", "damage", "message"), DAMAGED, ids=[d[0] for d in DAMAGED])
def test_a_damaged_save_is_refused_with_a_reason(what, base, damage, message):
    data = base()
    assert Game.from_json(json.dumps(data), clock=Clock())  # the save loads before the damage
    damage(data)
    with pytest.raises(GameError) as info:
        Game.from_json(json.dumps(data), clock=Clock())
    text = str(info.value)
    assert text.startswith("this saved game is damaged: ")
    assert message in text
    assert len(text) < 400


@pytest.mark.parametrize(
    ("missing", "listed"),
    [
        (6, "{0} {1} {2} {3} {4} {5}"),
        (7, "{0} {1} {2} {3} {4} {5} and 1 more"),
        (9, "{0} {1} {2} {3} {4} {5} and 3 more"),
    ],
)
def test_a_damaged_save_names_the_first_six_lost_cards_and_counts_the_rest(missing, listed):
    data = quiet()
    lost = data["deck"][-missing:]
    del data["deck"][-missing:]
    with pytest.raises(GameError) as info:
        Game.from_json(json.dumps(data), clock=Clock())
    in_deck_order = sorted(lost, key=data["cards"].index)
    assert str(info.value) == (
        "this saved game is damaged: its deck, table and SETs do not hold each card once: missing "
        + listed.format(*in_deck_order)
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "this is not a saved game (not JSON: Expecting value"),
        ("", "this is not a saved game (not JSON"),
        (b"\xff\xfe\x00garbage", "this is not a saved game (not JSON"),
        ("[" * 100_000 + "]" * 100_000, "this is not a saved game: it is nested too deeply"),
        ('{"format": "setwidgets.game", "version": 1, "seed": NaN}', "NaN is not a number JSON allows"),
        ('{"format": "setwidgets.game", "version": 1, "seed": -Infinity}', "-Infinity is not a number JSON"),
        ("null", "this is not a saved game: Game.to_json() text starts with a 'format' of setwidgets.game"),
        ("[1, 2]", "this is not a saved game: Game.to_json() text starts with a 'format' of setwidgets.game"),
        ('{"format": "chess"}', "this is not a saved game: Game.to_json() text starts with a 'format'"),
        (
            '{"format": "setwidgets.game", "version": 99}',
            "saved game version 99 is not supported (expected 1)",
        ),
        ('{"format": "setwidgets.game", "version": "1"}', "saved game version '1' is not supported"),
        ('{"format": "setwidgets.game", "version": true}', "saved game version True is not supported"),
        (
            '{"format": "setwidgets.game", "version": 1}',
            "this saved game is damaged: the field 'variant' is missing",
        ),
    ],
)
def test_text_that_is_not_a_saved_game_is_refused(text, message):
    with pytest.raises(GameError) as info:
        Game.from_json(text)
    assert message in str(info.value)


def test_from_json_of_a_subclass_makes_that_subclass():
    class Lesson(Game):
        """A game with a lesson's own helpers."""

    g = Lesson(players=["Ana", "Ben"], seed=4, clock=Clock())
    loaded = Lesson.from_json(g.to_json(), clock=Clock())
    assert type(loaded) is Lesson and loaded.to_json() == g.to_json()
    assert type(Game.from_json(g.to_json(), clock=Clock())) is Game


def test_from_json_needs_text_and_a_clock():
    with pytest.raises(TypeError, match=r"from_json\(\) needs the text made by Game.to_json\(\); got \{"):
        Game.from_json({"format": "setwidgets.game"})
    with pytest.raises(TypeError, match="clock must be a function"):
        Game.from_json(json.dumps(quiet()), clock=5)
    assert Game.from_json(json.dumps(quiet()).encode(), clock=Clock()).players[0].name == "Ana"


def test_a_clock_that_gives_no_finite_time_is_refused():
    with pytest.raises(
        GameError, match="the game's clock must return a finite time in seconds; it returned nan"
    ):
        Game.from_json(json.dumps(in_progress()), clock=lambda: float("nan"))
    with pytest.raises(TypeError, match="a number; it returned 'noon'"):
        Game(clock=lambda: "noon")
    clock = Clock()
    g = Game(seed=1, clock=clock)
    before = g.to_json()
    clock.t = float("inf")
    with pytest.raises(GameError, match="finite time"):
        g.call()
    assert g.to_json() == before


# -- what is written ---------------------------------------------------------------------------


def test_to_json_writes_every_field_of_the_state_record_and_valid_json():
    from setwidgets.game.state import Setup, State

    data = strict_json(Game(seed=1, claim_seconds=None).to_json())
    fields = [f for record in (Setup, State) for f in record.__dataclass_fields__]
    assert list(data) == ["format", "version", *fields]
    assert data["format"] == save.FORMAT and data["version"] == save.VERSION == 1
    assert data["claim_seconds"] is None and data["seed"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_round_trips_and_plays_on_alike(variant):
    clock = Clock()
    g = Game(players=1 if variant == "solitaire" else 2, variant=variant, seed=5, clock=clock)
    g.hint()
    g.claim(g.sets_on_table()[0])
    copy_ = Game.from_json(g.to_json(), clock=clock)
    assert copy_.to_json() == g.to_json()
    for game in (g, copy_):
        while not game.over:
            sets = game.sets_on_table()
            game.claim(sets[0]) if sets else game.no_set()
    assert copy_.to_json() == g.to_json()


def test_the_loaded_game_has_its_own_generator_in_the_same_state():
    g = Game(deck=CAP21, variant="competition", seed=4, clock=Clock())
    copy_ = Game.from_json(g.to_json(), clock=Clock())
    assert copy_._state.rng is not g._state.rng
    assert copy_._state.rng.getstate() == g._state.rng.getstate()


# -- random damage: GameError or a consistent game ---------------------------------------------


def assert_consistent(g: Game) -> None:
    held = [c for p in g.players for s in p.sets for c in s]
    everything = g.deck + g.table + held
    assert len(everything) == len(set(everything)) == len(g.cards) and set(everything) == set(g.cards)
    assert all(is_set(s) for p in g.players for s in p.sets)
    assert all(p.penalties >= 0 for p in g.players)
    assert len({p.name for p in g.players}) == len(g.players)
    assert len(g.callers) == len(set(g.callers)) and all(0 <= c < len(g.players) for c in g.callers)
    if g.deck:
        assert len(g.table) >= g.table_size
    if g.over:
        assert not g.callers and not has_set(g.table)
        assert g.lost or not has_set(g.table + g.deck)
    else:
        assert has_set(g.table + g.deck) and not g.lost
    assert not g.lost or g.variant == "solitaire"


def play_to_the_end(g: Game) -> None:
    """Take a SET when there is one, else say there is none; every game ends."""
    for _ in range(3000):
        if g.over:
            return
        sets = g.sets_on_table()
        who = g.caller if g.caller is not None else 0
        if sets:
            g.claim(sets[0], player=who)
        elif g.caller is not None:
            g.claim(not_a_set(g.table), player=who)  # the caller shows something, and pays
        else:
            g.no_set()
        assert_consistent(g)
    raise AssertionError("the game did not end within 3000 moves")


BASES = [in_progress(), quiet(), stuck(), stuck("competition"), ended("solitaire"), solitaire_won()]
codes = sorted({c for base in BASES for c in base["cards"]})
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(codes),
    st.sampled_from(["Ana", "Ben", *VARIANTS, "start", "type"]),
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["type", "name", "x"]), inner)
    ),
    max_leaves=6,
)


@st.composite
def damaged_saves(draw) -> dict:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        # Walk down to some container, then change one thing in it.
        parent, key = data, draw(st.sampled_from(sorted(data)))
        while isinstance(parent[key], (list, dict)) and parent[key] and draw(st.booleans()):
            parent = parent[key]
            key = draw(st.sampled_from(sorted(parent) if isinstance(parent, dict) else range(len(parent))))
        value = parent[key]
        change = draw(st.sampled_from(["replace", "nudge", "delete", "duplicate", "swap", "card"]))
        if change == "replace":
            parent[key] = draw(json_values)
        elif change == "nudge" and type(value) in (int, float):
            parent[key] = value + draw(st.sampled_from([-1, 1, 3, -3]))
        elif change == "delete":
            del parent[key]
        elif change == "duplicate" and isinstance(value, list) and value:
            value.append(value[draw(st.integers(0, len(value) - 1))])
        elif change == "swap" and isinstance(value, list) and len(value) > 1:
            i, j = draw(st.integers(0, len(value) - 1)), draw(st.integers(0, len(value) - 1))
            value[i], value[j] = value[j], value[i]
        elif change == "card":
            parent[key] = draw(st.sampled_from(codes))
    return data


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_saves())
def test_random_damage_gives_game_error_or_a_consistent_game(data):
    try:
        g = Game.from_json(json.dumps(data), clock=Clock())
    except GameError as error:
        assert str(error)
        return
    assert_consistent(g)
    assert Game.from_json(g.to_json(), clock=Clock()).to_json() == g.to_json()
    play_to_the_end(g)


def test_random_damage_is_not_always_refused():
    # If every damaged save were refused, the test above would never play a loaded game.
    loaded = 0
    for base, (path, value) in itertools.product(
        BASES[:2], [(["history", 0, "time"], 7), (["claim_seconds"], None), (["claim_seconds"], 2.5)]
    ):
        data = copy.deepcopy(base)
        set_path(data, path, value)
        loaded += bool(Game.from_json(json.dumps(data), clock=Clock()))
    assert loaded == 6


@pytest.mark.parametrize("ahead", [0.5, 7.0, 9.99])
def test_a_game_told_a_time_ahead_of_its_clock_loads_from_its_own_save(ahead):
    """expire(now) may be given a time the clock has not reached: the game's time moves on to it."""
    game = Game(players=["Ana", "Ben", "Cy"], seed=1, clock=lambda: 0.0)
    for name in ("Ana", "Ben", "Cy"):
        game.call(name)
    game.expire(now=ahead)
    # From then on the game counts from that time, though its clock still says 0.
    assert game.time_left() == pytest.approx(game.time_left(now=ahead))
    assert json.loads(game.to_json())["saved_at"] == ahead
    loaded = Game.from_json(game.to_json(), clock=lambda: 100.0)
    assert loaded.callers == game.callers
    assert loaded.time_left() == pytest.approx(game.time_left())


def test_a_pending_call_moved_to_the_new_clock_is_never_after_it():
    """Ben called 0.3 s after Ana; moved to a clock at 1584.7 the sum rounded past it and was refused."""
    clock = Clock(356.79)
    game = Game(players=["Ana", "Ben"], seed=1, clock=clock)
    game.call("Ana")
    clock.t = 357.09000000000003
    game.call("Ben")
    loaded = Game.from_json(game.to_json(), clock=lambda: 1584.7)
    assert loaded.callers == game.callers
    assert loaded.time_left() == pytest.approx(game.time_left())


def test_a_game_loaded_at_the_moment_it_was_saved_keeps_its_times_exactly():
    """A call at 1.9 saved and loaded at 5.9 came back at 1.9000000000000004 (5.9 - (5.9 - 1.9))."""
    clock = Clock(0.0)
    game = Game(seed=0, claim_seconds=5.0, clock=clock)
    clock.t = 1.9
    game.call(0)
    clock.t = 5.9
    text = game.to_json()
    assert Game.from_json(text, clock=clock).to_json() == text


def test_a_variant_with_rules_in_code_loads_after_every_move(registry):
    """Its table is not followed through the history, but its SETs, penalties and end are."""
    from setwidgets.game import variants

    class Generous(variants.Variant):
        """When nobody finds a SET, six more cards."""

        name = "generous"

        def no_set(self, dealer):
            return variants.Outcome("Six more.", dealer.deal(6))

    clock = Clock()
    g = Game(players=["Ana", "Ben"], variant="generous", seed=4, clock=clock)
    while not g.over:
        sets = g.sets_on_table()
        g.claim(sets[-1], player=len(g.history) % 2) if sets else g.no_set()
        assert Game.from_json(g.to_json(), clock=clock).to_json() == g.to_json()
    data = json.loads(g.to_json())
    data["players"][0]["penalties"] = 3
    with pytest.raises(GameError, match="^this saved game is damaged: Ana has 3 penalties, but the history"):
        Game.from_json(json.dumps(data), clock=clock)


# -- a game told a time ahead of its clock loads as itself -------------------------------------

# One step of play: (what, a number that picks a player, a SET or a time).
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["call", "claim", "miss", "no_set", "wait", "expire_ahead", "save"]),
        st.integers(0, 2),
        # Eighths of a second: sums of them are exact, so both games' times can be compared exactly.
        st.integers(0, 64).map(lambda eighths: eighths / 8),
    ),
    min_size=1,
    max_size=40,
)


def _step(game: Game, what: str, who: int, amount: float, game_time: float) -> object:
    """Play one step on ``game``; what it answered (or the refusal's text), to compare copies by."""
    try:
        if what == "call":
            return game.call(who)
        if what == "claim":
            sets = game.sets_on_table()
            return game.claim(sets[who % len(sets)], player=who) if sets else None
        if what == "miss":
            return game.claim(not_a_set(game.table), player=who)
        if what == "no_set":
            return game.no_set()
        if what == "expire_ahead":
            return game.expire(now=game_time + amount)
    except GameError as refused:
        return ("refused", str(refused))
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS, STEPS)
def test_a_game_told_times_ahead_of_its_clock_and_its_loaded_copy_play_on_alike(before, after):
    """expire(now) ahead of the clock, then save and load: the copy plays on exactly as the original.

    Issue 36: the game's time stood still at the ``now`` given until its clock caught up, while
    the loaded copy's clock ran on from the save, so the copy took a point the original did not
    (102 of 32,410 random actions). ``game_time`` is the time the game should hold: its clock
    plus every step ``expire(now)`` moved it ahead. The copy is loaded with a clock that reads the
    original's time at the save, so every time in both saves must stay equal.
    """
    clock = Clock(100.0)
    game = Game(players=["Ana", "Ben", "Cy"], seed=3, claim_seconds=5.0, clock=clock)
    ahead = 0.0
    for what, who, amount in before:
        if what == "wait":
            clock.advance(amount)
        _step(game, what, who, amount, clock.t + ahead)
        if what == "expire_ahead":
            ahead += amount
    copy_clock = Clock(clock.t + ahead)
    loaded = Game.from_json(game.to_json(), clock=copy_clock)
    assert loaded.to_json() == game.to_json()
    for what, who, amount in after:
        if what == "wait":
            clock.advance(amount)
            copy_clock.advance(amount)
            continue
        if what == "save":
            # Loaded again at the time the copy holds: its clock reads that time from now on.
            copy_clock = Clock(clock.t + ahead)
            loaded = Game.from_json(loaded.to_json(), clock=copy_clock)
        now = clock.t + ahead
        assert _step(game, what, who, amount, now) == _step(loaded, what, who, amount, now)
        if what == "expire_ahead":
            ahead += amount
        assert loaded.time_left() == game.time_left()
        assert loaded.to_json() == game.to_json()


# -- saved class rooms: every field agrees with the others and with the room's settings ---------


def _saved_room() -> tuple[dict, Clock]:
    from setwidgets.classroom.rooms import Room

    clock = Clock()
    room = Room("BCDFG", seed=4, clock=clock)
    for name in ("Ana", "Ben"):
        room.join(name)
    return json.loads(json.dumps(room.to_data())), clock


def _room_refuses(data: dict, clock: Clock, words: str) -> None:
    from setwidgets.classroom.rooms import Room, RoomError

    with pytest.raises(RoomError) as refused:
        Room.from_data(data, clock)
    assert words in str(refused.value), str(refused.value)


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ({"deck": "mini"}, "its game is dealt from another deck than the room's (full deck)"),
        (
            {"variant": "solitaire"},
            "other rules (solitaire, 5.0 s to claim) than the room's (standard, 5.0 s)",
        ),
        (
            {"claim_seconds": 60.0},
            "other rules (standard, 60.0 s to claim) than the room's (standard, 5.0 s)",
        ),
    ],
)
def test_a_saved_room_whose_game_is_not_of_its_settings_is_refused(game, words):
    """Issue 36: a solitaire or mini-deck game loaded inside a standard full-deck room."""
    from setwidgets.classroom.rooms import Room

    data, clock = _saved_room()
    Room.from_data(data, clock)  # as saved, it loads
    players = ["Ana"] if game.get("variant") == "solitaire" else ["Ana", "Ben"]
    other = Game(players=players, seed=4, clock=clock, **game)
    data["game"] = other.to_json()
    _room_refuses(data, clock, words)


@pytest.mark.parametrize("code", [None, 5, "", "AB\x00CD", "bcdfg", "BCD FG", "B" * 17, "ÄBCDE"])
def test_a_saved_room_code_is_checked(code):
    data, clock = _saved_room()
    data["code"] = code
    _room_refuses(data, clock, "its code must be 1 to 16 capital letters or digits, like 'BCDFG'; got ")


@pytest.mark.parametrize("name", ["Ana, Ben", " Ana ", "\u3164", "A\u200bna"])
def test_a_saved_room_member_name_goes_through_the_name_policy(name):
    data, clock = _saved_room()
    data["members"].append([name, "", False, 0])
    _room_refuses(data, clock, "is damaged: ")


def test_a_saved_room_member_removed_as_text_is_refused():
    data, clock = _saved_room()
    data["members"][0][2] = "false"
    _room_refuses(data, clock, "a member is [name, team, removed, last_n]")


# -- what a game accepts, it can save ----------------------------------------------------------


def test_a_seed_too_large_to_save_is_refused_where_it_enters():
    """Issue 36: Game(seed=10**5000) was taken, then to_json() failed on Python's 4,300 digits."""
    with pytest.raises(GameError) as refused:
        Game(seed=10**5000)
    assert str(refused.value) == (
        "seed must be a whole number below 2**128 (39 digits), a random.Random or None; "
        "got a number of about 5,001 digits"
    )
    clock = Clock()
    largest = Game(players=["Ana", "Ben"], seed=-(2**128) + 1, clock=clock)
    assert Game.from_json(largest.to_json(), clock=clock).to_json() == largest.to_json()


@pytest.mark.parametrize(
    "reading", [lambda t: __import__("numpy").float32(t), lambda t: __import__("fractions").Fraction(t)]
)
def test_a_clock_of_numpy_floats_or_fractions_gives_a_game_that_saves(reading):
    """Issue 36: a clock returning numpy.float32 made a save fail with 'not JSON serializable'."""
    clock = Clock(2.5)
    game = Game(players=["Ana", "Ben"], seed=1, clock=lambda: reading(clock.t))
    game.call("Ana")
    clock.advance(1.5)
    text = game.to_json()
    loaded = Game.from_json(text, clock=lambda: reading(clock.t))
    assert loaded.to_json() == text and loaded.time_left() == game.time_left() == 3.5
