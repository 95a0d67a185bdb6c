"""Text alternatives and labels, without a browser: what a screen reader will be handed.

The browser side (axe-core over the lessons in JupyterLab) is tests/browser/test_accessibility.py.
Here: a card and a row of cards offer an HTML ``<img>`` whose ``alt`` names the cards, beside the
SVG; that SVG is what survives the grader's sanitiser, and it carries its names there too; the
card menus of every widget have a label.
"""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ElementTree
from html import unescape

import nbformat
import pytest

from setwidgets import Card
from setwidgets.draw import shapes
from setwidgets.draw.svg import card_html, card_svg, picture_html, scene_label, show

IMG = re.compile(
    r'<img class="setw-picture" alt="([^"]*)" width="([0-9.]+)" height="([0-9.]+)" [^>]*src="([^"]*)">$'
)


def img_parts(html: str) -> tuple[str, float, float, str]:
    """The alt text, width, height and decoded SVG of one ``<img>`` made by picture_html."""
    found = IMG.match(html)
    assert found, f"not one <img> with alt, width, height and src: {html[:200]}"
    prefix = "data:image/svg+xml;base64,"
    assert found[4].startswith(prefix)
    return (
        unescape(found[1]),
        float(found[2]),
        float(found[3]),
        base64.b64decode(found[4][len(prefix) :]).decode(),
    )


def test_a_card_shows_as_an_img_whose_alt_is_its_name_and_whose_picture_is_its_svg():
    card = Card(2, "red", "oval", "striped")
    alt, width, height, svg = img_parts(card._repr_html_())
    assert alt == "two red striped ovals" == card.name
    assert svg == card._repr_svg_() == card_svg(card)
    root = ElementTree.fromstring(svg)
    assert (width, height) == (float(root.get("width")), float(root.get("height")))
    # Inline (nbconvert's and the feedback's pages) the SVG names itself.
    assert root.get("role") == "img" and root.get("aria-label") == card.name
    assert card_html("3POD") == Card.parse("3POD")._repr_html_()


def test_every_card_of_the_deck_has_its_own_alt_text():
    from setwidgets.cards import full_deck

    alts = [img_parts(card._repr_html_())[0] for card in full_deck()]
    assert len(set(alts)) == 81 and all(re.fullmatch(r"(one|two|three) [a-z ]+", a) for a in alts)


def test_a_row_of_cards_says_how_many_each_card_its_letter_and_its_frame():
    row = show(["1RSO", "2GTS", "3POD"], letters="abc", highlight={0: "odd", 2: "found"})
    alt, _, _, svg = img_parts(row._repr_html_())
    assert (
        alt
        == row.alt
        == (
            "3 cards: a, one red solid oval (framed as the odd one out); b, two green striped squiggles; "
            "c, three purple open diamonds (framed as found)"
        )
    )
    assert svg == row._repr_svg_() == row.svg
    assert ElementTree.fromstring(svg).get("aria-label") == alt
    one = show(["1RSO"])
    assert one.alt == "1 card: one red solid oval"


def test_scene_label_names_each_kind_of_frame_in_words():
    labels = [scene_label(shapes.scene(["1RSO"], highlight={0: kind})) for kind in shapes.HIGHLIGHTS]
    assert all(re.fullmatch(r"1 card: one red solid oval \(framed[a-z ]*\)", label) for label in labels)
    assert len(set(labels)) == len(shapes.HIGHLIGHTS), f"two kinds of frame are said alike: {labels}"
    assert scene_label(shapes.scene(["1RSO"])) == "1 card: one red solid oval"


def test_alt_text_is_escaped_inside_the_attribute():
    html = picture_html(card_svg("1RSO"), 'a "quoted" <b>alt</b> & more')
    assert 'alt="a &quot;quoted&quot; &lt;b&gt;alt&lt;/b&gt; &amp; more"' in html
    assert img_parts(html)[0] == 'a "quoted" <b>alt</b> & more'


@pytest.mark.parametrize(
    ("svg", "alt", "error", "words"),
    [
        ("<div>no</div>", "x", TypeError, "picture_html() takes an SVG picture"),
        (None, "x", TypeError, "picture_html() takes an SVG picture"),
        (card_svg("1RSO"), "", ValueError, "picture_html() needs the words"),
        (card_svg("1RSO"), "   ", ValueError, "picture_html() needs the words"),
        (card_svg("1RSO"), None, ValueError, "picture_html() needs the words"),
    ],
)
def test_picture_html_refuses_what_is_not_a_picture_or_has_no_words(svg, alt, error, words):
    with pytest.raises(error, match=re.escape(words)):
        picture_html(svg, alt)


def output_of(obj) -> nbformat.NotebookNode:
    """The display data a notebook stores for ``obj`` (what IPython's formatters would give)."""
    data = {"text/plain": repr(obj), "image/svg+xml": obj._repr_svg_(), "text/html": obj._repr_html_()}
    return nbformat.v4.new_output("display_data", data=data)


