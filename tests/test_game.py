"""The game engine: dealing, calls and claims, penalties, variants, hints, saving, observers, bad input."""

import collections
import copy
import inspect
import itertools
import json
import random
import warnings

import numpy as np
import pytest
from conftest import Clock
from hypothesis import given, settings
from hypothesis import strategies as st

import setwidgets
from setwidgets import (
    Card,
    Claim,
    Game,
    GameError,
    NoSet,
    Player,
    full_deck,
    has_set,
    is_set,
    mini_deck,
    third_card,
)
from setwidgets.game import VARIANTS

# Twenty cards without a single SET among them (the largest such collection): a deck made of
# them never offers a SET, which lets the tests reach every "no SET" rule on purpose.
CAP20 = [
    *("1GSS", "1GTS", "1GTD", "1PTO", "1POO", "1PTD", "2ROO", "2RSS", "2ROS", "2GOO"),
    *("2GSD", "2PSS", "2POS", "2PSD", "3RTO", "3RSD", "3RTD", "3GTO", "3GTS", "3GOS"),
]
# Every SET among these 21 cards holds 1RSO: the twenty cards above form a cap, to which no card
# can be added without making a SET. A game on them has a SET to find only once 1RSO is out.
CAP21 = [*CAP20, "1RSO"]
LONE = Card.parse("1RSO")


def new_game(**kwargs) -> Game:
    kwargs.setdefault("seed", 2)
    kwargs.setdefault("clock", Clock())
    return Game(**kwargs)


def not_a_set(game: Game) -> tuple[Card, Card, Card]:
    return next(t for t in itertools.combinations(game.table, 3) if not is_set(t))


def seed_where(wanted, **kwargs) -> Game:
    """The game with the first seed from 0 on that gives what ``wanted(game)`` asks for."""
    for seed in range(5000):
        g = new_game(seed=seed, **kwargs)
        if wanted(g):
            return g
    raise AssertionError("no seed below 5000 deals such a game")  # pragma: no cover


def seed_without_set(then_a_set: bool = False) -> int:
    """The first seed whose opening table of 12 has no SET (and, if asked, the next 3 bring one)."""
    for seed in itertools.count():
        g = Game(seed=seed, clock=Clock())
        if not has_set(g.table) and (not then_a_set or has_set(g.table + g.deck[:3])):
            return seed
    raise AssertionError("unreachable")  # pragma: no cover


def assert_cards_kept(game: Game) -> None:
    held = [c for p in game.players for s in p.sets for c in s]
    everything = game.deck + game.table + held
    assert len(everything) == len(set(everything)) == len(game.cards)
    assert set(everything) == set(game.cards)
    assert all(is_set(s) for p in game.players for s in p.sets)


# -- setting up ----------------------------------------------------------------------


def test_a_new_game_deals_twelve_from_a_shuffled_full_deck():
    g = new_game()
    assert len(g.table) == 12 and len(g.deck) == 69
    assert sorted(g.cards) == full_deck()
    assert [p.name for p in g.players] == ["You"]
    assert (g.variant, g.table_size, g.claim_seconds, g.over, g.lost) == ("standard", 12, 5.0, False, False)
    assert (g.caller, g.callers) == (None, [])
    assert g.table + g.deck != full_deck()
    assert_cards_kept(g)


def test_the_mini_deck_and_small_decks_lay_out_nine():
    g = new_game(deck="mini")
    assert (len(g.table), len(g.deck), g.table_size) == (9, 18, 9)
    assert set(g.table + g.deck) == set(mini_deck())
    solid = new_game(deck=mini_deck(shading="solid"))
    assert solid.table_size == 9 and all(c.shading == "solid" for c in solid.table)
    codes = new_game(deck=["1RSO", "2RSO", "3RSO", "1GSO"])
    assert sorted(codes.table) == sorted(Card.parse(c) for c in ["1RSO", "2RSO", "3RSO", "1GSO"])
    assert codes.deck == []
    assert new_game(deck=full_deck()[:28]).table_size == 12


def test_table_size_and_players_can_be_chosen():
    g = new_game(table_size=15, players=3)
    assert len(g.table) == 15 and g.table_size == 15
    assert [p.name for p in g.players] == ["Player 1", "Player 2", "Player 3"]
    assert [p.name for p in new_game(players=["Ana", "Ben"]).players] == ["Ana", "Ben"]
    assert [p.name for p in new_game(players=("Ana",)).players] == ["Ana"]


def test_the_same_seed_deals_the_same_game():
    a, b = new_game(seed=42), new_game(seed=42)
    assert a.table == b.table and a.deck == b.deck
    assert new_game(seed=43).table + new_game(seed=43).deck != a.table + a.deck


def test_an_unseeded_game_tells_its_seed_so_it_can_be_replayed():
    g = Game()
    assert isinstance(g.seed, int)
    again = Game(seed=g.seed)
    assert again.table == g.table and again.deck == g.deck


def test_a_random_generator_can_be_passed_in_and_is_used():
    rng = random.Random(5)
    g = Game(seed=rng)
    assert g.seed is None
    assert rng.getstate() != random.Random(5).getstate()
    assert Game(seed=random.Random(5)).table == g.table


def test_the_global_random_generator_is_never_touched():
    random.seed(123)
    before = random.getstate()
    g = seed_where(lambda g: LONE in g.deck[3:], variant="competition", deck=CAP21, players=2)
    g.no_set()
    g.no_set()
    g.hint()
    Game(seed=None)
    assert random.getstate() == before


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"variant": "speed"},
            GameError,
            "unknown variant 'speed'; choose one of 'standard', 'solitaire', 'online'",
        ),
        ({"variant": 2}, TypeError, "variant must be one of 'standard'"),
        ({"deck": "tiny"}, GameError, "unknown deck 'tiny'; use 'full', 'mini' or a list of cards"),
        ({"deck": 81}, TypeError, "deck must be 'full', 'mini' or a list of cards; got 81"),
        ({"deck": ["1RSO", "2RSO", "xx"]}, GameError, "'xx' in the deck is not a card"),
        (
            {"deck": ["1RSO", "2RSO", 3]},
            TypeError,
            "each card is a Card or a code like '2RTO'; got 3 (a number)",
        ),
        ({"deck": ["1RSO", "2RSO", "1rso"]}, GameError, "the deck holds one red solid oval (1RSO) twice"),
        ({"deck": ["1RSO", "2RSO"]}, GameError, "a deck needs at least three cards to make a SET; got 2"),
        ({"players": 0}, GameError, "a game needs from 1 to 100 players; got 0"),
        ({"players": 101}, GameError, "a game needs from 1 to 100 players; got 101"),
        ({"players": []}, GameError, "a game needs at least one player; got an empty list"),
        ({"players": "Ana"}, TypeError, "players must be a number or a list of names like ['Ana', 'Ben']"),
        ({"players": True}, TypeError, "players must be a whole number like 2; got True (True or False)"),
        ({"players": 2.0}, TypeError, "players must be a whole number like 2; got 2.0 (a number): write 2,"),
        ({"players": 2.5}, TypeError, "players must be a whole number like 2; got 2.5 (a number)"),
        ({"players": -1}, GameError, "a game needs from 1 to 100 players; got -1"),
        ({"players": b"Ana"}, TypeError, "players must be a number or a list of names like ['Ana', 'Ben']"),
        ({"players": ["Ana", ""]}, GameError, "a player's name is a non-empty string; got ''"),
        ({"players": ["Ana", "  "]}, GameError, "a player's name is a non-empty string; got '  '"),
        ({"players": ["Ana", 7]}, TypeError, "a player's name is a string like 'Ana'; got 7 (a number)"),
        (
            {"players": ["Ana", "Ana"]},
            GameError,
            "two players are called 'Ana'; give each player a different name",
        ),
        (
            {"variant": "solitaire", "players": 2},
            GameError,
            "solitaire is a game for 1 player; got 2 players (Player 1, Player 2)",
        ),
        (
            {"table_size": 10},
            GameError,
            "table_size must be a positive multiple of 3 (such as 9 or 12); got 10",
        ),
        ({"table_size": 0}, GameError, "table_size must be a positive multiple of 3"),
        ({"table_size": 3}, None, ""),
        ({"table_size": -3}, GameError, "table_size must be a positive multiple of 3"),
        (
            {"table_size": 12.0},
            TypeError,
            "table_size must be a whole number like 12; got 12.0 (a number): write 12, without the '.0'",
        ),
        ({"table_size": True}, TypeError, "table_size must be a whole number like 12; got True"),
        (
            {"claim_seconds": 0},
            GameError,
            "claim_seconds must be a finite number of seconds above 0 or None for no limit; got 0",
        ),
        ({"claim_seconds": -1}, GameError, "claim_seconds must be a finite number of seconds above 0"),
        ({"claim_seconds": float("inf")}, GameError, "must be a finite number of seconds above 0"),
        ({"claim_seconds": float("nan")}, GameError, "must be a finite number of seconds above 0"),
        (
            {"claim_seconds": "5"},
            TypeError,
            "claim_seconds must be a number of seconds or None for no limit; got '5' (a string)",
        ),
        ({"claim_seconds": True}, TypeError, "claim_seconds must be a number of seconds"),
        (
            {"seed": "abc"},
            TypeError,
            "seed must be a whole number, a random.Random or None; got 'abc' (a string)",
        ),
        ({"seed": True}, TypeError, "seed must be a whole number, a random.Random or None; got True"),
        ({"seed": 2.0}, TypeError, "seed must be a whole number, a random.Random or None; got 2.0"),
        ({"clock": 5}, TypeError, "clock must be a function that returns the time in seconds; got 5"),
    ],
)
def test_bad_settings_say_what_is_expected(kwargs, error, message):
    if error is None:  # the edge of what is allowed, for contrast
        Game(**kwargs)
        return
    with pytest.raises(error) as info:
        Game(**kwargs)
    assert message in str(info.value)
    assert type(info.value) is error


