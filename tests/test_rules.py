"""The rules: what a SET is, the magic-rule explanations, the third card and set finding."""

import itertools
import random

import numpy as np
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from setwidgets.cards import FEATURES, Card, full_deck, mini_deck
from setwidgets.rules import (
    FeatureVerdict,
    Verdict,
    count_sets,
    explain,
    find_sets,
    has_set,
    is_set,
    third_card,
)

DECK = full_deck()


def per_feature_is_set(a: Card, b: Card, c: Card) -> bool:
    """The definition, word for word: different cards, each feature all the same or all different."""
    if len({a, b, c}) < 3:
        return False
    return all(len({getattr(a, f), getattr(b, f), getattr(c, f)}) in (1, 3) for f in FEATURES)


def brute_force_sets(cards):
    return [t for t in itertools.combinations(cards, 3) if per_feature_is_set(*t)]


# -- is_set --------------------------------------------------------------------------


def test_is_set_accepts_three_arguments_a_list_or_codes():
    a, b, c = Card.parse("1RSO"), Card.parse("2GTS"), Card.parse("3POD")
    assert is_set(a, b, c)
    assert is_set([a, b, c])
    assert is_set(("1RSO", "2GTS", "3POD"))
    assert is_set("1RSO", "2GTS", "3POD")
    assert is_set(x for x in (a, b, c))
    assert not is_set("1RSO", "2RSO", "3PSO")


def test_the_same_card_twice_is_never_a_set():
    assert not is_set("1RSO", "1RSO", "1RSO")
    assert not is_set("1RSO", "1RSO", "2RSO")


@pytest.mark.parametrize(
    ("args", "got"),
    [
        (("1RSO", "2RSO"), "2: '1RSO', '2RSO'"),
        ((["1RSO", Card.parse("2RSO")],), "2: '1RSO', 2RSO"),
        (("1RSO", "2RSO", "3RSO", "1GSO"), "4: '1RSO', '2RSO', '3RSO', '1GSO'"),
        ((5,), "1: 5"),
        ((None,), "1: None"),
        (("1RSO 2RSO",), "2: '1RSO', '2RSO'"),
        ((), "none"),
    ],
)
def test_is_set_needs_exactly_three_cards(args, got):
    with pytest.raises(TypeError) as info:
        is_set(*args)
    assert str(info.value) == (
        f"is_set() needs exactly three cards, as is_set(a, b, c) or is_set([a, b, c]); got {got}"
    )


def test_three_cards_may_be_one_string_of_codes():
    assert is_set("1RSO 2GTS 3POD") and is_set("1RSO, 2GTS, 3POD") and is_set("1RSO; 2GTS; 3POD")
    with pytest.raises(TypeError, match="; got none$"):
        is_set("   ")
    with pytest.raises(TypeError, match="got None \\(nothing\\)$"):
        third_card("1RSO", None)
    assert str(explain("1RSO 2RSO 3PSO")) == "Not a SET: two are red and one is purple."


def test_the_card_functions_take_several_cards_or_one_list():
    cards = [Card.parse(code) for code in ("1RSO", "2RSO", "3RSO", "1GTS")]
    assert find_sets(*cards) == find_sets(cards) == find_sets("1RSO 2RSO 3RSO 1GTS")
    assert count_sets(*cards) == 1 and has_set(*cards)
    assert third_card(["1RSO", "2RSO"]) == third_card("1RSO", "2RSO") == Card.parse("3RSO")
    with pytest.raises(
        TypeError, match="^third_card\\(\\) needs exactly two cards, .*; got 3: '1RSO', '2RSO', '3RSO'$"
    ):
        third_card(["1RSO", "2RSO", "3RSO"])
    with pytest.raises(
        TypeError,
        match="^find_sets\\(\\) needs a list of cards, like find_sets\\(game.table\\); got 5 \\(a number\\)$",
    ):
        find_sets(5)


def test_a_long_input_is_quoted_in_short():
    with pytest.raises(TypeError) as info:
        is_set([None] * 10**5)
    assert str(info.value) == (
        "is_set() needs exactly three cards, as is_set(a, b, c) or is_set([a, b, c]); "
        "got 100000: None, None, None, None and 99996 more"
    )
    with pytest.raises(TypeError) as info:
        is_set(["1RSO" * 1000, None])
    assert len(str(info.value)) < 300 and "(4000 characters)" in str(info.value)
    with pytest.raises(ValueError) as info:
        is_set("1RSO", "2RSO", "x" * 10**6)
    assert len(str(info.value)) < 300
    with pytest.raises(TypeError) as info:
        find_sets([*DECK[:3], list(range(10**5))])
    assert len(str(info.value)) < 300


