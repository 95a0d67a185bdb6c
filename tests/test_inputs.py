"""What a student types: TypeError for the wrong kind, ValueError for a wrong value, input quoted in short."""

import contextlib
import fractions
import io
import itertools
import random

import numpy as np
import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import (
    FEATURES,
    Card,
    _card_inputs,
    _inputs,
    as_card,
    as_cards,
    count_sets,
    explain,
    find_sets,
    full_deck,
    has_set,
    is_set,
    mini_deck,
    third_card,
)
from setwidgets.checks import check_count_sets, check_is_set, check_odd_one_out, check_third_card
from setwidgets.draw.themes import get_theme

DECK = full_deck()


# -- short quotes ----------------------------------------------------------------------------------


def test_short_quotes_the_first_items_and_counts_the_rest():
    assert _inputs.short([None] * 10**5) == "[None, None, None, None, ...] (100000 items)"
    assert _inputs.short(list(range(4))) == "[0, 1, 2, 3]"
    assert _inputs.short("x" * 1000).endswith("' (1000 characters)") and len(_inputs.short("x" * 1000)) < 90
    assert _inputs.short("1RSO") == "'1RSO'"
    assert _inputs.short(b"\x00" * 500).endswith("(500 characters)")
    nested = _inputs.short([[list(range(100))] * 100] * 100)
    assert nested.startswith("[[[...], [...], [...], [...], ...], [[...], [...], [...], [...], ...], ")
    assert nested.endswith("... (100 items)") and len(nested) < 120
    assert len(_inputs.short([("x" * 50,) * 4] * 4)) <= 100 + len(" (4 items)")


def test_short_names_an_object_whose_repr_fails():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    assert _inputs.short(Broken()).startswith("<Broken instance at ")
    assert _inputs.what(Broken()).endswith("> (a Broken)")


def test_what_says_what_kind_of_thing_it_got():
    assert _inputs.what(None) == "None (nothing)"
    assert _inputs.what(True) == "True (True or False)"
    assert _inputs.what(np.int64(2)) == "np.int64(2) (a number)"
    assert _inputs.what(bytearray(b"1RSO")) == "bytearray(b'1RSO') (bytes, not text)"
    assert _inputs.what({"a": 1}) == "{'a': 1} (a dict)"
    assert _inputs.what(DECK[0]) == "Card(1, 'red', 'oval', 'solid') (a Card)"
    assert _inputs.what(iter(())).endswith(" (a tuple_iterator)")


def test_hints_for_whole_floats_and_bytes():
    assert _inputs.whole_hint(2.0) == ": write 2, without the '.0'"
    assert _inputs.whole_hint(np.float32(-3.0)) == ": write -3, without the '.0'"
    for value in (2.5, float("inf"), float("nan"), 2, True, "2.0", None):
        assert _inputs.whole_hint(value) == ""
    assert _inputs.bytes_hint(b"1RSO") == ": write '1RSO', without the b"
    assert _inputs.bytes_hint(b"\xff") == ": give text, not bytes"
    assert _inputs.bytes_hint(b"x" * 100) == f": write {_inputs.short('x' * 100)}, without the b"
    assert _inputs.bytes_hint(b"x" * 101) == ": give text, not bytes"
    assert _inputs.bytes_hint("é".encode()) == ": write 'é', without the b"
    assert _inputs.bytes_hint(b"\x00\x00") == ": give text, not bytes"
    assert _inputs.bytes_hint("1RSO") == ""


@pytest.mark.parametrize("value", [2, np.int64(2), np.uint8(2), np.int32(-5)])
def test_whole_number_takes_any_integral_and_gives_a_plain_int(value):
    number = _inputs.whole_number(value, "players")
    assert number == int(value) and type(number) is int


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2.0, "players must be a whole number like 12; got 2.0 (a number): write 2, without the '.0'"),
        (True, "players must be a whole number like 12; got True (True or False)"),
        ("2", "players must be a whole number like 12; got '2' (a string)"),
    ],
)
def test_whole_number_refuses_the_wrong_kind(value, message):
    with pytest.raises(TypeError) as info:
        _inputs.whole_number(value, "players")
    assert str(info.value) == message


