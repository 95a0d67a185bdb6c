"""LinesExplorer and PlaneBuilder in a real JupyterLab: cards and lines on the canvas, clicks and dropdowns.

The test process builds the same widgets (they run without a browser) and makes the
same moves on them, so it knows where each card and each line is drawn; the browser's
pixels and text must agree.

A line is a stroke at 80 % opacity: where it crosses the table between two cards its
pixels are the line's color blended with the table's.
"""

from __future__ import annotations

import json
import time

import pytest

from setwidgets import FEATURES, Card
from setwidgets.draw.lines import Stroke
from setwidgets.widgets import LinesExplorer, PlaneBuilder

from . import boardpage
from .harness import NotebookPage, python_cells, rgb
from .painted import CLASSIC, Still, around, assert_card_shown, assert_frames

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser

LINES = ".setw-lines"
PLANE = ".setw-plane"
ALPHA = 0.8


def geometry_cells() -> list[str]:
    return python_cells(
        """
        from setwidgets.widgets import LinesExplorer, PlaneBuilder

        explorer = LinesExplorer()
        explorer
        """,
        """
        builder = PlaneBuilder("1RSO", "2GTS", "1RSS")
        builder
        """,
        """
        import json

        print(json.dumps({"explorer": explorer.card_rects, "builder": builder.card_rects}))
        """,
    )


def blend(color: str, under: str) -> tuple[int, int, int]:
    """The color of a line pixel drawn over ``under``."""
    return tuple(round(ALPHA * c + (1 - ALPHA) * u) for c, u in zip(rgb(color), rgb(under)))


def midpoints(stroke: Stroke) -> list[tuple[float, float]]:
    """The middle of each segment of a stroke: between two cards, over the table for a straight line."""
    return [((x1 + x2) / 2, (y1 + y2) / 2) for (x1, y1), (x2, y2) in zip(stroke.points, stroke.points[1:])]


# Between two cards a line crosses the table, or the frames of framed cards.
UNDER = (CLASSIC.table, *(frame for frame, _tint in CLASSIC.highlights.values()))


def line_pixels(nb: NotebookPage, canvas, stroke: Stroke, point: tuple[float, float]) -> int:
    """How many pixels near ``point`` have the stroke's color over the table (or over a frame)."""
    x, y = point
    masks = [
        nb.color_mask(canvas, blend(stroke.color, under), (x - 3, y - 3, 7, 7), tolerance=24)
        for under in UNDER
    ]
    return sum(any(mask[r][c] == "#" for mask in masks) for r in range(len(masks[0])) for c in range(7))


def assert_lines_drawn(nb: NotebookPage, canvas, strokes: list[Stroke], timeout: float = 10.0) -> None:
    """Every straight stroke shows its color between its cards (bent ones cross cards there).

    Within ``timeout`` seconds: on a loaded machine the frames may be painted a moment before the
    lines (CI once read a line's pixels right after the centre's frame showed, and found none).
    """
    deadline = time.monotonic() + timeout
    for stroke in strokes:
        if len({x for x, _ in stroke.points}) > 1 and len({y for _, y in stroke.points}) > 1:
            continue  # a diagonal's midpoints lie in the corners between four cards; rows and columns suffice
        for point in midpoints(stroke):
            while (found := line_pixels(nb, canvas, stroke, point)) < 20 and time.monotonic() < deadline:
                nb.page.wait_for_timeout(200)
            assert found >= 20, f"the line {stroke.codes} is not drawn at {point} (after {timeout:.0f} s)"


def assert_no_line_at(nb: NotebookPage, canvas, strokes: list[Stroke]) -> None:
    for stroke in strokes:
        for point in midpoints(stroke):
            assert line_pixels(nb, canvas, stroke, point) == 0, (
                f"a line {stroke.codes} is still drawn at {point}"
            )


def pick(nb: NotebookPage, root: str, picker: int, feature: str, value: object) -> None:
    dropdown = (
        nb.page.locator(f"{root} .setw-picker").nth(picker).locator("select").nth(FEATURES.index(feature))
    )
    dropdown.scroll_into_view_if_needed()
    dropdown.select_option(label=str(value))


@pytest.fixture
def page(notebook_page) -> NotebookPage:
    nb = notebook_page("geometry.ipynb", geometry_cells())
    for root in (LINES, PLANE):
        nb.wait_painted(nb.canvas(f"{root} canvas"), min_pixels=10_000, background=rgb(CLASSIC.table))
    return nb


