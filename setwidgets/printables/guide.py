"""The guide's one-page sheets: the rules handout, the feature chart and the open-house sheet.

Every function writes one PDF page and returns its path; pages are A4 unless
``paper="letter"`` (US Letter). Every argument is checked before anything is drawn or
written, and the PDF is written whole or not at all (see :mod:`setwidgets.printables.output`).

The rules of a game are told in the words of the project's rules (docs/rules.md), once
here: :data:`DEAL_RULE` (three more cards, and six back for three new) and :data:`END_RULE`
(how a game ends and is scored) are printed on the handout and on the open-house sheet alike.

Example::

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> feature_chart(folder / "features.pdf").name
    'features.pdf'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from setwidgets import _inputs
from setwidgets.cards import FEATURES, VALUES, Card, as_card, as_cards
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.printables import pages
from setwidgets.printables.output import checked_path
from setwidgets.printables.painter import paint_card
from setwidgets.rules import explain

__all__ = [
    "DEAL_RULE",
    "END_RULE",
    "HANDOUT_NON_SET",
    "HANDOUT_SET",
    "JUDGE_SCRIPT",
    "OPEN_HOUSE_RULES",
    "color_words",
    "feature_chart",
    "handout",
    "open_house",
]

HANDOUT_SET = ("1RSO", "2GSD", "3PSS")
"""The handout's SET: the cards are explained feature by feature."""
HANDOUT_NON_SET = ("1RSO", "2RTD", "3PSS")
"""The handout's non-SET: two are red and one is purple (in the classic colors)."""

JUDGE_SCRIPT = (
    "Before the game the judge lays out 12 cards in a 3 x 4 rectangle and checks that everyone "
    "can see them, then says:",
    "\u201cWhen you see a SET, call \u2018SET\u2019 and point to the three cards. Do not take them.",
    "If it is a SET, I hand you the cards. If not, you get a penalty point and the cards stay.",
    "When several of you call, I hear you in the order you called.\u201d",
    "Then the judge shuffles the 12 cards back into the deck, deals 12 and the game begins.",
)
"""The judge's pre-game script, as in the competition guide (one paragraph per line)."""

DEAL_RULE = (
    "No SET among the 12 cards gives 3 more. No SET among 15 sends 6 of them, chosen at random, "
    "back into the deck, which is shuffled, and 3 new cards are dealt, so 12 lie out again."
)
"""The competition's deal when no SET shows: 3 more, then "return 6, deal 3" (docs/rules.md)."""

END_RULE = (
    "The game ends when the deck is empty and no SET is left on the table, usually with 6 or 9 "
    "cards left over. A player's score is the SETs kept minus the penalty points."
)
"""How a game ends and is scored (docs/rules.md, the standard game, which the competition keeps)."""

OPEN_HOUSE_RULES = (
    "In an open house one coordinator runs the event and the players at each table judge themselves.",
    "Anyone can drop in: take a free seat at a table of two to five players (three where possible) "
    "and play the next game there.",
    "Judge your own claims: call \u201cSET\u201d and point to the three cards without taking them, "
    "and the others at the table check them. A SET is yours to keep; if it is not a SET, you get "
    "a penalty point and the cards stay. When several call, they are heard in the order they called.",
    DEAL_RULE,
    END_RULE,
    "Keep a tally for each game: one row per player, a mark for each SET kept and for each penalty "
    "point. Hand the sheet to the coordinator when it is full.",
)
"""The open-house format (docs/rules.md, "Competitions in a class"), one paragraph per line."""

# What the handout calls the colors a theme paints, by the paint itself (the themes name
# their colors only in their descriptions): classic red, green and purple, and the
# color-blind palette's vermillion, blue and black.
_PAINT_WORDS = {
    "#e0201b": "red",
    "#0f9a3c": "green",
    "#5b2a86": "purple",
    "#d55e00": "vermillion",
    "#0072b2": "blue",
    "#000000": "black",
}
_RED = HexColor("#b3261e")


def color_words(theme: str | Theme = "classic") -> dict[str, str]:
    """What the handout calls each card color in ``theme``'s look: ``{"red": "vermillion", ...}``.

    A color of a theme of your own that has no common name is called by its code, "#123456".

    >>> color_words("colorblind")
    {'red': 'vermillion', 'green': 'blue', 'purple': 'black'}
    """
    look = get_theme(theme)
    if look.style != "classic":
        raise ValueError(
            "color_words names the colors of a look with symbols on a card; "
            f"theme must be 'classic' or 'colorblind'; got {_inputs.short(theme)}"
        )
    return {name: _PAINT_WORDS.get(look.colors[name].lower(), look.colors[name]) for name in VALUES["color"]}


def _in_words(sentence: str, words: dict[str, str]) -> str:
    """A color sentence of the rules ('two are red and one is purple') in the look's color words."""
    return re.sub(r"\b(red|green|purple)\b", lambda found: words[found.group()], sentence)


