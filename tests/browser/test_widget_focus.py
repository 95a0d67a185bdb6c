"""A control that the kernel disables or removes under the student's focus hands it on inside its widget.

When a game ends, the Board disables "SET!", "No SET here" and "Hint"; that happens while a
student races the computer (lesson 04) or when a class game's clock runs out, so a student who
reached "Hint" with Tab may hold the focus on it. Chromium then moves the focus to the page's
``<body>``: the widget no longer gets the keys, and Tab and a screen reader start again from the
top of the page. The key guard (``setwidgets.widgets._keyguard``) gives the focus to the nearest
usable control of the same widget instead.

One notebook, one board racing the computer: the test focuses "Hint", plays the game to its end
from the kernel (the computer's moves, as the board makes them; the notebook's own cells are not
run again, which would move the focus), then types ``d d x r``. The focus must be on the board's
next usable control ("New game"), no JupyterLab command may have run and the cells are unchanged.
Then the kernel removes the row of buttons (a redraw) under "New game": the focus must stay in
the board again; then every child of the board: the board itself must hold the focus, and the
keys typed there (inside a notebook cell, where command mode would act on them) run nothing.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .harness import python_cells
from .test_widget_keys import _JS_CELLS, _JS_WATCH_COMMANDS

pytestmark = pytest.mark.browser

CELLS = python_cells(
    """
    from setwidgets import Game
    from setwidgets.bot import Bot
    from setwidgets.widgets import Board

    board = Board(Game(players=["You", "Computer"], deck="mini", seed=4), bot=Bot("beginner", rng=1))
    board
    """
)
# The computer plays the mini deck (27 cards) to its end; the bound only keeps a bug from looping.
END_GAME = """
for _ in range(100):
    if board.game.over:
        break
    board.bot_move()
assert board.game.over, board.status
"""
REMOVE_BUTTONS = "board.children = board.children[:-1]"
EMPTY_BOARD = "board.children = []"

# Runs code in the notebook's kernel without touching the page (no cell runs, no focus moves).
_JS_KERNEL = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const reply = await kernel.requestExecute({code}).done;
    return reply.content.status === 'ok' ? '' : reply.content.ename + ': ' + reply.content.evalue;
}"""
# Where the focus is: 'body', or the focused element's text and whether it is inside the board.
_JS_FOCUS = """() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return 'body';
    return (el.closest('.setw-board') ? 'board: ' : 'outside the board: ') + el.tagName + ' '
        + (el.textContent || '').trim().slice(0, 20);
}"""


def focus_after(page, what: str) -> str:
    """Where the focus is once the guard had its frame to hand it on (up to 5 s under load)."""
    try:
        page.wait_for_function(f"() => ({_JS_FOCUS})() !== 'body'", timeout=5_000)
    except PlaywrightTimeout:
        pass
    where = page.evaluate(_JS_FOCUS)
    assert where != "body", f"after {what}, the focus went to the page's <body>, out of the board"
    return where


def test_the_focus_stays_in_the_board_when_its_control_is_disabled_or_removed(notebook_page) -> None:
    nb = notebook_page("focus_board.ipynb", CELLS)
    page = nb.page
    hint = nb.button("Hint", within=".setw-board")
    hint.scroll_into_view_if_needed()
    hint.focus()
    page.wait_for_function("() => document.activeElement.textContent === 'Hint'")
    cells = page.evaluate(_JS_CELLS)
    page.evaluate(_JS_WATCH_COMMANDS)

    assert page.evaluate(_JS_KERNEL, END_GAME) == ""
    page.wait_for_function("() => [...document.querySelectorAll('.setw-board button')].some(b => b.disabled)")
    assert hint.is_disabled()
    # The guard hands the focus on one frame after the browser took it away.
    assert focus_after(page, "the game ended under 'Hint'") == "board: BUTTON New game"
    page.keyboard.type("ddxr")

    assert page.evaluate(_JS_KERNEL, REMOVE_BUTTONS) == ""
    page.wait_for_function("() => !document.querySelector('.setw-board .widget-hbox button')")
    where = focus_after(page, "the buttons were removed under 'New game'")
    assert where.startswith("board: "), where
    print(f"after the buttons were removed, the focus is on: {where}")
    page.keyboard.type("ddxr")

    # Nothing usable left in the board: the board itself takes the focus (outside the Tab order).
    assert page.evaluate(_JS_KERNEL, EMPTY_BOARD) == ""
    page.wait_for_function("() => document.querySelector('.setw-board').children.length === 0")
    focus_after(page, "the board's last controls were removed")
    assert page.evaluate("() => document.activeElement.matches('.setw-board[tabindex=\"-1\"]')")
    page.keyboard.type("ddxr")  # the focused board is in a cell: command mode would take these

    page.wait_for_timeout(500)  # a chord's second key is given a moment
    commands = page.evaluate("() => window.__setwCommands")
    assert commands == [], f"keys typed where the focus was handed ran JupyterLab commands: {commands}"
    assert page.evaluate(_JS_CELLS) == cells, "keys typed where the focus was handed changed the cells"
