"""Student output is inert before a teacher's Formgrader page or a feedback page shows it.

Unit tests of :mod:`setwidgets.grading.sanitize`, and one real ``nbgrader autograde`` and
``generate_feedback`` of a submission whose answer cells try to run script in those pages.
"""

from __future__ import annotations

import base64
import re
import shutil
from html.parser import HTMLParser

import nbformat
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from nbformat import NotebookNode
from test_nbgrader import EXERCISES, answers_of, cell, grades, hand_in, nbgrader, save

from setwidgets import full_deck
from setwidgets.draw import cards_svg
from setwidgets.grading import sanitize
from setwidgets.grading.preprocessors import locked
from setwidgets.grading.sanitize import (
    ATTRIBUTES,
    LINK_SCHEMES,
    TAGS,
    InertOutputs,
    inert_markdown,
    inert_output,
    render_markdown,
    safe_svg,
    sanitize_html,
)

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
    assert [c.source for c in nb.cells] == ["<b>x</b>"] + ["<div><p><b>x</b></p></div>"] * 4


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


# -- a student's Markdown, sanitised as the HTML the pages show ------------------------------------

# A browser drops these from an address before reading its scheme: C0 controls and spaces around
# it, tabs and line breaks anywhere in it (the WHATWG URL parser).
_URL_EDGES = "".join(map(chr, range(33)))
_URL_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")


def scheme_of(address: str) -> str | None:
    """The scheme a browser reads in an address (lower case), or None for a relative address."""
    cleaned = re.sub(r"[\t\n\r]", "", address.strip(_URL_EDGES))
    found = _URL_SCHEME.match(cleaned)
    return found[1].lower() if found else None


class Shown(HTMLParser):
    """An HTML page or fragment as a browser reads it: its elements with their attributes (entities
    decoded, as the browser decodes them) and its text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.parts: list[str] = []
        self.feed(page)
        self.close()
        self.text = "".join(self.parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {name: value or "" for name, value in attrs}))

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def links(self) -> list[str]:
        return [attrs["href"] for _tag, attrs in self.elements if "href" in attrs]

    def problems(self, tags: frozenset[str] = TAGS) -> list[str]:
        """Everything in the page that could act or fetch: bad links, pictures, handlers, other elements."""
        found = []
        for tag, attrs in self.elements:
            if tag not in tags:
                found.append(f"<{tag}>")
            for name, value in attrs.items():
                if name.startswith("on") or name in ("src", "srcset", "action", "formaction", "background"):
                    found.append(f"<{tag} {name}={value!r}>")
                if name in ("href", "xlink:href") and scheme_of(value) not in (None, *LINK_SCHEMES):
                    found.append(f"<{tag} {name}={value!r}>")
                if name == "style" and not re.fullmatch(r"text-align:\s*(left|right|center)", value):
                    found.append(f"<{tag} style={value!r}>")
        return found


def shown(markdown: str) -> Shown:
    """A student's Markdown cell as the Formgrader and the feedback show it once made inert."""
    return Shown(render_markdown(inert_markdown(markdown)))


def test_a_link_scheme_is_read_as_a_browser_reads_it():
    """The tests' own judge of addresses: what a browser would run, not what the text looks like."""
    assert scheme_of(" \x01Java\tScript:alert(1)") == "javascript"
    assert scheme_of("https://e.org") == "https"
    assert scheme_of("notes.ipynb#a:b") is None and scheme_of("/logout") is None
    assert Shown('<a href="jav&#x61;script:x">').problems() == ["<a href='javascript:x'>"]