def test_exactly_three_cards_from_an_endless_generator_is_refused_at_once():
    with pytest.raises(TypeError, match=r"needs exactly three cards, .*; got more than 3: 0, 1, 2, 3$"):
        is_set(itertools.count())
    with pytest.raises(
        TypeError, match=r"needs exactly two cards, .*; got more than 2: '1RSO', '1RSO', '1RSO'$"
    ):
        third_card(itertools.repeat("1RSO"))
    assert is_set(iter(["1RSO", "2RSO", "3RSO"])) and third_card(iter(["1RSO", "2RSO"])).code == "3RSO"
    with pytest.raises(TypeError, match=r"got 4: 1RSO, 2RSO, 3RSO, 1GSO$"):
        is_set({card: None for card in map(Card.parse, ["1RSO", "2RSO", "3RSO", "1GSO"])})


def test_set_finding_on_an_endless_generator_stops_at_the_first_card_given_twice():
    with pytest.raises(ValueError, match=r"^count_sets\(\) got the card one red solid oval \(1RSO\) twice"):
        count_sets(itertools.cycle(DECK))


@pytest.mark.parametrize(
    "call",
    [
        lambda: is_set(b"1RSO 2RSO 3RSO"),
        lambda: explain(b"1RSO 2RSO 3RSO"),
        lambda: third_card(b"1RSO 2RSO"),
        lambda: find_sets(b"1RSO 2RSO 3RSO"),
        lambda: has_set(bytearray(b"1RSO 2RSO 3RSO")),
        lambda: count_sets(b"1RSO 2RSO 3RSO"),
    ],
)
def test_bytes_get_a_message_about_bytes(call):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(
        "cards are Cards or codes like '1RSO', several in one string like '1RSO 2GTS'; got b"
    )
    assert "(bytes, not text): write '1RSO 2RSO" in str(info.value)


def test_bytes_among_the_cards_get_a_message_about_bytes():
    with pytest.raises(TypeError, match=r"got b'3RSO' \(bytes, not text\): write '3RSO', without the b$"):
        is_set("1RSO", "2RSO", b"3RSO")
    with pytest.raises(TypeError, match=r"got b'2RSO' \(bytes, not text\): write '2RSO', without the b$"):
        count_sets(["1RSO", b"2RSO"])


def test_numpy_arrays_of_codes_are_cards():
    codes = np.array(["1RSO", "2RSO", "3RSO", "1GTS"])
    assert is_set(codes[:3]) and count_sets(codes) == 1 and third_card(codes[:2]).code == "3RSO"


def test_is_set_passes_on_a_wrong_card():
    with pytest.raises(ValueError, match="character 1 of a card code is the number"):
        is_set("1RSO", "2RSO", "4RSO")
    with pytest.raises(TypeError, match="expected a Card"):
        is_set("1RSO", "2RSO", 3)


def test_is_set_agrees_with_the_definition_on_all_85320_triples():
    triples = 0
    sets = 0
    for a, b, c in itertools.combinations(DECK, 3):
        triples += 1
        expected = per_feature_is_set(a, b, c)
        assert is_set(a, b, c) == expected
        sets += expected
    assert triples == 85320
    assert sets == 1080


def test_each_pair_lies_in_exactly_one_set_and_third_card_finds_it():
    completions: dict[frozenset, list[Card]] = {}
    for triple in find_sets(DECK):
        for pair in itertools.combinations(triple, 2):
            (third,) = set(triple) - set(pair)
            completions.setdefault(frozenset(pair), []).append(third)
    assert len(completions) == 81 * 80 // 2
    for pair, thirds in completions.items():
        a, b = pair
        assert thirds == [third_card(a, b)]


# -- third_card ----------------------------------------------------------------------


def test_third_card_feature_by_feature():
    assert third_card("1RSO", "2GTS") == Card(3, "purple", "diamond", "open")
    assert third_card("1RSO", "2RSO") == Card.parse("3RSO")
    assert third_card(Card.parse("2PTD"), "2PTS") == Card.parse("2PTO")


def test_third_card_needs_two_different_cards():
    with pytest.raises(ValueError) as info:
        third_card("2RTO", "2rto")
    assert str(info.value) == (
        "third_card() needs two different cards; both are two red striped ovals (2RTO). "
        "A SET is made of three different cards."
    )


def test_third_card_passes_on_a_wrong_card():
    with pytest.raises(TypeError, match="expected a Card"):
        third_card("1RSO", (0, 0, 0, 1))


@given(st.sampled_from(DECK), st.sampled_from(DECK))
def test_third_card_is_unique_and_symmetric(a, b):
    if a == b:
        return
    c = third_card(a, b)
    assert c not in (a, b)
    assert is_set(a, b, c)
    assert third_card(b, a) == c
    assert third_card(a, c) == b and third_card(c, b) == a
    assert [x for x in DECK if is_set(a, b, x)] == [c]
    assert all((x + y + z) % 3 == 0 for x, y, z in zip(a.vector, b.vector, c.vector))


