"""Cards: values, codes, vectors, names, decks, and what a wrong card says."""

import copy
import dataclasses
import fractions
import inspect
import itertools
import pickle
import pydoc

import numpy as np
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import setwidgets
from setwidgets import _inputs, cards
from setwidgets.cards import CODE_LETTERS, FEATURES, VALUES, Card, as_card, as_cards, full_deck, mini_deck

DECK = full_deck()


def test_features_values_and_code_letters_describe_81_cards():
    assert FEATURES == ("number", "color", "shape", "shading")
    assert set(VALUES) == set(FEATURES) == set(CODE_LETTERS)
    for feature in FEATURES:
        assert len(VALUES[feature]) == 3
        assert len(set(CODE_LETTERS[feature])) == 3


def test_card_keeps_its_values():
    card = Card(number=2, color="red", shape="oval", shading="striped")
    assert (card.number, card.color, card.shape, card.shading) == (2, "red", "oval", "striped")


def test_card_accepts_any_case_spaces_and_plural_shapes():
    assert Card(3, " Purple", "DIAMONDS", "Open ") == Card(3, "purple", "diamond", "open")
    assert Card(1, "green", "squiggles", "solid").shape == "squiggle"
    assert (
        Card("2", "red", "oval", "open")
        == Card("Two", "red", "oval", "open")
        == Card(2, "red", "oval", "open")
    )


def test_a_card_with_features_missing_names_them_all_with_the_wrong_values():
    with pytest.raises(TypeError) as info:
        Card(number=4)
    assert str(info.value) == (
        "number must be one of 1, 2, 3; got 4; color, shape and shading are missing. "
        "A card needs all four features, like Card(number=2, color='red', shape='oval', shading='striped')."
    )
    with pytest.raises(TypeError, match="^shading is missing. A card needs all four features"):
        Card(1, "red", "oval")


def test_a_code_given_to_card_points_to_card_parse():
    with pytest.raises(TypeError, match="^to make a card from its code, use Card.parse\\('2RTO'\\)"):
        Card("2RTO")


def test_features_in_the_wrong_order_are_named_as_what_they_are():
    with pytest.raises(ValueError) as info:
        Card(2, "red", "striped", "oval")
    assert str(info.value) == (
        "shape must be one of 'oval', 'squiggle', 'diamond'; got 'striped', which is a card's shading; "
        "shading must be one of 'solid', 'striped', 'open'; got 'oval', which is a card's shape. "
        "Give the features in the order number, color, shape, shading, or by name"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"number": 4}, "number must be one of 1, 2, 3; got 4"),
        ({"number": 0}, "number must be one of 1, 2, 3; got 0"),
        ({"number": "4"}, "number must be one of 1, 2, 3; got '4'"),
        ({"number": np.int64(4)}, "number must be one of 1, 2, 3; got np.int64(4)"),
        ({"color": "blue"}, "color must be one of 'red', 'green', 'purple'; got 'blue'"),
        ({"color": "pink"}, "color must be one of 'red', 'green', 'purple'; got 'pink'"),
        ({"shape": "circle"}, "shape must be one of 'oval', 'squiggle', 'diamond'; got 'circle'"),
        ({"shading": "empty"}, "shading must be one of 'solid', 'striped', 'open'; got 'empty'"),
    ],
)
def test_a_wrong_value_names_the_feature_and_its_choices(kwargs, message):
    values = {"number": 1, "color": "red", "shape": "oval", "shading": "solid", **kwargs}
    with pytest.raises(ValueError) as info:
        Card(**values)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"number": True}, "number must be one of 1, 2, 3; got True (True or False)"),
        ({"number": None}, "number must be one of 1, 2, 3; got None (nothing)"),
        ({"number": 2.0}, "number must be a whole number 1, 2 or 3; got 2.0: write 2, without the '.0'"),
        (
            {"number": np.float64(3.0)},
            "number must be a whole number 1, 2 or 3; got np.float64(3.0): write 3",
        ),
        ({"number": 2.5}, "number must be one of 1, 2, 3; got 2.5 (a number)"),
        ({"number": 4.0}, "number must be one of 1, 2, 3; got 4.0 (a number)"),
        (
            {"color": 1},
            "color must be one of 'red', 'green', 'purple'; got 1 (a number), which is a card's number",
        ),
        ({"color": b"red"}, "color must be one of 'red', 'green', 'purple'; got b'red' (bytes, not text)"),
        ({"shape": ["oval"]}, "shape must be one of 'oval', 'squiggle', 'diamond'; got ['oval'] (a list)"),
        (
            {"shading": 2},
            "shading must be one of 'solid', 'striped', 'open'; got 2 (a number), which is a card's number",
        ),
    ],
)
def test_a_value_of_the_wrong_kind_is_a_type_error(kwargs, message):
    values = {"number": 1, "color": "red", "shape": "oval", "shading": "solid", **kwargs}
    with pytest.raises(TypeError) as info:
        Card(**values)
    assert str(info.value).startswith(message)