# Each cheat puts, without the sanitiser, a script link, a picture, a handler or a page element
# in the teacher's page; the last word of each line is what must still be read.
CHEATS = {
    "reference in a blockquote": "> [x]: javascript:alert(1)\n\n[click][x]",
    "reference in a list item": "- [x]: javascript:alert(1)\n\n[click][x]",
    "escaped bracket in the label": "[a\\]b]: javascript:alert(1)\n\n[click][a\\]b]",
    "label on two lines": "[two\nline]: javascript:alert(1)\n\n[click][two line]",
    "address on the next line": "[x][1]\n\n   [1]:\n  JavaScript:alert(1)\n\n[click][1]",
    "entity in the scheme": "[click](jav&#x61;script:alert(1))",
    "entity encoded twice": "[click](jav&amp;#x61;script:alert(1))",
    "backslash before the colon": "[click](javascript\\:alert(1))",
    "control character first": "[click](\x01javascript:alert(1))",
    "autolink": "<javascript:alert(1)> click",
    "data address": "[click](data:text/html,<script>alert(1)</script>)",
    "vbscript address": "[click](VBScript:msgbox(1))",
    "tab inside the scheme": '<a href="java&#9;script:alert(1)">click</a>',
    "raw link": "<a href=javascript:alert(1)>click</a>",
    "raw link by entity": '<a href="&#106;avascript:alert(1)">click</a>',
    "picture of a same-origin page": "![](/logout) click",
    "tracking picture": "![beacon](https://evil.example/beacon.png) click",
    "picture by reference": "![x][p] click\n\n[p]: https://evil.example/p.png",
    "raw picture with a handler": "<img src=x onerror=alert(1)> click",
    "picture set": '<picture><source srcset="https://evil.example/p.png"><img src=x></picture> click',
    "svg with a handler": "<svg onload=alert(1)><circle r=9 /></svg> click",
    "frame": '<iframe src="https://evil.example/"></iframe> click',
    "form": '<form action="/formgrader/api/grade/1" method=post><button>click</button></form>',
    "refresh": '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"> click',
    "base address": '<base href="https://evil.example/"> click',
    "style sheet": "<style>body { display: none }</style> click",
    "style attribute": '<p style="position:fixed;top:0;background:url(https://evil.example/p)">click</p>',
    "script": "<script>alert(1)</script> click",
    "page element names": '<div id="notebook" class="modal in"><input name="password"> click</div>',
    "comment trick": "<!--><img src=x onerror=alert(1)>--> click",
    "object": '<object data="https://evil.example/x.swf"></object><embed src="x"> click',
    "link element": '<link rel="stylesheet" href="https://evil.example/s.css"> click',
    "math link": '<math><mi href="javascript:alert(1)">x</mi></math> click',
}


@pytest.mark.parametrize("markdown", CHEATS.values(), ids=CHEATS.keys())
def test_a_cheat_in_a_student_s_markdown_leaves_nothing_that_acts_or_fetches(markdown):
    page = shown(markdown)
    assert page.problems() == []
    assert "click" in page.text, "the student's words are still there to read"
    assert not any(tag == "a" for tag, _ in page.elements), "a link without its address is plain words"
    hrefs = [value.lower() for _tag, attrs in page.elements for value in attrs.values()]
    assert not any("script:" in value for value in hrefs)


@pytest.mark.parametrize(
    ("markdown", "alt"),
    [("![](/logout)", ""), ("![a diagram](https://evil.example/beacon.png)", "a diagram"),
     ('<img alt="x < y" src=a>', "x < y"), ('![a & b < "c" *d*](x.png)', 'a & b < "c" d')],
)  # fmt: skip
def test_a_picture_is_shown_as_a_note_with_its_alternative_text(markdown, alt):
    page = shown(markdown)
    assert page.problems() == [] and not any(tag == "img" for tag, _ in page.elements)
    assert page.text.strip() == (f"[picture not shown: {alt}]" if alt else "[picture not shown]")


def test_links_on_the_web_by_mail_and_relative_ones_are_kept():
    page = shown(
        "[a](https://e.org/#x) [b](HTTP://e.org) [c](Mailto:a@e.org) [d](notes.ipynb#part-2) [e](#top) "
        "[f](../data/a.csv)\n\n[g][1]\n\n[1]: https://e.org/ref"
    )
    assert page.links() == [
        "https://e.org/#x", "HTTP://e.org", "Mailto:a@e.org", "notes.ipynb#part-2", "#top", "../data/a.csv",
        "https://e.org/ref",
    ]  # fmt: skip
    assert page.problems() == []


def test_other_schemes_lose_the_address_and_keep_the_words():
    page = shown("[x](file:///etc/passwd) [y](ftp://e.org) [z](intent://x)")
    assert page.links() == [] and page.text.strip() == "x [link removed] y [link removed] z [link removed]"


def test_a_proof_with_less_than_signs_reads_as_written_and_its_maths_stays_for_mathjax():
    proof = (
        "Suppose a < b and b<c. Then $a < c$ and\n\n$$\\sum_{i<n} x_i \\geq 0, \\quad \\{a, b\\}$$\n\n"
        "`if a < b:` and A & B, &lt; stays as typed."
    )
    stored = inert_markdown(proof)
    assert "&amp;lt;" not in stored.replace("&amp;lt; stays", "")
    page = shown(proof)
    assert "Suppose a < b and b<c. Then $a < c$ and" in page.text
    assert "$$\\sum_{i<n} x_i \\geq 0, \\quad \\{a, b\\}$$" in page.text
    assert "if a < b:" in page.text and "A & B, < stays as typed." in page.text
    assert page.problems() == []


