"""Scripts whose letters change shape and place: Devanagari, Tamil, Thai, Ethiopic and the others, on paper.

A name in Hindi (प्रिया शर्मा), Tamil (தமிழ்செல்வி), Thai (สมชาย ใจดี) or Amharic (አበበ በቀለ)
is printed in its own script, in one of Google's Noto fonts (SIL Open Font License) as Debian
installs them (``fonts-noto-core``: ``python3 course.py test`` installs it, and Binder's
``apt.txt`` lists it). The font is found by the letter's script, read from its Unicode name
("DEVANAGARI LETTER KA": Noto Sans Devanagari), and embedded in the PDF (only the letters used).

Letters of these scripts are not drawn one after the other: a vowel sign is written before the
consonant it follows in the text (ि), consonants join into one sign (क्ष), marks sit above or
below. reportlab draws them right when it shapes the text with HarfBuzz (the ``uharfbuzz``
package, in the ``print`` extra): :func:`shaped` gives the glyphs HarfBuzz chose, with their
places. Such glyphs have no one letter of their own, so a PDF reader would copy them as
private characters; :func:`draw` therefore writes the name's own text beside them (the PDF's
``/ActualText``): copying, searching and ``pdftotext`` give back the name as it was typed.

Without the ``uharfbuzz`` package the letters are drawn one after the other, in the font,
as reportlab draws any text; without a font for the script, :func:`setwidgets.printables.lettering.legible`
writes a Latin reading of the name instead of boxes.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

try:  # reportlab shapes text with it; without it, letters are drawn one after the other
    import uharfbuzz  # noqa: F401

    SHAPING = True
except ImportError:  # pragma: no cover - the print extra installs it
    SHAPING = False

__all__ = ["NOTO_FOLDERS", "SHAPING", "actual_text", "draw", "font_for_char", "is_shaped", "width"]

NOTO_FOLDERS = (
    "/usr/share/fonts/truetype/noto",  # Debian and Ubuntu: fonts-noto-core
    "/usr/share/fonts/noto",  # Arch, openSUSE
    "/usr/share/fonts/google-noto",  # Fedora
)
"""Where the Noto fonts of the scripts are looked for, in this order."""

# Scripts whose Noto font is named otherwise than their Unicode name says.
_RENAMED = {"canadiansyllabics": "canadianaboriginal", "phagspa": "phagspa", "nko": "nko"}


@cache
def _index() -> dict[tuple[str, bool], Path]:
    """{(script in lower case, bold): the font's file}, Noto Sans before Noto Serif."""
    found: dict[tuple[str, bool], Path] = {}
    for folder in map(Path, NOTO_FOLDERS):
        if not folder.is_dir():
            continue
        for family in ("NotoSans", "NotoSerif"):  # Sans first: the look of the rest of the page
            for path in sorted(folder.glob(f"{family}*-*.ttf")):
                script, _, style = path.stem.removeprefix(family).partition("-")
                if script and style in ("Regular", "Bold"):
                    found.setdefault((script.lower(), style == "Bold"), path)
    return found


@cache
def _font_of_script(script: str, bold: bool) -> str | None:
    """The name a script's Noto font is registered under (made shapable), or None when none is found."""
    index = _index()
    path = index.get((script, bold)) or index.get((script, False))
    if path is None:
        return None
    name = f"Noto-{path.stem}"
    try:
        pdfmetrics.registerFont(TTFont(name, str(path), shapable=SHAPING))
    except Exception:  # an unreadable file: the letter is then read out in Latin (legible)
        return None
    return name


def _script(char: str) -> list[str]:
    """The names a letter's script may have as a font's: 'OL CHIKI LETTER LA' gives 'ol', 'olchiki', ..."""
    words = unicodedata.name(char, "").replace("-", "").lower().split()
    names = ["".join(words[:n]) for n in range(1, min(len(words), 3) + 1)]
    return [_RENAMED.get(name, name) for name in names]


def font_for_char(char: str, bold: bool = False) -> str | None:
    """The Noto font (registered with reportlab) that has ``char`` by its script, or None.

    Letters of the scripts Helvetica, DejaVu Sans and the CJK fonts have are not looked for here.
    """
    if unicodedata.category(char)[0] not in "LMN":
        return None
    for script in _script(char):
        if (script, False) in _index() or (script, True) in _index():
            font = _font_of_script(script, bold)
            if font and ord(char) in pdfmetrics.getFont(font).face.charToGlyph:
                return font
    return None


def is_shaped(font: str) -> bool:
    """True when ``font`` is one of the scripts' fonts that HarfBuzz shapes."""
    return SHAPING and font.startswith("Noto-")


def _shaped(text: str, font: str, size: float):
    from reportlab.pdfbase.ttfonts import shapeStr

    return shapeStr(text, font, size)


def width(text: str, font: str, size: float) -> float:
    """How wide ``text`` is drawn in ``font`` at ``size`` points: shaped when the font is shaped."""
    if not is_shaped(font) or not text:
        return pdfmetrics.stringWidth(text, font, size)
    glyphs = _shaped(text, font, size)
    data = getattr(glyphs, "__shapeData__", None)
    if data is None:  # HarfBuzz changed nothing: the letters as they are
        return pdfmetrics.stringWidth(text, font, size)
    return sum(d.x_advance for d in data) * size / 1000


def actual_text(text: str) -> str:
    """``text`` as a PDF string for ``/ActualText``: UTF-16 (big-endian, with its mark) in hex."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


def draw(pdf, x: float, y: float, text: str, font: str, size: float) -> None:
    """Draw ``text`` in ``font`` from (x, y), shaped when the font is, with its own text for copying.

    Letters beyond Unicode's first 65,536 (emoji) get their own text too: reportlab's map from
    glyphs back to letters holds 16-bit codes only, and poppler read 😀 back as ὠ (U+1F60).
    """
    pdf.setFont(font, size)
    if not is_shaped(font) and all(ord(c) <= 0xFFFF for c in text):
        pdf.drawString(x, y, text)
        return
    pdf.addLiteral(f"/Span << /ActualText {actual_text(text)} >> BDC")
    pdf.drawString(x, y, _shaped(text, font, size) if is_shaped(font) else text)
    pdf.addLiteral("EMC")