def test_numpy_and_other_integral_numbers_are_numbers():
    g = Game(players=np.int64(2), seed=np.int64(7), table_size=np.int32(9), claim_seconds=np.float64(2.5))
    same = Game(players=2, seed=7, table_size=9, claim_seconds=2.5)
    assert (g.table, g.deck, g.seed, g.table_size) == (same.table, same.deck, 7, 9)
    assert type(g.seed) is int and type(g.table_size) is int and g.claim_seconds == 2.5
    json.loads(g.to_json())  # plain numbers in the save
    assert g.seat(np.int64(1)) == 1 and g.seat(np.uint8(0)) == 0
    g.call(np.int64(1))
    assert g.caller == 1


def test_seat_finds_a_player_by_number_or_name():
    g = new_game(players=["Ana", "Ben", "Cai"])
    assert [g.seat(0), g.seat(2), g.seat("Ben"), g.seat("Cai")] == [0, 2, 1, 2]
    assert g.seat("ben") == 1  # a name is found whatever its case, when that leaves no doubt
    with pytest.raises(GameError) as info:
        g.seat(3)
    assert str(info.value) == "there is no player 3; the players are 0 (Ana), 1 (Ben), 2 (Cai)"
    with pytest.raises(GameError, match="there is no player -1"):
        g.seat(-1)
    with pytest.raises(GameError, match="there is no player called 'Zoe'"):
        g.seat("Zoe")
    for wrong in (1.0, True, None, [0]):
        with pytest.raises(TypeError, match="a player is given by number or name"):
            g.seat(wrong)


def test_game_error_is_a_value_error():
    assert issubclass(GameError, ValueError)
    assert setwidgets.GameError is GameError


# -- taking SETs -----------------------------------------------------------------------


def test_a_right_set_is_kept_and_replaced_in_the_same_places():
    g = new_game(players=["Ana", "Ben"])
    table, deck = g.table, g.deck
    chosen = g.sets_on_table()[0]
    claim = g.claim(chosen, player=1)
    assert isinstance(claim, Claim) and claim.ok and bool(claim) and not claim.penalty
    assert claim.player == 1 and claim.cards == chosen and claim.verdict.is_set
    assert claim.message == f"Ben keeps a SET (+1 point). {claim.verdict}"
    assert str(claim) == claim.message
    positions = sorted(table.index(c) for c in chosen)
    assert claim.replaced == [(p, table[p], deck[k]) for k, p in enumerate(positions)]
    assert claim.moved == []
    assert g.table == [deck[positions.index(i)] if i in positions else c for i, c in enumerate(table)]
    assert g.deck == deck[3:]
    assert g.players[1].sets == [chosen] and g.players[1].score == 1
    assert g.players[0].score == 0
    assert (g.caller, g.callers) == (None, [])
    assert_cards_kept(g)


def test_a_claim_may_use_codes_or_one_string_of_codes():
    g = new_game()
    a, b, c = g.sets_on_table()[0]
    assert g.claim([a.code, b.code.lower(), c]).ok
    a, b, c = g.sets_on_table()[0]
    assert g.claim(f"{a} {b},{c}").ok
    assert g.players[0].score == 2


def test_a_wrong_claim_costs_a_point_and_the_cards_stay():
    g = new_game(players=["Ana", "Ben"])
    table = g.table
    wrong = not_a_set(g)
    claim = g.claim(wrong, player="Ana")
    assert not claim.ok and claim.penalty and not claim.verdict.is_set
    assert claim.message == f"{claim.verdict} Ana loses a point."
    assert claim.message.startswith("Not a SET: two ")
    assert claim.replaced == []
    assert g.table == table
    assert g.players[0].penalties == 1 and g.players[0].score == -1
    assert g.caller is None


def test_messages_to_the_default_player_you_read_as_english():
    g = new_game()
    assert g.players[0].name == "You"
    chosen = not_a_set(g)
    wrong = g.claim(chosen)
    assert wrong.ok is False and wrong.penalty is True and wrong.cards == chosen
    assert wrong.message == f"{wrong.verdict} You lose a point."
    right = g.claim(g.sets_on_table()[0])
    assert right.message == f"You keep a SET (+1 point). {right.verdict}"


def test_during_a_call_the_refusals_say_who_called():
    g = new_game(players=["You", "Ana", "Cai"])
    g.call()
    with pytest.raises(GameError) as info:
        g.call()
    assert str(info.value) == "You hold the call already; pick three cards on the table."
    g.call("Ana")
    with pytest.raises(GameError) as info:
        g.call("Ana")
    assert str(info.value) == "Ana is already in line, after you; wait until the players before are done."
    assert [(e["type"], e["player"], e["line"]) for e in g.history[1:]] == [("call", 0, 1), ("call", 1, 2)]
    chosen = g.sets_on_table()[0]
    with pytest.raises(GameError) as info:
        g.claim(chosen, player="Ana")
    assert str(info.value) == (
        "You hold the call; Ana is number 2 in line and may claim when the players before are done."
    )
    with pytest.raises(GameError) as info:
        g.claim(chosen, player="Cai")
    assert str(info.value) == (
        "You have called SET; nobody else may take cards until the caller has chosen. "
        "Call SET yourself to be next in line."
    )
    with pytest.raises(GameError) as info:
        g.no_set("Ana")
    assert (
        str(info.value) == "You have called SET; wait until the call is over before saying there is no SET."
    )


def test_you_is_lower_case_inside_a_sentence():
    clock = Clock()
    g = new_game(players=["Ana", "You"], clock=clock, claim_seconds=5)
    g.call("Ana")
    g.call("You")
    with pytest.raises(GameError, match="^Ana holds the call; you are number 2 in line"):
        g.claim(g.sets_on_table()[0], player="You")
    with pytest.raises(GameError, match="^You are already in line, after Ana;"):
        g.call("You")
    chosen = g.sets_on_table()[0]
    g.claim(chosen, player="Ana")
    late = g.claim(chosen, player="You")
    assert late.message.endswith("were taken by Ana after you called. No penalty.")


def test_you_already_took_it_is_lower_case_too():
    g = new_game()
    taken = g.sets_on_table()[0]
    g.claim(taken)
    with pytest.raises(GameError, match="is not on the table: you already took it"):
        g.claim([taken[0], *g.table[:2]])