def test_a_whole_number_of_any_integral_type_is_a_number():
    two = Card(2, "red", "oval", "solid")
    for number in (np.int64(2), np.int8(2), np.uint16(2), fractions.Fraction(2).numerator):
        card = Card(number, "red", "oval", "solid")
        assert card == two and type(card.number) is int and repr(card) == repr(two)
    assert Card.from_vector(np.array([1, 0, 0, 1])) == Card.parse("2RTO")
    assert Card.from_vector((np.int64(1), np.int32(0), 0, np.uint8(4))) == Card.parse("2RTO")
    assert type(Card.from_vector(np.array([1, 0, 0, 1])).number) is int
    assert mini_deck(number=np.int64(2)) == mini_deck(number=2) == mini_deck(np.int64(2))


def test_values_spelled_as_values_spells_them_and_values_written_otherwise_make_the_same_card():
    # Card() skips its checks for values exactly as VALUES spells them (cards._exact_positions),
    # and Card.parse for codes as Card.code writes them: every one of the 81 cards, written that
    # way and written as a student might, is the same.
    for index, values in enumerate(itertools.product(*(VALUES[f] for f in FEATURES))):
        number, color, shape, shading = values
        loose = (str(number), f" {color.upper()}", _words_plural(shape), shading.title())
        code = cards.DECK[index].code  # Card.parse gives a code as Card.code writes it from DECK
        made = (Card(*values), Card(**dict(zip(FEATURES, values))), Card(*loose))
        for card in (*made, Card.parse(code), Card.parse(f" {code.lower()}")):
            assert card.index == index and card == cards.DECK[index]
            assert tuple(getattr(card, f) for f in FEATURES) == values
            assert type(card.number) is int and all(type(getattr(card, f)) is str for f in FEATURES[1:])


def _words_plural(shape: str) -> str:
    return {"oval": "ovals", "squiggle": "squiggles", "diamond": "diamonds"}[shape]


@pytest.mark.parametrize(
    ("feature", "spelling"),
    [
        ("color", "r\u0435d"),  # a Cyrillic e
        ("color", "\uff32\uff25\uff24"),  # full-width RED
        ("shading", "\u017folid"),  # a long s, which upper() and casefold() turn into s
        ("shape", "ova\u0131"),  # a dotless i where the l should be
        ("number", "\u0662"),  # an Arabic-Indic two
        ("number", "tw\u00f6"),
    ],
)
def test_only_the_documented_ascii_spellings_are_values(feature, spelling):
    values = {"number": 1, "color": "red", "shape": "oval", "shading": "solid", feature: spelling}
    with pytest.raises(ValueError) as info:
        Card(**values)
    assert str(info.value).startswith(f"{feature} must be one of ")
    assert str(info.value).endswith(f"; got {spelling!r}")


