"""A Board shown in a browser, and its twin in the test process.

The page's notebook deals ``Game(seed=...)``; :class:`BoardPage` deals the same
seeded game into a Board of its own (widgets run without a browser) and plays
the same moves on it, so it knows which card is where, which three form a SET,
and what the status and score lines must say.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from setwidgets import Game
from setwidgets.widgets import Board

from .harness import (
    _JS_ERRORS,
    _JS_PROMPTS,
    HarnessError,
    LabTabs,
    NotebookPage,
    Server,
    node_failed,
    python_cells,
    rgb,
    save_failure_shot,
    screenshot_path,
    write_notebook,
)
from .painted import CLASSIC, Still, assert_card_shown

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
    """Open a notebook showing ``Board(Game(seed=seed))``; check that it deals and lays out like the twin.

    ``notebook_page`` is the fixture of that name, or a :class:`ModuleNotebooks`'s ``fresh``.
    """
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
        still = Still(self.nb, self.canvas)  # the canvas read once for all its cards
        for position, card in enumerate(self.twin.game.table):
            assert_card_shown(still, self.canvas, self.rects[position], card, where=f"card {position}")

    def status(self) -> str:
        return self.nb.text(".setw-board .setw-status")

    def wait_status(self, old: str, contains: str = "") -> str:
        """The status line once it has changed from ``old`` (and contains ``contains``)."""
        return self.nb.wait_text(".setw-board .setw-status", contains, differs_from=old)

    def scores(self, expected: str = "") -> str:
        """The score line, once it contains ``expected`` (its update may come after the status line's)."""
        return self.nb.wait_text(".setw-board .setw-scores", expected)


class ModuleNotebooks:
    """One notebook page and one kernel for a whole test module; each test runs its own cells anew.

    Opening a notebook costs a JupyterLab page load and a kernel start (about 7 CPU seconds);
    running cells in a kernel already started costs a fifth of that. ``fresh(name, cells)``
    opens the notebook ``name`` the first time; later, it puts ``cells`` in the open notebook
    in place of the cells there (their outputs and widget views go with them), clears the
    kernel's namespace (``%reset -f``) and runs all the cells: every cell is executed anew, so
    each test gets new widgets in the state its cells make (a game dealt from its seed again,
    nothing selected), as a test with a page of its own does. After a failed test the page and
    its kernel are closed, so the next test opens a page of its own again. The page is taken
    from ``tabs`` (JupyterLab kept loaded between modules, see :class:`harness.LabTabs`) and
    given back to it at the module's end.
    """

    def __init__(self, tabs: LabTabs, lab: Server, lab_root: Path) -> None:
        self.tabs, self.lab, self.lab_root = tabs, lab, lab_root
        self.nb: NotebookPage | None = None
        self.kernel = ""

    def fresh(self, name: str, cells: Sequence[str]) -> NotebookPage:
        """A notebook page showing ``cells`` (a notebook named ``name`` if it opens one), all just run."""
        if self.nb is None:
            write_notebook(self.lab_root / name, cells)
            self.nb = self.tabs.open(name)
            self.kernel = self.nb.page.evaluate(_JS_KERNEL_ID)
            self.nb.run_all()
        else:
            self.nb.page.evaluate(_JS_NEW_CELLS, list(cells))
            run_all_again(self.nb)
        return self.nb

    def screenshot_if_failed(self, request: pytest.FixtureRequest) -> None:
        """After a failed test: save its page as test-artifacts/FAILED-<test>.png, then close it."""
        failed_shot = screenshot_path(f"FAILED-{request.node.name}")
        # A fixture that opens the page (test_board's ``board``) fails in the set-up phase.
        if self.nb is not None and node_failed(request.node):
            save_failure_shot(self.nb.page, failed_shot)
            self.close()  # what the failure left in the page or kernel is not the next test's
        else:
            failed_shot.unlink(missing_ok=True)  # a picture of an earlier failure would mislead

    def close(self, reuse: bool = False) -> None:
        """Close the page (or give it back to ``tabs`` with its tabs closed, ``reuse=True``) and stop
        its kernel (only this one: other tests' kernels are theirs)."""
        if self.nb is not None:
            self.tabs.give_back(self.nb, reuse=reuse)
        if self.kernel:
            try:
                self.lab.api("DELETE", f"api/kernels/{self.kernel}")
            except OSError:
                pass  # it stopped meanwhile
        self.nb, self.kernel = None, ""


_JS_KERNEL_ID = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"
# The open notebook's cells replaced by new code cells (no outputs), and the kernel's namespace
# cleared, so that nothing an earlier test defined is found by the new cells.
_JS_NEW_CELLS = """async sources => {
    const panel = window.jupyterapp.shell.currentWidget, shared = panel.content.model.sharedModel;
    shared.transact(() => {
        shared.deleteCellRange(0, shared.cells.length);
        shared.insertCells(0, sources.map(source => ({cell_type: 'code', source, metadata: {}})));
    });
    const kernel = panel.sessionContext.session.kernel;
    const reply = await kernel.requestExecute({code: '%reset -f', silent: true, store_history: false}).done;
    if (reply.content.status !== 'ok') throw new Error('%reset -f: ' + reply.content.status);
}"""


# The fixtures of a module whose tests share one page and kernel: the module imports both names
# (``from .boardpage import notebook_page, notebooks``), and its ``notebook_page`` replaces
# conftest's for its tests.
@pytest.fixture(scope="module")
def notebooks(lab_tabs: LabTabs, lab: Server, lab_root: Path) -> Iterator[ModuleNotebooks]:
    """One notebook page and kernel for the module using it; each test puts its cells there, run anew."""
    shared = ModuleNotebooks(lab_tabs, lab, lab_root)
    try:
        yield shared
    finally:
        shared.close(reuse=True)


@pytest.fixture
def notebook_page(notebooks: ModuleNotebooks, request: pytest.FixtureRequest) -> Iterator[Callable]:
    """As conftest's ``notebook_page``, on the module's page: each call runs the cells given anew."""
    yield notebooks.fresh
    notebooks.screenshot_if_failed(request)


def run_all_again(nb: NotebookPage, timeout: float = 60.0) -> None:
    """Run every cell again through Run > Run All Cells; wait until each has a new execution count.

    Raises HarnessError quoting the traceback when a cell raised, as ``NotebookPage.run_all`` does.
    """
    counts = f"({_JS_PROMPTS})().map(t => (/\\[(\\d+)\\]/.exec(t) || [0, -1])[1] * 1)"
    before = max(nb.page.evaluate(f"() => {counts}"))
    nb.page.click("li.lm-MenuBar-item:has-text('Run')")
    nb.page.click("li.lm-Menu-item[data-command='runmenu:run-all']")
    # Run All stops at a cell that raised, so the rest never get a new count: stop waiting then too.
    nb.page.wait_for_function(
        f"""before => ({_JS_ERRORS})().length > 0 || {counts}.every(n => n > before)""",
        arg=before,
        timeout=timeout * 1000,
    )
    nb.wait_kernel_idle(timeout)
    tracebacks = nb.page.evaluate(_JS_ERRORS)
    if tracebacks:
        raise HarnessError("A notebook cell raised:\n" + "\n".join(tracebacks))