def test_counts_of_one_are_singular():
    # Twelve cards without a SET, and last in the deck the one card that makes a SET with two of them.
    thirteen = [*CAP20[:12], third_card(CAP20[0], CAP20[1])]
    g = seed_where(lambda g: g.deck == [thirteen[-1]], deck=thirteen, table_size=12, variant="solitaire")
    answer = g.no_set()
    assert answer.message == "No SET among these 12 cards: the game is lost, with 1 card left in the deck."
    g = seed_where(lambda g: g.deck == [thirteen[-1]], deck=thirteen, table_size=12)
    assert g.no_set().message == "No SET among 12 cards: 1 more was dealt."
    g = seed_where(lambda g: g.deck[-1] == LONE, deck=CAP21, players=2, table_size=12)
    assert g.no_set().message == "No SET among 12 cards: 3 more were dealt."
    g = new_game(deck="mini", players=["Ana", "Ben"])
    wrong = [c for c in full_deck() if c not in mini_deck()][:1]
    with pytest.raises(GameError, match="^1GSO is not in this game's deck of 27 cards"):
        g.claim([*g.table[:2], *wrong])
    with pytest.raises(GameError, match="^1GSO 1GSS are not in this game's deck"):
        g.claim([g.table[0], "1GSO", "1GSS"])


def test_scores_and_winners():
    g = new_game(players=["Ana", "Ben"])
    g.claim(g.sets_on_table()[0], player="Ben")
    assert g.scores == {"Ana": 0, "Ben": 1}
    assert g.winners == ["Ben"]
    g.claim(g.sets_on_table()[0], player="Ana")
    assert g.winners == ["Ana", "Ben"]
    assert repr(g) == "<Game standard: 12 on the table, 63 in the deck; Ana 1, Ben 1>"


def test_players_are_copies_that_cannot_change_the_game():
    g = new_game()
    g.claim(g.sets_on_table()[0])
    p = g.players[0]
    assert isinstance(p, Player)
    p.penalties = 10
    p.sets.clear()
    assert g.players[0].score == 1
    g.table.clear()
    g.deck.clear()
    assert len(g.table) == 12 and len(g.deck) == 66


# -- bad claims change nothing ---------------------------------------------------------


def finished_game() -> Game:
    g = new_game(deck=["1RSO", "2RSO", "3RSO", "1GSO"])
    g.claim(["1RSO", "2RSO", "3RSO"])
    assert g.over
    return g


BAD_CLAIMS = [
    # (description, make the claim from a game g, error, message fragment)
    ("two cards", lambda g: g.claim(g.table[:2]), GameError, "a SET is exactly three cards; got 2: "),
    ("four cards", lambda g: g.claim(g.table[:4]), GameError, "a SET is exactly three cards; got 4: "),
    ("no cards", lambda g: g.claim([]), GameError, "a SET is exactly three cards; got 0"),
    ("one code", lambda g: g.claim(g.table[0].code), GameError, "a SET is exactly three cards; got 1"),
    (
        "not a code",
        lambda g: g.claim([g.table[0], g.table[1], "4RSO"]),
        GameError,
        "'4RSO' is not a card: character 1 of a card code is the number, one of 1/2/3",
    ),
    (
        "gibberish",
        lambda g: g.claim("abc def ghi"),
        GameError,
        "'abc' is not a card: a card code has 4 characters",
    ),
    (
        "a vector",
        lambda g: g.claim([g.table[0], g.table[1], (1, 0, 0, 1)]),
        TypeError,
        "each card is a Card or a code like '2RTO'; got (1, 0, 0, 1) (a tuple)",
    ),
    ("a number", lambda g: g.claim(7), TypeError, "a claim is three cards, as a list like [a, b, c]"),
    ("one card", lambda g: g.claim(g.table[0]), TypeError, "a claim is three cards"),
    ("None", lambda g: g.claim(None), TypeError, "a claim is three cards"),
    (
        "the same card twice",
        lambda g: g.claim([g.table[0], g.table[1], g.table[0].code.lower()]),
        GameError,
        "is chosen twice; a SET is three different cards",
    ),
    (
        "a card in the deck",
        lambda g: g.claim([g.table[0], g.table[1], g.deck[0]]),
        GameError,
        "is not on the table: it is still in the deck. Choose three cards on the table.",
    ),
    (
        "an unknown player",
        lambda g: g.claim(g.sets_on_table()[0], player=5),
        GameError,
        "there is no player 5",
    ),
    (
        "a negative player",
        lambda g: g.claim(g.sets_on_table()[0], player=-1),
        GameError,
        "there is no player -1",
    ),
    (
        "an unknown name",
        lambda g: g.claim(g.sets_on_table()[0], player="Zoe"),
        GameError,
        "there is no player called 'Zoe'; the players are 0 (Ana), 1 (Ben)",
    ),
    ("a bool player", lambda g: g.claim(g.sets_on_table()[0], player=True), TypeError, "by number or name"),
    ("a float player", lambda g: g.claim(g.sets_on_table()[0], player=1.0), TypeError, "by number or name"),
    (
        "bytes",
        lambda g: g.claim(b"1RSO 2GTS 3POD"),
        TypeError,
        "a claim is three cards, given as text; got b'1RSO 2GTS 3POD' (bytes, not text): "
        "write '1RSO 2GTS 3POD', without the b",
    ),
    (
        "a code as bytes",
        lambda g: g.claim([g.table[0], g.table[1], b"1RSO"]),
        TypeError,
        "each card is a Card or a code like '2RTO'; got b'1RSO' (bytes, not text)",
    ),
    (
        "a long list",
        lambda g: g.claim([None] * 10**5),
        TypeError,
        "each card is a Card or a code like '2RTO'; got None (nothing)",
    ),
    (
        "many codes",
        lambda g: g.claim(" ".join(c.code for c in g.table)),
        GameError,
        "a SET is exactly three cards; got 12: ",
    ),
]


@pytest.mark.parametrize(("what", "move", "error", "message"), BAD_CLAIMS, ids=[b[0] for b in BAD_CLAIMS])
def test_a_bad_claim_explains_itself_and_changes_nothing(what, move, error, message):
    g = new_game(players=["Ana", "Ben"])
    g.call(player="Ana")
    before = g.to_json()
    with pytest.raises(error) as info:
        move(g)
    assert message in str(info.value)
    assert len(str(info.value)) < 300
    assert g.to_json() == before


def test_a_card_from_another_deck_is_refused():
    g = new_game(deck="mini")
    before = g.to_json()
    with pytest.raises(GameError) as info:
        g.claim([g.table[0], g.table[1], "1GSO"])
    assert str(info.value) == "1GSO is not in this game's deck of 27 cards; choose cards on the table"
    assert g.to_json() == before


def test_a_card_already_taken_says_who_took_it():
    g = new_game(players=["Ana", "Ben"])
    taken = g.sets_on_table()[0]
    g.claim(taken, player="Ben")
    before = g.to_json()
    with pytest.raises(GameError) as info:
        g.claim([taken[0], g.table[0], g.table[1]], player="Ana")
    assert f"{taken[0]} ({taken[0].name}) is not on the table: Ben already took it" in str(info.value)
    assert g.to_json() == before


def test_each_card_not_on_the_table_gets_its_own_reason():
    g = new_game(players=["Ana", "Ben"])
    taken = g.sets_on_table()[0]
    g.claim(taken, player="Ben")
    with pytest.raises(GameError) as info:
        g.claim([taken[0], g.table[0], g.deck[0]], player="Ana")
    assert str(info.value) == (
        f"{taken[0]} ({taken[0].name}) is not on the table: Ben already took it; "
        f"{g.deck[0]} ({g.deck[0].name}) is not on the table: it is still in the deck. "
        "Choose three cards on the table."
    )


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (
            lambda g: g.claim(["1GSO", "2RSO", "3RSO"]),
            "the game is over, so nobody can claim cards; start a new Game to play again",
        ),
        (lambda g: g.call(), "the game is over, so nobody can call SET; start a new Game to play again"),
        (
            lambda g: g.no_set(),
            "the game is over, so nobody can say there is no SET; start a new Game to play again",
        ),
    ],
)
def test_moves_after_the_game_is_over_are_refused(move, message):
    g = finished_game()
    before = g.to_json()
    with pytest.raises(GameError) as info:
        move(g)
    assert str(info.value) == message
    assert g.to_json() == before
    assert g.hint() == [] and g.expire() == []
    assert g.to_json() == before


# -- calls, the claim time and several callers -------------------------------------------


