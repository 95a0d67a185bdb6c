"""Card pictures: the geometry, the SVG painter, the canvas painter and the themes."""

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from setwidgets import Card, find_sets, full_deck, is_set
from setwidgets.draw import shapes
from setwidgets.draw.canvas import CommandRecorder, paint_scene
from setwidgets.draw.svg import CardRow, card_svg, cards_html, cards_svg, path_d, scene_svg, show
from setwidgets.draw.themes import THEMES, Theme, color_distance, get_theme, simulate

SVG = "{http://www.w3.org/2000/svg}"
DECK = full_deck()


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in element.iter() if name in (e.get("class") or "").split()]


# -- geometry: the shapes ----------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["oval", "squiggle", "diamond"])
def test_each_symbol_fills_the_symbol_box(shape):
    x0, y0, x1, y1 = shapes.bounds(shapes.shape_path(shape))
    assert x1 - x0 == pytest.approx(shapes.SYMBOL_WIDTH, abs=0.6)
    assert y1 - y0 == pytest.approx(shapes.SYMBOL_HEIGHT, abs=0.6)
    assert (x0 + x1) / 2 == pytest.approx(0, abs=0.5) and (y0 + y1) / 2 == pytest.approx(0, abs=0.5)


def test_the_three_shapes_differ_in_area_and_outline():
    def area(polygon):
        return (
            abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]))) / 2
        )

    areas = {s: area(shapes.flatten(shapes.shape_path(s))[0]) for s in ("oval", "squiggle", "diamond")}
    box = shapes.SYMBOL_WIDTH * shapes.SYMBOL_HEIGHT
    # A rhombus fills half its box exactly; a stadium most of it; the squiggle lies in between.
    assert areas["diamond"] == pytest.approx(box / 2, rel=0.01)
    assert areas["oval"] > 0.85 * box
    assert areas["diamond"] < areas["squiggle"] < areas["oval"]


