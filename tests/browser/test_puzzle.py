"""The PuzzleBoard in a real JupyterLab: its cards on the canvas, clicks on them, the "found" list.

The notebook shows ``PuzzleBoard(seed=SEED)`` with a practice record of its own.
The test process builds the same seeded board (widgets run without a browser)
and makes the same moves on it, so it knows which card is where, which three
form a SET, and what the lines around the table must say; the browser must
show exactly that.
"""

from __future__ import annotations

import itertools
import json

import pytest

from setwidgets import explain
from setwidgets.widgets import PracticeRecord, PuzzleBoard

from . import boardpage
from .boardpage import TABLE
from .harness import NotebookPage, python_cells
from .painted import CLASSIC, Still, around, assert_card_shown, assert_frames

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser

SEED = 3
ROOT = ".setw-puzzle"


def puzzle_cells(seed: int) -> list[str]:
    return python_cells(
        f"""
        from setwidgets.widgets import PracticeRecord, PuzzleBoard

        record = PracticeRecord()
        board = PuzzleBoard(seed={seed}, record=record)
        board
        """,
        """
        import json

        print(json.dumps({"cards": [c.code for c in board.puzzle.cards], "rects": board.card_rects}))
        """,
    )


class PuzzlePage:
    """The notebook's puzzle board in the browser, and its twin in the test process."""

    def __init__(self, nb: NotebookPage, seed: int) -> None:
        self.nb = nb
        self.twin = PuzzleBoard(seed=seed, record=PracticeRecord())
        self.canvas = nb.canvas(f"{ROOT} canvas")
        nb.wait_painted(self.canvas, min_pixels=10_000, background=TABLE)
        printed = json.loads(nb.cell_output(1))
        assert printed["cards"] == [c.code for c in self.twin.puzzle.cards]
        assert [tuple(r) for r in printed["rects"]] == [tuple(r) for r in self.rects]

    @property
    def rects(self):
        return self.twin.card_rects

    def click(self, position: int) -> None:
        self.nb.click_rect_centre(self.canvas, self.rects[position])
        self.twin.select(position)

    def claim(self, cards) -> str:
        """Click three cards; return the status line once it has changed to the twin's."""
        old = self.status()
        for card in cards:
            self.click(self.twin.puzzle.cards.index(card))
        return self.nb.wait_text(f"{ROOT} .setw-puzzle-status", differs_from=old)

    def status(self) -> str:
        return self.nb.text(f"{ROOT} .setw-puzzle-status")

    def found_items(self) -> list[str]:
        return [t.strip() for t in self.nb.page.locator(f"{ROOT} .setw-found-set").all_inner_texts()]

    def assert_table_shown(self) -> None:
        still = Still(self.nb, self.canvas)  # the canvas read once for all its cards
        for position, card in enumerate(self.twin.puzzle.cards):
            assert_card_shown(still, self.canvas, self.rects[position], card, where=f"card {position}")


@pytest.fixture
def puzzle(notebook_page) -> PuzzlePage:
    return PuzzlePage(notebook_page(f"puzzle_seed{SEED}.ipynb", puzzle_cells(SEED)), SEED)


def test_the_puzzle_is_painted_and_a_found_set_joins_the_found_list(puzzle: PuzzlePage) -> None:
    nb, canvas, twin = puzzle.nb, puzzle.canvas, puzzle.twin
    total = len(twin.puzzle.solutions)
    assert len(puzzle.rects) == 12
    puzzle.assert_table_shown()
    assert_frames(Still(nb, canvas), canvas, puzzle.rects, {})
    assert puzzle.status() == twin.status
    assert nb.text(f"{ROOT} .setw-puzzle-progress") == f"SETs found: 0 of {total} · 0 misses"
    assert nb.text(f"{ROOT} .setw-puzzle-found") == "Found: none yet"
    assert nb.text(f"{ROOT} .setw-puzzle-timer").startswith("Time 00:0")
    nb.screenshot("puzzle-01-dealt")

    first = twin.puzzle.solutions[0]
    positions = [twin.puzzle.cards.index(c) for c in first]
    for position in positions[:2]:
        puzzle.click(position)
        nb.wait_color(
            canvas, CLASSIC.highlights["selected"][0], around(puzzle.rects[position]), min_pixels=100
        )
    assert_frames(Still(nb, canvas), canvas, puzzle.rects, dict.fromkeys(positions[:2], "selected"))

    old = puzzle.status()
    puzzle.click(positions[2])
    status = nb.wait_text(f"{ROOT} .setw-puzzle-status", "A SET!", differs_from=old)
    assert status == twin.status
    nb.wait_color(canvas, CLASSIC.highlights["found"][0], around(puzzle.rects[positions[2]]), min_pixels=100)
    assert_frames(Still(nb, canvas), canvas, puzzle.rects, dict.fromkeys(positions, "found"))
    progress = nb.wait_text(f"{ROOT} .setw-puzzle-progress", f"SETs found: 1 of {total}")
    assert progress == twin.progress
    assert puzzle.found_items() == twin.found == [" ".join(c.code for c in first)]
    # The found SET is drawn too: three small cards in the list under the buttons.
    assert nb.page.locator(f"{ROOT} .setw-found-set .setw-card").count() == 3
    nb.screenshot("puzzle-02-one-found")


def test_a_miss_is_counted_and_its_odd_cards_framed(puzzle: PuzzlePage) -> None:
    nb, canvas, twin = puzzle.nb, puzzle.canvas, puzzle.twin
    cards = twin.puzzle.cards
    wrong = next(
        t
        for t in itertools.combinations(cards, 3)
        if not any(set(t) == set(s) for s in twin.puzzle.solutions)
    )
    status = puzzle.claim(wrong)
    assert status == twin.status == f"{explain(wrong)} A miss."
    odd = {cards.index(explain(wrong).cards[f.odd_index]) for f in explain(wrong).broken}
    nb.wait_color(canvas, CLASSIC.highlights["odd"][0], around(puzzle.rects[min(odd)]), min_pixels=100)
    assert_frames(Still(nb, canvas), canvas, puzzle.rects, dict.fromkeys(odd, "odd"))
    assert nb.wait_text(f"{ROOT} .setw-puzzle-progress", "1 miss").endswith("1 miss")
    assert puzzle.found_items() == []


def test_solving_the_board_lists_every_set_and_new_board_deals_the_next(puzzle: PuzzlePage) -> None:
    nb, canvas, twin = puzzle.nb, puzzle.canvas, puzzle.twin
    solutions = twin.puzzle.solutions
    for triple in solutions:
        puzzle.claim(triple)
    status = nb.wait_text(f"{ROOT} .setw-puzzle-status", "That was the last one")
    assert "1 board solved" in status
    assert puzzle.found_items() == twin.found and len(twin.found) == len(solutions)
    nb.screenshot("puzzle-03-solved")

    before = nb.digest(canvas)
    nb.click_button("New board", within=ROOT)
    twin.new_board()
    nb.wait_changed(canvas, before)
    nb.wait_text(f"{ROOT} .setw-puzzle-found", "none yet")
    assert nb.wait_text(f"{ROOT} .setw-puzzle-status", "Find ") == twin.status
    puzzle.assert_table_shown()
    assert_frames(Still(nb, canvas), canvas, puzzle.rects, {})