def test_five_values_get_the_cards_own_message():
    with pytest.raises(TypeError) as info:
        Card(2, "red", "oval", "striped", "x")
    assert str(info.value) == (
        "a card has four features: number, color, shape and shading; got 5 values: "
        "(2, 'red', 'oval', 'striped', ...) (5 items). "
        "Write it like Card(number=2, color='red', shape='oval', shading='striped')."
    )
    assert str(inspect.signature(Card)) == "(number, color, shape, shading)"
    assert "Card(number, color, shape, shading)" in pydoc.render_doc(Card)


def test_a_feature_given_twice_or_misspelt_is_named():
    with pytest.raises(TypeError, match=r"^Card\(\) got two values for number: 2 and 3$"):
        Card(2, "red", "oval", "solid", number=3)
    with pytest.raises(TypeError) as info:
        Card(2, "red", "oval", colour="red")
    assert str(info.value) == (
        "a card has no feature 'colour' (did you mean color?); "
        "its four features are number, color, shape and shading"
    )
    with pytest.raises(TypeError, match="^a card has no feature 'size'; its four"):
        Card(2, "red", "oval", "solid", size=3)


def test_replace_and_copies_make_the_same_card():
    card = Card(2, "red", "oval", "solid")
    assert dataclasses.replace(card, number=3) == Card(3, "red", "oval", "solid")
    assert dataclasses.replace(card, number=3).index == 27 * 2
    with pytest.raises(ValueError, match="number must be one of 1, 2, 3; got 4"):
        dataclasses.replace(card, number=4)


def test_cards_are_immutable_hashable_and_compare_by_value():
    card = Card(1, "red", "oval", "solid")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.number = 2
    assert card == Card(1, "RED", "ovals", "solid")
    assert hash(card) == hash(Card(1, "red", "oval", "solid"))
    assert len(set(DECK)) == 81
    assert card != Card(2, "red", "oval", "solid")


def test_cards_survive_pickle_and_copy():
    for card in (DECK[0], DECK[40], DECK[80]):
        for clone in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card), copy.copy(card)):
            assert clone == card
            assert clone.index == card.index


def test_code_name_vector_index_str_and_repr():
    card = Card(2, "red", "oval", "striped")
    assert card.code == "2RTO" == str(card)
    assert card.name == "two red striped ovals"
    assert card.vector == (1, 0, 0, 1)
    assert card.index == 1 * 27 + 0 * 9 + 0 * 3 + 1
    assert repr(card) == "Card(2, 'red', 'oval', 'striped')"
    assert eval(repr(card)) == card
    assert Card(1, "purple", "diamond", "open").name == "one purple open diamond"
    assert Card(3, "green", "squiggle", "solid").name == "three green solid squiggles"


def test_every_card_round_trips_through_code_vector_index_and_repr():
    for i, card in enumerate(DECK):
        assert Card.parse(card.code) == card
        assert Card.from_vector(card.vector) == card
        assert card.index == i
        assert eval(repr(card)) == card
    assert len({c.code for c in DECK}) == 81
    assert len({c.name for c in DECK}) == 81


