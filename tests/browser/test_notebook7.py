"""A Board in Notebook 7 (``jupyter notebook``), whose page is not JupyterLab's.

Notebook 7 opens a notebook at ``/notebooks/<name>`` in a one-document page built from
JupyterLab's parts: the cells, the Run menu (``runmenu:run-all``) and the kernel's
session context are the same, so :meth:`NotebookPage.run_all` works there; only
opening the page differs (its URL, and no file browser to collapse).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .boardpage import BoardPage, board_cells
from .harness import NotebookPage, Server, start_notebook, write_notebook
from .painted import CLASSIC, Still, around, assert_frames, card_background_share

pytestmark = pytest.mark.browser

SEED = 5


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory, chromium: object) -> Iterator[tuple[Server, Path]]:
    """Notebook 7 serving a folder of its own; stopped with its kernels at the end."""
    root = tmp_path_factory.mktemp("notebook7-root")
    with start_notebook(root, tmp_path_factory.mktemp("notebook7-work")) as server:
        yield server, root


def test_a_board_in_notebook7_is_painted_and_answers_clicks(notebook7, new_page) -> None:
    server, root = notebook7
    write_notebook(root / "board7.ipynb", board_cells(SEED))
    nb = NotebookPage(new_page(), server)
    nb.open_page("notebooks/board7.ipynb")
    # This is Notebook 7's own page, not JupyterLab's.
    assert nb.page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
    assert "/notebooks/board7.ipynb" in nb.page.url
    assert nb.page.locator("#jp-main-dock-panel").count() == 0, "JupyterLab's main dock panel is shown"

    nb.run_all()
    assert nb.prompts() == ["[1]:", "[2]:"]
    board = BoardPage(nb, SEED)
    assert board.twin.game.table[0].code in nb.cell_output(1)
    board.assert_table_shown()
    still = Still(nb, board.canvas)  # the canvas read once for the checks below
    for position, rect in enumerate(board.rects):
        assert card_background_share(still, board.canvas, rect) > 0.3, (
            f"card {position} has no white card under it"
        )
    assert_frames(still, board.canvas, board.rects, {})
    assert board.status() == board.twin.status
    nb.screenshot("notebook7-01-board")

    board.click(7)
    selected = CLASSIC.highlights["selected"][0]
    nb.wait_color(board.canvas, selected, around(board.rects[7]), min_pixels=100)
    assert_frames(nb, board.canvas, board.rects, {7: "selected"})
    assert board.twin.selected == [7]
    nb.screenshot("notebook7-02-card-selected")


def test_notebook7_shows_the_pictures_and_widgets_named(notebook7, new_page) -> None:
    """Notebook 7's own page after Run All: axe-core finds nothing in the package's outputs, and the
    pictures, the board and the checker are named (test_accessibility's check, on this server)."""
    from .test_accessibility import ELSEWHERE_CELLS, check_elsewhere

    server, root = notebook7
    write_notebook(root / "a11y7.ipynb", ELSEWHERE_CELLS)
    nb = NotebookPage(new_page(), server)
    nb.open_page("notebooks/a11y7.ipynb")
    assert nb.page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
    nb.run_all()
    check_elsewhere(nb, "notebook7")
