"""Student output is inert before a teacher's Formgrader page or a feedback page shows it.

Unit tests of :mod:`setwidgets.grading.sanitize`, and one real ``nbgrader autograde`` and
``generate_feedback`` of a submission whose answer cells try to run script in those pages.
"""

from __future__ import annotations

import base64
import shutil

import nbformat
import pytest
from nbformat import NotebookNode
from test_nbgrader import EXERCISES, answers_of, cell, grades, hand_in, nbgrader, save

from setwidgets import full_deck
from setwidgets.draw import cards_svg
from setwidgets.grading.preprocessors import locked
from setwidgets.grading.sanitize import InertOutputs, inert_markdown, inert_output, safe_svg

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 20).decode()
HOSTILE_SVGS = [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div>x</div></foreignObject></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink">'
    '<use x:href="http://e/a.svg#a"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(http://evil.example/x.css)</style></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(http://evil.example/p)"/></svg>',
    "not xml <",
]


def test_the_course_s_own_card_pictures_are_kept():
    picture = cards_svg(full_deck()[:12])
    assert safe_svg(picture) == picture


@pytest.mark.parametrize("svg", HOSTILE_SVGS)
def test_svg_with_anything_active_is_dropped(svg):
    assert safe_svg(svg) is None


def test_an_output_keeps_its_text_and_safe_pictures_only():
    output = NotebookNode(
        output_type="display_data",
        data={
            "text/html": "<script>fetch('/formgrader/api/grade/1', {method: 'PUT'})</script>",
            "application/javascript": "alert(1)",
            "text/markdown": "<img src=x onerror=alert(1)>",
            "image/png": PNG,
            "image/jpeg": base64.b64encode(b"<script>").decode(),
            "text/plain": "<HTML object>",
        },
        metadata={"isolated": True},
        transient={"display_id": "x"},
    )
    assert inert_output(output) == {
        "output_type": "display_data",
        "data": {"image/png": PNG, "text/plain": "<HTML object>"},
        "metadata": {},
    }
    only_html = NotebookNode(output_type="display_data", data={"text/html": "<b>x</b>"}, metadata={})
    assert inert_output(only_html)["data"] == {"text/plain": "[output not shown to the teacher: text/html]"}


def test_a_student_s_markdown_starts_no_tag_and_links_to_no_script():
    said = inert_markdown("Hi <img src=x onerror=alert(1)> [a](javascript:alert(1)) [b](https://example.org)")
    assert "<" not in said and "javascript:" not in said and "(https://example.org)" in said


def test_locked_cells_of_the_teacher_keep_their_markdown_and_a_student_s_lock_counts_for_nothing():
    marks = [
        {"locked": True, "grade_id": "intro"},  # the teacher's
        {"solution": True, "grade_id": "answer"},
        {},  # a cell the student added
        {"solution": True, "locked": True, "grade_id": "answer2"},  # an answer the student marked locked
        {"locked": True},  # a cell the student added and marked locked, without a grade id
    ]
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("<b>x</b>", metadata={"nbgrader": m}) for m in marks]
    )
    assert [locked(c) for c in nb.cells] == [True, False, False, False, False]
    nb, _ = InertOutputs().preprocess(nb, {})
    assert [c.source for c in nb.cells] == ["<b>x</b>"] + ["&lt;b>x&lt;/b>"] * 4


SCRIPTED = """
from IPython.display import HTML, Javascript, SVG, display

display(HTML("<script>window.__pwned = 1</script><img src=x onerror='window.__pwned = 2'>"))
display(Javascript("window.__pwned = 3"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = 4"><rect/></svg>'))
"""


@pytest.mark.nbgrader
def test_autograde_and_feedback_leave_no_script_of_the_student_s(tmp_path):
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(EXERCISES / "nbgrader_config.py", course)
    shutil.copytree(EXERCISES / "source" / "01_magic_rule", course / "source" / "01_magic_rule")
    nbgrader(course, "generate_assignment", "01_magic_rule")
    nbgrader(course, "db", "student", "add", "mallory")
    source = nbformat.read(EXERCISES / "source" / "01_magic_rule" / "magic_rule.ipynb", as_version=4)
    answers = answers_of(source)
    answers["is_set_answer"] += "\n" + SCRIPTED
    nb = hand_in(course, "01_magic_rule", answers)
    nb.cells.append(nbformat.v4.new_markdown_cell("Look <img src=x onerror='window.__pwned = 5'>"))
    save(course, "mallory", "01_magic_rule", nb)
    nbgrader(course, "autograde", "01_magic_rule")
    nbgrader(course, "generate_feedback", "01_magic_rule")
    feedback = (course / "feedback" / "mallory" / "01_magic_rule" / "magic_rule.html").read_text()
    # The code of the answer cell is shown, escaped; nothing of it is live HTML in the page.
    live = ("<script>window.__pwned", "<img src=x onerror", '<svg xmlns="http://www.w3.org/2000/svg" onload')
    for active in live:
        assert active not in feedback
    assert sum(grades(course, "01_magic_rule", "mallory").values()) == 10, "the answers still score"
    autograded = nbformat.read(course / "autograded" / "mallory" / "01_magic_rule" / "magic_rule.ipynb", 4)
    kinds = {k for o in cell(autograded, "is_set_answer").outputs for k in o.get("data", {})}
    assert kinds and kinds <= {"text/plain", "image/svg+xml", "image/png"}
    assert autograded.cells[-1].source.startswith("Look &lt;img")
