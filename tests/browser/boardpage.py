"""A Board shown in a browser, and its twin in the test process.

The page's notebook deals ``Game(seed=...)``; :class:`BoardPage` deals the same
seeded game into a Board of its own (widgets run without a browser) and plays
the same moves on it, so it knows which card is where, which three form a SET,
and what the status and score lines must say.
"""

from __future__ import annotations

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

    def digests(self) -> list[int]:
        return [self.nb.digest(self.canvas, rect) for rect in self.rects]

    def assert_table_shown(self) -> None:
        for position, card in enumerate(self.twin.game.table):
            assert_card_shown(self.nb, self.canvas, self.rects[position], card, where=f"card {position}")

    def status(self) -> str:
        return self.nb.text(".setw-board .setw-status")

    def scores(self, expected: str = "") -> str:
        """The score line, once it contains ``expected`` (its update may come after the status line's)."""
        return self.nb.wait_text(".setw-board .setw-scores", expected)