def test_maths_keeps_its_underscores_stars_ampersands_and_line_breaks_for_mathjax():
    """Markdown would read ``_``, ``*`` and ``\\\\`` as emphasis and escapes; nbconvert's renderer keeps
    maths as written, and the stored block keeps what it rendered."""
    page = shown("Hence $x_1 * y_2 * z$ and\n\n$$\\begin{aligned} a &= b \\\\ c_1 &< d_2 \\end{aligned}$$")
    assert "Hence $x_1 * y_2 * z$ and" in page.text
    assert "$$\\begin{aligned} a &= b \\\\ c_1 &< d_2 \\end{aligned}$$" in page.text
    assert [tag for tag, _ in page.elements] == ["div", "p", "p"], "no emphasis made of the stars"


def test_markdown_keeps_its_shape_headings_lists_quotes_tables_and_code():
    page = shown(
        "# Claim\n\n> quoted\n\n1. one\n2. *two*\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n"
        "```python\nif a < b:\n\n    pass\n```\n"
    )
    tags = [tag for tag, _ in page.elements]
    for tag in ("h1", "blockquote", "ol", "li", "em", "table", "th", "td", "pre", "span"):
        assert tag in tags, tag
    assert ("th", {"style": "text-align:left"}) in page.elements
    assert "if a < b:\n\n    pass" in page.text, "the code block keeps its empty line"
    assert not any("id" in attrs for _, attrs in page.elements), "an id would shadow the page's own names"
    assert page.problems() == []


@pytest.mark.parametrize(
    "markdown", [*CHEATS.values(), "a\n\n\n\n  \n\n```\nx\n\n\n\ny\n```\n\n<pre>\n\n\n</pre>", "", "\n\n"]
)
def test_the_cell_holds_one_html_block_that_markdown_passes_on_unchanged_and_again_the_same(markdown):
    """The pages render the stored cell as Markdown again: they must show exactly what was sanitised,
    and a second pass (generate_feedback after autograde) changes nothing."""
    stored = inert_markdown(markdown)
    assert "\n" not in stored and stored.startswith("<div>") and stored.endswith("</div>")
    assert render_markdown(stored).strip() == stored
    assert inert_markdown(stored) == stored


def test_where_markdown_would_change_the_block_the_cell_falls_back_to_its_plain_text(monkeypatch):
    rendered = []

    def changing(source):
        rendered.append(source)
        return "<p>not the block</p>" if len(rendered) > 1 else render_markdown(source)

    monkeypatch.setattr(sanitize, "render_markdown", changing)
    assert inert_markdown("a < b\n\n*x*") == "<div><pre>a &lt; b&#10;&#10;*x*</pre></div>"


def test_where_rendering_fails_the_cell_falls_back_to_its_plain_text(monkeypatch):
    """A renderer's exception must not stop autograde (nbgrader would drop the autograded notebook)."""

    def failing(source):
        raise ValueError("broken")

    monkeypatch.setattr(sanitize, "render_markdown", failing)
    assert inert_markdown("<b>x</b>") == "<div><pre>&lt;b&gt;x&lt;/b&gt;</pre></div>"


def test_a_picture_in_an_attachment_that_is_missing_is_a_note_like_any_other():
    assert inert_markdown("![plot](attachment:missing.png)") == "<div><p>[picture not shown: plot]</p></div>"


def test_sanitize_html_keeps_only_the_allow_lists():
    said = sanitize_html(
        '<p lang="en" title="t" id="i" class="c" data-x="1">x</p><a href="https://e.org" target="_top">y</a>'
        '<abbr title="z">z</abbr><ol start="3" reversed><li>w</li></ol><span class="k">k</span>'
    )
    assert said == (
        '<p>x</p><a href="https://e.org" rel="noopener noreferrer nofollow">y</a><abbr title="z">z</abbr>'
        '<ol start="3"><li>w</li></ol><span class="k">k</span>'
    )
    assert set(ATTRIBUTES) <= TAGS


def test_what_is_not_text_is_refused_with_a_sentence():
    with pytest.raises(TypeError, match=r"sanitize_html: expected the HTML as a str, got bytes"):
        sanitize_html(b"<b>x</b>")
    with pytest.raises(TypeError, match=r"render_markdown: expected the Markdown as a str, got list"):
        render_markdown(["x"])


MARKDOWNISH = st.text(
    alphabet=st.sampled_from(list("<>[]()!&#;:\\`*_$\n -\"'=/ajvscriptxonlg10")), max_size=80
)