@pytest.mark.parametrize("obj", [Card.parse("2GTS"), show(["1RSO", "2GTS", "3POD"], letters="abc")])
def test_the_graders_sanitiser_keeps_the_named_svg_and_the_img_it_writes_anew(obj):
    """The feedback and the Formgrader show the named <img> (its alt), which the grader writes anew
    from its words and a checked SVG; the SVG passes the sanitiser with its names too."""
    from setwidgets.grading.sanitize import inert_output

    kept = inert_output(output_of(obj))["data"]
    assert set(kept) == {"text/plain", "image/svg+xml", "text/html"}
    assert kept["text/html"] == obj._repr_html_() and 'alt="' in kept["text/html"]
    root = ElementTree.fromstring(kept["image/svg+xml"])
    names = [el.text for el in root.iter("{http://www.w3.org/2000/svg}title")]
    assert names and all(names)
    assert root.get("aria-label")


def test_nbconvert_html_shows_the_img_with_its_alt():
    """An exported notebook (nbconvert's HTML, as Voila and a saved page) shows the named <img>."""
    from nbconvert import HTMLExporter

    row = show(["1RSO", "2GTS", "3POD"])
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("show(...)", outputs=[output_of(row)]))
    page, _ = HTMLExporter().from_notebook_node(nb)
    assert f'<img alt="{row.alt}"' in page or f'alt="{row.alt}"' in page
    assert "No description has been provided" not in page  # nbconvert's stand-in for a missing alt


def test_every_card_menu_of_every_widget_has_a_label():
    from setwidgets.widgets import CardPicker, MagicRuleChecker, PlaneBuilder, ThirdCardExplorer

    widgets = [MagicRuleChecker(), ThirdCardExplorer(), PlaneBuilder(), CardPicker("1RSO")]
    for widget in widgets:
        pickers = widget.pickers if hasattr(widget, "pickers") else [widget]
        assert pickers, f"{type(widget).__name__} has no card menus"
        for picker in pickers:
            for feature, menu in picker.dropdowns.items():
                # ipywidgets writes the description as the <label for=...> of the <select>.
                assert menu.description == f"{picker.description} {feature}".strip()
                assert menu.style.description_width == "0px"  # the label takes no room on screen
    checker = widgets[0]
    assert [m.description for m in checker.pickers[1].dropdowns.values()] == [
        "Card 2 number",
        "Card 2 color",
        "Card 2 shape",
        "Card 2 shading",
    ]