def test_after_a_call_nobody_else_may_take_cards():
    g = new_game(players=["Ana", "Ben"])
    g.call("Ana")
    assert g.caller == 0
    before = g.to_json()
    with pytest.raises(GameError) as info:
        g.claim(g.sets_on_table()[0], player="Ben")
    assert "Ana has called SET; nobody else may take cards until the caller has chosen" in str(info.value)
    assert g.to_json() == before
    with pytest.raises(GameError, match="Ana has called SET; wait until the call is over"):
        g.no_set("Ben")
    assert g.to_json() == before


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        (lambda g: g.call(2), GameError, "there is no player 2; the players are 0 (Ana), 1 (Ben)"),
        (lambda g: g.call("Zoe"), GameError, "there is no player called 'Zoe'"),
        (lambda g: g.call(None), TypeError, "a player is given by number or name; got None"),
        (lambda g: g.no_set(7), GameError, "there is no player 7"),
        (lambda g: g.no_set(False), TypeError, "a player is given by number or name; got False"),
    ],
)
def test_other_moves_refuse_an_unknown_player(move, error, message):
    g = new_game(players=["Ana", "Ben"])
    before = g.to_json()
    with pytest.raises(error) as info:
        move(g)
    assert message in str(info.value)
    assert g.to_json() == before


def test_a_player_cannot_call_twice():
    g = new_game(players=["Ana", "Ben"])
    g.call(0)
    g.call(1)
    before = g.to_json()
    with pytest.raises(GameError, match="^Ana holds the call already; pick three cards on the table.$"):
        g.call(0)
    with pytest.raises(
        GameError, match="^Ben is already in line, after Ana; wait until the players before are done.$"
    ):
        g.call("Ben")
    assert g.to_json() == before


def test_callers_are_served_in_the_order_heard():
    clock = Clock()
    g = new_game(players=["Ana", "Ben", "Cai"], clock=clock)
    g.call("Ben")
    clock.advance(1)
    g.call("Ana")
    g.call("Cai")
    assert (g.caller, g.callers) == (1, [1, 0, 2])
    with pytest.raises(GameError, match="Ben holds the call; Ana is number 2 in line"):
        g.claim(g.sets_on_table()[0], player="Ana")
    assert g.claim(not_a_set(g), player="Ben").penalty
    assert (g.caller, g.callers) == (0, [0, 2])
    assert g.claim(g.sets_on_table()[0], player="Ana").ok
    assert g.callers == [2]
    assert g.claim(g.sets_on_table()[0], player="Cai").ok
    assert g.scores == {"Ana": 1, "Ben": -1, "Cai": 1}


def test_a_later_caller_whose_cards_were_taken_loses_nothing():
    g = new_game(players=["Ana", "Ben"])
    chosen = g.sets_on_table()[0]
    g.call("Ana")
    g.call("Ben")
    assert g.claim(chosen, player="Ana").ok
    claim = g.claim(chosen, player="Ben")
    assert not claim.ok and not claim.penalty and claim.cards == chosen and claim.player == 1
    assert (
        claim.message
        == f"Too late: {chosen[0]} {chosen[1]} {chosen[2]} were taken by Ana after Ben called. No penalty."
    )
    assert g.players[1].penalties == 0 and g.caller is None


def test_one_card_taken_is_enough_to_be_too_late():
    g = new_game(players=["Ana", "Ben"])
    chosen = g.sets_on_table()[0]
    g.call("Ana")
    g.call("Ben")
    g.claim(chosen, player="Ana")
    others = [c for c in g.table if c not in chosen][:2]
    claim = g.claim([chosen[1], *others], player="Ben")
    assert claim.message == f"Too late: {chosen[1]} was taken by Ana after Ben called. No penalty."
    assert not claim.penalty


def test_cards_taken_before_the_call_are_a_mistake_not_too_late():
    g = new_game(players=["Ana", "Ben"])
    chosen = g.sets_on_table()[0]
    g.claim(chosen, player="Ana")
    g.call("Ben")
    with pytest.raises(GameError, match="Ana already took it"):
        g.claim(chosen, player="Ben")


def test_a_caller_who_runs_out_of_time_loses_a_point():
    clock = Clock()
    g = new_game(players=["Ana", "Ben"], clock=clock)
    g.call("Ana")
    assert g.time_left() == 5.0
    clock.advance(5.0)
    assert g.time_left() == 0.0
    assert g.expire() == []  # exactly on time is still on time
    clock.advance(0.01)
    assert g.expire() == [0]
    assert g.players[0].penalties == 1 and g.caller is None and g.time_left() is None
    event = g.history[-1]
    assert event["type"] == "timeout" and event["player"] == 0
    assert event["message"] == "Ana loses a point: no SET shown within 5 seconds."


def test_the_next_callers_time_starts_when_the_previous_one_ends():
    clock = Clock(0.0)
    g = new_game(players=["Ana", "Ben", "Cai"], clock=clock)
    g.call("Ana")
    clock.advance(1)
    g.call("Ben")
    clock.advance(2)
    g.call("Cai")
    assert g.expire(now=9.0) == [0]  # Ana's time ran out at 5; Ben's runs from 5 to 10
    assert g.time_left(now=9.0) == 1.0
    assert g.expire(now=15.5) == [1, 2]
    assert g.scores == {"Ana": -1, "Ben": -1, "Cai": -1}


def test_the_time_limit_is_checked_by_every_move():
    clock = Clock()
    g = new_game(players=["Ana", "Ben"], clock=clock)
    g.call("Ana")
    clock.advance(6)
    assert g.claim(g.sets_on_table()[0], player="Ben").ok  # Ana's call is over, so Ben may take cards
    assert g.scores == {"Ana": -1, "Ben": 1}


def test_a_claim_after_the_time_ran_out_only_costs_the_timeout():
    clock = Clock()
    g = new_game(players=["Ana", "Ben"], clock=clock)
    g.call("Ana")
    g.call("Ben")
    clock.advance(7)
    table = g.table
    claim = g.claim(g.sets_on_table()[0], player="Ana")
    assert claim.ok is False and claim.penalty is True
    assert claim.message == "Too late: Ana had 5 seconds to show a SET and lost a point."
    assert g.table == table and g.scores == {"Ana": -1, "Ben": 0}
    assert g.caller == 1 and g.time_left() == 3.0


def test_too_late_speaks_to_you_in_lower_case():
    clock = Clock()
    g = new_game(clock=clock)
    g.call()
    clock.advance(6)
    claim = g.claim(g.sets_on_table()[0])
    assert claim.message == "Too late: you had 5 seconds to show a SET and lost a point."


def test_a_claim_without_a_call_records_the_call_first():
    g = new_game(players=["Ana", "Ben"])
    g.claim(g.sets_on_table()[0], player="Ben")
    assert [(e["type"], e["player"]) for e in g.history[1:]] == [("call", 1), ("claim", 1)]
    assert g.history[1]["line"] == 1


def test_a_refused_move_does_not_count_a_timeout_twice():
    clock = Clock()
    g = new_game(players=["Ana", "Ben", "Cai"], clock=clock)
    g.call("Ana")
    g.call("Ben")
    clock.advance(6)
    before = g.to_json()
    with pytest.raises(GameError, match="Ben has called SET; nobody else may take cards"):
        g.claim(g.sets_on_table()[0], player="Cai")
    # A refused move changes nothing, not even the timeout it noticed; the next move applies it once.
    assert g.to_json() == before
    assert g.expire() == [0]
    assert g.scores == {"Ana": -1, "Ben": 0, "Cai": 0}


def test_claims_that_include_the_call_are_never_late():
    clock = Clock()
    g = new_game(clock=clock)
    clock.advance(1000)
    assert g.claim(g.sets_on_table()[0]).ok


def test_no_time_limit():
    clock = Clock()
    g = new_game(claim_seconds=None, clock=clock)
    g.call()
    clock.advance(10**6)
    assert g.expire() == [] and g.time_left() is None
    assert g.claim(g.sets_on_table()[0]).ok


def test_expire_needs_a_finite_number():
    clock = Clock()
    g = new_game(clock=clock)
    g.call()
    before = g.to_json()
    with pytest.raises(
        TypeError, match="now must be a time in seconds \\(a number\\); got 'later' \\(a string\\)"
    ):
        g.expire(now="later")
    with pytest.raises(TypeError, match="now must be a time in seconds"):
        g.expire(now=True)
    for endless in (float("nan"), float("inf")):
        with pytest.raises(GameError, match="now must be a finite time in seconds"):
            g.expire(now=endless)
        with pytest.raises(GameError, match="now must be a finite time in seconds"):
            g.time_left(now=endless)
    assert g.to_json() == before
    assert g.time_left(now=np.float64(clock.t + 1)) == 4.0
    assert g.expire(now=np.int64(clock.t + 6)) == [0]


