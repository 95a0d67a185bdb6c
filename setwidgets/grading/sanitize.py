"""Student output made inert before a teacher's page or another student's feedback shows it.

The Formgrader shows a submission as HTML in the teacher's logged-in page, and the feedback is an
HTML page too. A notebook's outputs can carry HTML, JavaScript, SVG with event handlers, and a
student's markdown answer can carry raw HTML: run in the teacher's page, a script could change
every grade of the class through the Formgrader's own API. :class:`InertOutputs` runs last in
``autograde`` (so the autograded notebook, which both pages read, is already clean) and first in
``generate_feedback`` (for notebooks autograded before it existed):

- outputs keep their plain text, and PNG, JPEG and GIF pictures whose bytes are such a picture;
- SVG pictures (the course draws its cards as SVG) are kept when they parse and hold only drawing
  elements and attributes: no script, no event handler, no foreign object, no style sheet (which
  would style the whole page around an SVG shown inline), no link outside the picture, no CSS
  escape; and nothing an XML parser skips but an HTML parser reads (comments, processing
  instructions, declarations, CDATA). Any other SVG is dropped;
- HTML, JavaScript, Markdown, LaTeX, widget views and every other kind of output are dropped, and
  a line of text says which kinds were dropped where nothing else remains;
- the cells the student wrote (not the teacher's locked ones) are sanitised as the pages will
  show them: a Markdown cell is rendered to HTML by the Markdown renderer the Formgrader and the
  feedback use (nbconvert's mistune renderer, with its maths kept as written), then that HTML
  goes through ``nh3`` (the Ammonia allow-list sanitiser), which keeps only the tags of
  :data:`TAGS`, the attributes of :data:`ATTRIBUTES` and links whose address is relative or
  starts with one of :data:`LINK_SCHEMES`: no script, style sheet, event handler, form, frame, ``<base>`` or
  ``<meta>``, whatever the Markdown that made it (a link by reference in a quote or a list, an
  address spelt with entities); a link that loses its address keeps its words, followed by
  :data:`LINK_NOTE`. A picture becomes a visible note with its alternative text
  (:func:`picture_note`): shown by the teacher's browser, even ``![](/logout)`` would send a
  request with the teacher's login, and a picture elsewhere would tell its owner when the
  teacher reads. Attachments are dropped. The cell then holds that HTML on one line inside a
  ``<div>``: Markdown passes such a block through untouched, so the pages show exactly what was
  sanitised (:func:`inert_markdown` checks it, and shows the cell's plain text where it would not
  or where rendering fails). A raw cell, which the pages show as HTML, is sanitised as HTML.

Maths stays text between its ``$`` signs, so the MathJax of the Formgrader and the feedback typeset
it as before (``a < b`` in a proof reads ``a < b``); both pages load MathJax with its ``Safe``
extension, which keeps ``\\href`` and the like to safe addresses.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbformat import NotebookNode
from pygments.token import STANDARD_TYPES

from setwidgets._extras import require
from setwidgets.grading.preprocessors import FeedbackStep, locked

# The course extra installs it; without it, grading stops with the sentence that says so.
nh3 = require("nh3", "course", "setwidgets.grading.sanitize")

TEXT = "text/plain"
PICTURES = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}
SVG = "image/svg+xml"

SVG_ELEMENTS = frozenset(
    {
        "svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line", "polyline", "polygon",
        "path", "text", "tspan", "pattern", "clipPath", "mask", "linearGradient", "radialGradient", "stop",
        "symbol", "use", "marker",
    }
)  # fmt: skip
"""The SVG elements a picture may hold: shapes, groups, text, fills. No script, foreign object or style."""

_SVG_NS = "{http://www.w3.org/2000/svg}"
_LINKS = ("href", "{http://www.w3.org/1999/xlink}href")
_DANGEROUS = re.compile(
    r"javascript:|vbscript:|data:|expression\s*\(|@import|url\(\s*['\"]?(?!#)", re.IGNORECASE
)
# An XML declaration may open a picture; past it, "<!" and "<?" start what ElementTree skips and
# an HTML parser may read as markup (a comment "<!-->" ends at its first ">" in HTML).
_XML_DECLARATION = re.compile(r"\s*<\?xml[^<>]*\?>")
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
"""The schemes a link in a student's cell may keep, besides relative addresses."""

TAGS = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt",
        "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p", "pre",
        "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "u", "ul", "var",
    }
)  # fmt: skip
"""The HTML elements a student's cell may show: text, lists, quotes, code, tables and links. Any
other element is dropped and its text kept (the text of a script or style sheet is dropped too)."""

ATTRIBUTES = {
    "a": frozenset({"href", "title"}),
    "abbr": frozenset({"title"}),
    "ol": frozenset({"start"}),
    "td": frozenset({"colspan", "rowspan", "style"}),
    "th": frozenset({"colspan", "rowspan", "style"}),
}
"""The attributes each element may keep. No ``id`` or ``name`` (they would shadow the page's own
names), no event handler, no ``style`` but a table cell's alignment (:data:`STYLE_PROPERTIES`)."""