def test_whole_number_checks_the_minimum_with_the_callers_error():
    class GameError(ValueError):
        pass

    assert _inputs.whole_number(np.int8(3), "players", minimum=3) == 3
    with pytest.raises(GameError, match="^players must be at least 1; got 0$"):
        _inputs.whole_number(0, "players", minimum=1, error=GameError)
    with pytest.raises(ValueError) as info:
        _inputs.whole_number(-(10**1000), "players", minimum=1)
    assert len(str(info.value)) < 120
    with pytest.raises(TypeError, match="like 81; got 2.5 \\(a number\\)$"):
        _inputs.whole_number(2.5, "cards", example="81")
    assert _inputs.whole_hint(fractions.Fraction(10**400)) == ""  # beyond the floats: no hint, no crash


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), (1, 1), (np.int64(30), 30), (0.5, 0.5), (np.float32(2.5), 2.5)],
    ids=["none", "one", "numpy", "half", "float32"],
)
def test_seconds_are_numbers_above_zero(value, expected):
    got = _inputs.seconds(value, "claim_seconds")
    assert got == expected and (got is None or type(got) in (int, float))


@pytest.mark.parametrize(
    ("value", "allow_none", "error", "message"),
    [
        (None, False, TypeError, "claim_seconds must be a number of seconds; got None (nothing)"),
        (
            "5",
            True,
            TypeError,
            "claim_seconds must be a number of seconds or None for no limit; got '5' (a string)",
        ),
        (True, True, TypeError, "claim_seconds must be a number of seconds or None for no limit; got True"),
        (
            0,
            True,
            ValueError,
            "claim_seconds must be a finite number of seconds above 0 or None for no limit; got 0",
        ),
        (-0.5, False, ValueError, "claim_seconds must be a finite number of seconds above 0; got -0.5"),
        (float("nan"), True, ValueError, "above 0 or None for no limit; got nan"),
        (float("inf"), True, ValueError, "above 0 or None for no limit; got inf"),
        (fractions.Fraction(10**400), True, ValueError, "above 0 or None for no limit; got Fraction("),
        (-(10**400), True, ValueError, "above 0 or None for no limit; got -1000000000"),
        (
            10**400,
            True,
            ValueError,
            "a finite number of seconds above 0 or None for no limit; got 1000000000",
        ),
    ],
    ids=["none", "text", "bool", "zero", "negative", "nan", "inf", "huge-fraction", "huge-negative", "huge"],
)
def test_seconds_explain_a_wrong_time(value, allow_none, error, message):
    with pytest.raises(error) as info:
        _inputs.seconds(value, "claim_seconds", allow_none=allow_none)
    assert message in str(info.value) and len(str(info.value)) < 200


def test_seconds_raise_the_callers_error():
    class GameError(ValueError):
        pass

    with pytest.raises(GameError):
        _inputs.seconds(-1, "claim_seconds", error=GameError)


def test_rng_and_seed_repeat_a_run_and_never_touch_the_global_generator():
    state = random.getstate()
    rng, seed = _inputs.rng_and_seed(np.int64(7))
    assert seed == 7 and type(seed) is int and rng.random() == random.Random(7).random()
    mine = random.Random(3)
    assert _inputs.rng_and_seed(mine) == (mine, None)
    fresh, drawn = _inputs.rng_and_seed(None)
    assert type(drawn) is int and 0 <= drawn < 2**32
    assert fresh.random() == random.Random(drawn).random()
    assert random.getstate() == state
    for wrong, what in [(2.0, "2.0 (a number)"), (True, "True (True or False)"), ("7", "'7' (a string)")]:
        with pytest.raises(TypeError) as info:
            _inputs.rng_and_seed(wrong)
        assert str(info.value) == f"seed must be a whole number, a random.Random or None; got {what}"
    with pytest.raises(TypeError, match="^deal_seed must be a whole number"):
        _inputs.rng_and_seed(b"7", "deal_seed")