@settings(max_examples=examples(300), deadline=None)
@given(MARKDOWNISH)
def test_any_markdown_of_these_characters_leaves_nothing_that_acts_and_is_stable(markdown):
    stored = inert_markdown(markdown)
    assert Shown(render_markdown(stored)).problems() == []
    assert render_markdown(stored).strip() == stored and inert_markdown(stored) == stored


def test_every_cell_the_student_wrote_is_made_inert_code_outputs_markdown_and_raw():
    stream = nbformat.v4.new_output("stream", name="stdout", text="<script>x</script>")
    html = nbformat.v4.new_output("display_data", data={"text/html": "<b>x</b>", "text/plain": "x"})
    result = nbformat.v4.new_output(
        "execute_result", data={"application/javascript": "alert(1)"}, execution_count=1
    )
    error = nbformat.v4.new_output("error", ename="E", evalue="<b>", traceback=["<b>"])
    code = nbformat.v4.new_code_cell("x", outputs=[stream, html, result, error])
    markdown = nbformat.v4.new_markdown_cell(
        "<b>m</b> ![a](attachment:a.png)", attachments={"a.png": {"image/png": PNG}}
    )
    raw = nbformat.v4.new_raw_cell("<b>r</b><script>x</script><img src=x onerror=alert(1)>")
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
    assert nb.cells[1].source == "<div><p><b>m</b> [picture not shown: a]</p></div>"
    assert "attachments" not in nb.cells[1]
    # A raw cell is shown as HTML as it is: sanitised as HTML, not rendered as Markdown.
    assert nb.cells[2].source == "<b>r</b>[picture not shown]"
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
    assert autograded.cells[-1].source == "<div><p>Look [picture not shown]</p></div>"


def test_without_nh3_the_module_says_in_one_sentence_how_to_get_it():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['nh3'] = None\n"
        "try:\n    import setwidgets.grading.sanitize\nexcept ModuleNotFoundError as e:\n    print(e)"
    )
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert said.strip() == (
        "setwidgets.grading.sanitize needs nh3, which is not installed: "
        "pip install 'setwidgets[course]' adds it."
    )


# -- the package's named pictures: their alt reaches the teacher's and the student's pages ------


def test_a_named_picture_of_the_package_is_kept_as_the_grader_writes_it_anew():
    from setwidgets import Card
    from setwidgets.draw import show
    from setwidgets.grading.sanitize import named_picture

    card = Card.parse("1RSO")._repr_html_()
    row = show([Card.parse("1RSO"), Card.parse("2GTS")])._repr_html_()
    assert named_picture(card) == card and 'alt="one red solid oval"' in card
    assert named_picture(row) == row
    output = nbformat.v4.new_output(
        "display_data", data={"text/html": row, "text/plain": "2 cards"}, metadata={"isolated": True}
    )
    assert inert_output(output)["data"] == {"text/html": row, "text/plain": "2 cards"}


@pytest.mark.parametrize(
    "change",
    [
        lambda html: html.replace('alt="one', 'onerror="alert(1)" alt="one'),
        lambda html: html.replace("one red solid oval", '"><script>alert(1)</script>'),
        lambda html: html.replace('src="data:image/svg+xml', 'src="javascript:alert(1)//data:image/svg+xml'),
        lambda html: html.replace("base64,", "base64,!!"),
        lambda html: html + "<script>alert(1)</script>",
        lambda html: html.replace('class="setw-picture"', 'class="setw-picture x"'),
    ],
)
def test_anything_else_in_a_named_pictures_place_is_dropped(change):
    from setwidgets import Card
    from setwidgets.grading.sanitize import named_picture

    assert named_picture(change(Card.parse("1RSO")._repr_html_())) is None


def test_a_named_picture_whose_svg_is_active_is_dropped_and_its_words_stay_words():
    import base64

    from setwidgets.grading.sanitize import named_picture

    active = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'
    data = base64.b64encode(active.encode()).decode()
    start = '<img class="setw-picture" alt="x" style="max-width:100%;height:auto" '
    forged = start + f'src="data:image/svg+xml;base64,{data}">'
    assert named_picture(forged) is None
    plain = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect/></svg>'
    data = base64.b64encode(plain.encode()).decode()
    words = '<img class="setw-picture" alt="&quot;&gt;&lt;script&gt;" style="max-width:100%;height:auto" '
    kept = named_picture(words + f'src="data:image/svg+xml;base64,{data}">')
    assert kept is not None and "<script" not in kept and 'alt="&quot;&gt;&lt;script&gt;"' in kept
