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
- in the cells the student wrote, Markdown cannot start an HTML tag (``<`` is written as
  ``&lt;``) nor name a character by an entity (``&`` is written as ``&amp;``, so that
  ``&#106;avascript:`` stays text), and a link, inline or by reference, keeps its address only
  when that address is relative or starts with ``http:``, ``https:`` or ``mailto:``; attachments
  are dropped.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

from nbformat import NotebookNode

from setwidgets.grading.preprocessors import FeedbackStep, locked

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
LINK_SCHEMES = ("http", "https", "mailto")
"""The addresses a link in a student's Markdown may keep, besides relative ones."""
# A link's address: inline "[text](address" or a reference's definition "[label]: address".
_MARKDOWN_LINK = re.compile(r"(\]\(\s*|^ {0,3}\[[^\]\n]+\]:[ \t]*\n?[ \t]*)([^\s)]+)", re.MULTILINE)
_CONTROLS = "".join(map(chr, range(33)))
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):", re.IGNORECASE)


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
        else:
            dropped.append(mimetype)
    if not kept:
        kept[TEXT] = f"[output not shown to the teacher: {', '.join(sorted(dropped))}]"
    output["data"] = kept
    output.pop("transient", None)
    if "metadata" in output:
        output["metadata"] = {}
    return output


def _address(link: re.Match) -> str:
    """A link's start with its address, or with ``#`` where the address's scheme is not allowed."""
    # Markdown drops a backslash before punctuation ("javascript\:" is "javascript:"), and a
    # browser drops the control characters and spaces before an address.
    scheme = _SCHEME.match(link[2].replace("\\", "").lstrip(_CONTROLS))
    allowed = scheme is None or scheme[1].lower() in LINK_SCHEMES
    return link[0] if allowed else f"{link[1]}#"


def inert_markdown(source: str) -> str:
    """A student's Markdown that can start no HTML tag, name no character by an entity and link
    to no address but a relative one or one of :data:`LINK_SCHEMES`."""
    return _MARKDOWN_LINK.sub(_address, source.replace("&", "&amp;").replace("<", "&lt;"))


class InertOutputs(FeedbackStep):
    """Make a submission's outputs and the student's Markdown inert (see the module's help)."""

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> tuple[NotebookNode, Any]:
        if cell.cell_type == "code":
            cell.outputs = [inert_output(output) for output in cell.get("outputs", [])]
        elif cell.cell_type in ("markdown", "raw") and not locked(cell):
            cell.source = inert_markdown(cell.source)
            cell.pop("attachments", None)
        return cell, resources
