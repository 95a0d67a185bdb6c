"""A Board shown in a browser, and its twin in the test process.

The page's notebook deals ``Game(seed=...)``; :class:`BoardPage` deals the same
seeded game into a Board of its own (widgets run without a browser) and plays
the same moves on it, so it knows which card is where, which three form a SET,
and what the status and score lines must say.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from setwidgets import Game
from setwidgets.widgets import Board

from .harness import NotebookPage, python_cells, rgb
from .painted import CLASSIC, assert_card_shown

TABLE = rgb(CLASSIC.table)
"""The color of the table between the cards."""


def board_cells(seed: int) -> list[str]:
    """A notebook that shows ``Board(Game(seed=seed))`` and prints its table and card rectangles as JSON."""
    return python_cells(
        f"""
        from setwidgets import Game
        from setwidgets.widgets import Board

        game = Game(seed={seed})
        board = Board(game)
        board
        """,
        """
        import json

        print(json.dumps({"table": [card.code for card in game.table], "rects": board.card_rects}))
        """,
    )


BUTTON_MOVES = {"SET!": "call", "No SET here": "no_set", "Hint": "hint", "New game": "new_game"}
"""The Board method each button's label stands for."""


def open_board(notebook_page: Callable[..., NotebookPage], seed: int) -> BoardPage:
    """Open a notebook showing ``Board(Game(seed=seed))``; check that it deals and lays out like the twin."""
    nb = notebook_page(f"board_seed{seed}.ipynb", board_cells(seed))
    page = BoardPage(nb, seed)
    printed = json.loads(nb.cell_output(1))
    assert printed["table"] == [card.code for card in page.twin.game.table]
    assert [tuple(r) for r in printed["rects"]] == [tuple(r) for r in page.rects]
    assert nb.canvas_size(page.canvas) == page.twin_size()
    return page


class BoardPage:
    """The notebook's board in the browser, and its twin in the test process."""

    def __init__(self, nb: NotebookPage, seed: int, selector: str = ".setw-board canvas") -> None:
        self.nb = nb
        self.twin = Board(Game(seed=seed))
        self.canvas: Any = nb.canvas(selector)
        nb.wait_painted(self.canvas, min_pixels=10_000, background=TABLE)

    @property
    def rects(self) -> list[tuple[float, float, float, float]]:
        return self.twin.card_rects

    def click(self, position: int) -> None:
        """Click the middle of a card in the browser, and select the same card on the twin."""
        self.nb.click_rect_centre(self.canvas, self.rects[position])
        self.twin.select(position)

    def click_button(self, label: str) -> None:
        """Click a button under the board in the browser, and make the button's move on the twin.

        The twin calls the method by name, not through its own button, so a button that is
        not wired fails in the browser however the twin is built.
        """
        self.nb.click_button(label, within=".setw-board")
        getattr(self.twin, BUTTON_MOVES[label])()

    def twin_size(self) -> tuple[int, int]:
        """The canvas size the twin draws, in canvas pixels."""
        return round(self.twin.canvas.width), round(self.twin.canvas.height)

    def wait_size(self, timeout: float = 15.0) -> tuple[int, int]:
        """Wait until the browser's canvas has the twin's size (a new column widens it); return it."""
        width, height = self.twin_size()
        self.nb.page.wait_for_function(
            "([el, w, h]) => el.width === w && el.height === h",
            arg=[self.canvas.element_handle(), width, height],
            timeout=timeout * 1000,
        )
        return self.nb.canvas_size(self.canvas)

    def digests(self) -> list[int]:
        return [self.nb.digest(self.canvas, rect) for rect in self.rects]

    def assert_table_shown(self) -> None:
        for position, card in enumerate(self.twin.game.table):
            assert_card_shown(self.nb, self.canvas, self.rects[position], card, where=f"card {position}")

    def status(self) -> str:
        return self.nb.text(".setw-board .setw-status")

    def wait_status(self, old: str, contains: str = "") -> str:
        """The status line once it has changed from ``old`` (and contains ``contains``)."""
        return self.nb.wait_text(".setw-board .setw-status", contains, differs_from=old)

    def scores(self, expected: str = "") -> str:
        """The score line, once it contains ``expected`` (its update may come after the status line's)."""
        return self.nb.wait_text(".setw-board .setw-scores", expected)
