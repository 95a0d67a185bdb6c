"""The words of the messages: counted nouns, agreeing verbs, number words and shared sentences."""

import numpy as np
import pytest

from setwidgets import _words


@pytest.mark.parametrize(
    ("n", "noun", "text"),
    [
        (0, "card", "0 cards"),
        (1, "card", "1 card"),
        (-1, "point", "-1 point"),
        (2, "card", "2 cards"),
        (-2, "point", "-2 points"),
        (1, "penalty", "1 penalty"),
        (3, "penalty", "3 penalties"),
        (2.5, "second", "2.5 seconds"),
        (1.0, "second", "1 second"),
        (np.int64(1), "SET", "1 SET"),
        (np.int64(12), "card", "12 cards"),
        (1_000_000, "card", "1000000 cards"),
        (10**20, "point", "100000000000000000000 points"),
        (30.0, "second", "30 seconds"),
        (0.125, "second", "0.125 seconds"),
        (1 / 3, "second", "0.333 seconds"),
        (1234567.5, "second", "1234567.5 seconds"),
        (np.float64(2.0), "second", "2 seconds"),
    ],
)
def test_count_agrees_with_its_number(n, noun, text):
    assert _words.count(n, noun) == text


def test_numbers_that_are_not_finite_are_named():
    assert _words.number(float("inf")) == "inf" and _words.number(float("nan")) == "nan"
    assert _words.number(-2.50) == "-2.5" and _words.number(-0.0) == "0"
    # Shown to three decimals, a number that is nearly whole loses its point too.
    assert _words.number(2.0001) == "2" and _words.seconds(2.9999) == "3 seconds"


def test_seconds_is_a_counted_noun():
    assert _words.seconds(1) == "1 second"
    assert _words.seconds(0.5) == "0.5 seconds"
    assert _words.seconds(30) == "30 seconds"


def test_verbs_agree_with_their_number():
    assert [_words.is_are(n) for n in (0, 1, -1, 2, 1.5)] == ["are", "is", "is", "are", "are"]
    assert _words.agree(1, "was", "were") == "was" and _words.agree(4, "was", "were") == "were"
    assert _words.agree(0, "has", "have") == "have"
    assert _words.there_are(1, "SET") == "there is 1 SET"
    assert _words.there_are(3, "SET") == "there are 3 SETs"
    assert _words.there_are(0, "card") == "there are 0 cards"


def test_plurals_of_features_shapes_and_irregular_nouns():
    assert [_words.plural(f) for f in ("number", "color", "shape", "shading")] == [
        "numbers",
        "colors",
        "shapes",
        "shadings",
    ]
    assert [_words.plural(s) for s in ("oval", "squiggle", "diamond")] == ["ovals", "squiggles", "diamonds"]
    assert _words.plural("penalty") == "penalties"


def test_number_words():
    assert _words.NUMBER_WORDS == ("one", "two", "three")
    assert [_words.number_word(n) for n in (1, 2, 3)] == ["one", "two", "three"]
    assert _words.count_in_words(1, "symbol") == "one symbol"
    assert _words.count_in_words(2, "symbol") == "two symbols"
    assert _words.count_in_words(3, "symbol") == "three symbols"


def test_articles_and_lists():
    assert [_words.a_or_an(w) for w in ("apple", "egg", "ink", "oval", "umbrella")] == [
        "an apple",
        "an egg",
        "an ink",
        "an oval",
        "an umbrella",
    ]
    assert _words.a_or_an("squiggle") == "a squiggle" and _words.a_or_an("") == "a "
    assert _words.a_or_an("diamond") == "a diamond"
    assert _words.and_list(["a"]) == "a"
    assert _words.and_list(["a", "b"]) == "a and b"
    assert _words.and_list(("a", "b", "c")) == "a, b and c"
    assert _words.and_list(x for x in "abcd") == "a, b, c and d"


def test_third_value_says_agree_or_remaining():
    assert _words.third_value("number", 1, 2, 3) == (
        "the numbers 1 and 2 differ, so the third card has the remaining number, 3"
    )
    assert _words.third_value("shading", "open", "open", "open") == (
        "both cards have shading open, so the third card has shading open too"
    )


def test_a_number_written_as_one_takes_the_singular():
    assert _words.seconds(1.0001) == "1 second"
    assert _words.count(0.9999, "card") == "1 card"
    assert _words.count(-1.0, "point") == "-1 point"
    assert _words.count(1.5, "second") == "1.5 seconds"
    assert _words.agree(1.0004, "was", "were") == "was" and _words.agree(1.001, "was", "were") == "were"


def test_ordinals_are_words_up_to_ten_then_numbers():
    assert [_words.ordinal(n) for n in range(1, 12)] == [*_words.ORDINALS, "number 11"]
    assert _words.ORDINALS[1] == "second" and len(_words.ORDINALS) == 10
    assert _words.ordinal(0) == "number 0"
