"""setwidgets.geometry: lines, directions, planes, magic squares and the maps that keep SETs."""

import itertools
import random
from math import comb

import pytest

from setwidgets import FEATURES, VALUES, Card, find_sets, full_deck, geometry, is_set, mini_deck, third_card
from setwidgets.geometry import (
    DIRECTIONS,
    AffineMap,
    along,
    difference,
    direction,
    is_magic_square,
    is_plane,
    line,
    lines_through,
    magic_square,
    parallel_classes,
    plane,
    planes_through,
    translate,
)

DECK = full_deck()
SETS = find_sets(DECK)
SET_KEYS = {frozenset(s) for s in SETS}


def non_collinear(rng, deck=DECK):
    while True:
        cards = rng.sample(deck, 3)
        if not is_set(cards):
            return cards


def vector_plane(a, b, c):
    """The plane by its definition, a + i(b - a) + j(c - a), independent of the module."""
    u, v = difference(a, b), difference(a, c)
    return {
        Card.from_vector([x + i * p + j * q for x, p, q in zip(a.vector, u, v)])
        for i in range(3)
        for j in range(3)
    }


# -- lines ------------------------------------------------------------------------------------


def test_the_line_through_two_cards_is_their_set_and_its_third_point_is_a_plus_twice_b_minus_a():
    for a, b in itertools.permutations(DECK[::7], 2):
        third = third_card(a, b)
        assert line(a, b) == (a, b, third)
        assert along(a, b, 2) == third
        assert along(a, b, 0) == a and along(a, b, 1) == b and along(a, b, 3) == a
        # a + 2(b - a) = 2b - a = -(a + b) mod 3
        assert third.vector == tuple((-(x + y)) % 3 for x, y in zip(a.vector, b.vector))
    assert line("1RSO 2GTS") == line("1RSO", "2GTS") == line(["1RSO", "2GTS"])


def test_every_card_lies_on_40_lines_and_they_are_its_sets():
    for card in DECK:
        through = lines_through(card)
        assert len(through) == 40
        assert all(triple[0] == card and is_set(triple) for triple in through)
        others = [c for triple in through for c in triple[1:]]
        assert sorted(others) == [c for c in DECK if c != card]  # the 80 others, each once


def test_lines_through_a_card_among_some_cards_keeps_their_order():
    cards = Card.parse("3POD"), Card.parse("2RSO"), Card.parse("2GTS"), Card.parse("3RSO")
    # Each SET is written (card, b, c) with b before c among the cards, in the order of b.
    assert lines_through("1RSO", cards) == [
        (Card.parse("1RSO"), Card.parse("3POD"), Card.parse("2GTS")),
        (Card.parse("1RSO"), Card.parse("2RSO"), Card.parse("3RSO")),
    ]
    assert lines_through("1RSO", ["2RSO"]) == []
    # The card itself may be among the cards; it is not its own partner.
    nine = mini_deck(color="red", shading="solid")
    assert len(lines_through(nine[0], nine)) == 4


def test_directions_are_forty_and_each_cuts_the_deck_into_27_parallel_lines():
    assert len(DIRECTIONS) == len(set(DIRECTIONS)) == (81 - 1) // 2
    classes = parallel_classes()
    assert list(classes) == list(DIRECTIONS)
    for d, lines in classes.items():
        assert len(lines) == 27
        assert sorted(c for triple in lines for c in triple) == DECK  # every card exactly once
        assert all(direction(x, y) == d for triple in lines for x, y in itertools.permutations(triple, 2))
    assert sum(len(lines) for lines in classes.values()) == len(SETS) == 1080


def test_the_nine_card_board_has_four_classes_of_three_lines():
    nine = mini_deck(color="red", shading="solid")
    classes = parallel_classes(nine)
    assert [len(lines) for lines in classes.values()] == [3, 3, 3, 3]
    assert sum(len(lines) for lines in classes.values()) == len(find_sets(nine)) == 12
    assert len(parallel_classes(mini_deck())) == 13


def test_translate_and_difference_undo_each_other():
    rng = random.Random(3)
    for _ in range(50):
        a, b = rng.sample(DECK, 2)
        assert translate(a, difference(a, b)) == b
        assert translate(a, b) == Card.from_vector([x + y for x, y in zip(a.vector, b.vector)])


# -- planes -----------------------------------------------------------------------------------


def test_a_plane_holds_nine_cards_twelve_sets_and_every_third_card():
    rng = random.Random(8)
    for _ in range(200):
        a, b, c = non_collinear(rng)
        cards = plane(a, b, c)
        assert len(set(cards)) == 9 and cards[:2] == [a, b] and c in cards
        assert set(cards) == vector_plane(a, b, c)
        assert len(find_sets(cards)) == 12
        assert all(third_card(x, y) in cards for x, y in itertools.combinations(cards, 2))
        assert plane([a, b, c]) == plane(f"{a} {b} {c}") == cards