# -- explain -------------------------------------------------------------------------


def test_explain_a_set_names_every_feature():
    verdict = explain("1RSO", "2GTS", "3POD")
    assert isinstance(verdict, Verdict) and verdict.is_set and bool(verdict)
    assert str(verdict) == (
        "A SET: all different numbers, all different colors, all different shapes and all different shadings."
    )
    assert verdict.broken == ()
    assert str(explain("2RSO", "2GSO", "2PSO")) == (
        "A SET: same number, all different colors, same shape and same shading."
    )


@pytest.mark.parametrize(
    ("codes", "sentence"),
    [
        (("1RSO", "2RSO", "3PSO"), "Not a SET: two are red and one is purple."),
        (("1RSO", "1RSO", "3PSO"), "Not a SET: the same card (one red solid oval) is used more than once."),
        (("1RSO", "1RSS", "1RSO"), "Not a SET: the same card (one red solid oval) is used more than once."),
        (("3POD", "2RSO", "2RSO"), "Not a SET: the same card (two red solid ovals) is used more than once."),
        (("1RSO", "1GSO", "3PSO"), "Not a SET: two have one symbol and one has three symbols."),
        (("2RSO", "3GSO", "3PSO"), "Not a SET: two have three symbols and one has two symbols."),
        (("1RSD", "1GSD", "1PSO"), "Not a SET: two are diamonds and one is an oval."),
        (("1RSO", "1GSO", "1PSS"), "Not a SET: two are ovals and one is a squiggle."),
        (("1RSO", "1GSO", "1POO"), "Not a SET: two are solid and one is open."),
        (
            ("1RSO", "2RTS", "3GOS"),
            "Not a SET: two are red and one is green; two are squiggles and one is an oval.",
        ),
        (("1RSO", "1RTO", "1ROO"), "A SET: same number, same color, same shape and all different shadings."),
        (
            ("1RSO", "1GTO", "1POO"),
            "A SET: same number, all different colors, same shape and all different shadings.",
        ),
    ],
)
def test_explain_in_the_magic_rule_form(codes, sentence):
    assert str(explain(*codes)) == sentence


def test_explain_feature_by_feature():
    verdict = explain("1RSO", "2RSO", "3PSO")
    assert [f.feature for f in verdict.features] == list(FEATURES)
    number, color, shape, shading = verdict.features
    assert (number.kind, color.kind, shape.kind, shading.kind) == ("different", "two and one", "same", "same")
    assert isinstance(color, FeatureVerdict)
    assert color.values == ("red", "red", "purple")
    assert (color.odd_index, color.pair_value, color.odd_value, color.ok) == (2, "red", "purple", False)
    assert (number.odd_index, number.pair_value, number.odd_value, number.ok) == (None, None, None, True)
    assert verdict.broken == (color,)
    assert (number.summary, shape.summary) == ("all different numbers", "same shape")
    assert str(shape) == "all are ovals" and str(shading) == "all are solid"
    assert str(number) == "all different numbers"
    assert str(explain("1RSO", "1RSO", "1RSO").features[0]) == "all have one symbol"
    assert str(explain("3RSO", "3GSO", "3PSO").features[0]) == "all have three symbols"
    assert str(explain("1RSD", "1RSD", "1RSD").features[2]) == "all are diamonds"


def test_the_odd_card_can_be_any_of_the_three():
    for codes, odd in [
        (("1PSO", "1RSO", "1RSO"), 0),
        (("1RSO", "1PSO", "1RSO"), 1),
        (("1RSO", "1RSO", "1PSO"), 2),
    ]:
        color = explain(*codes).features[1]
        assert (color.odd_index, color.pair_value, color.odd_value) == (odd, "red", "purple")


def test_details_name_the_odd_card_out():
    text = explain("1RSO", "2RSO", "3PSO").details()
    assert text.splitlines() == [
        "Not a SET: two are red and one is purple.",
        "- number: all different numbers",
        "- color: two are red and one is purple (card 3, three purple solid ovals, is the odd one out)",
        "- shape: all are ovals",
        "- shading: all are solid",
    ]


def test_a_repeated_card_is_not_a_set_even_if_features_look_fine():
    verdict = explain("1RSO", "1RSO", "1RSO")
    assert verdict.repeated and not verdict.is_set and not verdict
    assert all(f.ok for f in verdict.features)


def test_explain_needs_exactly_three_cards():
    with pytest.raises(TypeError, match=r"explain\(\) needs exactly three cards, as explain\(a, b, c\)"):
        explain("1RSO", "2RSO")