def test_player_index_by_number_or_name():
    names = ["Ana", "Ben", "Cleo"]
    assert [_inputs.player_index(p, names) for p in (0, np.int64(2), "Ben", " ben ", "CLEO")] == [
        0,
        2,
        1,
        1,
        2,
    ]
    # Two names that differ only in case: a name in other case is not enough to tell them apart.
    with pytest.raises(
        ValueError, match="^there is no player called 'ana'; the players are 0 \\(Ana\\), 1 \\(ANA\\)$"
    ):
        _inputs.player_index("ana", ["Ana", "ANA"])
    with pytest.raises(
        ValueError, match="^there is no player 3; the players are 0 \\(Ana\\), 1 \\(Ben\\), 2 \\(Cleo\\)$"
    ):
        _inputs.player_index(3, names)
    with pytest.raises(ValueError, match="^there is no player -1;"):
        _inputs.player_index(-1, names)
    with pytest.raises(TypeError, match="^a player is given by number or name; got 1.0 \\(a number\\)"):
        _inputs.player_index(1.0, names)
    with pytest.raises(TypeError, match="got True \\(True or False\\)"):
        _inputs.player_index(True, names)


# -- cards -----------------------------------------------------------------------------------------


def test_split_codes_takes_text_only():
    assert _inputs.split_codes(" 1RSO,2GTS ;; 3POD\n") == ["1RSO", "2GTS", "3POD"]
    assert _inputs.split_codes("") == []
    with pytest.raises(TypeError) as info:
        _inputs.split_codes(b"1RSO")
    assert str(info.value) == (
        "card codes are text like '1RSO 2GTS 3POD'; "
        "got b'1RSO' (bytes, not text): write '1RSO', without the b"
    )
    with pytest.raises(TypeError, match="^card codes are text like '1RSO 2GTS 3POD'; got 5 \\(a number\\)$"):
        _inputs.split_codes(5)


def test_listed_shows_cards_by_code_and_the_rest_in_short():
    assert _card_inputs.listed(()) == "none"
    assert _card_inputs.listed((DECK[0], "2RSO")) == "2: 1RSO, '2RSO'"
    assert _card_inputs.listed(tuple(range(7))) == "7: 0, 1, 2, 3, 4 and 2 more"
    assert _card_inputs.listed(tuple(range(5))) == "5: 0, 1, 2, 3, 4"
    # Items are listed while the ones before them take at most 50 characters ('x' * 23 is 25 with quotes).
    assert _card_inputs.listed(("x" * 23, "y" * 23, "z")) == f"3: '{'x' * 23}', '{'y' * 23}', 'z'"
    assert _card_inputs.listed(("x" * 24, "y" * 24, "z")) == f"3: '{'x' * 24}', '{'y' * 24}' and 1 more"
    long = _card_inputs.listed(("x" * 200,) * 5)
    assert long == f"5: {_inputs.short('x' * 200)} and 4 more"


def test_exactly_gathers_cards_however_they_come():
    a, b = DECK[0], DECK[40]
    for cards in [
        (a, b),
        ([a, b],),
        ((a, b),),
        ("1RSO 2GTS",),
        (iter([a, b]),),
        (np.array(["1RSO", "2GTS"]),),
    ]:
        got = _card_inputs.exactly("f", cards, 2)
        assert len(got) == 2 and all(isinstance(card, Card) for card in got)
    assert _card_inputs.exactly("f", (a, b), 2) == (a, b)


def test_a_single_card_given_as_the_list_is_one_card_not_its_features():
    with pytest.raises(TypeError, match=r"needs exactly three cards, .*; got 1: 1RSO$"):
        is_set(DECK[0])


