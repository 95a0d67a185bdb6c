"""The teacher's class-insight widget (``setwidgets.grading.insight.widget.insight_view``) in a real
JupyterLab, used as a teacher uses it: from the keyboard and with the mouse.

The course is built and graded in the test process as tests/test_insight.py does (the small seeded
class of tests/insight_class.py, judged by exercise 1's own tests); exercise 2 is judged too, on
functions the class has not written yet, so that the assignment menu has two entries to move
between. A notebook in Lab calls ``insight_view`` on that folder. Then:

- every focusable element the widget draws is found by a generic query over its output (not a
  list written here); Tab and Shift+Tab go through them in order and out of the widget at both
  ends (no trap), and each kind of control takes the keys (``test_widget_keys.sweep``: every
  letter, digit, arrow, Escape, Enter and space) without JupyterLab running a command or the
  notebook's cells changing;
- the assignment menu changes with the arrow keys, and the page in the frame follows;
- the anonymous copy, chosen with the keyboard and then with a click, names no student in the
  frame's own document; the teacher's copy names each student the insight shows;
- the frame is sandboxed (``sandbox=""``: no script runs, and the notebook's page cannot reach
  into it) and its pixels are painted (a screenshot of it, saved as
  test-artifacts/insight-widget-*.png, is not blank);
- axe-core finds no violation in the outputs, and Chromium's accessibility tree names the menu
  ("Assignment"), the two copy buttons and the frame ("Class insight"); saved as
  test-artifacts/a11y-insight-widget.txt. It says which copy is chosen (``aria-pressed``): the
  anonymous one after its click, the teacher's after a click back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from insight_class import ASSIGNMENT, SMALL, seeded_class
from test_insight import SOURCE, grade_here

from setwidgets.grading.insight.widget import ANONYMOUS, TEACHER

from .harness import ARTIFACTS, python_cells, screenshot_path
from .test_accessibility import chromium_trees, page_words, pressed, run_axe
from .test_widget_keys import _JS_CELLS, _JS_WATCH_COMMANDS, sweep

pytestmark = pytest.mark.browser

SECOND = "02_third_card"
"""An assignment judged before the class wrote any of it: the menu's second entry."""

OUTPUT = ".jp-OutputArea-output:has(.widget-dropdown)"
"""The output the widget is drawn in (the notebook has one widget)."""
FRAME = f"{OUTPUT} iframe"

# Every focusable element drawn in the widget's output, in the page's order, visible and enabled:
# the same query as test_widget_keys' (plus iframe, which takes the focus too), each described by
# its tag, its text or label, and its ipywidgets view. Each is marked with its index for the test.
_JS_FOCUSABLES = """(output) => {
    const QUERY = 'a[href], button, input, select, textarea, canvas, iframe, [tabindex]';
    const root = document.querySelector(output);
    const MARK = 'data-setw-focusable';
    document.querySelectorAll(`[${MARK}]`).forEach(el => el.removeAttribute(MARK));
    if (root === null) return [];
    return [...root.querySelectorAll(QUERY)]
        .filter(el => !el.disabled && el.tabIndex >= 0 && el.checkVisibility({visibilityProperty: true}))
        .map((el, i) => {
            el.setAttribute(MARK, String(i));
            const view = el.closest('.jupyter-widgets:not(.widget-container)');
            const label = el.labels && el.labels.length ? el.labels[0].textContent.trim() : '';
            return {
                tag: el.tagName.toLowerCase(),
                text: (el.title || label || el.textContent || '').trim(),
                view: view ? [...view.classList].filter(c => c.startsWith('widget-')).sort().join('.') : '',
            };
        });
}"""
# Which of the marked elements holds the focus (its index), or where else the focus is.
_JS_FOCUS = """() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return 'body';
    if (el.hasAttribute('data-setw-focusable')) return Number(el.getAttribute('data-setw-focusable'));
    return 'outside: ' + el.tagName + '.' + [...el.classList].join('.');
}"""

_JS_MARK = """(i) => {
    document.querySelectorAll('[data-setw-sweep]').forEach(el => el.removeAttribute('data-setw-sweep'));
    document.querySelector(`[data-setw-focusable='${i}']`).setAttribute('data-setw-sweep', 'next');
}"""


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """Exercise 1 graded for the small seeded class, as tests/test_insight.py does; exercise 2
    judged on empty notebooks (nobody wrote it yet). The folder and the class."""
    from setwidgets import FEATURES, Card, full_deck
    from setwidgets.grading import compute, judge
    from setwidgets.grading import insight_cases as cases

    root = tmp_path_factory.mktemp("insight-course")
    students = seeded_class(plan=SMALL)
    grade_here(root, students)
    tests = judge.load(SOURCE / SECOND)
    for student in students:
        namespace: dict = {"FEATURES": FEATURES, "Card": Card, "full_deck": full_deck}
        verdicts = {
            grade_id: judge.judge(test, lambda request, ns=namespace: compute.call(request, ns), seed=39)
            for grade_id, test in tests.items()
        }
        cases.write(root, student, SECOND, "third_card", verdicts)
    return root, students


