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


SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


def test_an_event_handler_in_any_namespace_is_still_an_event_handler():
    """Only the local name counts, without its namespace, whatever its case."""
    for uri in ("http://www.w3.org/2000/svg", "urn:cards"):
        svg = f'<svg {SVG_NS} xmlns:h="{uri}"><rect h:OnClick="alert(1)"/></svg>'
        assert safe_svg(svg) is None, uri
        harmless = svg.replace('h:OnClick="alert(1)"', 'h:fill="red"')
        assert safe_svg(harmless) == harmless


def test_a_link_inside_the_picture_is_kept_and_one_outside_it_is_not():
    inside = f'<svg {SVG_NS}><defs><rect id="r" width="1" height="1"/></defs><use href="#r"/></svg>'
    assert safe_svg(inside) == inside
    assert safe_svg(inside.replace('href="#r"', 'href="r.svg#r"')) is None


def test_words_that_look_active_in_the_picture_s_text_are_only_text():
    """The text drawn by a picture is not run."""
    svg = f"<svg {SVG_NS}><text>javascript: data: url(http://e/x) @import</text></svg>"
    assert safe_svg(svg) == svg


def test_a_style_sheet_in_a_picture_is_dropped_even_a_harmless_one():
    """Shown inline, a picture's style sheet would style the whole page (``body {display: none}``)."""
    assert safe_svg(f"<svg {SVG_NS}><style>rect {{fill: red}}</style><rect/></svg>") is None
    assert safe_svg(f"<svg {SVG_NS}><style>body {{display: none}}</style></svg>") is None


def test_a_css_escape_in_an_attribute_drops_the_picture():
    """``\\75rl(`` is CSS for ``url(``: it would fetch from the student's server."""
    assert safe_svg(f'<svg {SVG_NS}><rect style="fill: red"/></svg>') is not None
    assert safe_svg(f'<svg {SVG_NS}><rect style="fill: \\75rl(http://e/p)"/></svg>') is None


@pytest.mark.parametrize(
    "hidden",
    [
        "<!--><img src=x onerror=alert(1)>-->",  # HTML ends this comment at its first ">"
        "<?x <img src=x onerror=alert(1)>?>",  # HTML reads a processing instruction as a bogus comment
        "<![CDATA[<img src=x onerror=alert(1)>]]>",
        "<!-- a plain comment -->",
    ],
)
def test_what_an_xml_parser_skips_but_an_html_parser_may_read_drops_the_picture(hidden):
    assert safe_svg(f"<svg {SVG_NS}>{hidden}<rect/></svg>") is None


def test_a_picture_may_open_with_an_xml_declaration_and_nothing_else_of_its_kind():
    svg = f'<?xml version="1.0" encoding="UTF-8"?>\n<svg {SVG_NS}><rect/></svg>'
    assert safe_svg(svg) == svg
    assert safe_svg(f'<?xml version="1.0"?><!DOCTYPE svg><svg {SVG_NS}><rect/></svg>') is None
    assert safe_svg(f'<?xml version="1.0" <img src=x onerror=alert(1)>?><svg {SVG_NS}/>') is None


def _one(mimetype, value):
    output = NotebookNode(output_type="display_data", data={mimetype: value}, metadata={})
    return inert_output(output)["data"]


def test_an_svg_output_is_kept_when_safe_and_dropped_when_active_or_under_another_kind():
    safe = f'<svg {SVG_NS}><rect width="1" height="1"/></svg>'
    assert _one("image/svg+xml", safe) == {"image/svg+xml": safe}
    dropped = "[output not shown to the teacher: image/svg+xml]"
    assert _one("image/svg+xml", HOSTILE_SVGS[0]) == {"text/plain": dropped}
    # The same harmless SVG given as HTML or Markdown is still HTML: the page would not read it as a picture.
    assert _one("text/html", safe) == {"text/plain": "[output not shown to the teacher: text/html]"}
    assert _one("text/markdown", safe) == {"text/plain": "[output not shown to the teacher: text/markdown]"}


def test_a_picture_is_kept_in_wrapped_base64_and_dropped_when_not_base64():
    """nbformat may wrap base64 in lines; a value that is not base64 at all is no picture."""
    wrapped = base64.encodebytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 80).decode()
    assert "\n" in wrapped.rstrip("\n")
    assert _one("image/png", wrapped) == {"image/png": wrapped}
    for broken in (PNG[:-1], "iVBORw0KGgo\u00e9AAAA"):
        assert _one("image/png", broken) == {"text/plain": "[output not shown to the teacher: image/png]"}


