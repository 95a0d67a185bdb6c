"""The geometry pictures (setwidgets.draw.lines) and widgets (LinesExplorer, PlaneBuilder) without a browser.

Pixels and real clicks are tested in tests/browser/test_geometry.py.
"""

import xml.etree.ElementTree as ET

import pytest

from setwidgets import Card, find_sets, full_deck, is_set, mini_deck, third_card
from setwidgets.draw.canvas import CommandRecorder
from setwidgets.draw.lines import LINE_COLORS, paint_strokes, show_lines, space_layout, square_layout
from setwidgets.geometry import lines_through, magic_square, plane
from setwidgets.widgets import LinesExplorer, PlaneBuilder
from setwidgets.widgets._view import WIDGET_VIEW

SVG = "{http://www.w3.org/2000/svg}"
NINE = mini_deck(color="red", shading="solid")


def centre(view, card):
    cells = view._cells()[0]
    x, y, w, h = view.card_rects[cells.index(Card.parse(card) if isinstance(card, str) else card)]
    return x + w / 2, y + h / 2


def drawn_lines(svg):
    root = ET.fromstring(svg)
    return [g.get("data-codes") for g in root.iter(f"{SVG}g") if g.get("class") == "setw-line"]


# -- layouts and static pictures ----------------------------------------------------------------


def test_the_three_layouts_hold_their_cards_once_in_feature_order():
    plane_ = space_layout(NINE)
    assert plane_.kind == "plane" and plane_.columns == 3 and plane_.varying == ("number", "shape")
    assert [c.code for c in plane_.cells[:3]] == ["1RSO", "1RSS", "1RSD"]  # a row changes shape
    cube = space_layout(mini_deck())
    assert cube.kind == "cube" and sorted(cube.cards) == mini_deck() and len(cube.cells) == 33
    deck = space_layout(full_deck())
    assert deck.kind == "deck" and sorted(deck.cards) == full_deck()
    for layout in (plane_, cube, deck):
        # Rows and columns of every block are lines: straight lines of the picture are SETs.
        columns = layout.columns
        for start in range(0, len(layout.cells) - 2):
            row = layout.cells[start : start + 3]
            if start % columns <= columns - 3 and all(row):
                assert is_set(row), [card.code for card in row]


def test_a_space_must_be_9_27_or_81_cards_sharing_features():
    with pytest.raises(ValueError, match=r"9 cards that share two features"):
        space_layout(mini_deck()[:10])
    with pytest.raises(ValueError, match=r"9 cards that share two features"):
        space_layout(["1RSO", "2GTS", "3POD"])
    with pytest.raises(ValueError, match=r"twice"):
        space_layout(["1RSO", "1RSO"])
    with pytest.raises(ValueError, match=r"3 rows"):
        square_layout(magic_square("1RSO 2GTS 1RSS")[:2])


def test_a_static_picture_draws_the_lines_through_a_card_one_color_per_direction():
    picture = show_lines(NINE, through="1RSO")
    assert len(picture.lines) == 4 and all(is_set(line) for line in picture.lines)
    assert len(drawn_lines(picture.svg)) == 4
    assert len({stroke.color for stroke in picture.strokes}) == 4
    assert {stroke.color for stroke in picture.strokes} <= set(LINE_COLORS)
    row = next(s for s in picture.strokes if s.codes == ("1RSO", "1RSS", "1RSD"))
    assert len({y for _, y in row.points}) == 1  # a row of the board is drawn straight
    html = picture._repr_html_()
    assert "4 lines drawn, each a SET" in html and "<title>one red solid oval</title>" in html
    assert len(show_lines(mini_deck(), through="2RTS").lines) == 13
    assert len(show_lines(full_deck(), through="2GTS").lines) == 40
    assert show_lines(NINE, through="1RSO 2RSS").lines == [
        (Card.parse("1RSO"), Card.parse("2RSS"), Card.parse("3RSD"))
    ]
    assert len(show_lines(NINE).strokes) == 0


def test_a_static_picture_refuses_cards_outside_it():
    with pytest.raises(ValueError, match=r"2GTS is not one of them"):
        show_lines(NINE, through="2GTS")
    with pytest.raises(ValueError, match=r"one card or two"):
        show_lines(NINE, through="1RSO 2RSO 3RSO")
    with pytest.raises(ValueError, match=r"2GTS is not one of them"):
        show_lines(NINE, lines=[("1RSO", "2GTS", "3POD")])
    with pytest.raises(ValueError, match=r"1RSO 2RSO 1RSS is not a SET"):
        show_lines(NINE, lines=[("1RSO", "2RSO", "1RSS")])