def test_a_plane_is_built_with_third_card_alone(monkeypatch):
    calls = []
    real = geometry.third_card

    def spy(*cards):
        calls.append(cards)
        return real(*cards)

    monkeypatch.setattr(geometry, "third_card", spy)
    monkeypatch.setattr(Card, "from_vector", None)  # no vector arithmetic behind its back
    cards = plane("1RSO", "2GTS", "1RSS")
    assert len(set(cards)) == 9 and len(calls) >= 6


def test_a_magic_square_has_eight_sets_in_its_rows_columns_and_diagonals():
    rng = random.Random(9)
    for _ in range(200):
        a, b, c = non_collinear(rng)
        square = magic_square(a, b, c)
        assert square[0][:2] == [a, b] and square[1][0] == c
        lines = [
            *square,
            *zip(*square),
            [square[i][i] for i in range(3)],
            [square[i][2 - i] for i in range(3)],
        ]
        assert len(lines) == 8 and all(is_set(line) for line in lines)
        assert [card for row in square for card in row] == plane(a, b, c)


def test_planes_and_magic_squares_are_recognised():
    rng = random.Random(4)
    for _ in range(50):
        cards = plane(*non_collinear(rng))
        assert is_plane(cards) and is_plane(reversed(cards))
        assert is_magic_square(magic_square(cards[0], cards[1], cards[3]))
        shuffled = rng.sample(cards, 9)
        square = [shuffled[0:3], shuffled[3:6], shuffled[6:9]]
        lines = [
            *square,
            *zip(*square),
            [square[i][i] for i in range(3)],
            [square[i][2 - i] for i in range(3)],
        ]
        assert is_magic_square(square) == all(is_set(line) for line in lines)
    assert not is_plane(DECK[:8]) and not is_plane(DECK[:10]) and not is_plane(DECK[:6] + DECK[9:12])
    assert is_plane(mini_deck(color="red", shading="solid"))
    with pytest.raises(ValueError, match=r"3 rows"):
        is_magic_square(magic_square("1RSO 2GTS 1RSS")[:2])
    with pytest.raises(ValueError, match=r"twice"):
        is_magic_square([["1RSO", "2RSO", "3RSO"]] * 3)
    with pytest.raises(TypeError, match=r"exactly three cards"):
        is_magic_square([["1RSO", "2RSO"], ["1GSO", "2GSO"], ["1PSO", "2PSO"]])
    with pytest.raises(TypeError, match=r"3 rows of 3 cards"):
        is_magic_square(5)
    with pytest.raises(ValueError, match=r"twice"):
        is_plane(["1RSO"] * 9)


def test_collinear_or_repeated_cards_span_no_plane_and_say_why():
    with pytest.raises(ValueError, match=r"not in one SET; 1RSO, 2RSO and 3RSO form a SET .*third card"):
        plane("1RSO", "2RSO", "3RSO")
    with pytest.raises(ValueError, match=r"one line"):
        magic_square("3RSO 1RSO 2RSO")
    with pytest.raises(
        ValueError, match=r"three different cards; one red solid oval \(1RSO\) is given twice"
    ):
        plane("1RSO", "2GTS", "1RSO")
    with pytest.raises(TypeError, match=r"exactly three cards"):
        plane("1RSO", "2GTS")
    with pytest.raises(TypeError, match=r"exactly three cards"):
        plane(["1RSO", "2GTS", "3POD", "1GSO"])
    with pytest.raises(TypeError, match=r"Card"):
        plane(1, 2, 3)
    with pytest.raises(ValueError, match=r"code"):
        plane("1RSO", "2GTS", "9XYZ")
    with pytest.raises(ValueError, match=r"two different cards"):
        line("1RSO", "1RSO")
    with pytest.raises(ValueError, match=r"two different cards"):
        direction("1RSO", "1RSO")


def test_planes_counted_through_cards_lines_and_triples():
    every = planes_through()
    assert len(every) == len({frozenset(p) for p in every}) == 81 * 130 // 9 == 1170
    assert all(len(find_sets(p)) == 12 for p in every)
    card = Card.parse("2GTS")
    through_card = planes_through(card)
    assert len(through_card) == 130 and all(card in p for p in through_card)
    # pairs {b, c} not on a line with the card, over such pairs in one plane
    assert len(through_card) == (comb(80, 2) - 40) // (comb(8, 2) - 4)
    assert len(planes_through(card, "1RSO")) == 13
    assert len(planes_through("1RSO", "2RSO", "1GSO")) == 1
    assert planes_through("1RSO", "2RSO", "1GSO")[0] == sorted(plane("1RSO", "2RSO", "1GSO"))
    assert planes_through("1RSO 2RSO 1GSO 1RSS") == []  # four cards not in one plane
    counts = {len(set(p) & set(q)) for p, q in itertools.combinations(every[:60], 2)}
    assert counts <= {0, 1, 3}  # two planes meet in nothing, a card or a line


