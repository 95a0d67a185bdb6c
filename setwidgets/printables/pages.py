"""What every printable shares: the paper, a canvas drawn in memory, the saving, cut lines and boxes.

>>> paper_size(" Letter ")
(612.0, 792.0)
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from setwidgets import _inputs
from setwidgets.competition.schedules import MOST_PLAYERS
from setwidgets.printables.output import write_whole

__all__ = [
    "GREY",
    "INK",
    "LIGHT",
    "MOST_PLAYERS",
    "PAPERS",
    "PRINTING",
    "box",
    "cut_lines",
    "new_canvas",
    "paper_size",
    "player_count",
    "printing_box",
    "printing_box_height",
    "save",
]

PAPERS = {"a4": A4, "letter": LETTER}

# The most players the printables print for is the most a schedule seats: a large hall,
# 112 pages of entry cards.

PRINTING = (
    "How to print: in color, at 100 % (actual size, not \u201cfit to page\u201d), on card stock.",
    "A black-and-white copy loses what the colors tell, and no look of this package shows color "
    "another way: the color-blind palette changes only the colors, and its vermillion and blue print "
    "as almost the same grey. With only a black-and-white printer, have the pages with cards printed "
    "in color elsewhere (a copy shop, the school office) or play with a bought deck.",
)
"""The printing advice of the handout and the deck's first page: its heading line, then the reasons."""

INK = HexColor("#222222")
GREY = HexColor("#8a8f96")
LIGHT = HexColor("#eef1f4")


def paper_size(paper: str) -> tuple[float, float]:
    """The page's width and height in points: ``"A4"`` or ``"letter"`` (any case, spaces around)."""
    if not isinstance(paper, str):
        _inputs.refuse_bytes(paper, "paper must be 'A4' or 'letter'")
        raise TypeError(f"paper must be 'A4' or 'letter'; got {_inputs.what(paper)}")
    if paper.strip().lower() not in PAPERS:
        raise ValueError(f"paper must be 'A4' or 'letter'; got {_inputs.short(paper)}")
    return PAPERS[paper.strip().lower()]


def new_canvas(paper: str, title: str) -> tuple[Canvas, float, float]:
    """A canvas drawn in memory: the file is written by save, whole, once every page is done."""
    width, height = paper_size(paper)
    pdf = Canvas(io.BytesIO(), pagesize=(width, height), pageCompression=1)
    pdf.setTitle(title)
    pdf.setAuthor("setwidgets")
    return pdf, width, height


def save(pdf: Canvas, target: Path) -> Path:
    """Write the finished canvas to ``target`` (checked by output.checked_path), whole."""
    return write_whole(target, pdf.getpdfdata())


def player_count(players: int, what: str) -> int:
    """``players`` when the printables print for that many (:data:`MOST_PLAYERS`).

    ``what`` says where the number comes from: "the schedule has", "got".
    """
    if players > MOST_PLAYERS:
        raise ValueError(f"the printables are made for at most {MOST_PLAYERS} players; {what} {players}")
    return players


def box(pdf: Canvas, x: float, y: float, w: float, h: float, fill=None) -> None:
    """A box with an ink outline, filled with ``fill`` when given; the fill color is ink again after."""
    if fill is not None:
        pdf.setFillColor(fill)
    pdf.rect(x, y, w, h, stroke=1, fill=int(fill is not None))
    pdf.setFillColor(INK)


def cut_lines(pdf: Canvas, x0: float, y0: float, cw: float, ch: float, cols: int, rows: int) -> None:
    """Dashed grey lines around a grid of ``cols`` by ``rows`` cells of ``cw`` by ``ch``, from (x0, y0)."""
    pdf.saveState()
    pdf.setStrokeColor(GREY)
    pdf.setLineWidth(0.4)
    pdf.setDash(3, 3)
    for c in range(cols + 1):
        pdf.line(x0 + c * cw, y0, x0 + c * cw, y0 + rows * ch)
    for r in range(rows + 1):
        pdf.line(x0, y0 + r * ch, x0 + cols * cw, y0 + r * ch)
    pdf.restoreState()


def printing_box_height(w: float, size: float = 8) -> float:
    """How tall :func:`printing_box` is, ``w`` points wide with letters of ``size`` points."""
    return size * 1.25 * (len(simpleSplit(PRINTING[1], "Helvetica", size, w - 12)) + 1) + 5


def printing_box(pdf: Canvas, x: float, top: float, w: float, size: float = 8) -> float:
    """The printing advice (:data:`PRINTING`) in a grey-edged box from ``top`` down; return its height."""
    lines = simpleSplit(PRINTING[1], "Helvetica", size, w - 12)
    leading = size * 1.25
    h = printing_box_height(w, size)
    pdf.saveState()
    pdf.setStrokeColor(GREY)
    pdf.setFillColor(LIGHT)
    pdf.roundRect(x, top - h, w, h, 4, stroke=1, fill=1)
    pdf.setFillColor(INK)
    pdf.setFont("Helvetica-Bold", size)
    pdf.drawString(x + 6, top - 2 - size, PRINTING[0])
    pdf.setFont("Helvetica", size)
    for k, line in enumerate(lines, 1):
        pdf.drawString(x + 6, top - 2 - size - k * leading, line)
    pdf.restoreState()
    return h