def shown_students(students: dict) -> list[str]:
    """The students the teacher's copy names: those the insight shows a mistake of (tests/test_insight)."""
    return sorted(student for student, (_, shown) in students.items() if shown)


def open_insight(notebook_page, course: tuple[Path, dict], name: str):
    """A notebook showing ``insight_view(<course>)``, then a cell after it (which keys must not reach)."""
    root, _ = course
    nb = notebook_page(
        name,
        python_cells(
            f"""
            from setwidgets.grading.insight.widget import insight_view

            insight_view({str(root)!r})
            """,
            "after = 'the cell after the widget'",
        ),
    )
    frame_page(nb.page, ASSIGNMENT, TEACHER)
    return nb


def frame_page(page, assignment: str, copy: str, timeout: float = 60_000) -> str:
    """The text of the page in the frame, once it shows ``assignment`` in ``copy``; read from the
    frame's own document (its heading and its sentence about the copy)."""
    sentence = "anonymous copy, to project" if copy == ANONYMOUS else "teacher's copy: names students"
    page.locator(FRAME).wait_for(timeout=timeout)
    body = page.frame_locator(FRAME).locator("body")
    body.locator("h1", has_text=f"Class insight: {assignment}").wait_for(timeout=timeout)
    body.get_by_text(sentence).wait_for(timeout=timeout)
    return body.inner_text()


def test_every_control_is_reached_with_tab_and_works_from_the_keyboard(notebook_page, course) -> None:
    nb = open_insight(notebook_page, course, "insight_keys.ipynb")
    page = nb.page
    found = page.evaluate(_JS_FOCUSABLES, OUTPUT)
    print("focusable in the widget:", found)
    kinds = [(f["tag"], f["text"]) for f in found]
    # Found by the query, not listed here: these must be among them (the menu is named by its label).
    for wanted in [("select", "Assignment"), ("button", TEACHER), ("button", ANONYMOUS)]:
        assert wanted in kinds, f"{wanted} is not among the focusable elements found: {found}"

    cells = page.evaluate(_JS_CELLS)
    page.evaluate(_JS_WATCH_COMMANDS)
    # Tab goes through every control in the page's order, from the first, and out at the end;
    # Shift+Tab comes back through them all and out at the start.
    first = page.locator("[data-setw-focusable='0']")
    first.scroll_into_view_if_needed()
    first.focus()
    forward = [page.evaluate(_JS_FOCUS)]
    for _ in found:
        page.keyboard.press("Tab")
        forward.append(page.evaluate(_JS_FOCUS))
    print("Tab:", forward)
    assert forward[: len(found)] == list(range(len(found))), f"Tab went {forward} through {found}"
    assert not isinstance(forward[-1], int), f"Tab stayed in the widget after its last control: {forward}"
    page.locator(f"[data-setw-focusable='{len(found) - 1}']").focus()
    backward = [page.evaluate(_JS_FOCUS)]
    for _ in found:
        page.keyboard.press("Shift+Tab")
        backward.append(page.evaluate(_JS_FOCUS))
    print("Shift+Tab:", backward)
    assert backward[: len(found)] == list(reversed(range(len(found)))), f"Shift+Tab went {backward}"
    assert not isinstance(backward[-1], int), f"Shift+Tab stayed in the widget: {backward}"

    # The menu: the arrows move to the next assignment and back, and the frame follows.
    menu = page.locator(f"{OUTPUT} select")
    menu.focus()
    page.keyboard.press("ArrowDown")
    assert menu.input_value() == SECOND
    frame_page(page, SECOND, TEACHER)
    page.locator(f"{OUTPUT} select").focus()
    page.keyboard.press("ArrowUp")
    frame_page(page, ASSIGNMENT, TEACHER)

    # The anonymous copy, with the keyboard: Tab from the teacher's button, then Space.
    buttons = page.locator(f"{OUTPUT} .widget-toggle-buttons button")
    buttons.get_by_text(TEACHER, exact=True).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == ANONYMOUS
    page.keyboard.press(" ")
    text = frame_page(page, ASSIGNMENT, ANONYMOUS)
    named = [student for student in course[1] if student in text]
    assert not named, f"the anonymous copy names {named}:\n{text[:2000]}"
    # Back to the teacher's copy with Shift+Tab and Enter: it names each student shown.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    text = frame_page(page, ASSIGNMENT, TEACHER)
    missing = [student for student in shown_students(course[1]) if student not in text]
    assert not missing, f"the teacher's copy does not name {missing}:\n{text[:2000]}"

    # Every control takes every key (test_widget_keys' sweep), none reaching JupyterLab. The frame
    # first: a copy chosen by the keys at the buttons draws a new one.
    problems = []
    assert page.evaluate(_JS_FOCUSABLES, OUTPUT) == found  # marked again: the frame is a new one
    for index in reversed(range(len(found))):
        page.evaluate(_JS_MARK, index)
        result = sweep(page)
        problems += [f"{found[index]}: {result}"] if isinstance(result, str) else result
    # The page in the frame ends as the menu and the buttons say.
    active = buttons.evaluate_all(
        "els => els.filter(b => b.classList.contains('mod-active')).map(b => b.textContent)"
    )
    assert len(active) == 1, active
    frame_page(page, page.locator(f"{OUTPUT} select").input_value(), active[0].strip())
    page.wait_for_timeout(500)  # a chord's second key is given a moment
    commands = page.evaluate("() => window.__setwCommands")
    assert not commands, f"keys typed in the insight widget ran JupyterLab commands: {commands}"
    assert page.evaluate(_JS_CELLS) == cells, "keys typed in the insight widget changed the notebook's cells"
    assert not problems, problems
    nb.screenshot("insight-widget-after-the-keys", selector=OUTPUT)


