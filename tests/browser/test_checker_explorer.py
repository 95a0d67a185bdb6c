"""MagicRuleChecker and ThirdCardExplorer in a real JupyterLab: pick cards with the dropdowns.

The test changes one dropdown at a time, as a student would, and checks the
sentence, the per-feature lines and the cards on the canvas against the same
widget built in the test process.
"""

from __future__ import annotations

import pytest

from setwidgets import FEATURES, explain, mini_deck, third_card
from setwidgets.widgets import MagicRuleChecker, ThirdCardExplorer
from setwidgets.widgets.checker import feature_line

from . import boardpage
from .harness import NotebookPage, python_cells
from .painted import CLASSIC, Still, around, assert_card_shown, assert_frames

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser


def pick(nb: NotebookPage, root: str, picker: int, feature: str, value: object) -> None:
    """Choose ``value`` in one feature's dropdown of the ``picker``-th card picker under ``root``."""
    dropdown = (
        nb.page.locator(f"{root} .setw-picker").nth(picker).locator("select").nth(FEATURES.index(feature))
    )
    dropdown.scroll_into_view_if_needed()
    dropdown.select_option(label=str(value))


def assert_cards_shown(nb: NotebookPage, canvas, widget) -> None:
    """Every card of the widget is on the canvas at its place, with the frames the widget wants."""
    highlights = widget.highlights
    cards = (
        [*widget.cards, widget.third]
        if isinstance(widget, ThirdCardExplorer) and widget.third
        else widget.cards
    )
    assert len(widget.card_rects) == len(cards)
    still = Still(nb, canvas)  # the canvas read once for all its cards and frames
    for position, (card, rect) in enumerate(zip(cards, widget.card_rects)):
        assert_card_shown(
            still, canvas, rect, card, where=f"card {position + 1}", highlight=highlights.get(position)
        )
    assert_frames(still, canvas, widget.card_rects, highlights)


def test_the_checker_explains_the_cards_picked_in_the_browser(notebook_page) -> None:
    nb = notebook_page(
        "checker.ipynb",
        python_cells(
            """
            from setwidgets.widgets import MagicRuleChecker

            MagicRuleChecker(["1RSO", "2GSS", "3PSD"])
            """
        ),
    )
    twin = MagicRuleChecker(["1RSO", "2GSS", "3PSD"])
    canvas = nb.canvas(".setw-checker canvas")
    nb.wait_painted(canvas, min_pixels=5000)
    verdict = nb.text(".setw-checker .setw-verdict")
    assert verdict == str(explain("1RSO", "2GSS", "3PSD")) == str(twin.verdict)
    assert verdict.startswith("A SET: all different numbers")
    assert nb.text(".setw-checker .setw-features").splitlines() == [f"✓ {line}" for line in twin.lines]
    assert_cards_shown(nb, canvas, twin)
    nb.screenshot("checker-01-a-set")

    # Card 2 turns red: two are red and one is purple.
    before = nb.digest(canvas)
    pick(nb, ".setw-checker", 1, "color", "red")
    twin.set_cards("1RSO", "2RSS", "3PSD")
    assert not twin.verdict.is_set
    assert (
        nb.wait_text(".setw-checker .setw-verdict", str(twin.verdict))
        == str(twin.verdict)
        == "Not a SET: two are red and one is purple."
    )
    # The verdict and the feature lines are two widgets, updated one after the other.
    lines = nb.wait_text(".setw-checker .setw-features", "✗ color").splitlines()
    expected = [f"{'✓' if fv.ok else '✗'} {feature_line(twin.verdict, fv)}" for fv in twin.verdict.features]
    assert lines == expected
    assert "✗ color: two are red and one is purple (card 3 is the odd one out)" in lines
    nb.wait_changed(canvas, before)
    nb.wait_color(canvas, twin.theme.highlights["odd"][0], around(twin.card_rects[2]), min_pixels=100)
    assert twin.highlights == {2: "odd"}
    assert_cards_shown(nb, canvas, twin)
    nb.screenshot("checker-02-two-red-one-purple")