def _feature_lines(cards: Sequence[Card], words: dict[str, str]) -> list[tuple[str, bool]]:
    """The guide's feature-by-feature words ('Color: ALL the same'), using explain for the reasons."""
    lines = []
    for f in explain(cards).features:
        name = f.feature.capitalize()
        said = _in_words(str(f), words) if f.feature == "color" else str(f)
        if f.kind == "same":
            lines.append((f"{name}: ALL the same ({said})", True))
        elif f.kind == "different":
            lines.append((f"{name}: ALL different", True))
        else:
            lines.append((f"{name}: {said} \u2013 breaks the rule", False))
    return lines


def _verdict(cards: Sequence[Card], words: dict[str, str]) -> str:
    verdict = explain(cards)
    return _in_words(str(verdict), words) if verdict.broken else str(verdict)


def _paragraphs(pdf: Canvas, paragraphs: Sequence[str], x: float, y: float, w: float, size: float) -> float:
    """Write each paragraph wrapped to ``w`` points from ``y`` down; return the new ``y``."""
    pdf.setFont("Helvetica", size)
    for paragraph in paragraphs:
        for line in simpleSplit(paragraph, "Helvetica", size, w):
            pdf.drawString(x, y - size, line)
            y -= size * 1.3
        y -= 4
    return y


def _classic_look(theme: object, sheet: str) -> Theme:
    look = get_theme(theme)
    if look.style != "classic":
        raise ValueError(
            f"the {sheet}'s words describe the classic cards; "
            f"theme must be 'classic' or 'colorblind'; got {_inputs.short(theme)}"
        )
    return look


_MARGIN = 15 * mm
"""The margin of a one-page sheet, on every side."""


def _sheet(paper: str, title: str, heading: str) -> tuple[Canvas, float, float, float]:
    """A new one-page sheet with its ``heading`` drawn: the canvas, its margin, the width within it
    and the height where the heading sits (what follows is drawn below it)."""
    pdf, width, height = pages.new_canvas(paper, title)
    y = height - _MARGIN
    pdf.setFillColor(pages.INK)
    pdf.setFont("Helvetica-Bold", 18)
    pdf.drawString(_MARGIN, y - 16, heading)
    return pdf, _MARGIN, width - 2 * _MARGIN, y


def handout(path: str | Path, *, paper: str = "A4", theme: str | Theme = "classic") -> Path:
    """The one-page rules handout: the rules, a SET and a non-SET explained feature by feature,
    the judge's script and how to print.

    The rules say how cards are dealt when no SET shows (:data:`DEAL_RULE`) and how a game ends
    (:data:`END_RULE`). ``theme`` is "classic" or "colorblind"; the words name the colors the
    cards are drawn in (vermillion, blue and black in the color-blind palette).
    """
    target = checked_path(path)
    look = _classic_look(theme, "handout")
    words = color_words(look)
    pdf, margin, w, y = _sheet(paper, "SET competition: how to play", "How to play SET")
    y -= 28
    colors = ", ".join(words[c] for c in VALUES["color"])
    rules = [
        f"Every card has four features: number (1, 2 or 3), color ({colors}), "
        "shape (oval, squiggle, diamond) and shading (solid, striped, open).",
        "A SET is three cards where, in each feature separately, the three are ALL the same or ALL "
        "different. If two are ... and one is not, it is not a SET.",
        "The judge lays out 12 cards. Anyone who sees a SET calls \u201cSET\u201d and points to the cards. "
        "A correct SET is kept and scores 1; a wrong call costs a penalty point. " + DEAL_RULE,
        END_RULE,
    ]
    y = _paragraphs(pdf, rules, margin, y, w, 9.5)
    card_w = w / 3 * 0.7
    card_h = card_w * shapes.CARD_HEIGHT / shapes.CARD_WIDTH
    for title, codes in (("This is a SET", HANDOUT_SET), ("This is NOT a SET", HANDOUT_NON_SET)):
        cards = as_cards(codes)
        y -= 6
        pdf.setFont("Helvetica-Bold", 12)
        pdf.drawString(margin, y - 11, title)
        y -= 17
        for i, card in enumerate(cards):
            paint_card(pdf, card, margin + i * (card_w + 12), y - card_h, width=card_w, theme=look)
        y -= card_h + 4
        for text, ok in _feature_lines(cards, words):
            pdf.setFillColor(pages.INK if ok else _RED)
            pdf.setFont("Helvetica" if ok else "Helvetica-Bold", 9.5)
            pdf.drawString(margin + 6, y - 9.5, text)
            y -= 12
        pdf.setFillColor(pages.INK)
        pdf.setFont("Helvetica-Oblique", 9)
        pdf.drawString(margin + 6, y - 9, _verdict(cards, words))
        y -= 13
    y -= 8
    script = [line for paragraph in JUDGE_SCRIPT for line in simpleSplit(paragraph, "Helvetica", 9, w - 16)]
    box_h = 14 + 11.5 * len(script) + 6
    pdf.setFillColor(pages.LIGHT)
    pdf.setStrokeColor(pages.GREY)
    pdf.roundRect(margin, y - box_h, w, box_h, 6, stroke=1, fill=1)
    pdf.setFillColor(pages.INK)
    pdf.setFont("Helvetica-Bold", 10.5)
    pdf.drawString(margin + 8, y - 13, "The judge's script before each game")
    pdf.setFont("Helvetica", 9)
    for k, line in enumerate(script):
        pdf.drawString(margin + 8, y - 27 - 11.5 * k, line)
    y -= box_h + 8
    pages.printing_box(pdf, margin, y, w)
    pdf.showPage()
    return pages.save(pdf, target)