# -- no SET, extra cards and the end -------------------------------------------------------


def test_saying_no_set_when_there_is_one_changes_nothing():
    g = new_game()
    before = g.to_json()
    answer = g.no_set()
    assert isinstance(answer, NoSet) and not answer.ok and not answer
    count = len(g.sets_on_table())
    counted = "is 1 SET" if count == 1 else f"are {count} SETs"
    assert answer.message == f"There {counted} on the table; keep looking."
    assert answer.player is None  # everyone agreed
    mistaken = new_game(players=["Ana", "Ben"]).no_set("Ben")
    assert not mistaken and mistaken.player == 1  # the answer says who was mistaken
    assert g.to_json() == before


def test_no_set_deals_three_more_and_they_are_not_replaced():
    seed = seed_without_set(then_a_set=True)
    g = new_game(seed=seed, players=["Ana", "Ben"])
    table, deck = g.table, g.deck
    answer = g.no_set("Ben")
    assert answer.ok and answer.player == 1 and answer.dealt == deck[:3] and answer.returned == []
    assert answer.message == "No SET among 12 cards: 3 more were dealt."
    assert g.table == table + deck[:3] and g.deck == deck[3:]
    event = g.history[-1]
    assert (event["type"], event["player"], event["dealt"], event["returned"], event["lost"]) == (
        "no_set",
        1,
        [c.code for c in deck[:3]],
        [],
        False,
    )
    chosen = g.sets_on_table()[0]
    fifteen = g.table
    claim = g.claim(chosen, player="Ana")
    assert len(g.table) == 12 and g.deck == deck[3:]
    # The gaps below 12 are filled by the last cards; the end of the table shrinks.
    kept = [c for c in fifteen if c not in chosen]
    assert sorted(g.table) == sorted(kept)
    gaps = sorted(p for p, _, _ in claim.replaced if p < 12)
    movers = [c for p, c in enumerate(fifteen) if p >= 12 and c not in chosen]
    assert [g.table[p] for p in gaps] == movers
    assert [(to, card) for _, to, card in claim.moved] == list(zip(gaps, movers))
    for p, c in enumerate(fifteen[:12]):
        if p not in gaps:
            assert g.table[p] == c
    assert all((new is None) == (p >= 12) for p, _, new in claim.replaced)


def test_the_test_decks_have_no_set_or_only_sets_with_one_card():
    assert len(set(CAP20)) == 20 and not has_set(CAP20)
    sets = setwidgets.find_sets(CAP21)
    assert sets and all(LONE in s for s in sets)


def test_the_standard_game_keeps_adding_cards_while_there_is_no_set():
    g = seed_where(lambda g: g.deck[-1] == LONE, deck=CAP21, table_size=12)
    sizes = [len(g.table)]
    while not g.sets_on_table():
        answer = g.no_set()
        assert answer.ok and not answer.over and answer.returned == []
        sizes.append(len(g.table))
    assert sizes == [12, 15, 18, 21] and g.deck == [] and not g.over
    g.claim(g.sets_on_table()[0])
    assert len(g.table) == 18
    assert g.over == (not has_set(g.table)) and not g.lost


def test_solitaire_is_lost_on_a_table_without_a_set():
    g = seed_where(lambda g: LONE in g.deck, deck=CAP21, table_size=12, variant="solitaire")
    assert not g.over and not g.sets_on_table()
    answer = g.no_set()
    assert answer.ok and answer.over and answer.lost and answer.dealt == answer.returned == []
    assert answer.message == "No SET among these 12 cards: the game is lost, with 9 cards left in the deck."
    assert g.over and g.lost and len(g.table) == 12 and len(g.deck) == 9
    assert [e["type"] for e in g.history[-2:]] == ["no_set", "over"]
    assert g.history[-2]["lost"] is True and g.history[-1]["reason"] == "no SET on the table"


def test_other_variants_never_report_a_loss_on_no_set():
    for variant in ("standard", "competition"):
        g = seed_where(lambda g: LONE in g.deck[3:], deck=CAP21, table_size=12, variant=variant)
        g.no_set()
        assert g.history[-1]["type"] == "no_set" and g.history[-1]["lost"] is False and not g.lost


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_ends_at_once_when_no_set_can_ever_be_made(variant):
    cards = setwidgets.as_cards(
        "3POS 1GOO 3GOS 1GTD 2PSO 1PSO 3GTD 2POS 1GOD 1GTO 3PSD 3POO 2GTO 1PSD 2GOS 1PTS"
    )
    cards += setwidgets.as_cards("1RSS 2POD")
    assert not has_set(cards)
    g = new_game(deck=cards, variant=variant)
    assert g.over and len(g.table) == 9 and len(g.deck) == 9
    # A full table without a SET loses solitaire, even though the cards left could not help.
    assert g.lost == (variant == "solitaire")
    reason = (
        "no SET on the table"
        if g.lost
        else "no SET can be made from the cards left, on the table and in the deck"
    )
    assert g.history[-1]["reason"] == reason
    with pytest.raises(GameError, match="the game is over"):
        g.no_set()


def test_a_game_ends_once_the_cards_left_hold_no_set_even_with_cards_in_the_deck():
    # 1RSO makes every SET of CAP21: once it is taken, nothing is left to find.
    g = seed_where(lambda g: LONE in g.table and g.sets_on_table(), deck=CAP21, players=2)
    g.claim(next(s for s in g.sets_on_table() if LONE in s), player=1)
    assert g.over and g.deck and not g.lost
    assert g.history[-1]["reason"] == "no SET can be made from the cards left, on the table and in the deck"
    assert g.scores == {"Player 1": 0, "Player 2": 1}


def test_solitaire_is_won_only_when_the_deck_runs_out_on_a_short_table_without_a_set():
    outcomes = set()
    for seed in range(12):
        g = new_game(variant="solitaire", seed=seed)
        while not g.over:
            sets = g.sets_on_table()
            if sets:
                g.claim(sets[0])
            else:
                g.no_set()
        assert not has_set(g.table)
        assert g.lost == (bool(g.deck) or len(g.table) >= 12)
        outcomes.add(g.lost)
    assert False in outcomes  # at least one of these games is won


def test_solitaire_is_lost_when_the_deck_runs_out_on_a_full_table_without_a_set():
    for seed in range(200):
        g = new_game(variant="solitaire", seed=seed)
        while not g.over and g.sets_on_table():
            g.claim(g.sets_on_table()[0])
        if g.over and len(g.table) == 12:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed below 200 ends on a full table")
    assert g.deck == [] and g.lost
    assert g.history[-1]["type"] == "over" and g.history[-1]["reason"] == "no SET on the table"


def test_competition_sends_six_back_after_fifteen_without_a_set():
    g = seed_where(lambda g: LONE in g.deck[3:], deck=CAP21, table_size=12, variant="competition", players=3)
    first = g.no_set()
    assert first.dealt == g.table[12:] and first.returned == []
    assert first.message == "No SET among 12 cards: 3 more were dealt."
    assert len(g.table) == 15 and len(g.deck) == 6
    fifteen, deck_before = g.table, g.deck
    answer = g.no_set(2)
    assert answer.ok and answer.player == 2
    assert answer.message == "No SET among 15 cards: 6 went back into the deck and 3 were dealt."
    assert len(answer.returned) == 6 and len(answer.dealt) == 3
    assert set(answer.returned) <= set(fifteen)
    # The six went back into the deck, which was shuffled before three were dealt from it.
    assert sorted(g.deck + answer.dealt) == sorted(deck_before + answer.returned)
    assert g.deck + answer.dealt != deck_before + answer.returned
    assert len(g.table) == 12 and len(g.deck) == 9
    assert set(g.table) == (set(fifteen) - set(answer.returned)) | set(answer.dealt)
    assert not answer.over and not g.over
    assert_cards_kept(g)
    event = g.history[-1]
    assert event["type"] == "no_set" and event["returned"] == [c.code for c in answer.returned]