def test_strokes_reach_a_canvas_as_paths_and_dots():
    recorder = CommandRecorder()
    paint_strokes(recorder, show_lines(NINE, through="1RSO").strokes)
    assert recorder.count("stroke") == 4 and recorder.count("fill_circle") == 12
    assert recorder.count("save") == recorder.count("restore") == 1


# -- LinesExplorer --------------------------------------------------------------------------------


def test_clicking_a_card_draws_its_four_lines_and_a_second_card_their_one_line():
    explorer = LinesExplorer()
    assert explorer.lines == [] and "Click a card" in explorer.text
    assert explorer.click(*centre(explorer, "2RSS")) == Card.parse("2RSS")
    assert explorer.chosen == [Card.parse("2RSS")] and len(explorer.lines) == 4
    assert explorer.highlights == {4: "selected"}
    assert "4 lines pass through two red solid squiggles (2RSS)" in explorer.text
    explorer.click(*centre(explorer, "1RSO"))
    assert explorer.lines == [(Card.parse("2RSS"), Card.parse("1RSO"), third_card("2RSS", "1RSO"))]
    assert "has the third card three red solid diamonds (3RSD)" in explorer.text
    explorer.parallel = True
    assert len(explorer.lines) == 3 and "3 parallel lines" in explorer.text
    assert sorted(card for line in explorer.lines for card in line) == sorted(NINE)
    explorer.click(*centre(explorer, "3RSO"))  # a third card starts again
    assert explorer.chosen == [Card.parse("3RSO")] and len(explorer.lines) == 4
    assert explorer._parallel.disabled
    explorer.choose("3RSO")  # again: unchosen
    assert explorer.chosen == [] and explorer.lines == []
    assert explorer.click(-5, -5) is None


def test_letters_choose_cards_on_the_board_and_escape_chooses_none():
    explorer = LinesExplorer()
    assert explorer.letters == list("abcdefghi")
    assert explorer.card_names[4] == "E: two red solid squiggles"  # what a screen reader hears
    assert explorer.press("e") and explorer.chosen == [Card.parse("2RSS")]
    assert explorer.press("A") and explorer.chosen == [Card.parse("2RSS"), Card.parse("1RSO")]
    assert not explorer.press("z") and len(explorer.chosen) == 2
    assert explorer.press("Escape") and explorer.chosen == []
    with pytest.raises(TypeError, match=r"a key such as 'a'"):
        explorer.press(1)
    cube = LinesExplorer(mini_deck())
    assert cube.letters is None and not cube.press("a") and cube.chosen == []
    builder = PlaneBuilder("1RSO 2GTS 1RSS")
    assert builder.press("i") and builder.chosen == builder.plane[8] and len(builder.lines) == 4
    assert builder.press("Escape") and builder.chosen is None and builder.lines == []
    builder.set_cards("1RSO 2RSO 3RSO")
    assert not builder.press("a") and builder.chosen is None


def test_the_explorer_shows_the_cube_and_the_deck():
    cube = LinesExplorer(mini_deck(), through="2RTS")
    assert len(cube.lines) == 13 and len(drawn_lines(cube.svg())) == 13
    deck = LinesExplorer(full_deck(), through="1RSO 2GTS")
    assert deck.lines == [(Card.parse("1RSO"), Card.parse("2GTS"), Card.parse("3POD"))]
    deck.parallel = True
    assert len(deck.lines) == 27


def test_the_explorer_text_and_static_picture_say_the_same_as_the_canvas():
    explorer = LinesExplorer(through="1RSO")
    bundle = explorer._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert len(drawn_lines(data["image/svg+xml"])) == 4
    assert "4 lines pass through one red solid oval" in data["text/plain"]
    assert "one red solid oval, two red solid ovals, three red solid ovals" in data["text/html"]
    assert "one red solid oval, two red solid ovals, three red solid ovals" in explorer._text_widget.value
    assert len(explorer.card_names) == 9  # the cards, for screen readers


