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
    # Told as a square's rows, not as is_set's three cards (it once advised is_magic_square(a, b, c)).
    with pytest.raises(
        TypeError, match=r"^is_magic_square\(\) takes 3 rows of 3 cards; row 1 holds 2 cards$"
    ):
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


# -- what a wrong call says, and behaviours the tests above leave open -------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: line("1RSO"), TypeError, "line() needs exactly two cards, as line(a, b)"),
        (lambda: line("1RSO", "1RSO"), ValueError, "line() needs two different cards; both are one red"),
        (lambda: direction("1RSO", "1RSO"), ValueError, "direction() needs two different cards"),
        (lambda: along("2RSO", "2RSO", 1), ValueError, "along() needs two different cards"),
        (lambda: along("1RSO", "2RSO", 1.5), TypeError, "t must be a whole number like 2; got 1.5"),
        (lambda: plane("1RSO", "2GTS"), TypeError, "plane() needs exactly three cards"),
        (lambda: magic_square("1RSO 2GTS"), TypeError, "magic_square() needs exactly three cards"),
        (lambda: magic_square("1RSO 2GTS 1RSO"), ValueError, "magic_square() needs three different cards"),
        (lambda: plane("1RSO 2RSO 3RSO"), ValueError, "plane() needs three cards that are not in one SET"),
        (lambda: lines_through("1RSO", "2RSO 2RSO"), ValueError, "lines_through() got the card two red"),
        (lambda: parallel_classes("2RSO 2RSO"), ValueError, "parallel_classes() got the card two red"),
        (lambda: is_plane("2RSO 2RSO"), ValueError, "is_plane() got the card two red"),
        (lambda: planes_through("1RSO", "1RSO"), ValueError, "planes_through() got the card one red"),
        (
            lambda: is_magic_square([["1RSO", "2RSO"]]),
            TypeError,
            "is_magic_square() takes 3 rows of 3 cards; row 1 holds 2 cards",
        ),
        (
            lambda: is_magic_square(5),
            TypeError,
            "is_magic_square() takes 3 rows of 3 cards; got 5 (a number)",
        ),
        (
            lambda: is_magic_square(["1RSO 2RSO 3RSO"]),
            ValueError,
            "is_magic_square() takes 3 rows of 3 cards; got 1 row",
        ),
    ],
)
def test_each_function_names_itself_in_what_a_wrong_call_says(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)


def test_a_reason_ends_each_refusal_of_a_plane_or_a_line():
    with pytest.raises(
        ValueError, match=r"is given twice\. Three different cards not in one SET span a plane\.$"
    ):
        plane("1RSO", "2GTS", "1RSO")
    with pytest.raises(ValueError, match=r"not in one plane\. Pick a third card off that line\.$"):
        magic_square("1RSO 2RSO 3RSO")
    with pytest.raises(
        ValueError, match=r"\(1RSO\)\. Through two different cards passes exactly one line\.$"
    ):
        line("1RSO", "1RSO")