def test_competition_reshuffles_reproducibly():
    a = seed_where(lambda g: LONE in g.deck[3:], deck=CAP21, table_size=12, variant="competition")
    b = Game.from_json(a.to_json(), clock=Clock())
    for g in (a, b):
        g.no_set()
        g.no_set()
    assert a.table == b.table and a.deck == b.deck


def test_online_deals_three_at_a_time_until_there_is_a_set():
    seed = seed_without_set()
    standard = new_game(seed=seed)
    online = new_game(seed=seed, variant="online")
    assert online.table[:12] == standard.table
    assert len(online.table) > 12 and len(online.table) % 3 == 0
    assert has_set(online.table) and not has_set(online.table[:-3])
    deals = [e for e in online.history if e["type"] == "deal"]
    assert len(deals) == (len(online.table) - 12) // 3
    assert all(e["reason"] == "no SET on the table" for e in deals)


def test_online_never_leaves_a_table_without_a_set_while_cards_remain():
    for seed in range(8):
        g = new_game(variant="online", seed=seed)
        while not g.over:
            assert has_set(g.table)
            g.claim(g.sets_on_table()[-1])
        assert g.deck == [] and not has_set(g.table)


def test_the_game_ends_when_the_deck_is_empty_and_no_set_is_left():
    g = new_game(players=["Ana", "Ben"])
    turn = 0
    while not g.over:
        sets = g.sets_on_table()
        if sets:
            g.claim(sets[0], player=turn % 2)
        else:
            g.no_set()
        turn += 1
    assert g.deck == [] and not has_set(g.table)
    assert len(g.table) + 3 * sum(len(p.sets) for p in g.players) == 81
    last = g.history[-1]
    assert last["type"] == "over" and last["scores"] == g.scores and last["lost"] is False
    assert last["reason"] == "the deck is empty and no SET is left on the table"
    assert repr(g).endswith(f"Ana {g.scores['Ana']}, Ben {g.scores['Ben']}, over>")
    assert_cards_kept(g)


def test_callers_still_in_line_when_the_game_ends_lose_nothing():
    g = new_game(deck=["1RSO", "2RSO", "3RSO", "1GSO"], players=["Ana", "Ben"])
    g.call("Ana")
    g.call("Ben")
    g.claim(["1RSO", "2RSO", "3RSO"], player="Ana")
    assert g.over and g.callers == [] and g.scores == {"Ana": 1, "Ben": 0}


def test_a_deck_with_no_set_at_all_is_over_at_once():
    g = new_game(deck=CAP20[:9])
    assert g.over and len(g.table) == 9 and g.history[-1]["type"] == "over"


def test_a_short_deck_replaces_what_it_can_and_closes_the_gaps():
    # 13 cards: 12 on the table, 1 left; the one card fills the first gap, the last card the second.
    cards = ["1RSO", "2RSO", "3RSO"] + CAP20[:10]
    g = Game(deck=cards, seed=0, table_size=12, clock=Clock())
    while not {Card.parse(c) for c in ["1RSO", "2RSO", "3RSO"]} <= set(g.table):
        g = Game(deck=cards, seed=g.seed + 1, table_size=12, clock=Clock())
    last_in_deck = g.deck[0]
    claim = g.claim(["1RSO", "2RSO", "3RSO"])
    assert claim.ok and len(g.table) == 10 and g.deck == []
    first_gap = claim.replaced[0][0]
    assert g.table[first_gap] == last_in_deck
    assert_cards_kept(g)


# -- hints ---------------------------------------------------------------------------------


def test_hints_show_one_more_card_of_one_set_each_time():
    g = new_game()
    one, two, three, again = g.hint(), g.hint(), g.hint(), g.hint()
    assert len(one) == 1 and two[:1] == one and len(two) == 2 and three[:2] == two and again == three
    assert is_set(three) and set(three) <= set(g.table)
    assert json.loads(g.to_json())["hint_shown"] == 3  # a fourth hint shows no more than the SET
    # Each hint event lists the cards shown, so a teacher can see how much help was asked for.
    shown = [[c.code for c in hint] for hint in (one, two, three, again)]
    assert [(e["type"], e["cards"]) for e in g.history[-4:]] == [("hint", cards) for cards in shown]


def test_a_new_hint_after_the_hinted_set_is_taken():
    g = new_game()
    g.hint()
    g.hint()
    hinted = g.hint()
    g.claim(hinted)
    # The hint left the table with its cards; the save holds no stale hint.
    assert json.loads(g.to_json())["hint"] is None and json.loads(g.to_json())["hint_shown"] == 0
    fresh = g.hint()
    assert len(fresh) == 1 and fresh[0] in g.table


def test_the_hint_stays_while_another_set_is_taken():
    g = seed_where(lambda g: any(not set(s) & set(g.sets_on_table()[0]) for s in g.sets_on_table()))
    first = g.hint()
    other = next(s for s in g.sets_on_table() if not set(s) & set(g.sets_on_table()[0]))
    g.claim(other)
    assert g.hint()[:1] == first and len(g.hint()) == 3


def test_a_move_that_fails_half_way_changes_nothing_the_random_generator_included():
    class FailingClock(Clock):
        """A clock that breaks down after a number of readings."""

        readings = 0
        fail_at = None

        def __call__(self):
            self.readings += 1
            return float("nan") if self.readings == self.fail_at else self.t

    clock = FailingClock()
    rng = random.Random(8)
    g = next(
        g
        for seed in range(200)
        if LONE
        in (g := Game(deck=CAP21, table_size=12, variant="competition", seed=seed, clock=clock)).deck[3:]
    )
    g.no_set()
    g = Game.from_json(g.to_json(), clock=clock)
    g._state.rng = rng  # as if this generator had been passed in as the seed
    before, state = g.to_json(), rng.getstate()
    heard = []
    g.on_change(heard.append)
    # The second reading comes after six cards went back and the deck was reshuffled.
    clock.readings, clock.fail_at = 0, 2
    with pytest.raises(GameError, match="clock must return a finite time"):
        g.no_set()
    assert g.to_json() == before and g._state.rng is rng and rng.getstate() == state and heard == []
    clock.fail_at = None
    assert g.no_set().returned


def test_no_hint_without_a_set():
    g = new_game(deck=CAP20, table_size=12)
    before = g.to_json()
    assert g.hint() == []
    assert g.to_json() == before


# -- history, observers, saving --------------------------------------------------------------


def test_history_records_every_event_as_plain_data():
    clock = Clock(7.0)
    g = new_game(players=["Ana", "Ben"], clock=clock)
    start = g.history[0]
    assert start == {
        "type": "start",
        "time": 7.0,
        "variant": "standard",
        "players": ["Ana", "Ben"],
        "seed": 2,
        "table": [c.code for c in g.table],
    }
    g.call("Ben")
    g.claim(g.sets_on_table()[0], player="Ben")
    kinds = [e["type"] for e in g.history]
    assert kinds == ["start", "call", "claim"]
    claim = g.history[-1]
    assert claim["player"] == 1 and claim["ok"] is True and len(claim["replaced"]) == 3
    json.dumps(g.history)
    g.history.clear()
    assert len(g.history) == 3


def test_observers_hear_each_event_after_the_move():
    g = new_game(players=["Ana", "Ben"])
    heard = []
    g.on_change(lambda event: heard.append((event["type"], len(g.players[1].sets))))
    g.call(1)
    g.claim(g.sets_on_table()[0], player=1)
    assert heard == [("call", 0), ("claim", 1)]


def test_observers_hear_nothing_from_a_refused_move_and_can_be_removed():
    g = new_game()
    heard = []
    g.on_change(heard.append)
    g.on_change(heard.append)  # registering twice still calls once
    with pytest.raises(GameError):
        g.claim(g.table[:2])
    assert g.no_set().ok is False
    assert heard == []
    g.hint()
    assert len(heard) == 1
    g.on_change(heard.append, remove=True)
    g.hint()
    assert len(heard) == 1
    with pytest.raises(TypeError) as info:
        g.on_change("redraw")
    assert str(info.value) == "on_change() needs a function taking one event dict; got 'redraw' (a string)"


def redraw_nothing():
    pass


class Screen:
    def redraw(self, event):
        self.last = event


class Redraw:
    """A callable object: it has no __qualname__ of its own, so messages show its repr."""

    def __repr__(self):
        return "<the board's redraw>"

    def __call__(self):
        pass


