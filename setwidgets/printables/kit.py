"""The competition kit as PDF: entry cards, score sheets, the schedule, the deck (and the handout).

The handout is made in :mod:`setwidgets.printables.guide` and is named here too, with its
cards and the judge's script. Every function writes one PDF file and returns its path. Pages are A4 unless
``paper="letter"`` (US Letter). Players' names come from a
:class:`~setwidgets.competition.Competition` when one is given; names in any script are
printed in a font that has their letters, and a name too long for its box shrinks to fit,
then wraps on more lines, and never runs over (see :mod:`setwidgets.printables.lettering`).

Every argument is checked before anything is drawn or written, and the file's folder must
exist: a refusal leaves the disk as it was. The PDF is written whole or not at all (see
:mod:`setwidgets.printables.output`).

Example::

    >>> import tempfile, pathlib
    >>> from setwidgets.competition import schedule
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> schedule_pages(folder / "schedule.pdf", schedule(12, 4)).name
    'schedule.pdf'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from reportlab.lib.colors import black, white
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from setwidgets import _inputs
from setwidgets.cards import full_deck
from setwidgets.competition.database import player_name
from setwidgets.competition.schedules import Schedule
from setwidgets.competition.store import DIVISIONS, Competition
from setwidgets.draw import shapes
from setwidgets.draw.themes import get_theme
from setwidgets.printables import lettering, pages
from setwidgets.printables.guide import HANDOUT_NON_SET, HANDOUT_SET, JUDGE_SCRIPT, handout
from setwidgets.printables.output import checked_path
from setwidgets.printables.pages import MOST_PLAYERS
from setwidgets.printables.painter import paint_card

__all__ = [
    "CARD_SIZE",
    "DECK_GRID",
    "HANDOUT_NON_SET",
    "HANDOUT_SET",
    "JUDGE_SCRIPT",
    "MOST_GAMES",
    "MOST_PLAYERS",
    "deck",
    "deck_layout",
    "entry_cards",
    "handout",
    "schedule_pages",
    "score_sheets",
]

MOST_GAMES = 8
"""The most preliminary games an entry card has boxes for: each box stays wide enough to write a score in."""

CARD_SIZE = (88.9 * mm, 88.9 * mm * shapes.CARD_HEIGHT / shapes.CARD_WIDTH)
"""A printed card, in points: 3.5 by about 2.3 inches (88.9 by 57.8 mm), the size of a real SET card."""

_MARK_GAP = 3 * mm  # a cut mark stops short of the card, so a slightly slanted cut shows no line
_MARK_REACH = 9 * mm  # how far from the cards a cut mark reaches

DECK_GRID = (2, 4)
"""Cards per page of the printed deck: 2 across and 4 down, on A4 and on US Letter alike."""


def _names(source: Competition | Schedule | int) -> tuple[dict[int, tuple[str, str | None]], int]:
    if isinstance(source, Competition):
        players = source.players()
        if not players:
            raise ValueError("the competition has no players yet; register them first, then print")
        pages.player_count(len(players), "the competition has")
        return players, source.rounds or 4
    if isinstance(source, Schedule):
        count = pages.player_count(source.players, "the schedule has")
        return {p: ("", None) for p in range(1, count + 1)}, len(source.rounds)
    if not _inputs.is_whole(source):
        raise TypeError(
            "source must be a Competition, a Schedule or a number of players like 30; "
            f"got {_inputs.what(source)}{_inputs.whole_hint(source)}"
        )
    count = pages.player_count(_inputs.whole_number(source, "players", minimum=1, example="30"), "got")
    return {p: ("", None) for p in range(1, count + 1)}, 4


# -- entry cards -------------------------------------------------------------------------------


def entry_cards(
    path: str | Path, source: Competition | Schedule | int, *, paper: str = "A4", games: int | None = None
) -> Path:
    """Entry cards, nine to a page: number, division boxes, name and contact lines, game scores, the final.

    ``source`` is a Competition (numbers, names and divisions filled in), a Schedule
    or a number of players (numbers only), at most :data:`MOST_PLAYERS`. ``games`` is the
    number of preliminary games (the schedule's rounds unless told), at most :data:`MOST_GAMES`.
    """
    target = checked_path(path)
    players, rounds = _names(source)
    if games is None and rounds > MOST_GAMES:
        raise ValueError(
            f"an entry card has boxes for at most {MOST_GAMES} games and the schedule has {rounds} rounds; "
            f"pass games={MOST_GAMES} or fewer"
        )
    games = rounds if games is None else _inputs.whole_number(games, "games", minimum=1, example="4")
    if games > MOST_GAMES:
        raise ValueError(f"an entry card has boxes for at most {MOST_GAMES} games; got games={games}")
    pdf, width, height = pages.new_canvas(paper, "SET competition: entry cards")
    margin = 10 * mm
    cols, rows = 3, 3
    cw, ch = (width - 2 * margin) / cols, (height - 2 * margin) / rows
    numbers = sorted(players)
    for page_start in range(0, len(numbers), cols * rows):
        pages.cut_lines(pdf, margin, margin, cw, ch, cols, rows)
        for k, number in enumerate(numbers[page_start : page_start + cols * rows]):
            col, row = k % cols, k // cols
            x, y = margin + col * cw, height - margin - (row + 1) * ch
            _entry_card(
                pdf, x + 4 * mm, y + 4 * mm, cw - 8 * mm, ch - 8 * mm, number, *players[number], games
            )
        pdf.showPage()
    return pages.save(pdf, target)


def _entry_card(
    pdf: Canvas,
    x: float,
    y: float,
    w: float,
    h: float,
    number: int,
    name: str,
    division: str | None,
    games: int,
) -> None:
    top = y + h
    pdf.setFillColor(pages.INK)
    pdf.setStrokeColor(pages.INK)
    pdf.setLineWidth(0.6)
    pdf.setFont("Helvetica-Bold", 9)
    pdf.drawString(x, top - 9, "SET COMPETITION")
    pdf.setFont("Helvetica", 7)
    pdf.drawRightString(x + w, top - 9, "ENTRY CARD")
    # Player number, large, and the division boxes.
    pdf.setFont("Helvetica", 7)
    pdf.drawString(x, top - 22, "Player No.")
    pages.box(pdf, x + 36, top - 32, 40, 20)
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawCentredString(x + 56, top - 27, str(number))
    pdf.setFont("Helvetica", 7)
    pdf.drawString(x + 84, top - 22, "Division")
    for i, letter in enumerate(DIVISIONS):
        bx = x + 84 + i * 15
        pages.box(pdf, bx, top - 36, 11, 11, fill=pages.INK if division == letter else None)
        pdf.setFillColor(white if division == letter else pages.INK)
        pdf.setFont("Helvetica-Bold" if division == letter else "Helvetica", 7)
        pdf.drawCentredString(bx + 5.5, top - 33, letter)
        pdf.setFillColor(pages.INK)
    # Name and contact lines.
    line_y = top - 54
    step = min(18.0, (h - 150) / 4)
    for label, value in (("Name", name), ("Address", ""), ("Phone", ""), ("Email", "")):
        pdf.setFont("Helvetica", 7)
        pdf.drawString(x, line_y, label)
        pdf.setLineWidth(0.4)
        pdf.line(x + 32, line_y - 1.5, x + w, line_y - 1.5)
        if value:
            # A long name shrinks, then wraps upwards, below the division boxes (17 points above).
            lettering.draw(
                pdf, x + 35, line_y + 0.5, value, size=9, width=w - 37, bold=True, height=17, grow="up"
            )
        line_y -= step
    # Preliminary games, total and rank; the championship at the foot of the card.
    labels = [f"Game {g}" for g in range(1, games + 1)] + ["Total", "Rank"]
    title = "Preliminary rounds"
    if stringWidth(labels[games - 1], "Helvetica", 6) > w / len(labels) - 2:
        # Too many games for 'Game 7' to fit its box: the boxes say only the game's number.
        labels, title = [str(g) for g in range(1, games + 1)] + ["Total", "Rank"], "Preliminary games"
    _score_row(pdf, x, line_y - 24, w, labels, title)
    _score_row(pdf, x, y + 6, w, ["Game", "Tie-breaker", "Total"], "Championship")


def _score_row(pdf: Canvas, x: float, y: float, w: float, labels: Sequence[str], title: str) -> None:
    pdf.setFont("Helvetica-Bold", 7)
    pdf.drawString(x, y + 26, title)
    # Each box as wide as its label needs, at least an equal share: 'Total' keeps its word.
    needs = [stringWidth(label, "Helvetica", 6) + 4 for label in labels]
    share = w / len(labels)
    wide = [max(need, share) for need in needs]
    narrow = [share for need in needs if need <= share]
    spare = (w - sum(n for n in wide if n > share)) / max(len(narrow), 1)
    cells = [need if need > share else spare for need in wide]
    pdf.setLineWidth(0.6)
    for label, cell in zip(labels, cells):
        pages.box(pdf, x, y + 13, cell, 10, fill=pages.LIGHT)
        pages.box(pdf, x, y - 7, cell, 20)
        pdf.setFont("Helvetica", 6)
        pdf.drawCentredString(x + cell / 2, y + 16, label)
        x += cell


# -- score sheets ------------------------------------------------------------------------------


def score_sheets(path: str | Path, source: Competition | Schedule, *, paper: str = "A4") -> Path:
    """One score sheet per table per round (two to a page): players, tallies, the score to copy."""
    target = checked_path(path)
    if not isinstance(source, (Competition, Schedule)):
        raise TypeError(f"score_sheets needs a Competition or a Schedule; got {_inputs.what(source)}")
    players, _ = _names(source)
    plan = source.schedule() if isinstance(source, Competition) else source
    pdf, width, height = pages.new_canvas(paper, "SET competition: score sheets")
    sheets = [
        (r, table, seated)
        for r in range(1, len(plan.rounds) + 1)
        for table, seated in enumerate(plan.rounds[r - 1], 1)
        if seated  # a table whose players are all away plays no game
    ]
    half = height / 2
    for k, (r, table, seated) in enumerate(sheets):
        slot = k % 2
        if k and slot == 0:
            pdf.showPage()
        _score_sheet(
            pdf, plan, players, r, table, seated, 15 * mm, height - slot * half - 15 * mm, width - 30 * mm
        )
        if slot == 0:
            pages.cut_lines(pdf, 0, half, width, 0, 1, 0)
    pdf.showPage()
    return pages.save(pdf, target)


def _score_sheet(pdf: Canvas, plan: Schedule, players, r, table, seated, x, top, w) -> None:
    pdf.setFillColor(pages.INK)
    pdf.setFont("Helvetica-Bold", 16)
    where = plan.seat(seated[0], r)
    pdf.drawString(x, top - 14, f"Round {r} \u00b7 {where[0].upper()}{where[1:]}")
    pdf.setFont("Helvetica", 9)
    pdf.drawRightString(x + w, top - 14, "Judge: ______________________")
    pdf.drawString(
        x,
        top - 30,
        "Make a mark for each SET a player keeps and for each penalty point. "
        "Score = SETs minus penalty points.",
    )
    columns = [
        ("Player No.", 0.11),
        ("Name", 0.26),
        ("SETs (tally)", 0.28),
        ("Penalties (tally)", 0.2),
        ("Score", 0.15),
    ]
    y = top - 52
    cx = x
    for label, share in columns:
        pages.box(pdf, cx, y, w * share, 14, fill=pages.LIGHT)
        pdf.setFont("Helvetica-Bold", 8)
        pdf.drawString(cx + 3, y + 4, label)
        cx += w * share
    for number in seated:
        y -= 34
        cx = x
        for i, (_, share) in enumerate(columns):
            pages.box(pdf, cx, y, w * share, 34)
            if i == 0:
                pdf.setFont("Helvetica-Bold", 16)
                pdf.drawString(cx + 6, y + 11, str(number))
            if i == 1:
                name = players[number][0]
                # A long name shrinks, then wraps on up to five lines, centred in its box.
                lettering.draw(
                    pdf, cx + 4, y + 13, name, size=10, width=w * share - 8, height=30, grow="middle"
                )
            cx += w * share
    pdf.setFont("Helvetica", 8)
    pdf.drawString(x, y - 14, f"Copy each score onto the player's entry card, box \u2018Game {r}\u2019.")
    if len(seated) != 3:
        # The standings' adjusted total (Competition.standings) says the same, in the same words.
        n = len(seated)
        pdf.setFont("Helvetica-Oblique", 8)
        pdf.drawString(
            x,
            y - 26,
            f"A table of {n} shares a game's SETs among {n} players: the standings also show each "
            f"score scaled to a table of three (score \u00d7 {n} \u00f7 3).",
        )


# -- the schedule ------------------------------------------------------------------------------


def schedule_pages(
    path: str | Path, plan: Schedule, *, names: Mapping[int, str] | None = None, paper: str = "A4"
) -> Path:
    """The schedule: the coordinator's page(s), one block per round, then one slip per player.

    ``names`` gives players' names for their slips: ``{1: "Ada", 2: "Ben"}``. A long schedule
    runs over as many pages as it needs; a slip too long for a page goes on in a second slip.
    """
    target = checked_path(path)
    if not isinstance(plan, Schedule):
        raise TypeError(f"plan must be a Schedule (from schedule(players, rounds)); got {_inputs.what(plan)}")
    pages.player_count(plan.players, "the schedule has")
    names = _slip_names(names, plan)
    pdf, width, height = pages.new_canvas(paper, "SET competition: game schedule")
    margin = 15 * mm
    y = height - margin
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(margin, y - 14, f"Game schedule: {plan.players} players, {len(plan.rounds)} rounds")
    pdf.setFont("Helvetica", 9)
    note = f"{plan.repeats()} repeated meetings" if plan.repeats() else "nobody meets the same player twice"
    pdf.drawString(margin, y - 28, f"Tables of 3 where possible; {note}.")
    y -= 44
    per_row = 4
    cell_w = (width - 2 * margin) / per_row

    def room(need: float, heading: str) -> bool:
        """Whether a new page was begun (under ``heading``): a long round goes on overleaf."""
        nonlocal y
        if y - need >= margin:
            return False
        pdf.showPage()
        y = height - margin
        pdf.setFont("Helvetica-Bold", 11)
        pdf.drawString(margin, y - 12, heading)
        y -= 20
        return True

    for r in range(1, len(plan.rounds) + 1):
        rotations = plan.rotations(r)
        if not room(20 + 14, f"Round {r}"):
            pdf.setFont("Helvetica-Bold", 11)
            pdf.drawString(margin, y - 12, f"Round {r}")
            y -= 20
        for k, rotation in enumerate(rotations, 1):
            if len(rotations) > 1:
                room(12 + 14, f"Round {r}, continued")
                pdf.setFont("Helvetica-Oblique", 8)
                # The tables keep their own numbers (the ones scores are entered under, as on
                # the sheets and slips); the room's tables they sit at are named here.
                places = [plan.place(r, table)[1] for table, _ in rotation]
                at = (
                    f"the room's table {places[0]}"
                    if len(places) == 1
                    else (f"the room's tables {places[0]} to {places[-1]}")
                )
                first, last = rotation[0][0], rotation[-1][0]
                tables = f"table {first}" if first == last else f"tables {first} to {last}"
                pdf.drawString(margin, y - 9, f"rotation {k}: {tables}, at {at}")
                y -= 12
            for start in range(0, len(rotation), per_row):
                room(14, f"Round {r}, continued")
                for i, (table, seated) in enumerate(rotation[start : start + per_row]):
                    _table_cell(pdf, margin + i * cell_w, y - 9, cell_w - 6, table, seated)
                y -= 14
            y -= 2
        y -= 4
    pdf.showPage()
    _slips(pdf, plan, names, width, height)
    return pages.save(pdf, target)


def _slip_names(names: object, plan: Schedule) -> dict[int, str]:
    """The names for the slips, checked: player numbers of the schedule, names a reader can see."""
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        _inputs.refuse_bytes(names, "names must be a dict of players' numbers and names like {1: 'Ada'}")
        raise TypeError(
            f"names must be a dict of players' numbers and names like {{1: 'Ada'}}; got {_inputs.what(names)}"
        )
    checked = {}
    for number, name in names.items():
        number = _inputs.whole_number(number, "a player's number in names", minimum=1, example="1")
        if number > plan.players:
            raise ValueError(
                f"names must hold players 1 to {plan.players} of the schedule; got player {number}"
            )
        checked[number] = player_name(name, f"the name of player {number}")
    return checked


def _table_cell(pdf: Canvas, x: float, y: float, w: float, table: int, seated: Sequence[int]) -> None:
    label = f"Table {table}:"
    pdf.setFont("Helvetica-Bold", 9)
    pdf.drawString(x, y, label)
    indent = max(44, stringWidth(label, "Helvetica-Bold", 9) + 4)
    # A table whose players are all absent keeps its number, and says it has no game.
    players = "  ".join(str(p) for p in seated) or "no game"
    # Every number must show: a crowded table gets smaller type, not a cut.
    size = min(9, 9 * (w - indent) / max(stringWidth(players, "Helvetica", 9), 1))
    pdf.setFont("Helvetica", size)
    pdf.drawString(x + indent, y, players)


def _slips(pdf: Canvas, plan: Schedule, names: Mapping[int, str], width: float, height: float) -> None:
    margin = 10 * mm
    cols = 3
    rounds = len(plan.rounds)
    cw = (width - 2 * margin) / cols
    # A long name wraps under its slip's title: every slip keeps room for the most lines a name
    # takes after the widest title ("Player 123, rounds 10–12 – ").
    title_w = cw - 12
    widest = f"Player {plan.players}, rounds {rounds}\u2013{rounds} \u2013 "
    after = title_w - stringWidth(widest, "Helvetica-Bold", 10)
    most = max(
        (
            len(lettering.layout(name, size=10, width=title_w, bold=True, first=after, height=30)[2])
            for name in names.values()
        ),
        default=1,
    )
    extra = lettering.LEADING * 10 * (most - 1)
    # A slip as tall as a page at most: more rounds go on in the player's next slip.
    per_slip = max(1, min(rounds, int((height - 2 * margin - 28 - extra) // 12)))
    slip_h = 18 + extra + 12 * per_slip + 10
    rows = max(1, int((height - 2 * margin) // slip_h))
    slips = [(p, first) for p in range(1, plan.players + 1) for first in range(1, rounds + 1, per_slip)]
    per_page = cols * rows
    for start in range(0, len(slips), per_page):
        page = slips[start : start + per_page]
        used_rows = math.ceil(len(page) / cols)
        pages.cut_lines(pdf, margin, height - margin - used_rows * slip_h, cw, slip_h, cols, used_rows)
        for k, (player, first) in enumerate(page):
            last = min(rounds, first + per_slip - 1)
            x = margin + (k % cols) * cw + 6
            top = height - margin - (k // cols) * slip_h - 4
            title = f"Player {player}" + (f", rounds {first}\u2013{last}" if per_slip < rounds else "")
            name = names.get(player)
            lettering.draw(
                pdf,
                x,
                top - 11,
                name or "",
                size=10,
                width=title_w,
                bold=True,
                prefix=title + (" \u2013 " if name else ""),
                height=30 if extra else None,
            )
            pdf.setFont("Helvetica", 9)
            for r in range(first, last + 1):
                below = top - 11 - extra - 12 * (r - first + 1)
                pdf.drawString(x, below, f"Round {r}: {plan.seat(player, r)}")
        pdf.showPage()


# -- the printable deck ------------------------------------------------------------------------


def deck_layout(paper: str = "A4") -> list[tuple[float, float, float, float]]:
    """Where the cards of a deck page go: ``(x, y, w, h)`` in points from the top-left corner, by rows."""
    width, height = pages.paper_size(paper)
    cw, ch = CARD_SIZE
    cols, rows = DECK_GRID
    x0, y0 = (width - cols * cw) / 2, (height - rows * ch) / 2
    return [(x0 + c * cw, y0 + r * ch, cw, ch) for r in range(rows) for c in range(cols)]


def deck(path: str | Path, *, theme: str = "classic", paper: str = "A4") -> Path:
    """All 81 cards at real size (88.9 x 57.8 mm), eight to a page, with cut marks.

    The first page says how to print (:data:`setwidgets.printables.pages.PRINTING`): in color,
    at 100 %, on card stock.

    ``theme="printable"`` gives the alternative deck (outer color and symbol, inner
    shape and color); the cards come in the order of :func:`setwidgets.full_deck`.
    """
    target = checked_path(path)
    look = get_theme(theme)
    pdf, width, height = pages.new_canvas(paper, f"SET deck ({look.name} look)")
    places = deck_layout(paper)
    cards = full_deck()
    cw, ch = CARD_SIZE
    sheets = math.ceil(len(cards) / len(places))
    for page in range(sheets):
        chunk = cards[page * len(places) : (page + 1) * len(places)]
        for card, (x, y, w, _) in zip(chunk, places):
            paint_card(pdf, card, x, height - y - ch, width=w, theme=look, edge=False)
        _cut_marks(pdf, places[: len(chunk)], height)
        if page == 0:
            _printing_advice(pdf, width, height, places)
        pdf.setFillColor(pages.GREY)
        pdf.setFont("Helvetica", 8)
        pdf.drawCentredString(
            width / 2,
            8 * mm,
            f"SET deck, {look.name} look \u00b7 page {page + 1} of {sheets} \u00b7 cut along the marks",
        )
        pdf.showPage()
    return pages.save(pdf, target)


def _printing_advice(pdf: Canvas, width: float, height: float, places) -> None:
    """How to print, above the cut marks of the first page, in the largest letters that fit there.

    It begins 4 mm below the paper's edge, where most printers still print.
    """
    room = min(y for _, y, _, _ in places) - _MARK_REACH - 4 * mm - 1 * mm
    size = next((s for s in (8, 7, 6.5, 6) if pages.printing_box_height(width - 20 * mm, s) <= room), 6)
    pages.printing_box(pdf, 10 * mm, height - 4 * mm, width - 20 * mm, size=size)


def _cut_marks(pdf: Canvas, places, height: float) -> None:
    """Short lines just outside the block of cards, in line with every card edge."""
    xs = sorted({round(x, 3) for x, _, _, _ in places} | {round(x + w, 3) for x, _, w, _ in places})
    ys = sorted({round(y, 3) for _, y, _, _ in places} | {round(y + h, 3) for _, y, _, h in places})
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    pdf.saveState()
    pdf.setStrokeColor(black)
    pdf.setLineWidth(0.5)
    gap, length = _MARK_GAP, _MARK_REACH - _MARK_GAP
    for x in xs:
        pdf.line(x, height - top + gap, x, height - top + gap + length)
        pdf.line(x, height - bottom - gap, x, height - bottom - gap - length)
    for y in ys:
        pdf.line(left - gap, height - y, left - gap - length, height - y)
        pdf.line(right + gap, height - y, right + gap + length, height - y)
    pdf.restoreState()