def test_a_step_is_read_mod_3_and_a_wrong_one_is_refused_by_name():
    assert translate("1RSO", (-1, 0, 0, 0)).code == "3RSO"
    assert translate("1RSO", (4, 3, 0, -3)).code == "2RSO"
    assert AffineMap.translation((5, 0, 0, 0))("1RSO").code == "3RSO"
    for call, name in [
        (lambda step: translate("1RSO", step), "step"),
        (AffineMap.translation, "step"),
        (lambda step: AffineMap(AffineMap.identity().matrix, step), "shift"),
        (lambda step: AffineMap([step, (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]), "a row of the matrix"),
    ]:
        with pytest.raises(
            TypeError, match=rf"^{name} must be four whole numbers like \(1, 0, 0, 2\); got 5 \("
        ):
            call(5)
        with pytest.raises(
            ValueError, match=rf"^{name} must be four whole numbers like \(1, 0, 0, 2\); got \(1, 2\)$"
        ):
            call((1, 2))
        with pytest.raises(TypeError, match=rf"^each entry of {name} must be a whole number like 2; got 1.5"):
            call((1, 0, 0, 1.5))


def test_an_endless_step_is_refused_without_reading_it_to_the_end():
    with pytest.raises(ValueError, match=r"step must be four whole numbers"):
        translate("1RSO", itertools.count())


def test_the_planes_come_in_order_each_in_deck_order():
    for planes in (planes_through("1RSO"), planes_through("2GTS", "3POD")):
        assert planes == sorted(planes)
        assert all(p == sorted(p) for p in planes)


def test_random_maps_draw_each_entry_and_step_evenly():
    maps = [AffineMap.random(seed) for seed in range(300)]
    shifts = [x for m in maps for x in m.shift]
    assert all(350 <= shifts.count(x) <= 450 for x in range(3)), "1200 entries, about 400 each"
    entries = [x for m in maps for row in m.matrix for x in row]
    # Each column of an invertible matrix is any of the 80 non-zero vectors: 26 in 80 entries are 0.
    assert 0.29 < entries.count(0) / len(entries) < 0.36
    assert abs(entries.count(1) - entries.count(2)) < 150


def test_what_a_wrong_map_says():
    with pytest.raises(TypeError, match=r"four rows of four whole numbers; got 'identity' \(a string\)"):
        AffineMap("identity")
    with pytest.raises(ValueError, match=r"four rows of four whole numbers; got 1 row: \[\[1, 0, 0, 0\]\]$"):
        AffineMap([[1, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"in a new order; got \('color', 'color', 'shape', 'shading'\)"):
        AffineMap.relabeling(("color", "color", "shape", "shading"))
    with pytest.raises(
        TypeError, match=r"^values must map features to their three values .*; got \['color'\]"
    ):
        AffineMap.relabeling(values=["color"])
    with pytest.raises(ValueError, match=r"^values names 'colour', which is not a feature"):
        AffineMap.relabeling(values={"colour": ("red", "green", "purple")})
    for values in [("red", "teal", "purple"), 5, "rgp"]:
        with pytest.raises(ValueError, match=r"values\['color'\] must list the three colors") as raised:
            AffineMap.relabeling(values={"color": values})
        assert str(raised.value).endswith(f"in a new order; got {values!r}")
    with pytest.raises(TypeError, match=r"then\(\) takes another AffineMap; got <function"):
        AffineMap.identity().then(lambda card: card)


def test_what_a_wrong_taking_says():
    with pytest.raises(TypeError, match=r"source cards; got 5"):
        AffineMap.taking(5, ["1RSO"])
    with pytest.raises(TypeError, match=r"target cards; got 5"):
        AffineMap.taking(["1RSO"], 5)
    six = "1RSO 2RSO 1GSO 1RSS 1RTO 2GTS"
    with pytest.raises(
        ValueError,
        match=r"^taking\(\) needs as many target cards as source cards, 1 to 5 of each; got 6 and 6$",
    ):
        AffineMap.taking(six, six)
    for sources, targets in [("1RSO 1RSO", "1RSO 2RSO"), ("1RSO 2RSO", "1RSO 1RSO")]:
        with pytest.raises(ValueError, match=r"^taking\(\) got the card one red solid oval \(1RSO\) twice"):
            AffineMap.taking(sources, targets)
    with pytest.raises(
        ValueError, match=r"^taking\(\) needs cards in general position .*; 1RSO, 2RSO and 3RSO are not"
    ):
        AffineMap.taking("1RSO 2GTS 1RSS", "1RSO 2RSO 3RSO")


# -- endless generators, answered at once (issue 25) ----------------------------------------------


def test_an_endless_square_is_refused_after_its_fourth_row():
    square = magic_square("1RSO", "2GTS", "1RSS")
    with pytest.raises(
        ValueError, match=r"^is_magic_square\(\) takes 3 rows of 3 cards; got more than 3 rows$"
    ):
        is_magic_square(itertools.chain(square, itertools.repeat(square[0])))
    with pytest.raises(
        TypeError, match=r"^is_magic_square\(\) takes 3 rows of 3 cards; row 1 holds more than 3 cards$"
    ):
        is_magic_square([itertools.cycle(row) for row in square])
    assert is_magic_square(iter(square))


def test_an_endless_matrix_is_refused_after_its_fifth_row():
    with pytest.raises(ValueError, match=r"^matrix must have four rows .*; got more than four rows: "):
        AffineMap(itertools.repeat((1, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"^a row of the matrix must be four whole numbers"):
        AffineMap([itertools.count()] * 4)
    assert AffineMap(iter([(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)])) == AffineMap.identity()


def test_endless_features_and_values_of_a_relabeling_are_refused():
    with pytest.raises(ValueError, match=r"^features must list the four features .* once each"):
        AffineMap.relabeling(itertools.cycle(FEATURES))
    with pytest.raises(ValueError, match=r"^values\['color'\] must list the three colors"):
        AffineMap.relabeling(values={"color": itertools.cycle(["red", "green"])})
    with pytest.raises(TypeError, match=r"^features must list the four features .*; got 5 \(a number\)$"):
        AffineMap.relabeling(5)
    with pytest.raises(ValueError, match=r"^features must list the four features"):
        AffineMap.relabeling([1, 2, 3, 4])
    swap = AffineMap.relabeling(iter(("color", "number", "shape", "shading")))
    assert swap == AffineMap.relabeling(("color", "number", "shape", "shading"))


def test_endless_cards_given_to_a_map_are_refused():
    with pytest.raises(ValueError, match=r"1 to 5 of each; got more than 5 and more than 5$"):
        AffineMap.taking(itertools.cycle(DECK), itertools.cycle(DECK))
    with pytest.raises(ValueError, match=r"1 to 5 of each; got 2 and more than 5$"):
        AffineMap.taking(["1RSO", "2RSO"], itertools.cycle(DECK))
    with pytest.raises(ValueError, match=r"^image\(\) takes at most 100,000 cards from a generator"):
        AffineMap.identity().image(itertools.cycle(DECK))
    assert AffineMap.identity().image(iter(DECK[:5])) == DECK[:5]
    assert len(AffineMap.identity().image(DECK * 1300)) == 105300, "a list is mapped whole"