@pytest.mark.parametrize(
    ("callback", "problem"),
    [
        (redraw_nothing, "redraw_nothing() cannot be called with one event"),
        (lambda a, b: None, "<lambda>(a, b) cannot be called with one event"),
        (lambda *, event: None, "cannot be called with one event"),
        (Screen.redraw, "Screen.redraw(self, event) cannot be called with one event"),
        (
            Redraw(),
            "<the board's redraw>() cannot be called with one event dict (too many positional arguments)",
        ),
    ],
)
def test_on_change_refuses_a_function_that_cannot_take_the_event(callback, problem):
    g = new_game()
    with pytest.raises(TypeError) as info:
        g.on_change(callback)
    assert str(info.value).startswith(
        "on_change() needs a function taking one event dict, like def redraw(event): ...; "
    )
    assert problem in str(info.value)
    g.hint()  # nothing was registered
    g.on_change(callback, remove=True)  # removing what was never added is quietly nothing


def test_on_change_takes_any_function_that_can_take_the_event():
    g = new_game()
    heard = []
    screen = Screen()
    for callback in (heard.append, screen.redraw, lambda e, extra=1: None):
        g.on_change(callback)
    g.on_change(lambda *args: heard.append(len(args)))
    g.on_change(lambda event, /: None)
    # A builtin whose signature cannot be read is given the benefit of the doubt.
    g.on_change(dict.fromkeys)
    g.hint()
    assert heard == [g.history[-1], 1] and screen.last == g.history[-1]