def test_parse_ignores_case_and_surrounding_spaces():
    assert Card.parse(" 2rto ") == Card(2, "red", "oval", "striped")
    assert Card.parse("3POD") == Card(3, "purple", "diamond", "open")
    assert Card.parse("1GSS") == Card(1, "green", "squiggle", "solid")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("2RT", "a card code has 4 characters (number, color, shading, shape), like '2RTO'"),
        ("2RTOO", "got '2RTOO'"),
        ("", "a card code has 4 characters"),
        ("4RTO", "character 1 of a card code is the number, one of 1/2/3; got '4' in '4RTO'"),
        ("2BTO", "character 2 of a card code is the color, one of R/G/P; got 'B' in '2BTO'"),
        ("2RXO", "character 3 of a card code is the shading, one of S/T/O; got 'X' in '2RXO'"),
        ("2RTC", "character 4 of a card code is the shape, one of O/S/D; got 'C' in '2RTC'"),
        # Only the documented ASCII letters: 'ß'.upper() is 'SS' and 'ﬆ'.upper() is 'ST'.
        ("1Rß", "a card code has 4 characters (number, color, shading, shape), like '2RTO'"),
        ("1Rﬆ", "a card code has 4 characters (number, color, shading, shape), like '2RTO'"),
        ("1RßO", "character 3 of a card code is the shading, one of S/T/O; got 'ß' in '1RßO'"),
        ("1RſO", "character 3 of a card code is the shading, one of S/T/O; got 'ſ' in '1RſO'"),
        ("1ＲSO", "character 2 of a card code is the color, one of R/G/P; got 'Ｒ' in '1ＲSO'"),
        ("١RSO", "character 1 of a card code is the number, one of 1/2/3; got '١' in '١RSO'"),
    ],
)
def test_parse_explains_a_wrong_code(code, message):
    with pytest.raises(ValueError) as info:
        Card.parse(code)
    assert message in str(info.value)


@pytest.mark.parametrize("code", [2, None, ("2", "R", "T", "O"), b"2RTO"])
def test_parse_needs_a_string(code):
    with pytest.raises(TypeError, match="a card code is a string like '2RTO'"):
        Card.parse(code)


def test_parse_says_that_bytes_are_not_text():
    with pytest.raises(TypeError) as info:
        Card.parse(b"1RSO")
    assert str(info.value) == (
        "a card code is a string like '2RTO'; got b'1RSO' (bytes, not text): write '1RSO', without the b"
    )


def test_a_long_code_is_quoted_in_short():
    with pytest.raises(ValueError) as info:
        Card.parse("1RSO" * 10_000)
    assert len(str(info.value)) < 300 and "(40000 characters)" in str(info.value)


@settings(max_examples=examples(300))
@given(st.text(max_size=8))
def test_parse_returns_a_card_or_explains_any_text(text):
    try:
        card = Card.parse(text)
    except ValueError as error:
        assert str(error).startswith(("a card code has 4 characters", "character ")), str(error)
        assert len(str(error)) < 300
    else:
        assert card.code == text.strip().upper()
        assert text.strip().isascii()


@given(st.text(alphabet="123RGPSTODrgpstod \t", min_size=4, max_size=6))
def test_parse_of_code_letters_agrees_with_the_letter_tables(text):
    letters = text.strip().upper()
    valid = len(letters) == 4 and all(
        letter in CODE_LETTERS[feature]
        for feature, letter in zip(("number", "color", "shading", "shape"), letters)
    )
    if valid:
        assert Card.parse(text).code == letters
    else:
        with pytest.raises(ValueError):
            Card.parse(text)


def test_from_vector_reads_each_number_mod_3():
    assert Card.from_vector((0, 0, 0, 3)) == Card.from_vector([0, 0, 0, 0]) == Card(1, "red", "oval", "solid")
    assert Card.from_vector((-1, 2, 5, 1)) == Card(3, "purple", "diamond", "striped")
    assert Card.from_vector(iter([2, 2, 2, 2])) == Card.parse("3POD")
    assert Card.from_vector((10**30, 0, 0, 0)) == Card.from_vector((1, 0, 0, 0))