STYLE_PROPERTIES = frozenset({"text-align"})
"""The only CSS a cell may keep: how Markdown aligns a table's columns."""

CLASSES = {
    "div": frozenset({"highlight"}),
    "span": frozenset(name for name in STANDARD_TYPES.values() if name),
}
"""The classes kept: those of a code block coloured by Pygments, as nbconvert renders it; a class
of the page's own (a dialog, a hidden panel) would let a cell dress up as the page."""

# Elements whose text is no text for the reader: dropped with everything in them.
_DROPPED_WHOLE = frozenset(
    {
        "script",
        "style",
        "template",
        "iframe",
        "noscript",
        "textarea",
        "title",
        "svg",
        "math",
        "object",
        "select",
    }
)
# nh3 writes a picture it kept as <img alt="...">, its value escaped (no ">" or '"' inside).
_PICTURE = re.compile(r"<img\b[^>]*>")
_ALT = re.compile(r'\balt="([^"]*)"')
# A link whose address nh3 dropped, up to its end (HTML closes a link before another opens).
_DEAD_LINK = re.compile(r"<a\b(?![^>]*\bhref=)[^>]*>(.*?)</a>", re.DOTALL)
LINK_NOTE = "[link removed]"
"""Written after the words of a link whose address was not allowed, so the teacher sees it was one."""
# Markdown ends an HTML block at an empty line, and only there.
_BLOCK_START, _BLOCK_END = "<div>", "</div>"


def _allowed(text: str, *, tags: frozenset[str] = TAGS, attributes: dict | None = None) -> str:
    """``text`` parsed as HTML, with only what the allow-lists name left in it."""
    cleaned = nh3.clean(
        text,
        tags=set(tags),
        clean_content_tags=set(_DROPPED_WHOLE),
        # "*": no attribute on every element (nh3 would otherwise allow "lang" and "title").
        attributes={"*": set()} | {tag: set(names) for tag, names in (attributes or ATTRIBUTES).items()},
        allowed_classes={tag: set(names) for tag, names in CLASSES.items()},
        filter_style_properties=set(STYLE_PROPERTIES),
        url_schemes=set(LINK_SCHEMES),
        strip_comments=True,
        link_rel="noopener noreferrer nofollow",
    )
    # HTML drops a line break right after <pre>. nh3 writes a <pre> whose text starts with one
    # without the second that would keep it (HTML's own serialisation adds it): added here.
    return cleaned.replace("<pre>\n", "<pre>\n\n")


def picture_note(alt: str) -> str:
    """What a student's picture is shown as: a note in brackets with its alternative text."""
    return f"[picture not shown: {alt}]" if alt.strip() else "[picture not shown]"


def sanitize_html(text: str) -> str:
    """``text`` as HTML a teacher's page may show: only :data:`TAGS`, :data:`ATTRIBUTES` and links to
    relative addresses or :data:`LINK_SCHEMES`; each picture replaced by :func:`picture_note`."""
    if not isinstance(text, str):
        raise TypeError(f"sanitize_html: expected the HTML as a str, got {type(text).__name__}")
    # First pass: the same allow-list plus pictures reduced to their alternative text, written
    # by nh3 in one form; then each becomes a note, and the second pass is the one that counts.
    with_pictures = _allowed(text, tags=TAGS | {"img"}, attributes={**ATTRIBUTES, "img": frozenset({"alt"})})
    noted = _DEAD_LINK.sub(rf"\1 {LINK_NOTE}", _PICTURE.sub(_noted, with_pictures))
    return _allowed(noted)


def _noted(picture: re.Match) -> str:
    alt = _ALT.search(picture[0])
    return html.escape(picture_note(html.unescape(alt[1]) if alt else ""), quote=False)


class _Renderer(IPythonRenderer):
    """nbconvert's renderer, with a picture written as its alternative text alone: it fetches nothing,
    and an ``attachment:`` picture that is not attached does not stop the rendering."""

    def image(self, text: str, url: str, title: str | None = None) -> str:
        # The alternative text comes rendered, as HTML (``*e*`` is <em>e</em>): its words alone.
        words = html.unescape(re.sub(r"<[^>]*>", "", text))
        return f'<img alt="{html.escape(words)}">'


def render_markdown(source: str) -> str:
    """A Markdown cell's source as HTML, by nbconvert's renderer (the one of the Formgrader and the
    feedback), maths left as written between its ``$`` signs; not sanitised."""
    if not isinstance(source, str):
        raise TypeError(f"render_markdown: expected the Markdown as a str, got {type(source).__name__}")
    return MarkdownWithMath(renderer=_Renderer(escape=False, exclude_anchor_links=True)).render(source)


def _one_block(sanitised: str) -> str:
    """Sanitised HTML as one Markdown HTML block: inside a ``<div>``, on one line."""
    # A line break is written as its character reference, which HTML reads as the same line
    # break (inside <pre> too): the block then has no empty line where Markdown would end it.
    line = sanitised.strip().replace("\n", "&#10;")
    # Sanitised again (generate_feedback after autograde), a cell is not wrapped twice.
    already = line.startswith(_BLOCK_START) and line.endswith(_BLOCK_END)
    return line if already else _BLOCK_START + line + _BLOCK_END