def test_the_explorer_shows_the_third_card_of_the_two_picked(notebook_page) -> None:
    nb = notebook_page(
        "explorer.ipynb",
        python_cells(
            """
            from setwidgets.widgets import ThirdCardExplorer

            ThirdCardExplorer("1RSO", "2GSS")
            """
        ),
    )
    twin = ThirdCardExplorer("1RSO", "2GSS")
    canvas = nb.canvas(".setw-explorer canvas")
    nb.wait_painted(canvas, min_pixels=5000)
    third = third_card("1RSO", "2GSS")
    assert twin.third == third
    assert nb.text(".setw-explorer .setw-third") == f"The third card is {third.name}."
    assert_cards_shown(nb, canvas, twin)
    nb.screenshot("explorer-01-third-card")

    # Card 2 becomes one green solid squiggle: the numbers now agree, so the third has one symbol too.
    before = nb.digest(canvas)
    pick(nb, ".setw-explorer", 1, "number", 1)
    twin.set_cards("1RSO", "1GSS")
    third = third_card("1RSO", "1GSS")
    assert third.number == 1 and twin.third == third
    nb.wait_text(".setw-explorer .setw-third", third.name)
    nb.wait_changed(canvas, before)
    # The answer and the reasons are two widgets; the reasons end with the vectors' sum mod 3.
    nb.wait_text(".setw-explorer .setw-reasons", twin.text.splitlines()[-1])
    assert_cards_shown(nb, canvas, twin)
    nb.screenshot("explorer-02-numbers-agree")

    # The same card twice has no third card, and its place on the canvas is cleared.
    third_place = around(twin.card_rects[2])
    for feature in ("color", "shape"):
        pick(nb, ".setw-explorer", 1, feature, getattr(twin.cards[0], feature))
    twin.set_cards("1RSO", "1RSO")
    assert twin.third is None
    text = nb.wait_text(".setw-explorer .setw-third", "Pick two different cards")
    assert text == twin.text.splitlines()[0]
    assert_cards_shown(nb, canvas, twin)
    assert nb.ink(canvas, third_place) == 0, "the third card's place should be empty"
    nb.screenshot("explorer-03-same-card-twice")


def test_the_checker_checks_three_cards_clicked_on_its_table(notebook_page) -> None:
    nb = notebook_page(
        "checker_table.ipynb",
        python_cells(
            """
            from setwidgets import mini_deck
            from setwidgets.widgets import MagicRuleChecker

            MagicRuleChecker(table=mini_deck()[:9])
            """
        ),
    )
    twin = MagicRuleChecker(table=mini_deck()[:9])
    table = nb.canvas("canvas.setw-table-canvas")
    checker = nb.canvas("canvas.setw-checker-canvas")
    nb.wait_painted(table, min_pixels=5000)
    nb.wait_painted(checker, min_pixels=5000)
    still = Still(nb, table)  # the table's canvas read once for all its cards and frames
    for position, (card, rect) in enumerate(zip(twin.table.cards, twin.table.card_rects)):
        assert_card_shown(
            still,
            table,
            rect,
            card,
            where=f"table card {position}",
            highlight=twin.table.highlights.get(position),
        )
    assert_frames(still, table, twin.table.card_rects, {0: "selected", 1: "selected", 2: "selected"})
    assert_cards_shown(nb, checker, twin)
    nb.screenshot("checker-table-01-first-three")

    def click_three(positions: tuple[int, int, int]) -> None:
        """Click the cards in the browser, pick them on the twin, and wait for the twin's verdict."""
        for position in positions:
            nb.click_rect_centre(table, twin.table.card_rects[position])
            twin.table.pick(position)
        assert nb.wait_text(".setw-checker .setw-verdict", str(twin.verdict)) == str(twin.verdict)

    # Click a, e, i on the table: a SET, framed on the table and in the checker.
    click_three((0, 4, 8))
    assert twin.verdict.is_set
    nb.wait_color(table, CLASSIC.highlights["selected"][0], around(twin.table.card_rects[8]), min_pixels=100)
    assert_frames(
        Still(nb, table), table, twin.table.card_rects, {0: "selected", 4: "selected", 8: "selected"}
    )
    assert_cards_shown(nb, checker, twin)
    nb.screenshot("checker-table-02-a-set-clicked")

    # Then a, b, d: not a SET, and the checker frames the odd cards out.
    click_three((0, 1, 3))
    assert not twin.verdict.is_set
    nb.wait_color(checker, CLASSIC.highlights["odd"][0], around(twin.card_rects[2]), min_pixels=100)
    assert_cards_shown(nb, checker, twin)
    nb.screenshot("checker-table-03-not-a-set-clicked")