def test_a_click_draws_the_lines_through_a_card_and_a_second_click_their_line(page: NotebookPage) -> None:
    nb, twin = page, LinesExplorer()
    printed = json.loads(nb.cell_output(2))
    assert [tuple(r) for r in printed["explorer"]] == [tuple(r) for r in twin.card_rects]
    canvas = nb.canvas(f"{LINES} canvas")
    rects = twin.card_rects
    still = Still(nb, canvas)  # the canvas read once for its cards and frames
    for position, card in enumerate(twin.space.cells):
        assert_card_shown(still, canvas, rects[position], card, where=f"card {position}")
    assert_frames(still, canvas, rects, {})
    assert "Click a card" in nb.text(f"{LINES} .setw-lines-text")

    nb.click_rect_centre(canvas, rects[4])  # the centre of the board: two red solid squiggles
    twin.choose(twin.space.cells[4])
    nb.wait_color(canvas, CLASSIC.highlights["selected"][0], around(rects[4]), min_pixels=100)
    text = nb.wait_text(f"{LINES} .setw-lines-text", "4 lines pass through two red solid squiggles (2RSS)")
    assert text.splitlines()[1:] == twin.text.splitlines()[1:]
    assert len(twin.strokes) == 4 and len({s.color for s in twin.strokes}) == 4
    assert_lines_drawn(nb, canvas, twin.strokes)
    assert_frames(nb, canvas, rects, {4: "selected"})
    nb.screenshot("geometry-01-lines-through-a-card", selector=LINES)

    through_centre = twin.strokes
    nb.click_rect_centre(canvas, rects[0])
    twin.choose(twin.space.cells[0])
    nb.wait_text(f"{LINES} .setw-lines-text", "The line through 2RSS and 1RSO has the third card")
    assert_frames(nb, canvas, rects, {0: "selected", 4: "selected"})
    # The diagonal through both stays; the row and column through the centre are gone.
    gone = [s for s in through_centre if s.codes[1:] != (twin.lines[0][1].code, twin.lines[0][2].code)]
    assert_no_line_at(nb, canvas, [s for s in gone if len({y for _, y in s.points}) == 1])
    # The cards off the line are drawn as before, untouched by any stroke.
    on_line = set(twin.lines[0])
    for position, card in enumerate(twin.space.cells):
        if card not in on_line:
            assert_card_shown(nb, canvas, rects[position], card, where=f"card {position}")

    nb.page.locator(f"{LINES} .setw-parallel input").check()
    twin.parallel = True
    text = nb.wait_text(f"{LINES} .setw-lines-text", "3 parallel lines")
    assert text.splitlines()[0] == twin.text.splitlines()[0]
    assert len(text.splitlines()) == 4
    nb.screenshot("geometry-02-a-parallel-class", selector=LINES)


def test_the_plane_builder_shows_the_magic_square_its_lines_and_why_a_set_spans_none(
    page: NotebookPage,
) -> None:
    nb, twin = page, PlaneBuilder("1RSO", "2GTS", "1RSS")
    printed = json.loads(nb.cell_output(2))
    assert [tuple(r) for r in printed["builder"]] == [tuple(r) for r in twin.card_rects]
    canvas = nb.canvas(f"{PLANE} canvas")
    rects = twin.card_rects
    still = Still(nb, canvas)  # the canvas read once for its cards and frames
    for position, card in enumerate(twin.plane):
        highlight = twin.highlights.get(position)
        assert_card_shown(still, canvas, rects[position], card, where=f"card {position}", highlight=highlight)
    assert_frames(still, canvas, rects, {0: "selected", 1: "selected", 3: "selected"})
    assert nb.text(f"{PLANE} .setw-plane-text").startswith(twin.text.splitlines()[0])

    nb.click_rect_centre(canvas, rects[8])  # the bottom right card: its four lines in the plane
    twin.choose(twin.plane[8])
    nb.wait_color(canvas, CLASSIC.highlights["hint"][0], around(rects[8]), min_pixels=100)
    text = nb.wait_text(f"{PLANE} .setw-plane-text", f"through {twin.plane[8].name}")
    assert text.splitlines()[1:] == twin.text.splitlines()[1:] and len(twin.lines) == 4
    assert_lines_drawn(nb, canvas, twin.strokes)
    assert_frames(nb, canvas, rects, {0: "selected", 1: "selected", 3: "selected", 8: "hint"})
    nb.screenshot("geometry-03-plane-and-lines", selector=PLANE)

    # The keyboard: the canvas has the focus after the click; Escape draws no line, "e" the centre's.
    nb.page.keyboard.press("Escape")
    twin.press("Escape")
    nb.wait_text(f"{PLANE} .setw-plane-text", "Click a card to draw its lines")
    nb.wait_color(canvas, CLASSIC.highlights["hint"][0], around(rects[8]), min_pixels=0)
    nb.page.keyboard.press("e")
    twin.press("e")
    assert twin.chosen == twin.plane[4]
    nb.wait_text(f"{PLANE} .setw-plane-text", f"through {twin.plane[4].name}")
    nb.wait_color(canvas, CLASSIC.highlights["hint"][0], around(rects[4]), min_pixels=100)
    assert_lines_drawn(nb, canvas, twin.strokes)

    # Card 3 becomes the third card of cards 1 and 2, one dropdown at a time: 3POD.
    for feature, value in (("number", 3), ("color", "purple"), ("shading", "open"), ("shape", "diamond")):
        pick(nb, PLANE, 2, feature, value)
    twin.set_cards("1RSO", "2GTS", "3POD")
    assert twin.cards[2] == Card.parse("3POD") and twin.plane is None
    text = nb.wait_text(f"{PLANE} .setw-plane-text", "No plane:")
    assert text.splitlines()[0] == twin.text.splitlines()[0]
    assert "1RSO, 2GTS and 3POD form a SET" in text
    nb.wait_color(canvas, CLASSIC.highlights["odd"][0], around(twin.card_rects[2]), min_pixels=100)
    assert_frames(nb, canvas, twin.card_rects, {0: "odd", 1: "odd", 2: "odd"})
    assert_lines_drawn(nb, canvas, twin.strokes)
    nb.screenshot("geometry-04-no-plane", selector=PLANE)