def inert_markdown(source: str) -> str:
    """A student's Markdown cell as the sanitised HTML of what it renders to (see the module's help),
    in a form that Markdown shows unchanged; where it would not, the cell's plain text instead."""
    try:
        block = _one_block(sanitize_html(render_markdown(source)))
        if render_markdown(block).strip() == block:
            return block
    except Exception:  # noqa: BLE001 - whatever a renderer may raise, a cell must not stop the grading
        pass
    # Where rendering fails (mistune raises on some malformed Markdown) or the block would not stay
    # as it is: fail closed, with the student's words as plain text.
    return _one_block(f"<pre>{html.escape(source, quote=False)}</pre>")


def safe_svg(text: str) -> str | None:
    """``text`` if it is an SVG picture with nothing active in it; else None."""
    body = text[m.end() :] if (m := _XML_DECLARATION.match(text)) else text
    if "<!" in body or "<?" in body:
        return None
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None
    for element in root.iter():
        tag = element.tag.removeprefix(_SVG_NS) if isinstance(element.tag, str) else ""
        if tag not in SVG_ELEMENTS:
            return None
        for name, value in element.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            if local.startswith("on") or _DANGEROUS.search(value) or "\\" in value:
                return None
            if name in _LINKS and not value.startswith("#"):
                return None
    return text


def _picture(mimetype: str, value: Any) -> bool:
    """Whether ``value`` is base64 of a picture of this kind."""
    if not isinstance(value, str):
        return False
    try:
        data = base64.b64decode(value, validate=False)
    except (binascii.Error, ValueError):
        return False
    return data.startswith(PICTURES[mimetype])


HTML = "text/html"
# The package's pictures with their text alternative (setwidgets.draw.svg.picture_html): an <img>
# whose alt names the cards and whose address holds the SVG itself.
_NAMED_PICTURE = re.compile(
    r'<img class="setw-picture" alt="([^"<>&]*(?:&(?:amp|lt|gt|quot|#x27);[^"<>&]*)*)"'
    r'(?: width="([0-9.]{1,12})" height="([0-9.]{1,12})")? style="max-width:100%;height:auto" '
    r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/]*={0,2})">'
)


def named_picture(text: Any) -> str | None:
    """An HTML output that is one of the package's named pictures, made anew by the grader; else None.

    A screen reader reading the feedback hears the cards' names only from such an ``<img alt>``
    (nbconvert gives an SVG output none). Nothing of the student's HTML is passed on: the alt is
    read as words and the picture as an SVG that :func:`safe_svg` accepts, and the ``<img>`` is
    written again from those two by the package's own :func:`~setwidgets.draw.svg.picture_html`.
    """
    from setwidgets.draw.svg import picture_html

    if not isinstance(text, str) or len(text) > 4 * 2**20:
        return None
    found = _NAMED_PICTURE.fullmatch(text.strip())
    if found is None:
        return None
    words, _, _, data = found.groups()
    try:
        svg = base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    words = html.unescape(words).strip()
    if not words or not svg.lstrip().startswith("<svg") or safe_svg(svg) is None:
        return None
    return picture_html(svg, words)


def _safe(mimetype: str, value: Any) -> bool:
    """Whether an output's value of this kind is plain text or a picture with nothing active."""
    if not isinstance(value, str):
        return False
    if mimetype == TEXT:
        return True
    if mimetype in PICTURES:
        return _picture(mimetype, value)
    return mimetype == SVG and safe_svg(value) is not None


def inert_output(output: NotebookNode) -> NotebookNode:
    """The output with only plain text and safe pictures left in its data."""
    data = output.get("data")
    if not isinstance(data, dict):
        return output
    kept, dropped = {}, []
    for mimetype, value in data.items():
        if _safe(mimetype, value):
            kept[mimetype] = value
        elif mimetype == HTML and (picture := named_picture(value)) is not None:
            kept[mimetype] = picture
        else:
            dropped.append(mimetype)
    if not kept:
        kept[TEXT] = f"[output not shown to the teacher: {', '.join(sorted(dropped))}]"
    output["data"] = kept
    output.pop("transient", None)
    if "metadata" in output:
        output["metadata"] = {}
    return output


class InertOutputs(FeedbackStep):
    """Make a submission's outputs and the student's Markdown inert (see the module's help)."""

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> tuple[NotebookNode, Any]:
        if cell.cell_type == "code":
            cell.outputs = [inert_output(output) for output in cell.get("outputs", [])]
        elif cell.cell_type == "markdown" and not locked(cell):
            cell.source = inert_markdown(cell.source)
            cell.pop("attachments", None)
        elif cell.cell_type == "raw" and not locked(cell):
            # The pages show a raw cell's source as HTML, as it is (nbconvert's raw cell block).
            cell.source = sanitize_html(cell.source)
            cell.pop("attachments", None)
        return cell, resources
