"""Keys stay with the widget: after a click on any of its controls, the keys it uses never reach JupyterLab.

JupyterLab's command mode acts on single letters (``r`` makes a raw cell, ``b`` inserts one,
``a`` too, ``x`` cuts). A widget's button keeps the focus once clicked; each widget therefore
hands the keyboard back to its cards after every control is used. For each widget with keys,
the test clicks each control, then presses every key the widget uses, and checks that the
notebook's cells are as they were (number, types, sources) and that the widget answered.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import boardpage
from .harness import NotebookPage, python_cells

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser

CARD_KEYS = list("qwerasdfzxcv")
SETUP = """
from setwidgets import Game
from setwidgets.widgets import Board, CardTable, LinesExplorer, PlaneBuilder, PuzzleBoard
"""
WIDGETS = {
    "board": (
        "board = Board(Game(players=['Ana', 'Ben'], seed=3), keys={'1': 'Ana', '2': 'Ben'})\nboard",
        ".setw-board",
        ["SET!", "No SET here", "Hint", "New game"],
        [*CARD_KEYS, " ", "?", "Escape", "1", "2"],
    ),
    "puzzle": ("puzzle = PuzzleBoard(seed=2)\npuzzle", ".setw-puzzle", ["New board", "Clear"], CARD_KEYS),
    "lines": (
        "lines = LinesExplorer(through=['1RSO', '1RSS'])\nlines",
        ".setw-lines",
        ["parallel lines"],
        # Escape chooses no card, then the letters choose two at a time: the last two stay chosen,
        # so that the parallel-lines box can be ticked again.
        ["Escape", *"abcdefghi", "a"],
    ),
    "plane": ("plane = PlaneBuilder()\nplane", ".setw-plane", ["select"], [*"abcdefghi", "Escape"]),
    "standings": (
        "import tempfile\nfrom setwidgets.competition import Competition\n"
        "from setwidgets.widgets import Standings\n"
        "event = Competition(tempfile.mkdtemp() + '/class.sqlite')\n"
        "for number in range(1, 10):\n    event.register(number, f'P{number}', 'A' if number < 5 else 'B')\n"
        "event.plan(rounds=2, seed=1)\nStandings(event)",
        ".setw-standings",
        ["Enter scores", "A"],
        list("12m"),
    ),
    "table": ("table = CardTable(Game(seed=5).table)\ntable", ".setw-table", [], [*"abcdefghijkl", "Escape"]),
}


def cells_now(nb: NotebookPage) -> list[tuple[str, str]]:
    """Each cell of the open notebook as (kind, source), read from the page."""
    return nb.page.evaluate(
        """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => [
            ['jp-CodeCell', 'jp-MarkdownCell', 'jp-RawCell'].find(k => cell.classList.contains(k)) || '?',
            cell.querySelector('.jp-InputArea-editor')?.textContent ?? ''])"""
    )


def use_control(nb: NotebookPage, root: str, control: str) -> None:
    """Click one of the widget's own controls: a button by its label, a checkbox by its words, a menu."""
    if control == "select":
        nb.page.locator(f"{root} select").first.focus()
        nb.page.locator(f"{root} select").first.select_option(index=1)
    elif control in {"parallel lines"}:
        nb.page.locator(f"{root} .setw-parallel input").click()
    else:
        nb.click_button(control, within=root)


def answered(nb: NotebookPage, root: str) -> Any:
    """What the widget shows besides its canvas: its text, which a key it takes changes."""
    return nb.page.locator(root).inner_text()


@pytest.mark.parametrize("name", list(WIDGETS))
def test_no_key_a_widget_uses_reaches_jupyterlab_after_any_of_its_controls(name, notebook_page) -> None:
    code, root, controls, keys = WIDGETS[name]
    # What holds the keys: the cards' canvas, or the standings form's field for the scores.
    keyed = "input[type=text]" if name == "standings" else "canvas"
    nb = notebook_page(f"keys_{name}.ipynb", python_cells(SETUP, code))
    nb.page.locator(f"{root} {keyed}").first.wait_for(timeout=30_000)
    before = cells_now(nb)
    assert len(before) == 2
    click_hint = nb.page.locator(f"{root} .setw-clickhint").first
    hint_line = nb.page.locator(f"{root} .setw-keyhint").first
    if keyed == "canvas":
        assert click_hint.is_visible(), "no line says to click the cards for the keys"
    for control in [None, *controls]:
        if control is None:
            nb.page.locator(f"{root} {keyed}").first.click(position={"x": 3, "y": 3})
        else:
            use_control(nb, root, control)
        nb.page.wait_for_timeout(500)  # the widget hands the keyboard back
        if keyed == "canvas":  # holding the keys: "click the cards" hides, the letters' key stays
            assert not click_hint.is_visible() and hint_line.is_visible(), hint_line.inner_text()
        shown = answered(nb, root)
        for key in keys:
            nb.page.keyboard.press(key)
        nb.page.wait_for_timeout(500)
        done = control or "a click"
        assert cells_now(nb) == before, f"after {done}, a key reached JupyterLab"
        assert nb.page.locator(f"{root} {keyed}:focus").count() == 1, (
            f"after {done}, the widget lost the keys"
        )
        if name in {"board", "puzzle"}:
            assert answered(nb, root) != shown, f"after {done}, the {name} did not answer its keys"
    nb.screenshot(f"keys-{name}")