def test_the_anonymous_copy_clicked_names_no_one_in_a_sandboxed_painted_frame(notebook_page, course) -> None:
    _, students = course
    nb = open_insight(notebook_page, course, "insight_click.ipynb")
    page = nb.page
    teacher = frame_page(page, ASSIGNMENT, TEACHER)
    missing = [student for student in shown_students(students) if student not in teacher]
    assert not missing, f"the teacher's copy does not name {missing}"
    nb.click_button(ANONYMOUS, within=OUTPUT)
    text = frame_page(page, ASSIGNMENT, ANONYMOUS)
    named = [student for student in students if student in text]
    assert not named, f"the anonymous copy names {named}"

    # Sandboxed: the attribute is there and empty (no script, no form, no same origin), and the
    # notebook's page cannot read the frame's document.
    frame = page.locator(FRAME)
    assert frame.get_attribute("sandbox") == ""
    assert frame.evaluate("el => el.contentDocument === null"), "the page reaches into the frame"
    body = page.frame_locator(FRAME).locator("body")
    assert body.locator("script").count() == 0
    # The frame's two charts are loaded (pictures, not broken images).
    loaded = body.locator("img.chart").evaluate_all("els => els.map(e => e.complete && e.naturalWidth > 0)")
    assert loaded == [True, True], loaded

    # Its pixels: a screenshot of the frame's top (above Lab's status bar, which a frame taller
    # than the window runs under) is far from blank.
    frame.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    shot = screenshot_path("insight-widget-anonymous")
    frame.screenshot(path=str(shot))
    from PIL import Image

    image = Image.open(shot).convert("L")
    top = image.crop((0, 0, image.width, min(image.height, 600)))
    ink = sum(top.histogram()[:235])  # pixels darker than near-white
    print(f"frame screenshot {image.size}: {ink} of {top.width * top.height} pixels of its top inked")
    assert ink > 0.01 * top.width * top.height, f"the frame looks blank: {ink} pixels inked"

    failing = run_axe(page, "insight-widget")
    words = page_words(page)
    assert words["outputs"] > 0
    assert not failing, "axe-core found in the insight widget: " + json.dumps(failing, indent=1)[:4000]
    (tree,) = chromium_trees(page, [OUTPUT])[OUTPUT]
    (ARTIFACTS / "a11y-insight-widget.txt").write_text(tree + "\n")
    print(tree)
    for heard in [
        'combobox "Assignment"',
        'group "Copy"',
        f'button "{TEACHER}"',
        f'button "{ANONYMOUS}"',
        '"Class insight"',
    ]:
        assert heard in tree, f"a screen reader does not hear {heard}:\n{tree}"
    # Which copy is chosen is heard too (aria-pressed, which the KeyGuard module keeps in step with
    # ipywidgets' class mod-active): the anonymous one now, the teacher's after a click back.
    copies = pressed(tree)
    assert (copies.get(ANONYMOUS), copies.get(TEACHER)) == ("true", "false"), f"heard {copies}:\n{tree}"
    nb.click_button(TEACHER, within=OUTPUT)
    frame_page(page, ASSIGNMENT, TEACHER)
    (tree,) = chromium_trees(page, [OUTPUT])[OUTPUT]
    copies = pressed(tree)
    assert (copies.get(ANONYMOUS), copies.get(TEACHER)) == ("false", "true"), f"heard {copies}:\n{tree}"
