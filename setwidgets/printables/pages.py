"""What every printable shares: the paper, a canvas drawn in memory, the saving, cut lines and boxes.

>>> paper_size(" Letter ")
(612.0, 792.0)
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
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
    "box",
    "cut_lines",
    "new_canvas",
    "paper_size",
    "player_count",
    "save",
]

PAPERS = {"a4": A4, "letter": LETTER}

# The most players the printables print for is the most a schedule seats: a large hall,
# 112 pages of entry cards.

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
