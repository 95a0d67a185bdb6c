"""Every control a course notebook's widgets draw keeps its keys: none reaches JupyterLab's command mode.

For each lesson and release copy, the test runs the notebook from the top as a student would,
finds every focusable element that a widget view draws in the outputs (a generic query, not a
list of widgets), and sweeps one element of each distinct kind (tag, input type, ipywidgets
view class and the setwidgets widget around it): focused, it gets every letter, ``d d``,
every digit, the four arrows, Escape, Enter and space. Then

- JupyterLab ran no command during the sweeps (JupyterLab's own record of executed commands:
  moving to the next cell is caught there, though it changes no cell);
- the notebook's cells are the cells it had (same ids, types and sources, in the same order);
- each menu (``<select>``) changed with the arrow keys.

The sweep runs in the course notebooks' walk (``test_course_notebooks.py``), on the page it has
already run, as axe-core does: no notebook runs twice. A notebook whose code makes no widget has
nothing to focus: it is not swept, and
``test_the_notebooks_left_out_make_no_widget`` holds that to the package's one list of widgets
(``setwidgets.widgets.WIDGETS``). Running the notebooks dominates the cost; the sweeps add a
few seconds each.

Screenshots: lesson 00's checker after the keys were typed at it, lesson 07's class game as
a student reaches it (after running every cell), lesson 15's standings after three picks.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from setwidgets.widgets import WIDGETS

from .coursepages import CoursePage
from .harness import ROOT, screenshot_path
from .test_course_notebooks import NOTEBOOKS, CourseNotebook

pytestmark = pytest.mark.browser

# Typed in one go (one round trip to the browser): every letter, "d d" (JupyterLab's chord that
# deletes a cell: two d's in a row) and every digit; then the keys that have names, one by one.
TYPED = "abcd" + "d" + "efghijklmnopqrstuvwxyz" + "0123456789"
KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Escape", "Enter", " "]

MAKES_WIDGETS = re.compile("|".join(rf"\b{name}\b" for name in [*WIDGETS, "ipywidgets", "ipycanvas"]))


def makes_widgets(path: str) -> bool:
    """Whether any code cell of the notebook names a widget of the package (or a widget library)."""
    cells = json.loads((ROOT / path).read_text())["cells"]
    return any(MAKES_WIDGETS.search("".join(cell["source"])) for cell in cells if cell["cell_type"] == "code")


WITH_WIDGETS = [course for course in NOTEBOOKS if makes_widgets(course.path)]

# Every focusable element a widget view draws in an output, visible and enabled, with a kind that
# groups the elements that take keys the same way. The first element of the first kind not yet
# swept is marked for the next sweep, just before it: a game that ends meanwhile (a computer
# opponent plays on, a class game's clock runs) disables its buttons, and a disabled button takes
# no focus.
_JS_FOCUSABLES = """(swept) => {
    const QUERY = 'a[href], button, input, select, textarea, canvas, [tabindex]';
    const kinds = new Map();
    let count = 0, next = null;
    for (const el of document.querySelectorAll('[data-setw-sweep]')) el.removeAttribute('data-setw-sweep');
    for (const el of document.querySelectorAll('.jp-OutputArea-output ' + QUERY.split(', ').join(
            ', .jp-OutputArea-output '))) {
        if (!el.closest('.jupyter-widgets') || el.disabled || el.tabIndex < 0) continue;
        if (!el.checkVisibility({visibilityProperty: true})) continue;
        count++;
        const view = el.closest('.jupyter-widgets:not(.widget-container)') || el.closest('.jupyter-widgets');
        const viewClasses = [...view.classList].filter(c => c.startsWith('widget-')).sort().join('.');
        const roots = [];
        for (let r = el.closest('[class*="setw-"]'); r; r = r.parentElement.closest('[class*="setw-"]'))
            roots.unshift(r);
        const root = roots.length ? [...roots[0].classList].filter(c => c.startsWith('setw-')).sort() : [];
        const kind = [el.tagName.toLowerCase(), el.type || '', viewClasses, root.join('.')].join(' ');
        if (!kinds.has(kind)) kinds.set(kind, el);
        if (next === null && !swept.includes(kind)) {
            el.setAttribute('data-setw-sweep', 'next');
            next = kind;
        }
    }
    return {count, kinds: [...kinds.keys()], next};
}"""
_JS_CELLS = """() => window.jupyterapp.shell.currentWidget.context.model.toJSON().cells.map(
    c => [c.id, c.cell_type, Array.isArray(c.source) ? c.source.join('') : c.source])"""
# Also keeps the ids of the messages sent to the kernel that it has not yet answered (its "idle"
# for each): a key can send one (a button's click), and the kernel's reply may move the focus (a
# form's button gives it to its text box), so the next sweep waits for every answer.
_JS_WATCH_COMMANDS = """() => {
    window.__setwCommands = [];
    window.jupyterapp.commands.commandExecuted.connect((_, args) => window.__setwCommands.push(args.id));
    const pending = window.__setwPending = new Set();
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    kernel.anyMessage.connect((_, {msg, direction}) => {
        if (direction === 'send' && msg.channel === 'shell') pending.add(msg.header.msg_id);
        else if (direction === 'recv' && msg.header.msg_type === 'status'
                 && msg.content.execution_state === 'idle') pending.delete(msg.parent_header.msg_id);
    });
}"""
_JS_ANSWERED = "() => window.__setwPending.size === 0"


def sweep(page) -> list[str] | str:
    """Focus the marked element and press every key at it; return what went wrong (a menu the
    arrows did not change, a kernel that did not answer what the keys sent).

    A sentence instead when the element did not take the focus: a class game's clock or the
    computer's play may disable, hide or redraw it between its marking and its focus (the key
    guard then hands the focus to a neighbour). The caller marks another one and tries again."""
    element = page.locator("[data-setw-sweep='next']").first
    element.scroll_into_view_if_needed()
    element.focus()
    # Focusing a control in another cell makes that cell active, which JupyterLab may follow by
    # scrolling: the keys start once the control really holds the focus.
    handle = element.element_handle()
    try:
        page.wait_for_function("el => document.activeElement === el", arg=handle, timeout=5_000)
    except PlaywrightTimeout:
        gone = "el => !el.isConnected || el.disabled || !el.checkVisibility({visibilityProperty: true})"
        where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
        state = "disabled or hidden" if page.evaluate(gone, handle) else "enabled and visible"
        return f"a control ({state} now) did not take the focus, which is on {where}"
    problems = []
    if element.evaluate("el => el.tagName") == "SELECT":
        before = element.input_value()
        last = element.evaluate("el => el.selectedIndex === el.options.length - 1")
        page.keyboard.press("ArrowUp" if last else "ArrowDown")
        if element.input_value() == before:
            where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
            problems.append(f"a menu kept {before!r} after an arrow key (the focus was on {where})")
    # No focus is given back between the keys: a key that moves the focus out of the widget (a
    # button that redraws it, say) would hand the next keys to JupyterLab, as it would a student's.
    page.keyboard.type(TYPED)
    for key in KEYS:
        page.keyboard.press(key)
    # The kernel answers what the keys sent before the next sweep starts: under load, CI7 saw a
    # button's answer take the focus from the next sweep's menu ("a menu kept 'choose…'").
    try:
        page.wait_for_function(_JS_ANSWERED, timeout=30_000)
    except PlaywrightTimeout:
        problems.append("the kernel did not answer within 30 s what the keys sent")
    page.wait_for_timeout(100)  # the widgets' handling of the answer (promise callbacks)
    return problems


def test_the_notebooks_left_out_make_no_widget() -> None:
    left_out = [course.path for course in NOTEBOOKS if course not in WITH_WIDGETS]
    assert "lessons/05_the_full_deck.ipynb" in left_out  # the filter leaves some out...
    assert "lessons/00_start_here.ipynb" not in left_out  # ...and keeps the widgets' lessons
    for path in left_out:
        text = (ROOT / path).read_text()
        assert "setwidgets.widgets" not in text and "ipywidgets" not in text, path


def test_the_course_notebooks_walk_sweeps_the_keys() -> None:
    from .test_course_notebooks import test_course_notebook_runs_and_shows_its_widgets as walk

    code = walk.__code__
    assert "check_keys" in code.co_names + code.co_varnames, "the walk no longer sweeps the keys"


def check_keys(page_of: CoursePage, course: CourseNotebook) -> None:
    """The key sweep over a notebook the course notebooks' walk has already run (run once, checked twice)."""
    if course not in WITH_WIDGETS:
        return
    page = page_of.page
    if course.id == "07_the_real_game":
        # Ben's board, where the lesson sends the student ("Click three cards on his board above").
        ben = page.locator(".setw-classboard").last  # only Ben's board is displayed
        ben.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        assert "left the room" not in ben.text_content(), "the class game closed before the student came"
        ben.screenshot(path=str(screenshot_path("keys-07-class-game-as-reached")))
    raised = {cell.index: ", ".join(cell.errors) for cell in page_of.code_cells() if cell.errors}
    assert raised == course.errors, f"cells that raised: {raised}; expected {course.errors}"
    cells = page.evaluate(_JS_CELLS)
    found = page.evaluate(_JS_FOCUSABLES, [])
    assert found["count"] > 0, f"{course.path} makes widgets but none drew a focusable element"
    page.evaluate(_JS_WATCH_COMMANDS)
    problems, swept, missed, tries = [], [], [], Counter()
    while (kind := page.evaluate(_JS_FOCUSABLES, swept + missed)["next"]) is not None:
        result = sweep(page)
        if isinstance(result, str):  # changed meanwhile: another element of its kind, if any
            tries[kind] += 1
            if tries[kind] == 3:  # three times: no accident of timing
                missed.append(kind)
                if "enabled and visible" in result:
                    problems.append(f"{kind}: {result}")
            continue
        swept.append(kind)
        problems += [f"{kind}: {p}" for p in result]
    page.wait_for_timeout(500)  # a chord's second key is given a moment
    commands = page.evaluate("() => window.__setwCommands")
    assert not commands, f"keys typed in {course.path}'s widgets ran JupyterLab commands: {commands}"
    assert page.evaluate(_JS_CELLS) == cells, f"keys typed in {course.path}'s widgets changed its cells"
    assert not problems, problems
    print(f"{course.path}: {found['count']} focusable elements, {len(swept)} kinds swept", end=", ")
    print(f"{len(missed)} disabled before their turn")

    if course.id == "00_start_here":
        page_of.nb.screenshot("keys-00-checker-after-typing", selector=".setw-checker")
    if course.id == "15_running_a_class_tournament":
        buttons = page.locator(".setw-standings .widget-toggle-buttons button")
        view = ".setw-standings .setw-standings-view caption"
        for label, title in (("A", "Division A"), ("B", "Division B"), ("Overall", "All players")):
            buttons.get_by_text(label, exact=True).click()
            page_of.nb.wait_text(view, title)
        # The widget is taller than the window: its picker and the table's top, as the page shows them.
        buttons.first.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page_of.nb.screenshot("keys-15-standings-after-three-picks")