@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=3))
def test_explain_agrees_with_is_set_and_points_at_the_odd_card(cards):
    verdict = explain(cards)
    assert verdict.is_set == is_set(cards) == per_feature_is_set(*cards)
    for f in verdict.broken:
        values = [getattr(c, f.feature) for c in cards]
        odd = values.pop(f.odd_index)
        assert values[0] == values[1] == f.pair_value != odd == f.odd_value
        assert str(f).startswith("two ")


# -- find_sets, has_set, count_sets --------------------------------------------------


def test_find_sets_on_decks():
    assert len(find_sets(DECK)) == 1080
    assert count_sets(DECK) == 1080
    assert count_sets(mini_deck()) == 117
    assert count_sets(mini_deck(color="red", shading="solid")) == 12
    assert find_sets([]) == [] and not has_set([])
    assert find_sets(DECK[:2]) == []


def test_find_sets_gives_triples_in_the_order_given():
    table = ["3POD", "2GTS", "1RSO", "1GSO"]
    assert find_sets(table) == [(Card.parse("3POD"), Card.parse("2GTS"), Card.parse("1RSO"))]
    assert has_set(table) and count_sets(table) == 1
    assert not has_set(["3POD", "2GTS", "1GSO"])


@pytest.mark.parametrize("func", [find_sets, has_set, count_sets])
def test_set_finding_rejects_a_card_given_twice(func):
    with pytest.raises(ValueError) as info:
        func(["1RSO", "2GTS", "1rso"])
    assert (
        str(info.value)
        == f"{func.__name__}() got the card one red solid oval (1RSO) twice; each card appears once"
    )


@pytest.mark.parametrize("func", [find_sets, has_set, count_sets])
def test_set_finding_needs_a_list_of_cards(func):
    with pytest.raises(TypeError, match=f"^{func.__name__}\\(\\) needs a list of cards"):
        func(None)
    with pytest.raises(TypeError, match="expected a Card"):
        func([1, 2, 3])
    with pytest.raises(ValueError, match="character 1 of a card code is the number"):
        func("1RSO zzzz")


@settings(max_examples=examples(150))
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=24), st.randoms(use_true_random=False))
def test_find_sets_agrees_with_a_brute_force_search(cards, rng):
    found = find_sets(cards)
    assert sorted(tuple(sorted(t)) for t in found) == brute_force_sets(sorted(cards))
    order = {c: i for i, c in enumerate(cards)}
    assert all(order[a] < order[b] < order[c] for a, b, c in found)
    assert has_set(cards) == bool(found)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert {frozenset(t) for t in find_sets(shuffled)} == {frozenset(t) for t in found}


def test_find_sets_on_seeded_random_tables_of_every_size():
    rng = random.Random(2024)
    for size in range(0, 82, 3):
        cards = rng.sample(DECK, size)
        assert {frozenset(t) for t in find_sets(cards)} == {frozenset(t) for t in brute_force_sets(cards)}


# -- first_set and the third-card table ------------------------------------------------------------


def test_the_third_card_table_holds_third_card_of_every_pair():
    from setwidgets.rules import THIRD

    assert len(THIRD) == 81 * 81
    for a, b in itertools.permutations(DECK, 2):
        assert THIRD[81 * a.index + b.index] == third_card(a, b).index
    assert all(THIRD[81 * i + i] == i for i in range(81))


@settings(max_examples=examples(200))
@given(st.integers(0, 81), st.randoms(use_true_random=False))
def test_first_set_is_the_set_with_the_smallest_positions(size, rng):
    from setwidgets.rules import first_set

    table = rng.sample(DECK, size)
    by_triples = (
        [
            (i, j, k)
            for i, j, k in itertools.combinations(range(size), 3)
            if per_feature_is_set(table[i], table[j], table[k])
        ]
        if size <= 21
        else None
    )
    found = first_set(table)
    sets = find_sets(table)
    if not sets:
        assert found is None
        return
    assert found == sets[0]
    if by_triples is not None:
        i, j, k = min(by_triples)
        assert found == (table[i], table[j], table[k])
    # find_sets lists the SETs by their positions, smallest first.
    where = {card: p for p, card in enumerate(table)}
    positions = [tuple(where[c] for c in t) for t in sets]
    assert positions == sorted(positions) and all(i < j < k for i, j, k in positions)


def test_first_set_takes_what_find_sets_takes_and_refuses_the_same():
    from setwidgets.rules import first_set

    assert first_set("1RSO 2RSO 3RSO") == tuple(Card.parse(c) for c in ("1RSO", "2RSO", "3RSO"))
    assert first_set("1RSO", "2RSO", "1GTS") is None
    assert first_set([]) is None
    with pytest.raises(ValueError, match="twice"):
        first_set(["1RSO", "1RSO", "2RSO"])
    with pytest.raises(TypeError):
        first_set(42)