@pytest.mark.parametrize(
    ("vector", "error", "message"),
    [
        (5, TypeError, "a card vector is four whole numbers like (1, 0, 0, 1); got 5 (a number)"),
        ("1001", TypeError, "a card vector is four whole numbers like (1, 0, 0, 1); got '1001' (a string)"),
        (
            b"1001",
            TypeError,
            "a card vector is four whole numbers like (1, 0, 0, 1); got b'1001' (bytes, not text)",
        ),
        ({0, 1, 2, 3}, TypeError, "got {0, 1, 2, 3} (a set)"),
        (
            (1, 0, 0),
            ValueError,
            "a card vector is four whole numbers (number, color, shape, shading), "
            "like (1, 0, 0, 1); got 3 items",
        ),
        ((), ValueError, "like (1, 0, 0, 1); got 0 items"),
        (
            lambda: iter([1, 0, 0]),
            ValueError,
            "like (1, 0, 0, 1); got 3 items from <list_iterator object at ",
        ),
        (lambda: iter([]), ValueError, "like (1, 0, 0, 1); got 0 items from <list_iterator object at "),
        (
            lambda: iter(range(5)),
            ValueError,
            "like (1, 0, 0, 1); got more than 4 items from <range_iterator object",
        ),
        ((1, 0, 0, 1, 2), ValueError, "like (1, 0, 0, 1); got 5 items"),
        ([1] * 10**6, ValueError, "like (1, 0, 0, 1); got 1000000 items"),
        (lambda: itertools.repeat(7), ValueError, "; got more than 4 items from repeat(7)"),
        (
            (1, 0, 0, 1.0),
            TypeError,
            "item 4 of a card vector (shading) must be a whole number like 1; "
            "got 1.0 (a number): write 1, without the '.0'",
        ),
        (
            (1, 0, 0.5, 1),
            TypeError,
            "item 3 of a card vector (shape) must be a whole number like 1; got 0.5 (a number)",
        ),
        (
            (1, 0, 0, True),
            TypeError,
            "item 4 of a card vector (shading) must be a whole number like 1; got True (True or False)",
        ),
        (
            (1, "0", 0, 1),
            TypeError,
            "item 2 of a card vector (color) must be a whole number like 1; got '0' (a string)",
        ),
        (np.array([[1, 0], [0, 1]]), ValueError, "like (1, 0, 0, 1); got 2 items"),
    ],
)
def test_from_vector_explains_a_wrong_vector(vector, error, message):
    # An iterator is made afresh for each run (a parameter would be used up after the first).
    if callable(vector):
        vector = vector()
    with pytest.raises(error) as info:
        Card.from_vector(vector)
    assert message in str(info.value)


def test_from_vector_reads_no_more_than_five_items():
    # A student may pass any iterator; five items are enough to refuse it, and it is read no further.
    read = []

    def numbers():
        for n in range(10):
            read.append(n)
            yield n
        raise AssertionError("from_vector() read the whole iterator")  # pragma: no cover

    with pytest.raises(ValueError, match="got more than 4 items from <generator object"):
        Card.from_vector(numbers())
    assert read == [0, 1, 2, 3, 4]


def test_a_card_shows_itself_as_its_svg_picture_in_jupyter():
    from setwidgets.draw.svg import card_svg

    card = Card.parse("2RTO")
    svg = card._repr_svg_()
    assert svg == card_svg(card) and svg.startswith("<svg") and "two red striped ovals" in svg
    assert Card.parse("3GSD")._repr_svg_() != svg


def test_cards_sort_in_deck_order():
    assert sorted(reversed(DECK)) == DECK
    assert DECK[0] < DECK[1] and DECK[80] > DECK[79]
    assert not DECK[5] < DECK[5] and not DECK[6] < DECK[5]
    assert Card.__lt__(DECK[0], "1RSO") is NotImplemented
    with pytest.raises(TypeError):
        sorted([DECK[0], "1RSO"])


def test_as_card_accepts_cards_and_codes():
    card = DECK[10]
    assert as_card(card) is card
    assert as_card(card.code) == card
    assert as_card(card.code.lower()) == card


