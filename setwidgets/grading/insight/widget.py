"""The class insight as a widget, for a notebook the teacher opens beside the Formgrader.

::

    from setwidgets.grading.insight.widget import insight_view
    insight_view("exercises")  # the course's folder, where gradebook.db is

A picker of the assignments autograded so far, a choice of copy (the teacher's, which names
students, or the anonymous one to project) and the page itself
(:func:`setwidgets.grading.insight.page.render`), shown in a sandboxed frame: its styles stay in
the frame, and nothing in it can run. Each assignment's insight is gathered once, when first
shown: after autograding again, run the cell again.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from setwidgets._extras import require
from setwidgets.grading.insight.exercises import CATALOGUE
from setwidgets.grading.insight_cases import FOLDER

widgets = require("ipywidgets", "widgets", "setwidgets.grading.insight.widget")

TEACHER, ANONYMOUS = "teacher's copy (names students)", "anonymous copy (to project)"


def graded_assignments(course: Path | str) -> list[str]:
    """The assignments of the catalogue that the judge kept cases of, in the course at ``course``."""
    base = Path(course) / FOLDER
    return [a for a in CATALOGUE if base.is_dir() and any(base.glob(f"*/{a}/*.json"))]


def framed(page: str, height: int = 900) -> str:
    """A whole HTML page inside a sandboxed ``<iframe>`` (no script, no form, no navigation)."""
    return (
        f'<iframe sandbox="" title="Class insight" style="width:100%;height:{height}px;border:0" '
        f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
    )


def insight_view(course: Path | str = "exercises") -> widgets.VBox:
    """The widget: pick an assignment and a copy; the page shows below (see the module's help)."""
    from setwidgets.grading.insight.page import gather, render
    from setwidgets.widgets._keyguard import keep_keys

    course = Path(course)
    choices = graded_assignments(course)
    first = choices[0] if choices else None
    picker = widgets.Dropdown(options=choices, description="Assignment", value=first)
    copy = widgets.ToggleButtons(
        options=[TEACHER, ANONYMOUS], value=TEACHER, description="Copy", style={"button_width": "auto"}
    )
    page = widgets.HTML()
    gathered: dict[str, Any] = {}  # the insight of each assignment, gathered once

    def show(*_: object) -> None:
        if picker.value is None:
            where = html.escape(str(course))
            page.value = f"<p>No insight yet: autograde an assignment in {where} first.</p>"
            return
        # The page takes seconds to draw: the copy shown so far goes first, so that a teacher who
        # asks for the anonymous copy to project never projects the names while it is made.
        page.value = f"<p>Making the {html.escape(copy.value)} of {html.escape(picker.value)}...</p>"
        if picker.value not in gathered:
            gathered[picker.value] = gather(course, picker.value, progress=False)
        page.value = framed(render(gathered[picker.value], anonymous=copy.value == ANONYMOUS))

    picker.observe(show, names="value")
    copy.observe(show, names="value")
    show()
    # The menu's arrows and the buttons' Enter stay in the widget, not JupyterLab's command mode.
    return keep_keys(widgets.VBox([widgets.HBox([picker, copy]), page]))
