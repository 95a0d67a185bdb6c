"""The printables, rendered as a teacher's printer would: page counts, the words on them, the cards in pixels.

poppler's pdftoppm and pdftotext (Debian's poppler-utils, which ``course.py test``
installs) turn each PDF into text and pixels. The printed deck's cards are read back
from the pixels with the same reading code as the screen theme tests
(tests/browser/painted.py and tests/browser/test_themes.py): here a page image
stands in for the canvas.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from browser.painted import assert_card_shown
from browser.test_themes import assert_printable_shown, classic_shapes

from setwidgets.cards import full_deck
from setwidgets.competition import Competition, schedule
from setwidgets.draw.themes import get_theme
from setwidgets.printables import deck, entry_cards, handout, schedule_pages, score_sheets
from setwidgets.printables.kit import CARD_SIZE, DECK_GRID, JUDGE_SCRIPT, deck_layout

if not (shutil.which("pdftoppm") and shutil.which("pdftotext")):  # pragma: no cover
    pytest.fail("poppler-utils is missing: 'python3 course.py test' installs it", pytrace=False)

DPI = 60
# The deck is read at a coarser resolution, where a printed card is about as many pixels
# across as a card on the Board and the thresholds of the screen tests hold.
DECK_DPI = 40
NAMES = [
    "Ada",
    "Ben",
    "Cleo",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kai",
    "Lea",
    "Mo",
    "Nia",
    "Oto",
    "Pia",
    "Quin",
    "Rae",
    "Sol",
    "Tia",
]


def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def text(pdf: Path, page: int | None = None) -> str:
    span = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(
        ["pdftotext", "-layout", *span, str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


class PageImage:
    """One rendered page with the pixel questions NotebookPage asks of a canvas (``canvas`` is ignored)."""

    def __init__(self, pdf: Path, page: int, dpi: int = DPI) -> None:
        out = subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-aaVector", "no", "-f", str(page), "-l", str(page), str(pdf)],
            capture_output=True,
            check=True,
        ).stdout
        # A binary PPM: "P6", width, height, 255, then the RGB bytes.
        header = out.split(maxsplit=4)
        width, height = int(header[1]), int(header[2])
        self.pixels = np.frombuffer(header[4], dtype=np.uint8)[: width * height * 3].reshape(height, width, 3)
        self.scale = dpi / 72

    def _crop(self, rect: Sequence[float] | None) -> np.ndarray:
        if rect is None:
            return self.pixels.astype(int)
        x, y, w, h = (round(v) for v in rect)
        return self.pixels[max(y, 0) : y + h, max(x, 0) : x + w].astype(int)

    def count_color(self, canvas, color, rect=None) -> int:
        from browser.harness import rgb

        return int(np.all(self._crop(rect) == rgb(color), axis=2).sum())

    def color_mask(self, canvas, color, rect=None, tolerance: int = 60, near: bool = True) -> list[str]:
        from browser.harness import rgb

        close = np.abs(self._crop(rect) - np.array(rgb(color))).sum(axis=2) <= tolerance
        return ["".join("#" if v else "." for v in row) for row in (close if near else ~close)]

    def px(self, rect: Sequence[float]) -> tuple[float, float, float, float]:
        return tuple(v * self.scale for v in rect)


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("kit")
    event = Competition(folder / "class.sqlite")
    for number, name in enumerate(NAMES, 1):
        event.register(number, name, "A" if number <= 10 else "B")
    event.plan(4, seed=2)
    files = {
        "entry": entry_cards(folder / "entry.pdf", event),
        "sheets": score_sheets(folder / "sheets.pdf", event),
        "schedule": schedule_pages(
            folder / "schedule.pdf", schedule(20, 4, tables=5), names=dict(enumerate(NAMES, 1))
        ),
        "handout": handout(folder / "handout.pdf"),
        "handout letter": handout(folder / "handout-letter.pdf", paper="letter"),
        "classic A4": deck(folder / "deck-classic-a4.pdf"),
        "printable letter": deck(folder / "deck-printable-letter.pdf", theme="printable", paper="letter"),
    }
    event.close()
    return files


def test_entry_cards_nine_to_a_page_with_numbers_names_and_boxes(kit):
    assert pages(kit["entry"]) == 3  # 20 players
    first = text(kit["entry"], 1)
    assert first.count("ENTRY CARD") == 9
    for label in ("Player No.", "Division", "Name", "Address", "Phone", "Email", "Game 4", "Total", "Rank"):
        assert label in first
    assert "Championship" in first and "Tie-breaker" in first
    assert "Ada" in first and "Ivo" in first and "Jun" not in first
    assert text(kit["entry"], 3).count("ENTRY CARD") == 2


def test_one_score_sheet_per_table_per_round(kit):
    # 20 players: seven tables a round (six of 3 and one of 2), 4 rounds, two sheets to a page.
    tables = len(schedule(20, 4).rounds[0])
    assert pages(kit["sheets"]) == (4 * tables + 1) // 2
    words = text(kit["sheets"])
    assert words.count("Judge:") == 4 * tables
    assert "Round 4 \u00b7 Table 7" in words and "SETs (tally)" in words and "Penalties (tally)" in words
    assert "Copy each score onto the player's entry card" in words


def test_the_schedule_for_the_coordinator_and_a_slip_per_player(kit):
    assert pages(kit["schedule"]) == 2
    coordinator, slips = text(kit["schedule"], 1), text(kit["schedule"], 2)
    assert "Game schedule: 20 players, 4 rounds" in coordinator and "rotation 2" in coordinator
    assert "nobody meets the same player twice" in coordinator
    plan = schedule(20, 4, tables=5)
    assert slips.count("Player ") == 20 and "Player 1 \u2013 Ada" in slips
    assert f"Round 3: {plan.seat(20, 3)}" in slips.split("Player 20")[1]


def test_the_handout_explains_a_set_and_a_non_set_feature_by_feature(kit):
    for name in ("handout", "handout letter"):
        assert pages(kit[name]) == 1
        words = " ".join(text(kit[name]).split())
        assert "This is a SET" in words and "This is NOT a SET" in words
        assert "Color: ALL different" in words and "Shading: ALL the same (all are solid)" in words
        assert "Color: two are red and one is purple" in words
        assert "The judge's script before each game" in words
        assert " ".join(JUDGE_SCRIPT[2].split()) in words
    page = PageImage(kit["handout"], 1)
    classic = get_theme("classic")
    for color in classic.colors.values():
        assert page.count_color(None, color) > 500, f"the handout's cards should show {color}"


@pytest.mark.parametrize(
    ("name", "theme", "paper"), [("classic A4", "classic", "a4"), ("printable letter", "printable", "letter")]
)
def test_the_printed_deck_shows_every_card_at_real_size(kit, name, theme, paper):
    pdf = kit[name]
    per_page = DECK_GRID[0] * DECK_GRID[1]
    assert pages(pdf) == -(-81 // per_page) == 11
    assert "page 11 of 11" in text(pdf, 11)
    width_mm = CARD_SIZE[0] / 72 * 25.4
    assert 88 < width_mm < 90 and 57 < CARD_SIZE[1] / 72 * 25.4 < 59
    look = get_theme(theme)
    cards = full_deck()
    for page_number in (1, 6, 11):
        page = PageImage(pdf, page_number, dpi=DECK_DPI)
        for k, rect in enumerate(deck_layout(paper)):
            index = (page_number - 1) * per_page + k
            if index >= len(cards):
                ink = page.color_mask(None, "#ffffff", page.px(rect), tolerance=30, near=False)
                assert sum(row.count("#") for row in ink) < 50, (
                    f"page {page_number}, place {k + 1} should be empty"
                )
                continue
            card, where = cards[index], f"page {page_number}, place {k + 1}"
            box = page.px(rect)
            if theme == "printable":
                assert_printable_shown(page, None, box, card, look, where)
            else:
                assert_card_shown(page, None, box, card, look, where)
                assert (
                    classic_shapes(page, None, box, look.colors[card.color]) == [card.shape] * card.number
                ), where


def test_cut_marks_line_up_with_the_card_edges(kit):
    page = PageImage(kit["classic A4"], 1, dpi=72)
    rects = deck_layout("a4")
    left = min(x for x, _, _, _ in rects)
    top = min(y for _, y, _, _ in rects)
    for _, y, _, h in rects:
        for edge in (y, y + h):
            # A dark mark left of the block, in line with each horizontal card edge.
            strip = page.pixels[round(edge) - 1 : round(edge) + 2, round(left - 20) : round(left - 10)]
            assert (strip.sum(axis=2) < 200).any(), f"no cut mark at y={edge:.1f}"
    assert (
        page.pixels[round(top - 20) : round(top - 10), round(left) - 1 : round(left) + 2].sum(axis=2) < 200
    ).any()


def test_bad_paper_is_refused(tmp_path):
    with pytest.raises(ValueError, match="paper must be 'A4' or 'letter'; got 'A5'"):
        deck(tmp_path / "deck.pdf", paper="A5")
    with pytest.raises(TypeError, match="score_sheets needs a Competition or a Schedule"):
        score_sheets(tmp_path / "sheets.pdf", 12)


def test_the_handout_keeps_to_the_looks_its_words_describe(tmp_path):
    with pytest.raises(ValueError, match="the handout's words describe the classic cards"):
        handout(tmp_path / "handout.pdf", theme="printable")
    assert pages(handout(tmp_path / "handout.pdf", theme="colorblind")) == 1