def img_alts(page: str) -> list[str | None]:
    """The alt of every <img> of an HTML page, as a browser reads them."""
    from html.parser import HTMLParser

    alts: list[str | None] = []

    class Images(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "img":
                alts.append(dict(attrs).get("alt"))

    Images().feed(page)
    return alts


def test_a_chart_shows_as_an_img_whose_alt_says_what_it_shows_and_is_shown_once():
    """A lesson's matplotlib chart (setwidgets.draw.chart): an <img alt> with its PNG, in the notebook
    and in nbconvert's pages (Voila's and the feedback's templates pick the HTML the same way)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from nbconvert import HTMLExporter

    from setwidgets.draw import chart

    fig, ax = plt.subplots(figsize=(4, 2))
    ax.bar([0, 1], [2, 1])
    shown = chart(ax, 'Bar chart: two bars, 2 and 1 "high"')
    assert not plt.fignum_exists(fig.number), (
        "the figure is closed: the inline backend shows it no second time"
    )
    html = shown._repr_html_()
    assert html.startswith('<img class="setw-chart" alt="Bar chart: two bars, 2 and 1 &quot;high&quot;"')
    prefix = 'src="data:image/png;base64,'
    assert base64.b64decode(html.split(prefix)[1].rstrip('">')) == shown._repr_png_() == shown.png
    assert shown.png.startswith(b"\x89PNG")
    data = {"text/plain": repr(shown), "image/png": base64.b64encode(shown.png).decode(), "text/html": html}
    nb = nbformat.v4.new_notebook()
    nb.cells.append(
        nbformat.v4.new_code_cell("chart(...)", outputs=[nbformat.v4.new_output("display_data", data=data)])
    )
    for template in ("lab", "classic"):
        page, _ = HTMLExporter(template_name=template).from_notebook_node(nb)
        assert img_alts(page) == [shown.alt], template
        assert "No description has been provided" not in page


@pytest.mark.parametrize(
    ("figure", "alt", "error", "words"),
    [
        ("a figure", "words", TypeError, "chart() takes a matplotlib Figure or Axes to show; got str"),
        (None, "  ", ValueError, "chart() needs alt, the words a screen reader says for the chart"),
        (None, None, ValueError, "chart() needs alt"),
    ],
)
def test_chart_refuses_what_is_not_a_figure_or_has_no_words(figure, alt, error, words):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from setwidgets.draw import chart

    fig = plt.figure() if figure is None else figure
    with pytest.raises(error, match=re.escape(words)):
        chart(fig, alt)
    plt.close("all")


def controls_of(widget) -> list:
    """Every ipywidgets control inside ``widget`` (its children, theirs, and the widget's own parts)."""
    from ipywidgets import Box, DOMWidget

    seen, found, todo = set(), [], [widget]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, Box):
            todo.extend(item.children)
        # Parts kept as attributes (a board's buttons, a standings form) that a box shows.
        todo.extend(v for v in vars(item).values() if isinstance(v, DOMWidget))
        for value in vars(item).values():
            if isinstance(value, dict):
                todo.extend(v for v in value.values() if isinstance(v, DOMWidget))
    return found


def test_every_control_of_every_widget_has_a_programmatic_label():
    """A menu, a text box or a check box is named by its <label> (ipywidgets writes the description
    as one), a button by its words; a title (tooltip) alone is not enough for many screen readers."""
    from ipywidgets import Button, Checkbox, Dropdown, IntText, Select, Text, ToggleButtons
    from ipywidgets import widgets as ipw

    from setwidgets import Game
    from setwidgets.competition import Competition
    from setwidgets.widgets import (
        WIDGETS,
        Board,
        CardPicker,
        CardTable,
        LinesExplorer,
        MagicRuleChecker,
        PlaneBuilder,
        PuzzleBoard,
        Standings,
        ThirdCardExplorer,
        Timer,
    )  # fmt: skip

    event = Competition(":memory:")
    for n, name in enumerate(["Ada", "Ben", "Cleo", "Dev"], 1):
        event.register(n, name, "A" if n <= 2 else "B")
    event.plan(2, seed=1)
    made = {
        "Board": Board(Game(seed=1)),
        "CardPicker": CardPicker("1RSO"),
        "CardTable": CardTable(["1RSO", "2GTS", "3POD"]),
        "LinesExplorer": LinesExplorer(),
        "MagicRuleChecker": MagicRuleChecker(),
        "PlaneBuilder": PlaneBuilder(),
        "PuzzleBoard": PuzzleBoard(seed=1),
        "Standings": Standings(event),
        "ThirdCardExplorer": ThirdCardExplorer(),
        "Timer": Timer(),
    }
    # The class game's two views need a classroom service: tests/browser/test_accessibility.py
    # runs axe over them, around a real one.
    assert set(made) == set(WIDGETS) - {"ClassBoard", "ClassRoom"}
    labelled = (Dropdown, Select, Text, IntText, Checkbox, ipw.BoundedIntText, ipw.Textarea, ipw.IntSlider)
    unnamed = []
    for kind, widget in made.items():
        controls = controls_of(widget)
        assert any(isinstance(c, (Button, *labelled, ToggleButtons)) for c in controls) or kind in (
            "CardTable",
        ), f"{kind}: no control found, so nothing was checked"
        for control in controls:
            if isinstance(control, labelled) and not control.description.strip():
                unnamed.append(f"{kind}: {type(control).__name__} {control.tooltip or ''}")
            if isinstance(control, Button) and not control.description.strip():
                unnamed.append(f"{kind}: a button named only by its icon or title {control.tooltip!r}")
            if isinstance(control, ToggleButtons) and not all(str(o).strip() for o in control.options):
                unnamed.append(f"{kind}: a toggle without words")
            # The group's name (the KeyGuard module makes the buttons' box a group named by it).
            if isinstance(control, ToggleButtons) and not control.description.strip():
                unnamed.append(f"{kind}: toggle buttons {control.options} with no description")
    event.close()
    assert not unnamed, unnamed


def test_a_boards_words_say_which_cards_are_framed_as_its_picture_shows_them():
    """The frames a board draws (a pick, a hint, a miss's odd card) are said in the names a screen
    reader is handed (the list beside the canvas, and the canvas's own label made from it): the
    status line says "the framed card is part of a SET" and leaves the reader to find which."""
    from setwidgets import Game, find_sets
    from setwidgets.widgets import Board

    board = Board(Game(deck="mini", seed=2))
    cards = list(board.game.table)
    triple = [cards.index(card) for card in find_sets(cards)[0]]
    wrong = next(p for p in range(len(cards)) if p not in triple)

    def said() -> dict[int, str]:
        names = board.card_names
        assert board._names.value.count("<li>") == len(names)
        assert all(name in unescape(board._names.value) for name in names)
        return {p: name.split(" (", 1)[1].rstrip(")") for p, name in enumerate(names) if " (" in name}

    assert said() == {}
    board.select(triple[0])
    assert said() == {triple[0]: "framed as picked"}
    board.select(triple[1])
    board.select(wrong)
    assert board.status.startswith("Not a SET")
    assert said() == {p: "framed as the odd one out" for p, kind in board.highlights.items() if kind == "odd"}
    assert said(), "a miss frames its odd card"
    board.hint()
    assert board.status == "Hint: the framed card is part of a SET."
    hinted = [p for p, kind in board.highlights.items() if kind == "hint"]
    assert len(hinted) == 1 and said()[hinted[0]] == "framed as a hint"
    board.close()
