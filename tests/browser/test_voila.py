"""A Board in Voila: the cards must be painted (Voila connects the page after the notebook ran)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .boardpage import BoardPage, board_cells
from .harness import NotebookPage, Server, start_voila, write_notebook
from .painted import CLASSIC, around, assert_frames, card_background_share

pytestmark = pytest.mark.browser

SEED = 11


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory, chromium: object) -> Iterator[Server]:
    """Voila serving a notebook that shows Board(Game(seed=SEED)); stopped with its kernels."""
    folder = tmp_path_factory.mktemp("voila-root")
    notebook = write_notebook(folder / "board.ipynb", board_cells(SEED))
    with start_voila(notebook, tmp_path_factory.mktemp("voila-work")) as server:
        yield server


def test_a_board_in_voila_is_painted_and_answers_clicks(voila: Server, new_page) -> None:
    nb = NotebookPage(new_page(), voila)
    nb.visit()
    board = BoardPage(nb, SEED)
    # Voila shows outputs only: no code, and the JSON line of the second cell.
    assert nb.page.locator(".jp-InputArea").count() == 0
    assert board.twin.game.table[0].code in nb.page.locator("body").inner_text()

    board.assert_table_shown()
    for position, rect in enumerate(board.rects):
        assert card_background_share(nb, board.canvas, rect) > 0.3, (
            f"card {position} has no white card under it"
        )
    assert board.status() == board.twin.status
    nb.screenshot("voila-01-board")

    board.click(4)
    nb.wait_color(board.canvas, CLASSIC.highlights["selected"][0], around(board.rects[4]), min_pixels=100)
    assert_frames(nb, board.canvas, board.rects, {4: "selected"})
    nb.screenshot("voila-02-card-selected")