@pytest.mark.parametrize(
    ("obj", "what"),
    [
        (5, "5 (a number)"),
        (
            (1, 0, 0, 1),
            "(1, 0, 0, 1) (a tuple); four numbers make a card with Card.from_vector((1, 0, 0, 1))",
        ),
        ([1, 2, 0, 0.0], "[1, 2, 0, 0.0] (a list)"),
        (None, "None (nothing)"),
        (["2RTO"], "['2RTO'] (a list)"),
        (b"2RTO", "b'2RTO' (bytes, not text): write '2RTO', without the b"),
        ([None] * 10**5, "[None, None, None, None, ...] (100000 items) (a list)"),
    ],
)
def test_as_card_says_what_a_card_looks_like(obj, what):
    with pytest.raises(TypeError) as info:
        as_card(obj)
    assert (
        "expected a Card (for example Card(2, 'red', 'oval', 'striped')) or a card code like '2RTO'"
        in str(info.value)
    )
    assert str(info.value).endswith(f"; got {what}")


def test_as_card_passes_on_a_wrong_code():
    with pytest.raises(ValueError, match="character 2 of a card code is the color"):
        as_card("2XTO")


def test_as_cards_accepts_any_iterable_of_cards_and_codes():
    assert as_cards(["1RSO", DECK[1]]) == [DECK[0], DECK[1]]
    assert as_cards(c.code for c in DECK[:3]) == DECK[:3]
    assert as_cards([]) == []


def test_as_cards_reads_a_string_of_codes():
    assert as_cards("1RSO 2GTS, 3POD;1RSS") == [Card.parse(c) for c in ("1RSO", "2GTS", "3POD", "1RSS")]
    assert as_cards("1RSO") == [DECK[0]] and as_cards("  ") == []


def test_none_is_a_wrong_value_not_a_missing_feature_and_the_signature_asks_for_all_four():
    with pytest.raises(TypeError, match="^number must be one of 1, 2, 3; got None \\(nothing\\)$"):
        Card(None, "red", "oval", "solid")
    assert str(inspect.signature(Card)) == "(number, color, shape, shading)"


def test_card_parse_is_suggested_only_for_a_real_code():
    with pytest.raises(
        TypeError, match="^number must be one of 1, 2, 3; got '1234'; color, shape and shading"
    ):
        Card("1234")


@pytest.mark.parametrize("objs", [DECK[0], 7, None])
def test_as_cards_needs_a_list(objs):
    with pytest.raises(TypeError) as info:
        as_cards(objs)
    assert str(info.value) == f"expected a list of cards; got {_inputs.what(objs)}"
    with pytest.raises(TypeError, match="expected a list of cards on the table"):
        as_cards(objs, "cards on the table")


def test_as_cards_rejects_a_wrong_item():
    with pytest.raises(TypeError, match="expected a Card"):
        as_cards(["1RSO", 3])


def test_as_cards_says_that_bytes_are_not_text():
    with pytest.raises(TypeError) as info:
        as_cards(b"1RSO 2RSO")
    assert str(info.value) == (
        "expected a list of cards or a string of codes like '1RSO 2GTS'; "
        "got b'1RSO 2RSO' (bytes, not text): write '1RSO 2RSO', without the b"
    )


def test_the_card_input_functions_keep_their_public_homes():
    assert cards.as_card is setwidgets.as_card
    assert cards.as_cards is setwidgets.as_cards
    assert cards.split_codes is _inputs.split_codes


def test_full_deck_has_every_combination_once_in_order():
    assert len(DECK) == 81
    assert DECK[0] == Card(1, "red", "oval", "solid")
    assert DECK[-1] == Card(3, "purple", "diamond", "open")
    combos = {(c.number, c.color, c.shape, c.shading) for c in DECK}
    assert len(combos) == 81
    assert [c.vector for c in DECK] == sorted(c.vector for c in DECK)
    assert full_deck() == DECK and full_deck() is not full_deck()


def test_mini_deck_defaults_to_the_27_red_cards():
    red = mini_deck()
    assert len(red) == 27
    assert all(c.color == "red" for c in red)
    assert red == mini_deck(color="red") == mini_deck(color="Red")
    assert red == [c for c in DECK if c.color == "red"]