def test_bad_input_changes_no_state_of_the_widgets():
    pytest.importorskip("ipywidgets")
    from setwidgets.widgets import CardPicker, MagicRuleChecker, ThirdCardExplorer

    explorer, checker, picker = ThirdCardExplorer("1RSO", "2GTS"), MagicRuleChecker(), CardPicker("3POD")
    before = (explorer.cards, explorer.text, checker.cards, checker.text, picker.card)
    for bad in ("1RSO 2RSO 9XYZ", b"1RSO 2RSO 3RSO", [None] * 3, ["1RSO"], "1RSO 2RSO 3RSO 1GSO"):
        for call in (explorer.set_cards, checker.set_cards):
            with pytest.raises((TypeError, ValueError)):
                call(bad)
    for bad in ("4RSO", b"1RSO", None, (1, 0, 0, 1)):
        with pytest.raises((TypeError, ValueError)):
            picker.card = bad
    assert (explorer.cards, explorer.text, checker.cards, checker.text, picker.card) == before


def test_the_widgets_take_their_cards_as_one_list_or_string_too():
    pytest.importorskip("ipywidgets")
    from setwidgets.widgets import CardPicker, MagicRuleChecker, ThirdCardExplorer

    pair = [Card.parse("1RSO"), Card.parse("2GTS")]
    assert ThirdCardExplorer("1RSO 2GTS").cards == ThirdCardExplorer(["1RSO", "2GTS"]).cards == pair
    assert ThirdCardExplorer("1RSO").cards == pair, "one card: the second is the default"
    with pytest.raises(TypeError, match=r"^ThirdCardExplorer\(\) needs exactly two cards, .*; got 3: "):
        ThirdCardExplorer("1RSO 2GTS 3POD")
    with pytest.raises(ValueError) as info:
        MagicRuleChecker(["1RSO"])
    assert str(info.value) == (
        "MagicRuleChecker needs three cards, as one list or a string of codes like "
        "MagicRuleChecker('1RSO 2GTS 3POD'); got 1: 1RSO"
    )
    with pytest.raises(
        TypeError, match=r"^description is the text beside the dropdowns, .*; got 1 \(a number\)$"
    ):
        CardPicker("1RSO", description=1)


def test_themes_are_named_by_text():
    with pytest.raises(
        TypeError, match=r"^theme must be one of 'classic', .* or a Theme; got 3 \(a number\)$"
    ):
        get_theme(3)
    with pytest.raises(ValueError) as info:
        get_theme("neon" * 1000)
    assert len(str(info.value)) < 200


# -- the checks ------------------------------------------------------------------------------------


@pytest.mark.parametrize("check", [check_is_set, check_odd_one_out, check_third_card, check_count_sets])
def test_the_checks_refuse_a_bad_time_limit_before_running(check, capsys):
    def untouched(*cards):
        raise AssertionError("the student's function must not be called")

    for seconds, error in [("10", TypeError), (True, TypeError), (0, ValueError), (-1, ValueError)]:
        with pytest.raises(error, match="^seconds= must be "):
            check(untouched, seconds=seconds)
    with pytest.raises(ValueError, match="finite"):
        check(untouched, seconds=float("inf"))
    with pytest.raises(TypeError) as info:
        check([None] * 10**5)
    assert len(str(info.value)) < 200 and "(100000 items) (a list)" in str(info.value)
    assert capsys.readouterr().out == ""


def test_a_very_long_time_limit_is_no_limit_at_all(capsys):
    assert check_third_card(third_card, seconds=10**100)
    assert check_is_set(is_set, seconds=np.int64(60))


def test_count_sets_may_answer_with_a_numpy_integer_but_not_with_true(capsys):
    def numpy_count(cards):
        present = set(cards)
        return np.int64(sum(third_card(a, b) in present for a, b in itertools.combinations(cards, 2)) // 3)

    assert check_count_sets(numpy_count)
    capsys.readouterr()
    assert not check_count_sets(lambda cards: numpy_count(cards) == 1 or int(numpy_count(cards)))
    assert (
        # numpy's True read as the grader reads it (a plain True), and refused as the grader does.
        "returned True, but count_sets should return a whole number; there is 1 SET."
        in capsys.readouterr().out
    )


# -- garbage in, a clear TypeError or ValueError out -----------------------------------------------

GARBAGE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.complex_numbers(),
        st.text(max_size=12),
        st.binary(max_size=12),
        st.sampled_from(DECK),
        st.sampled_from(["1RSO", "2GTS", "3POD", "1rso", "1RSO 2GTS", "red", "oval", "two", ""]),
        st.builds(object),
        st.builds(np.int64, st.integers(-5, 5)),
        st.builds(np.float64, st.floats()),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.tuples(inner, inner, inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers(), max_size=4),
    ),
    max_leaves=12,
)