def test_bad_input_to_the_explorer_is_refused_and_changes_nothing():
    explorer = LinesExplorer(through="1RSO")
    with pytest.raises(ValueError, match=r"two green striped squiggles \(2GTS\) is not among the 9 cards"):
        explorer.choose("2GTS")
    with pytest.raises(TypeError, match=r"True or False"):
        explorer.parallel = "yes"
    with pytest.raises(TypeError):
        explorer.choose(5)
    assert explorer.chosen == [Card.parse("1RSO")] and len(explorer.lines) == 4
    with pytest.raises(ValueError, match=r"one card or two"):
        LinesExplorer(through="1RSO 2RSO 3RSO")
    with pytest.raises(ValueError, match=r"9 cards that share two features"):
        LinesExplorer(["1RSO", "2GTS"])
    with pytest.raises(ValueError, match=r"not among the 9 cards"):
        LinesExplorer(through="2GTS")


# -- PlaneBuilder ---------------------------------------------------------------------------------


def test_the_builder_completes_three_cards_to_their_plane_as_a_magic_square():
    builder = PlaneBuilder("1RSO", "2GTS", "1RSS")
    assert builder.plane == plane("1RSO", "2GTS", "1RSS") and builder.square == magic_square("1RSO 2GTS 1RSS")
    assert builder.highlights == {0: "selected", 1: "selected", 3: "selected"}
    assert "holds 9 cards, and there are 12 SETs among them" in builder.text
    assert builder.lines == []
    card = builder.plane[4]
    assert builder.click(*centre(builder, card)) == card
    assert builder.lines == lines_through(card, builder.plane) and len(builder.lines) == 4
    assert builder.highlights[4] == "hint" and f"through {card.name}" in builder.text
    assert len(drawn_lines(builder.svg())) == 4
    builder.choose(card)  # again: no lines
    assert builder.lines == []


def test_collinear_or_repeated_picks_show_why_there_is_no_plane():
    builder = PlaneBuilder()
    assert builder.set_cards("1RSO 2RSO 3RSO") is None
    assert builder.plane is None and builder.square is None
    with pytest.raises(ValueError) as error:
        plane("1RSO 2RSO 3RSO")
    assert builder.problem == str(error.value)
    assert builder.text.startswith("No plane: a plane needs three cards that are not in one SET; 1RSO, 2RSO")
    assert "form a SET" in builder.text and "plane()" not in builder.text
    assert builder.lines == [tuple(Card.parse(c) for c in ("1RSO", "2RSO", "3RSO"))]
    assert builder.highlights == {0: "odd", 1: "odd", 2: "odd"}
    assert builder.click(*centre(builder, "1RSO")) is None
    builder.set_cards("1RSO", "2GTS", "1RSO")
    assert "given twice" in builder.text and builder.lines == []
    assert len(find_sets(builder.set_cards(["1RSO", "2GTS", "3RSO"]))) == 12


def test_picking_in_the_dropdowns_builds_the_new_plane():
    builder = PlaneBuilder("1RSO 2GTS 1RSS")
    builder.choose(builder.plane[8])
    builder.pickers[2].dropdowns["color"].value = "green"
    assert builder.cards[2] == Card.parse("1GSS") and builder.chosen is None
    assert builder.plane == plane("1RSO", "2GTS", "1GSS")


def test_bad_input_to_the_builder_is_refused_and_changes_nothing():
    builder = PlaneBuilder()
    before = builder.plane
    with pytest.raises(TypeError, match=r"exactly three cards"):
        builder.set_cards("1RSO", "2GTS")
    with pytest.raises(ValueError, match=r"not in the plane shown"):
        builder.choose("3POD" if Card.parse("3POD") not in before else "2RSO")
    with pytest.raises(TypeError, match=r"exactly three cards"):
        PlaneBuilder("1RSO 2GTS")
    assert builder.plane == before


def test_nbgrader_feedback_keeps_the_picture_not_the_widget(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    bundle = PlaneBuilder()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert WIDGET_VIEW not in data and "<svg" in data["text/html"]


def test_lines_explorer_names_itself_when_its_cards_are_not_cards():
    for bad in (5, None.__class__, 2.5):
        with pytest.raises(TypeError, match=r"^LinesExplorer\(\) needs a list of cards"):
            LinesExplorer(cards=bad)
    with pytest.raises(ValueError, match="9 cards that share two features"):
        LinesExplorer(cards=["1RSO", "2RSO"])