def test_the_squiggle_is_an_s_not_a_convex_blob():
    polygon = shapes.flatten(shapes.shape_path("squiggle"))[0]

    # Halfway up, the centre line leans one way at the top and the other way at the bottom.
    def middle(y):
        xs = [x for x, yy in polygon if abs(yy - y) < 3]
        return (min(xs) + max(xs)) / 2

    top, bottom = middle(-30), middle(30)
    assert top * bottom < 0, (top, bottom)
    # Not convex: the midpoint of two outline points can fall outside the shape.
    assert any(
        not shapes.point_in_polygon((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, polygon)
        for a, b in itertools.combinations(polygon[::4], 2)
    )


@pytest.mark.parametrize("shape", ["oval", "squiggle", "diamond"])
def test_stripes_are_cut_to_the_shape(shape):
    path = shapes.shape_path(shape)
    polygon = shapes.flatten(path, 24)[0]
    segments = shapes.stripes(path)
    assert len(segments) >= 15
    for x1, y1, x2, y2 in segments:
        assert y1 == y2 and x1 < x2
        assert shapes.point_in_polygon((x1 + x2) / 2, y1, polygon)
        # Just outside each end is outside the shape: the stripe reaches the outline and stops.
        assert not shapes.point_in_polygon(x1 - 0.5, y1, polygon)
        assert not shapes.point_in_polygon(x2 + 0.5, y2, polygon)
    ys = sorted({s[1] for s in segments})
    gaps = {round(b - a, 6) for a, b in zip(ys, ys[1:])}
    assert gaps == {shapes.STRIPE_SPACING}


def test_flatten_rejects_unknown_commands_and_shapes():
    with pytest.raises(ValueError, match="'Q'"):
        shapes.flatten((("M", 0, 0), ("Q", 1, 1, 2, 2)))
    with pytest.raises(ValueError, match="unknown shape 'star'"):
        shapes.shape_path("star")


@pytest.mark.parametrize("number", [1, 2, 3])
def test_symbols_stand_side_by_side_centred_on_the_card(number):
    centres = shapes.symbol_centres(number)
    assert len(centres) == number
    xs = [x for x, _ in centres]
    assert sum(xs) / number == pytest.approx(shapes.CARD_WIDTH / 2)
    assert all(y == shapes.CARD_HEIGHT / 2 for _, y in centres)
    assert all(b - a >= shapes.SYMBOL_WIDTH for a, b in zip(xs, xs[1:])), "symbols must not overlap"
    assert xs[0] - shapes.SYMBOL_WIDTH / 2 > 0 and xs[-1] + shapes.SYMBOL_WIDTH / 2 < shapes.CARD_WIDTH


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_card_picture_has_its_symbols_inside_the_card(theme):
    for card in DECK:
        picture = shapes.card_picture(card, theme)
        assert picture.title == card.name
        expected = 1 if theme == "printable" else card.number
        assert len(picture.symbols) == expected
        assert sum(1 for i in picture.items if isinstance(i, shapes.Shape) and i.role == "symbol") == expected
        for x, y, w, h in picture.symbols:
            assert x > 0 and x + w < shapes.CARD_WIDTH and y > 0 and y + h < shapes.CARD_HEIGHT


def test_classic_shading_solid_striped_open():
    theme = get_theme("classic")
    for card in DECK:
        items = shapes.card_picture(card, theme).items
        symbols = [i for i in items if isinstance(i, shapes.Shape) and i.role == "symbol"]
        stripes = [i for i in items if isinstance(i, shapes.Lines)]
        color = theme.colors[card.color]
        assert all(s.stroke == color for s in symbols)
        if card.shading == "solid":
            assert all(s.fill == color for s in symbols) and not stripes
        elif card.shading == "striped":
            assert all(s.fill is None for s in symbols) and len(stripes) == card.number
            assert all(line.stroke == color for line in stripes)
        else:
            assert all(s.fill is None for s in symbols) and not stripes


def test_printable_theme_maps_each_feature_one_to_one():
    theme = get_theme("printable")
    looks = {card: theme.printable_look(card) for card in DECK}
    assert len({tuple(sorted(look.items())) for look in looks.values()}) == 81
    for feature in ("outer color", "outer symbol", "inner shape", "inner color"):
        assert len({look[feature] for look in looks.values()}) == 3
    assert {look["outer color"] for look in looks.values()} == {"purple", "yellow", "green"}
    assert {look["outer symbol"] for look in looks.values()} == {"circle", "square", "hexagon"}
    assert {look["inner shape"] for look in looks.values()} == {"triangle", "rectangle", "diamond"}
    assert {look["inner color"] for look in looks.values()} == {"orange", "cyan", "red"}

    def printable_set(a, b, c):
        return all(len({looks[a][f], looks[b][f], looks[c][f]}) != 2 for f in looks[a])

    for a, b, c in itertools.combinations(DECK[::3], 3):
        assert printable_set(a, b, c) == is_set(a, b, c)
    picture = shapes.card_picture("2RTO", theme)
    assert "yellow circle with a cyan rectangle inside" in picture.description
    with pytest.raises(ValueError, match="not a printable-deck theme"):
        get_theme("classic").printable_look(DECK[0])


def test_colorblind_colors_stay_apart_under_every_color_vision_deficiency():
    visions = ["normal", "protanopia", "deuteranopia", "tritanopia"]
    cb = get_theme("colorblind").colors
    for vision in visions:
        for a, b in itertools.combinations(["red", "green", "purple"], 2):
            assert color_distance(cb[a], cb[b], vision) > 45, (vision, a, b)
    classic = get_theme("classic").colors
    # The check has teeth: the classic red and green are close for a protanope.
    assert color_distance(classic["red"], classic["green"], "protanopia") < 30


def test_color_simulation_basics_and_errors():
    assert simulate("#ffffff", "normal")[0] == pytest.approx(100, abs=0.1)
    assert simulate("#000", "tritanopia")[0] == pytest.approx(0, abs=0.1)
    assert color_distance("#123456", "#123456", "deuteranopia") == 0
    with pytest.raises(ValueError, match="vision must be one of"):
        simulate("#ffffff", "monochrome")
    with pytest.raises(ValueError, match="expected a color"):
        simulate("red")


def test_get_theme_by_name_or_object_and_errors():
    assert get_theme(" Classic ") is THEMES["classic"]
    mine = Theme("mine", {"red": "#f00", "green": "#0f0", "purple": "#f0f"})
    assert get_theme(mine) is mine
    assert shapes.card_picture("1RSO", mine).items[1].fill == "#f00"
    with pytest.raises(ValueError, match="'classic', 'colorblind', 'printable'"):
        get_theme("neon")


# -- geometry: layouts -------------------------------------------------------------------------


@pytest.mark.parametrize("count", [9, 12, 15, 18, 21])
def test_table_grids_grow_by_columns_of_three(count):
    rects, width, height = shapes.grid(count, rows=3, order="columns", scale=0.9)
    assert len(rects) == count
    columns = count // 3
    assert len({x for x, *_ in rects}) == columns and len({y for _, y, *_ in rects}) == 3
    # Positions run down the columns: 0, 1, 2 are the first column.
    assert rects[0][0] == rects[1][0] == rects[2][0] < rects[3][0]
    for (x1, y1, w1, h1), (x2, y2, w2, h2) in itertools.combinations(rects, 2):
        assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1
    assert all(x + w < width and y + h < height for x, y, w, h in rects)
    # Margins of half a gap plus 4 units around the grid, one gap between neighbours.
    assert width == pytest.approx(0.9 * (columns * (shapes.CARD_WIDTH + shapes.CARD_GAP) + 8))
    assert height == pytest.approx(0.9 * (3 * (shapes.CARD_HEIGHT + shapes.CARD_GAP) + 8))


def test_grid_errors():
    with pytest.raises(ValueError, match="cannot hold 7 cards"):
        shapes.grid(7, rows=2, columns=3)
    with pytest.raises(ValueError, match="order must be"):
        shapes.grid(3, order="diagonal")
    with pytest.raises(ValueError, match="0 or more"):
        shapes.grid(-1)


def test_scene_checks_highlights_and_letters():
    with pytest.raises(ValueError, match="between 0 and 2"):
        shapes.scene(DECK[:3], highlight={5: "selected"})
    with pytest.raises(ValueError, match="a highlight is one of"):
        shapes.scene(DECK[:3], highlight={0: "glow"})
    with pytest.raises(ValueError, match="one per card"):
        shapes.scene(DECK[:3], letters=["a"])
    layout = shapes.scene([DECK[0], None, DECK[2]], slots=6, rows=3, order="columns")
    assert [p.position for p in layout.cards] == [0, 2] and len(layout.rects) == 6


# -- SVG ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_card_svg_is_well_formed_with_one_title_and_the_right_symbols(theme):
    for card in DECK:
        svg = card_svg(card, theme=theme)
        root = parse(svg)
        assert root.tag == SVG + "svg"
        titles = list(root.iter(SVG + "title"))
        assert [t.text for t in titles] == [card.name]
        symbols = classes(root, "setw-symbol")
        assert len(symbols) == (1 if theme == "printable" else card.number)
        assert len(classes(root, "setw-stripes")) == (
            card.number if card.shading == "striped" and theme != "printable" else 0
        )


def test_card_svg_size_and_repr_svg():
    root = parse(card_svg("3GTS", width=300))
    assert float(root.get("width")) == 300
    assert float(root.get("height")) == pytest.approx(300 * 136 / 206, abs=0.01)
    assert Card.parse("3GTS")._repr_svg_() == card_svg("3GTS")
    with pytest.raises(ValueError, match="width is a number of pixels"):
        card_svg("3GTS", width=0)
    with pytest.raises(ValueError, match="card code"):
        card_svg("9XYZ")


def test_cards_svg_grid_titles_letters_and_highlights():
    cards = DECK[:12]
    svg = cards_svg(
        cards, columns=4, letters="qwerasdfzxcv", highlight={0: "selected", 5: "odd"}, theme="colorblind"
    )
    root = parse(svg)
    groups = classes(root, "setw-card")
    assert len(groups) == 12
    assert [g.find(SVG + "title").text for g in groups] == [c.name for c in cards]
    assert len(list(root.iter(SVG + "title"))) == 12
    for group, card in zip(groups, cards):
        assert len(classes(group, "setw-symbol")) == card.number
    letters = [t.text for t in root.iter(SVG + "text")]
    assert letters == list("QWERASDFZXCV")
    assert {g.get("data-position"): g.get("data-highlight") for g in groups if g.get("data-highlight")} == {
        "0": "selected",
        "5": "odd",
    }
    assert len(classes(root, "setw-frame")) == 2
    # Four columns: the fifth card starts a new row.
    xs = [re.match(r"translate\(([\d.]+) ([\d.]+)\)", g.get("transform")).groups() for g in groups]
    assert xs[4][0] == xs[0][0] and float(xs[4][1]) > float(xs[0][1])
    assert root.get("aria-label").startswith("12 cards: ")


def test_cards_svg_accepts_codes_and_gaps_and_rejects_one_card():
    root = parse(cards_svg(["1RSO", None, "3POD"]))
    assert [g.get("data-code") for g in classes(root, "setw-card")] == ["1RSO", "3POD"]
    with pytest.raises(TypeError, match="wrap one card in a list"):
        cards_svg(Card.parse("1RSO"))
    with pytest.raises(TypeError, match="wrap one card in a list"):
        cards_svg("1RSO")


def test_show_and_cards_html_for_notebooks_and_reports():
    row = show(["1RSO", "2GTS", "3POD"], letters="abc")
    assert isinstance(row, CardRow) and row._repr_svg_() == row.svg
    assert len(list(parse(row.svg).iter(SVG + "title"))) == 3
    html = cards_html(["1RSO", "2GTS"], caption="Two <cards>")
    figure = parse(html)
    assert figure.tag == "figure" and figure.get("class") == "setw-figure"
    assert figure[0].tag == SVG + "svg" and len(list(figure.iter(SVG + "title"))) == 2
    assert figure.find("figcaption").text == "Two <cards>"
    assert repr(row) == "CardRow([1RSO, 2GTS, 3POD])"


def test_path_d_writes_short_svg_commands():
    assert path_d((("M", 1.0, 2.5), ("L", 3.333, -0.0), ("C", 1, 2, 3, 4, 5, 6), ("Z",))) == (
        "M1 2.5 L3.33 0 C1 2 3 4 5 6 Z"
    )


# -- the canvas painter ------------------------------------------------------------------------


def test_canvas_painter_draws_the_same_scene_as_the_svg():
    cards = DECK[::7][:12]
    layout = shapes.scene(
        cards, rows=3, order="columns", letters=list("qazwsxedcrfv"), highlight={1: "hint"}, scale=0.9
    )
    rec = CommandRecorder()
    paint_scene(rec, layout)
    assert rec.commands[0] == ("clear", ())
    # Each card is moved into place and scaled, inside save/restore.
    assert rec.calls("translate") == [(round(p.x, 2), round(p.y, 2)) for p in layout.cards]
    assert rec.calls("scale") == [(0.9,)] * 12
    assert rec.count("save") == rec.count("restore") == 12
    assert [args[0] for args in rec.calls("fill_text")] == list("QAZWSXEDCRFV")
    # One outline per symbol, one stroke of stripes per striped symbol, one card face and frame.
    svg_root = parse(scene_svg(layout))
    svg_paths = len([e for e in svg_root.iter(SVG + "path")])
    assert rec.count("begin_path") == svg_paths
    symbol_strokes = sum(c.number for c in cards) + sum(c.number for c in cards if c.shading == "striped")
    assert rec.count("stroke") == symbol_strokes + 12 + 1
    # The colors painted are the theme's colors of these cards.
    used = {args[0] for name, args in rec.commands if name in ("set fill_style", "set stroke_style")}
    theme = get_theme("classic")
    assert {theme.colors[c.color] for c in cards} <= used


def test_canvas_painter_sends_one_message_per_redraw(monkeypatch):
    from ipycanvas import Canvas
    from ipycanvas.canvas import _CANVAS_MANAGER

    sent = []
    monkeypatch.setattr(_CANVAS_MANAGER, "_send_custom", lambda command, buffers=[]: sent.append(command))
    canvas = Canvas(width=800, height=400)
    paint_scene(canvas, shapes.scene(DECK[:12], rows=3, order="columns", scale=0.9, background="#eee"))
    assert len(sent) == 1
    assert len(sent[0]) > 300  # hundreds of commands, in one batch


def test_recorder_counts_and_rejects_private_names():
    rec = CommandRecorder()
    rec.fill_style = "red"
    rec.fill_rect(0, 0, 1, 1)
    assert rec.count("set fill_style") == 1 and rec.calls("fill_rect") == [(0, 0, 1, 1)]
    with pytest.raises(AttributeError):
        rec._private  # noqa: B018


def test_every_set_is_three_distinct_pictures():
    # Different cards never share a picture in any theme (the themes keep the game playable).
    for theme in THEMES:
        pictures = {card_svg(c, theme=theme).split("</desc>")[1] for c in DECK}
        assert len(pictures) == 81, theme
    assert len(find_sets(DECK)) == 1080


@pytest.mark.parametrize("theme", ["classic", "colorblind", "printable"])
def test_the_corner_letter_keeps_clear_of_the_symbols(theme):
    """The widest bold capital (about 0.95 of its size wide) must not touch any symbol's outline."""
    label = next(
        i
        for i in shapes.card_items(shapes.card_picture(DECK[0], theme), theme, "w")
        if isinstance(i, shapes.Label)
    )
    right, top = label.x + 0.95 * label.size, label.y - 0.75 * label.size
    margin = shapes.OUTLINE_WIDTH / 2 + 2
    for card in DECK:
        for x, y, _w, h in shapes.card_picture(card, theme).symbols:
            overlaps_across = x - margin < right
            overlaps_down = y - margin < label.y and top < y + h + margin
            assert not (overlaps_across and overlaps_down), (
                f"{card}: letter box ends at {right}, symbol at {x}"
            )