# -- the feature chart -------------------------------------------------------------------------

_FEATURE_CHART_BASE = "2RSO"  # the card each row starts from: one feature changes, three stay


def _row_cards(feature: str) -> list[Card]:
    """The three cards that differ in ``feature`` only, in the order of its values."""
    base = as_card(_FEATURE_CHART_BASE)
    return [
        Card(**{f: value if f == feature else getattr(base, f) for f in FEATURES})
        for value in VALUES[feature]
    ]


def _value_words(look: Theme, feature: str) -> tuple[str, list[str]]:
    """A row's title and the word under each of its three cards, as the look shows them."""
    if look.style == "printable":
        shown = {
            "number": "inner color",
            "color": "outer color",
            "shape": "outer symbol",
            "shading": "inner shape",
        }
        return (
            f"{feature.capitalize()}, shown by the {shown[feature]}",
            [str(look.printable[feature][value]) for value in VALUES[feature]],
        )
    if feature == "color":
        words = color_words(look)
        return "Color", [words[value] for value in VALUES[feature]]
    return feature.capitalize(), [str(value) for value in VALUES[feature]]


def feature_chart(path: str | Path, *, paper: str = "A4", theme: str | Theme = "classic") -> Path:
    """A one-page chart of the four features and their three values each, with real cards.

    Each row shows three cards that differ in one feature only (number, color, shape,
    shading), painted in ``theme``'s look ("classic", "colorblind" or "printable"), with the
    value written under each card. The foot of the page says what makes a SET.
    """
    target = checked_path(path)
    look = get_theme(theme)
    pdf, margin, w, y = _sheet(
        paper, f"SET: the four features ({look.name} look)", "The four features of a SET card"
    )
    pdf.setFont("Helvetica", 10)
    pdf.drawString(margin, y - 32, "Every card has one of three values in each of four features.")
    y -= 46
    row_h = (y - margin - 30) / len(FEATURES)
    card_w = min(w / 3 - 16, (row_h - 34) * shapes.CARD_WIDTH / shapes.CARD_HEIGHT)
    card_h = card_w * shapes.CARD_HEIGHT / shapes.CARD_WIDTH
    step = (w - 3 * card_w) / 2 + card_w
    for feature in FEATURES:
        title, labels = _value_words(look, feature)
        pdf.setFillColor(pages.INK)
        pdf.setFont("Helvetica-Bold", 13)
        pdf.drawString(margin, y - 13, title)
        for i, (card, label) in enumerate(zip(_row_cards(feature), labels)):
            x = margin + i * step
            paint_card(pdf, card, x, y - 18 - card_h, width=card_w, theme=look)
            pdf.setFillColor(pages.INK)
            pdf.setFont("Helvetica", 11)
            pdf.drawCentredString(x + card_w / 2, y - 31 - card_h, label)
        y -= row_h
    pdf.setFont("Helvetica-Oblique", 10)
    pdf.drawString(
        margin, margin + 8, "A SET: three cards that, in each feature, are ALL the same or ALL different."
    )
    pdf.showPage()
    return pages.save(pdf, target)


# -- the open-house sheet ----------------------------------------------------------------------


def open_house(path: str | Path, *, paper: str = "A4") -> Path:
    """The open-house sheet for one table: the rules of a game where players judge themselves,
    and a tally grid, one row per player per game.

    The rules are :data:`OPEN_HOUSE_RULES`; the grid has columns for the game, the player's
    number and name, a tally of SETs and of penalty points, and the score.
    """
    target = checked_path(path)
    pdf, margin, w, y = _sheet(
        paper, "SET open house: rules and tally", "SET open house: drop in, play, judge yourselves"
    )
    pdf.setFont("Helvetica", 9.5)
    pdf.drawRightString(margin + w, y - 32, "Table: ________")
    y -= 42
    y = _paragraphs(pdf, [f"\u2022 {rule}" for rule in OPEN_HOUSE_RULES], margin, y, w, 9.5)
    y -= 6
    columns = [("Game", 0.08), ("Player No.", 0.1), ("Name", 0.2), ("SETs (tally)", 0.3),
               ("Penalties (tally)", 0.2), ("Score", 0.12)]  # fmt: skip
    cx = margin
    pdf.setLineWidth(0.6)
    pdf.setStrokeColor(pages.INK)
    for label, share in columns:
        pages.box(pdf, cx, y - 14, w * share, 14, fill=pages.LIGHT)
        pdf.setFont("Helvetica-Bold", 8)
        pdf.drawString(cx + 3, y - 10, label)
        cx += w * share
    y -= 14
    rows = int((y - margin) // 22)
    for _ in range(rows):
        cx = margin
        for _, share in columns:
            pages.box(pdf, cx, y - 22, w * share, 22)
            cx += w * share
        y -= 22
    pdf.showPage()
    return pages.save(pdf, target)