def test_mini_deck_can_fix_any_features():
    solid = mini_deck(shading="solid")
    assert len(solid) == 27 and all(c.shading == "solid" for c in solid)
    twos = mini_deck(number=2)
    assert len(twos) == 27 and all(c.number == 2 for c in twos)
    nine = mini_deck(color="red", shading="solid")
    assert len(nine) == 9 and all(c.color == "red" and c.shading == "solid" for c in nine)
    assert mini_deck(number=1, color="green", shape="ovals", shading="open") == [
        Card(1, "green", "oval", "open")
    ]


def test_mini_deck_explains_wrong_arguments():
    with pytest.raises(
        TypeError, match="mini_deck\\(\\) takes features number, color, shape, shading; got colour"
    ):
        mini_deck(colour="red")
    with pytest.raises(ValueError, match="color must be one of 'red', 'green', 'purple'; got 'blue'"):
        mini_deck(color="blue")
    with pytest.raises(ValueError, match="mini_deck\\(\\) got 'blue', which is not a value of any feature"):
        mini_deck("blue")
    with pytest.raises(TypeError, match="mini_deck\\(\\) got two values for color: 'red' and 'green'"):
        mini_deck("green", color="red")
    with pytest.raises(ValueError, match="^mini_deck\\(\\) got 4, which is not a value of any feature"):
        mini_deck(4)
    with pytest.raises(ValueError, match="^number must be one of 1, 2, 3; got 4$"):
        mini_deck(number=4)  # a whole number: the right kind, a wrong value
    with pytest.raises(TypeError, match="; got colour, size$"):
        mini_deck(colour="red", size=3)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            (2.0,),
            {},
            "mini_deck() takes values of features, like mini_deck('red') or mini_deck(2); "
            "got 2.0 (a number): write 2, without the '.0'",
        ),
        ((None,), {}, "got None (nothing)"),
        ((True,), {}, "got True (True or False)"),
        ((b"red",), {}, "got b'red' (bytes, not text): write 'red', without the b"),
        ((), {"number": 2.0}, "number must be a whole number 1, 2 or 3; got 2.0: write 2, without the '.0'"),
        ((), {"number": True}, "number must be one of 1, 2, 3; got True (True or False)"),
        ((), {"color": ["red"]}, "color must be one of 'red', 'green', 'purple'; got ['red'] (a list)"),
    ],
)
def test_mini_deck_refuses_values_of_the_wrong_kind(args, kwargs, message):
    with pytest.raises(TypeError) as info:
        mini_deck(*args, **kwargs)
    assert message in str(info.value)


def test_mini_deck_takes_values_alone_and_knows_their_feature():
    assert mini_deck("red", "solid") == mini_deck(color="red", shading="solid")
    assert mini_deck(2) == mini_deck(number=2) == mini_deck(number="2")


@given(st.sampled_from(DECK), st.sampled_from(DECK))
def test_vector_and_index_agree(a, b):
    assert a.index == sum(v * 3 ** (3 - k) for k, v in enumerate(a.vector))
    assert (a == b) == (a.vector == b.vector) == (a.index == b.index) == (a.code == b.code)


def test_cards_equal_and_hash_as_their_features_say_and_codes_are_computed_once():
    deck = full_deck()
    for card in deck:
        again = Card(card.number, card.color, card.shape, card.shading)
        assert again == card and hash(again) == hash(card) and again is not card
        assert (
            again.code
            == card.code
            == "".join(
                CODE_LETTERS[f][VALUES[f].index(getattr(card, f))]
                for f in ("number", "color", "shading", "shape")
            )
        )
        assert card.vector == tuple(VALUES[f].index(getattr(card, f)) for f in FEATURES)
    assert len(set(deck)) == 81
    assert deck[0] != deck[1] and (deck[0] == "1RSO") is False


def test_full_deck_hands_out_a_new_list_of_the_same_cards():
    first, second = full_deck(), full_deck()
    assert first == second and first is not second
    first.pop()
    assert len(full_deck()) == 81
    assert all(a is b for a, b in zip(full_deck(), second))