# -- maps that keep SETs ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_affine_maps_send_sets_to_sets_and_can_be_undone(seed):
    m = AffineMap.random(seed)
    images = m.image(DECK)
    assert sorted(images) == DECK  # one to one
    assert all(frozenset(m.image(s)) in SET_KEYS for s in SETS)
    assert m.then(m.inverse()) == AffineMap.identity() == m.inverse().then(m)
    n = AffineMap.random(seed + 100)
    assert [m.then(n)(card) for card in DECK] == [n(m(card)) for card in DECK]
    assert AffineMap.random(seed) == m and hash(AffineMap.random(seed)) == hash(m)


def test_relabelings_are_the_4_factorial_times_6_to_the_4_monomial_maps():
    found = set()
    for order in itertools.permutations(("number", "color", "shape", "shading")):
        for values in itertools.product(*(itertools.permutations(v) for v in VALUES.values())):
            m = AffineMap.relabeling(order, dict(zip(FEATURES, values)))
            assert m.is_relabeling
            found.add(m)
    assert len(found) == 24 * 6**4 == 31104


def test_a_relabeling_renames_values_and_swaps_features():
    swap = AffineMap.relabeling(values={"color": ("green", "red", "purple")})
    assert [swap(c).code for c in ("1RSO", "2GTS", "3POD")] == ["1GSO", "2RTS", "3POD"]
    features = AffineMap.relabeling(("color", "number", "shape", "shading"))
    assert features("2RSO") == Card(1, "green", "oval", "solid")
    assert not AffineMap.random(1).is_relabeling or AffineMap.random(1).matrix
    assert AffineMap.translation((1, 0, 0, 0)).is_translation
    assert AffineMap.translation((1, 0, 0, 0))("3RSO").code == "1RSO"


def test_any_cards_in_general_position_can_be_taken_to_any_others():
    rng = random.Random(12)
    for _ in range(100):
        a, b = rng.sample(DECK, 2)
        assert AffineMap.taking([a], [b])(a) == b
        source, target = non_collinear(rng), non_collinear(rng)
        m = AffineMap.taking(source, target)
        assert m.image(source) == target
        assert all(frozenset(m.image(s)) in SET_KEYS for s in SETS[::37])
    five = ["1RSO", "2RSO", "1GSO", "1RSS", "1RTO"]
    assert AffineMap.taking(five, five) == AffineMap.identity()


def test_bad_maps_are_refused_with_their_reason():
    with pytest.raises(ValueError, match=r"not invertible mod 3"):
        AffineMap([[1, 0, 0, 0], [2, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    with pytest.raises(ValueError, match=r"four rows"):
        AffineMap([[1, 0, 0, 0]])
    with pytest.raises(TypeError, match=r"four rows"):
        AffineMap("identity")
    with pytest.raises(TypeError, match=r"whole number"):
        AffineMap.translation((1.5, 0, 0, 0))
    with pytest.raises(ValueError, match=r"general position"):
        AffineMap.taking("1RSO 2RSO 3RSO", "1RSO 2GTS 1RSS")
    with pytest.raises(ValueError, match=r"as many target cards"):
        AffineMap.taking("1RSO 2RSO", "1RSO")
    with pytest.raises(ValueError, match=r"four features .* once each"):
        AffineMap.relabeling(("color", "color", "shape", "shading"))
    with pytest.raises(ValueError, match=r"three colors red, green and purple once each"):
        AffineMap.relabeling(values={"color": ("red", "red", "green")})
    with pytest.raises(ValueError, match=r"three numbers 1, 2 and 3 once each"):
        AffineMap.relabeling(values={"number": ("1", "2", "3")})
    with pytest.raises(ValueError, match=r"three shapes"):
        AffineMap.relabeling(values={"shape": "oval squiggle diamond"})
    with pytest.raises(ValueError, match=r"three shadings"):
        AffineMap.relabeling(values={"shading": [["solid"], "striped", "open"]})
    with pytest.raises(ValueError, match=r"not a feature"):
        AffineMap.relabeling(values={"colour": ("red", "green", "purple")})
    with pytest.raises(TypeError, match=r"another AffineMap"):
        AffineMap.identity().then(lambda card: card)