def _broken(*cards):
    return 1 / 0  # fails at its first case, so a check with a good time limit ends at once


# Each call with garbage in place of x, and (beside it) one good x that it accepts.
CALLS = {
    "is_set": (lambda x: is_set(x), "1RSO 2GTS 3POD"),
    "is_set(x, a, x)": (lambda x: is_set(x, "1RSO", x), "2GTS"),
    "explain": (lambda x: explain("1RSO", x, "2GTS"), "3POD"),
    "third_card": (lambda x: third_card(x), "1RSO 2GTS"),
    "third_card(a, x)": (lambda x: third_card("1RSO", x), "2GTS"),
    "find_sets": (lambda x: find_sets(x), "1RSO 2GTS 3POD"),
    "find_sets(a, x)": (lambda x: find_sets("1RSO", x), "2GTS"),
    "has_set": (lambda x: has_set(x), ["1RSO", DECK[5]]),
    "count_sets": (lambda x: count_sets(x), DECK),
    "Card(x, x)": (lambda x: Card(x, x), None),  # never a card: two features are missing
    "Card(x, ...)": (lambda x: Card(x, "red", "oval", "solid"), np.int64(2)),
    "Card(..., x)": (lambda x: Card(1, "red", "oval", x), "SOLID"),
    "Card(*x)": (
        lambda x: Card(*x) if isinstance(x, (list, tuple)) else Card(x),
        (2, "red", "ovals", "open"),
    ),
    "Card(**x)": (
        lambda x: Card(**x) if isinstance(x, dict) else Card(color=x),
        dict(zip(FEATURES, (3, "green", "oval", "open"))),
    ),
    "Card.parse": (lambda x: Card.parse(x), " 2rto "),
    "Card.from_vector": (lambda x: Card.from_vector(x), np.array([1, 0, 0, 1])),
    "mini_deck(x)": (lambda x: mini_deck(x), "two"),
    "mini_deck(number=x)": (lambda x: mini_deck(number=x), np.int64(2)),
    "mini_deck(**x)": (lambda x: mini_deck(**x) if isinstance(x, dict) else mini_deck(shading=x), {}),
    "as_card": (lambda x: as_card(x), DECK[3]),
    "as_cards": (lambda x: as_cards(x), "1RSO, 2RSO"),
    "check_is_set(x)": (lambda x: check_is_set(x), _broken),
    "check_third_card(seconds=x)": (lambda x: check_third_card(_broken, seconds=x), 0.5),
}


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(name=st.sampled_from(sorted(CALLS)), garbage=GARBAGE)
def test_garbage_gets_a_type_error_or_a_value_error_with_a_short_message(name, garbage):
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the checks print their verdicts
            CALLS[name][0](garbage)
    except (TypeError, ValueError) as error:
        text = str(error)
        # Card() names each wrong feature in a clause of its own; every clause quotes its input in short.
        assert text and len(text) < 800, f"{name}: {text[:900]}"
        assert max(len(clause) for clause in text.split("; ")) < 250, f"{name}: {text}"
        # Python's own messages about arguments would not help a student here.
        assert "positional argument" not in text and "unexpected keyword" not in text, f"{name}: {text}"


@pytest.mark.parametrize("name", sorted(name for name, (_, good) in CALLS.items() if good is not None))
def test_each_call_under_test_accepts_good_input(name, capsys):
    """The garbage test means something only if each call works when it gets what it should."""
    call, good = CALLS[name]
    call(good)


def test_an_endless_or_huge_iterable_is_not_read_to_the_end():
    with pytest.raises(TypeError):
        is_set(itertools.count())
    with pytest.raises(ValueError):
        Card.from_vector(itertools.count())
    with pytest.raises(ValueError):
        find_sets(itertools.cycle(["1RSO", "2GTS"]))