def test_an_output_value_that_is_not_a_string_is_dropped_such_as_a_widget_view():
    output = NotebookNode(
        output_type="display_data",
        data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "m", "version_major": 2},
            "application/json": {"a": 1},
            "text/plain": ["not", "joined"],
        },
        metadata={},
    )
    assert inert_output(output)["data"] == {
        "text/plain": "[output not shown to the teacher: "
        "application/json, application/vnd.jupyter.widget-view+json, text/plain]"
    }


def test_a_student_s_markdown_is_changed_exactly_where_it_could_act():
    said = inert_markdown(
        "a <b> [j](javascript:alert(1)) [d]( <DATA:text/html,x>) [v](VBScript:x) [h](https://e.org/#x)"
    )
    # An address in <...> now starts with &lt;: the page reads it as a harmless relative address.
    assert said == "a &lt;b> [j](#)) [d]( &lt;DATA:text/html,x>) [v](#) [h](https://e.org/#x)"
    assert inert_markdown("[d](data:text/html,x) [e](<javascript:x>)") == "[d](#) [e](&lt;javascript:x>)"


@pytest.mark.parametrize(
    ("markdown", "inert"),
    [
        # An entity stays text: the address is the relative "&#106;avascript:...".
        ("[x](&#106;avascript:alert(1))", "[x](&amp;#106;avascript:alert(1))"),
        ("A &amp; B & C", "A &amp;amp; B &amp; C"),
        # A link by reference, its address on the label's line or the next.
        ("[x][1]\n\n[1]: javascript:alert(1)", "[x][1]\n\n[1]: #)"),
        ("[x][1]\n\n   [1]:\n  JavaScript:alert(1)", "[x][1]\n\n   [1]:\n  #)"),
        ("[x][1]\n\n[1]: https://e.org", "[x][1]\n\n[1]: https://e.org"),
        # Markdown drops the backslash; a browser drops the control character.
        ("[x](javascript\\:alert(1))", "[x](#))"),
        ("[x](http\\://e.org)", "[x](http\\://e.org)"),
        ("[x](\x01javascript:alert(1))", "[x](#))"),
        # Any scheme but the web's and mail's loses its address; relative ones are kept.
        (
            "[x](file:///etc/passwd) [y](Mailto:a@e.org) [z](HTTP://e.org)",
            "[x](#) [y](Mailto:a@e.org) [z](HTTP://e.org)",
        ),
        (
            "[x](notes.ipynb#part-2) [y](#top) [z](../data/a.csv)",
            "[x](notes.ipynb#part-2) [y](#top) [z](../data/a.csv)",
        ),
    ],
)
def test_a_link_keeps_its_address_only_when_relative_or_on_the_web_or_mail(markdown, inert):
    assert inert_markdown(markdown) == inert


def test_every_cell_the_student_wrote_is_made_inert_code_outputs_markdown_and_raw():
    stream = nbformat.v4.new_output("stream", name="stdout", text="<script>x</script>")
    html = nbformat.v4.new_output("display_data", data={"text/html": "<b>x</b>", "text/plain": "x"})
    result = nbformat.v4.new_output(
        "execute_result", data={"application/javascript": "alert(1)"}, execution_count=1
    )
    error = nbformat.v4.new_output("error", ename="E", evalue="<b>", traceback=["<b>"])
    code = nbformat.v4.new_code_cell("x", outputs=[stream, html, result, error])
    markdown = nbformat.v4.new_markdown_cell("<b>m</b>", attachments={"a.png": {"image/png": PNG}})
    raw = nbformat.v4.new_raw_cell("<b>r</b>")
    teacher = nbformat.v4.new_markdown_cell(
        "<b>t</b>", metadata={"nbgrader": {"locked": True, "grade_id": "intro"}}, attachments={"a.png": {}}
    )
    nb = nbformat.v4.new_notebook(cells=[code, markdown, raw, teacher])
    nb, _ = InertOutputs().preprocess(nb, {})
    assert nb.cells[0].outputs == [
        stream,
        {"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}},
        {
            "output_type": "execute_result",
            "data": {"text/plain": "[output not shown to the teacher: application/javascript]"},
            "metadata": {},
            "execution_count": 1,
        },
        error,
    ]
    assert nb.cells[1].source == "&lt;b>m&lt;/b>" and "attachments" not in nb.cells[1]
    assert nb.cells[2].source == "&lt;b>r&lt;/b>"
    assert nb.cells[3].source == "<b>t</b>" and nb.cells[3].attachments == {"a.png": {}}


def test_a_code_cell_without_outputs_is_given_an_empty_list():
    bare = NotebookNode(cell_type="code", source="y", metadata={})
    cell, resources = InertOutputs().preprocess_cell(bare, {"r": 1}, 0)
    assert cell.outputs == [] and resources == {"r": 1}


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