def test_a_callback_that_raises_is_reported_and_the_others_still_hear():
    g = new_game(players=["Ana", "Ben"])
    heard = []

    def broken(event):
        raise KeyError("score")

    g.on_change(heard.append)
    g.on_change(broken)
    g.on_change(lambda event: heard.append(event["type"]))
    chosen = g.sets_on_table()[0]
    with pytest.warns(RuntimeWarning) as caught:
        claim = g.claim(chosen, player="Ben")
    # The move was made, and nothing about it looks refused.
    assert claim.ok and g.scores == {"Ana": 0, "Ben": 1} and not set(chosen) & set(g.table)
    assert [e if isinstance(e, str) else e["type"] for e in heard] == ["call", "call", "claim", "claim"]
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2  # once per event: the call, then the claim
    # The words are the shared dispatcher's (setwidgets._events), which quotes the error's text.
    assert messages[0].startswith(
        "the on_change callback "
        "test_a_callback_that_raises_is_reported_and_the_others_still_hear.<locals>.broken raised "
        "KeyError: "
    )
    assert "'score'" in messages[0]
    assert messages[0].endswith(" (the call was made; the other callbacks were told)")
    assert "(the claim was made;" in messages[1]
    assert all(w.category is RuntimeWarning for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.on_change(broken, remove=True)
        g.hint()  # no warning once the broken callback is gone


def test_an_observer_gets_a_copy_of_the_event():
    g = new_game()
    g.on_change(lambda event: event.clear())
    g.hint()
    assert g.history[-1]["type"] == "hint"


def test_a_game_in_progress_round_trips_through_json():
    clock = Clock()
    g = new_game(players=["Ana", "Ben"], variant="competition", seed=11, clock=clock)
    g.claim(g.sets_on_table()[0], player="Ana")
    g.claim(not_a_set(g), player="Ben")
    g.hint()
    g.call("Ben")
    g.call("Ana")
    text = g.to_json()
    copy = Game.from_json(text, clock=clock)
    assert copy.to_json() == text
    assert (copy.table, copy.deck, copy.players, copy.callers) == (g.table, g.deck, g.players, g.callers)
    assert (copy.variant, copy.seed, copy.table_size, copy.claim_seconds) == ("competition", 11, 12, 5.0)
    assert copy.history == g.history and copy.hint() == g.hint()
    # Both games play on the same way, including the random state.
    for game in (g, copy):
        game.claim(game.sets_on_table()[0], player="Ben")
    assert copy.to_json() == g.to_json()


def test_a_pending_call_keeps_its_seconds_across_saving():
    old = Clock(1000.0)
    g = new_game(clock=old)
    g.call()
    old.advance(2)
    text = g.to_json()
    new = Clock(5.0)
    loaded = Game.from_json(text, clock=new)
    assert loaded.time_left() == 3.0
    new.advance(3.5)
    assert loaded.expire() == [0]


def test_json_without_a_pending_call_does_not_depend_on_the_time():
    clock = Clock()
    g = new_game(clock=clock)
    text = g.to_json()
    clock.advance(50)
    assert g.to_json() == text


# -- documentation ----------------------------------------------------------------------------


def test_every_public_name_has_a_docstring():
    for cls in (Game, Player, Claim, NoSet, GameError):
        assert inspect.getdoc(cls), cls
    for name, member in inspect.getmembers(Game):
        if not name.startswith("_"):
            assert inspect.getdoc(member), name
    assert set(VARIANTS) == {"standard", "solitaire", "online", "competition"}


def test_endless_or_huge_input_is_refused_without_reading_it_all(clock):
    """A claim, a deck or a list of players from an endless iterable is refused, not read for ever."""
    g = Game(players=["Ana", "Ben"], seed=4, clock=clock)
    before = g.to_json()
    with pytest.raises(GameError, match=r"^a SET is exactly three cards; got more than 3: "):
        g.claim(itertools.repeat(g.table[0]))
    with pytest.raises(GameError, match=r"^a SET is exactly three cards; got 1000000: "):
        g.claim([g.table[0]] * 10**6)
    assert g.to_json() == before
    with pytest.raises(GameError, match=r"^the deck holds one red solid oval \(1RSO\) twice"):
        Game(deck=itertools.cycle(["1RSO", "2RSO", "3RSO"]))
    with pytest.raises(GameError, match=r"^a game needs from 1 to 100 players; got more: 101: 'a', 'a'"):
        Game(players=itertools.repeat("a"))


def test_player_names_are_short_and_differ_in_more_than_case():
    with pytest.raises(GameError, match=r"^a player's name has at most 40 characters, to fit on the board"):
        Game(players=["x" * 10**6, "Ben"])
    assert len(Game(players=["x" * 40, "Ben"]).players[0].name) == 40
    with pytest.raises(GameError) as info:
        Game(players=["Ana", "ana"])
    assert str(info.value) == (
        "two players are called 'Ana' and 'ana', which differ only in case; give each player a different name"
    )
    with pytest.raises(GameError, match=r"^two players are called 'Ben'; give"):
        Game(players=["Ben", "Ana", "Ben"])


def test_the_default_player_who_runs_out_of_time_reads_you_lose(clock):
    g = Game(seed=1, clock=clock)
    g.call()
    clock.advance(6)
    assert g.expire() == [0]
    assert g.history[-1]["message"] == "You lose a point: no SET shown within 5 seconds."


def test_a_competition_move_that_fails_after_sending_cards_back_leaves_the_shuffle_as_it_was(monkeypatch):
    from setwidgets import first_set

    game = Game(variant="competition", seed=1008, clock=lambda: 0.0)
    while not (len(game.table) == 15 and first_set(game.table) is None):
        found = first_set(game.table)
        if found is None:
            game.no_set()
        else:
            game.claim(found)
    before = (game.to_json(), game._state.rng.getstate())

    def broken():
        raise RuntimeError("the table could not be settled")

    monkeypatch.setattr(game, "_settle", broken)
    with pytest.raises(RuntimeError):
        game.no_set()  # six cards go back and the deck is reshuffled, then the move fails
    assert (game.to_json(), game._state.rng.getstate()) == before
    monkeypatch.undo()
    assert game.no_set().returned  # and the move, made again, draws the same as it would have


# -- every state a game reaches loads from its own save (issue 25) ------------------------------

STEPS = st.tuples(
    st.sampled_from(["claim", "wrong claim", "call", "no set", "hint", "expire", "expire ahead", "wait"]),
    st.integers(0, 2),
    st.sampled_from([0.0, 1e-9, 0.1, 0.3, 2.0, 4.99, 5.0, 7.0, 123.456]),
)


def play_step(game: Game, clock: Clock, step: tuple[str, int, float]) -> None:
    """One move of a random game; a move the rules refuse must leave the game as it was."""
    action, who, seconds = step
    who %= len(game.players)
    clock.advance(seconds)
    before = game.to_json()
    holder = game.caller if game.caller is not None else who
    sets = game.sets_on_table()
    try:
        if action == "claim" and sets:
            game.claim(sets[who % len(sets)], player=holder)
        elif action == "wrong claim" and len(game.table) >= 3:
            game.claim(not_a_set(game), player=holder)
        elif action == "call":
            game.call(who)
        elif action == "no set":
            game.no_set()
        elif action == "hint":
            game.hint()
        elif action == "expire":
            game.expire()
        elif action == "expire ahead":
            game.expire(now=clock.t + seconds)
    except (GameError, StopIteration):
        assert game.to_json() == before


def same_game(loaded: Game, game: Game) -> None:
    """What anyone may see of the two games is the same, the seconds left to the caller included."""
    assert (loaded.table, loaded.deck, loaded.players) == (game.table, game.deck, game.players)
    assert (loaded.callers, loaded.over, loaded.lost, loaded.history) == (
        game.callers,
        game.over,
        game.lost,
        game.history,
    )
    left, before = loaded.time_left(), game.time_left()
    assert (left is None) == (before is None)
    assert left is None or left == pytest.approx(before, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.sampled_from(["full", "mini"]),
    st.integers(0, 10**6),
    st.lists(STEPS, max_size=80),
    st.lists(st.floats(0, 1e6), min_size=1, max_size=5),
)
def test_every_state_a_game_reaches_loads_from_its_save_and_plays_on_alike(
    variant, deck, seed, steps, clocks
):
    """Saved and loaded after every move, on a new clock each time: the loaded game plays on."""
    players = 1 if variant == "solitaire" else 3
    clock = Clock(clocks[0])
    game = Game(deck=deck, players=players, variant=variant, seed=seed, clock=clock)
    for number, step in enumerate(steps):
        play_step(game, clock, step)
        new_clock = Clock(clocks[number % len(clocks)])
        loaded = Game.from_json(game.to_json(), clock=new_clock)
        same_game(loaded, game)
        assert Game.from_json(loaded.to_json(), clock=new_clock).to_json() == loaded.to_json()
        game, clock = loaded, new_clock


MOVES = ["claim", "wrong claim", "call", "no set", "hint", "expire", "expire ahead", "wait"]


def test_random_games_of_every_variant_load_from_their_save_after_every_move():
    """A seeded random walk, long enough to reach the end of many games of every variant."""
    rng = random.Random(25)
    ended = collections.Counter()
    for number in range(16):
        variant = VARIANTS[number % len(VARIANTS)]
        clock = Clock(rng.uniform(0, 1000))
        game = Game(
            deck=rng.choice(["full", "mini"]),
            players=1 if variant == "solitaire" else rng.randint(2, 4),
            variant=variant,
            seed=number,
            clock=clock,
        )
        while not game.over:
            step = (
                rng.choice(
                    ["claim", "claim", "wrong claim", "call", "no set", "no set", "hint", "expire ahead"]
                ),
                rng.randrange(4),
                rng.choice([0.0, 1e-9, 0.1, 0.3, 2.0, 4.99, 5.0, 7.0]),
            )
            play_step(game, clock, step)
            clock = Clock(rng.uniform(0, 1e6))
            loaded = Game.from_json(game.to_json(), clock=clock)
            same_game(loaded, game)
            game = loaded
        ended[variant, game.lost] += 1
    assert {variant for variant, _ in ended} == set(VARIANTS)


def test_a_time_given_ahead_of_the_clock_moves_the_games_time_on():
    clock = Clock(0.0)
    g = new_game(players=["Ana", "Ben"], clock=clock)
    g.call("Ana")
    g.call("Ben")
    assert g.expire(now=7.0) == [0]  # Ana's time ran out at 5; Ben's runs from 5 to 10
    # The clock still says 0, but the game counts from 7: Ben has 3 seconds left, not 10.
    assert g.time_left() == 3.0
    g.hint()
    assert g.history[-1]["time"] == 7.0
    assert Game.from_json(g.to_json(), clock=Clock(50.0)).time_left() == 3.0


def test_a_clock_that_steps_back_does_not_take_the_game_back():
    clock = Clock(10.0)
    g = new_game(players=["Ana", "Ben"], clock=clock)
    g.call("Ana")
    clock.t = 8.0
    g.call("Ben")
    assert g.time_left() == 5.0 and g.history[-1]["time"] == 10.0
    assert Game.from_json(g.to_json(), clock=Clock()).callers == [0, 1]


@pytest.mark.parametrize("huge", [10**400, -(10**400)])
def test_a_time_too_large_for_a_float_is_refused_in_words(huge):
    g = new_game(players=["Ana", "Ben"])
    g.call("Ana")
    before = g.to_json()
    for ask in (g.expire, g.time_left):
        with pytest.raises(GameError, match="^now must be a finite time in seconds; got 1000000"):
            ask(now=abs(huge))
    with pytest.raises(GameError, match="now must be a finite time in seconds"):
        g.expire(now=huge)
    assert g.to_json() == before
    with pytest.raises(GameError, match="^the game's clock must return a finite time in seconds"):
        Game.from_json(before, clock=lambda: huge)


# -- a player who joins late ------------------------------------------------------------------


def test_a_late_player_joins_with_nothing_and_plays_on():
    g = Game(players=["Ana"], seed=3, clock=Clock())
    g.claim(g.sets_on_table()[0], player="Ana")
    heard = []
    g.on_change(heard.append)
    assert g.join("Ben") == 1
    assert [(p.name, p.score) for p in g.players] == [("Ana", 1), ("Ben", 0)]
    assert heard[-1]["type"] == "join" and heard[-1]["name"] == "Ben"
    claim = g.claim(g.sets_on_table()[0], player="ben")
    assert claim.ok and g.scores == {"Ana": 1, "Ben": 1}
    again = Game.from_json(g.to_json(), clock=Clock())
    assert again.to_json() == g.to_json() and again.seat("Ben") == 1


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("ana", GameError, "two players are called 'Ana' and 'ana', which differ only in case"),
        ("   ", GameError, "a player's name is a non-empty string"),
        ("x" * 41, GameError, "a player's name has at most 40 characters"),
        (7, TypeError, "a player's name is a string like 'Ana'; got 7 (a number)"),
    ],
)
def test_a_join_that_the_names_refuse_changes_nothing(name, error, message):
    g = Game(players=["Ana"], seed=3, clock=Clock())
    before = g.to_json()
    with pytest.raises(error, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        g.join(name)
    assert g.to_json() == before


def test_nobody_joins_a_solitaire_game_a_game_that_is_over_or_a_full_table():
    solo = Game(variant="solitaire", seed=1, clock=Clock())
    with pytest.raises(GameError, match=r"^solitaire is a game for 1 player; got 2 players \(You, Ben\)$"):
        solo.join("Ben")
    full = Game(players=100, seed=1, clock=Clock())
    with pytest.raises(GameError, match="^a game needs from 1 to 100 players; got more: 101: 'Player 1', "):
        full.join("One too many")
    small = Game(deck=["1RSO", "2RSO", "3RSO"], seed=1, clock=Clock())
    small.claim(small.table)
    assert small.over
    with pytest.raises(GameError, match="^the game is over, so nobody can join"):
        small.join("Ben")
    assert [p.name for p in small.players] == ["You"]


def _joined_save():
    g = Game(players=["Ana"], seed=3, clock=Clock())
    g.join("Ben")
    g.call("Ben")
    return json.loads(g.to_json())


def test_a_save_whose_history_does_not_seat_its_players_is_refused():
    data = _joined_save()
    without = copy.deepcopy(data)
    without["history"] = [e for e in without["history"] if e["type"] != "join" and e.get("player") != 1]
    without["callers"], without["turn_start"] = [], None
    del without["saved_at"]  # a save holds the time only while someone is in line
    with pytest.raises(GameError, match="never seats"):
        Game.from_json(json.dumps(without))
    early = copy.deepcopy(data)
    history = early["history"]
    join = next(k for k, e in enumerate(history) if e["type"] == "join")
    history[join], history[join + 1] = history[join + 1], history[join]
    with pytest.raises(GameError, match="play before joining"):
        Game.from_json(json.dumps(early))
    other = copy.deepcopy(data)
    next(e for e in other["history"] if e["type"] == "join")["name"] = "Cy"
    with pytest.raises(GameError, match="who is not the next of the save's players"):
        Game.from_json(json.dumps(other))
