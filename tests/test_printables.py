"""The printables, rendered as a teacher's printer would: page counts, the words on them, the cards in pixels.

poppler's pdftoppm and pdftotext (Debian's poppler-utils, which ``course.py test``
installs) turn each PDF into text and pixels. The printed deck's cards are read back
from the pixels with the same reading code as the screen theme tests
(tests/browser/painted.py and tests/browser/test_themes.py): here a page image
stands in for the canvas.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from browser.painted import assert_card_shown
from browser.test_themes import assert_printable_shown, classic_shapes

from setwidgets.cards import full_deck
from setwidgets.competition import Competition, schedule
from setwidgets.draw.themes import Theme, get_theme, simulate
from setwidgets.printables import (
    deck,
    entry_cards,
    feature_chart,
    handout,
    open_house,
    schedule_pages,
    score_sheets,
)
from setwidgets.printables.guide import DEAL_RULE, END_RULE, OPEN_HOUSE_RULES, color_words
from setwidgets.printables.kit import CARD_SIZE, DECK_GRID, JUDGE_SCRIPT, MOST_GAMES, deck_layout
from setwidgets.printables.pages import PRINTING

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
        "handout colorblind": handout(folder / "handout-colorblind.pdf", theme="colorblind", paper="letter"),
        "chart": feature_chart(folder / "chart.pdf"),
        "chart colorblind": feature_chart(folder / "chart-colorblind.pdf", theme="colorblind"),
        "chart printable": feature_chart(folder / "chart-printable.pdf", theme="printable", paper="letter"),
        "open house": open_house(folder / "open-house.pdf"),
        "open house letter": open_house(folder / "open-house-letter.pdf", paper="letter"),
        "classic letter": deck(folder / "deck-classic-letter.pdf", paper="letter"),
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


# -- odd input: answered in one sentence, nothing left behind (issue 25) ------------------------

UNICODE_NAMES = [
    "Zoë Ødegård",
    "Ἀθηνᾶ Παπαδοπούλου",
    "李小龙",
    "فاطمة الزهراء",
    "Ada Lovelace Countess of Lovelace Byron of Newstead",
    "Łukasz Żółć",
    "山田はな",
    "김민준",
    "Nguyễn Thị Minh Khai",
]


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def one_sentence(error: pytest.ExceptionInfo, *words: str) -> None:
    message = str(error.value)
    assert message.count(". ") == 0 and "\n" not in message, message
    assert "Errno" not in message and "Traceback" not in message, message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("make", [deck, handout, lambda path: entry_cards(path, 12)])
def test_a_folder_where_the_file_belongs_is_refused_naming_it(tmp_path, make):
    (tmp_path / "kit.pdf").mkdir()
    with pytest.raises(ValueError) as error:
        make(tmp_path / "kit.pdf")
    one_sentence(error, "kit.pdf", "it is a folder")
    assert files(tmp_path) == ["kit.pdf"]


def test_a_missing_folder_is_refused_and_not_made(tmp_path):
    with pytest.raises(ValueError) as error:
        handout(tmp_path / "typo" / "handout.pdf")
    one_sentence(error, "typo/handout.pdf", "does not exist; make it first")
    assert files(tmp_path) == []


def test_a_bad_paper_size_leaves_no_folder_and_no_file(tmp_path):
    (tmp_path / "kit").mkdir()
    for call in (
        lambda: deck(tmp_path / "kit" / "deck.pdf", paper="A5"),
        lambda: entry_cards(tmp_path / "kit" / "entry.pdf", 12, paper="A5"),
        lambda: schedule_pages(tmp_path / "kit" / "plan.pdf", schedule(9, 3), paper=b"A4"),
    ):
        with pytest.raises((TypeError, ValueError), match="paper must be 'A4' or 'letter'"):
            call()
    assert files(tmp_path) == ["kit"]


def test_a_file_name_too_long_is_refused_naming_its_end(tmp_path):
    with pytest.raises(ValueError) as error:
        deck(tmp_path / ("x" * 300 + ".pdf"))
    one_sentence(error, "xxx.pdf'", "each name in it at most 255 bytes long")
    assert files(tmp_path) == []


def test_a_device_is_refused_not_replaced():
    with pytest.raises(ValueError) as error:
        handout("/dev/full")
    one_sentence(error, "'/dev/full'", "a device")
    assert Path("/dev/full").is_char_device()


def test_a_full_disk_leaves_the_old_file_and_no_half_written_one(tmp_path, monkeypatch):
    import errno
    import os

    from setwidgets.printables import output

    old = handout(tmp_path / "handout.pdf").read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "fsync", full)
    with pytest.raises(ValueError) as error:
        deck(tmp_path / "handout.pdf")
    one_sentence(error, "handout.pdf", "the disk is full")
    assert files(tmp_path) == ["handout.pdf"]  # no temporary file left
    assert (tmp_path / "handout.pdf").read_bytes() == old


def test_a_long_schedule_is_split_across_pages(tmp_path):
    from setwidgets.competition.schedules import Schedule

    # 80 rounds: one player's slip is taller than a page, so it goes on in a second slip.
    base = schedule(9, 4)
    long = Schedule(9, base.rounds * 20, base.tables)
    pdf = schedule_pages(tmp_path / "long.pdf", long, paper="letter")
    words = text(pdf)
    assert "Round 80" in words and "Round 3, continued" not in words
    assert words.count("Player 9, rounds") == 2 and "Player 9, rounds 1\u2013" in words
    assert f"Round 80: {long.seat(9, 80)}" in words.split("Player 9, rounds")[-1]
    # A round with more tables than a page holds goes on overleaf, under its heading.
    big = schedule(1000, 1)
    words = text(schedule_pages(tmp_path / "big.pdf", big))
    assert "Round 1, continued" in words and f"Table {len(big.rounds[0])}:" in words


def test_entry_cards_hold_a_stated_number_of_games(tmp_path):
    from setwidgets.competition.schedules import Schedule
    from setwidgets.printables.kit import MOST_GAMES

    with pytest.raises(ValueError) as error:
        entry_cards(tmp_path / "entry.pdf", 12, games=10_000)
    one_sentence(error, f"at most {MOST_GAMES} games", "10000")
    base = schedule(9, 3)
    many = Schedule(9, base.rounds * 3, base.tables)
    with pytest.raises(ValueError) as error:
        entry_cards(tmp_path / "entry.pdf", many)
    one_sentence(error, f"at most {MOST_GAMES} games", "9 rounds", f"games={MOST_GAMES}")
    assert files(tmp_path) == []
    first = text(entry_cards(tmp_path / "entry.pdf", many, games=MOST_GAMES), 1)
    assert "Preliminary games" in first and f" {MOST_GAMES} " in first and "Total" in first


def test_a_million_entry_cards_are_refused_at_once(tmp_path):
    import time

    from setwidgets.printables.kit import MOST_PLAYERS

    start = time.perf_counter()
    with pytest.raises(ValueError) as error:
        entry_cards(tmp_path / "entry.pdf", 10**6)
    assert time.perf_counter() - start < 1
    one_sentence(error, f"at most {MOST_PLAYERS} players", "1000000")
    assert files(tmp_path) == []


def test_names_in_every_script_print_in_a_font_that_has_them(tmp_path):
    event = Competition(":memory:")
    for number, name in enumerate(UNICODE_NAMES, 1):
        event.register(number, name)
    event.plan(4)
    for pdf in (
        entry_cards(tmp_path / "entry.pdf", event),
        score_sheets(tmp_path / "sheets.pdf", event),
        schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=dict(enumerate(UNICODE_NAMES, 1))),
    ):
        words = text(pdf)
        for name in ("Zoë Ødegård", "Łukasz Żółć", "Nguyễn", "李小龙", "山田はな", "김민준"):
            assert name in words, (pdf.name, name)
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert "DejaVuSans" in fonts, "names beyond Western letters need a font that has them"
        # A name too long for one line shrinks and wraps: it is printed whole, not shortened.
        assert "Newstead" in words and "Ada Lovelace" in words and "\u2026" not in words
    entry = text(tmp_path / "entry.pdf")
    assert "Ἀθηνᾶ Παπαδοπούλου" in entry


# -- Chinese, Japanese and Korean in an embedded font (issue 21) ---------------------------------

CJK_NAMES = ["李小龙", "山田はな", "김민준"]


def latin_only_fonts(folder: Path) -> dict[str, str]:
    """An environment whose fontconfig knows Latin fonts only: poppler as on a machine without Asian fonts.

    A font a PDF names but does not embed is then drawn as empty boxes, as many printers and
    viewers draw it; an embedded font is drawn from the PDF.
    """
    from setwidgets.printables.lettering import _font_folders

    dirs = [
        f"<dir>{d}</dir>"
        for d in (
            "/usr/share/fonts/truetype/dejavu",
            "/usr/share/fonts/truetype/liberation",
            *_font_folders(),
        )
        if Path(d).is_dir() and not any(Path(d).glob("*wqy*")) and not any(Path(d).glob("*Droid*"))
    ]
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        + "\n".join(dirs)
        + '\n<include ignore_missing="yes">/etc/fonts/conf.d</include>\n'
        + f"<cachedir>{folder}/cache</cachedir>\n</fontconfig>\n"
    )
    return dict(os.environ, FONTCONFIG_FILE=str(conf))


def letters_in_ink(pixels: np.ndarray, word: tuple[str, float, float, float, float], dpi: int) -> float:
    """The share of a word's ink inside its letters' outlines (0 for empty boxes), each letter inked.

    A CJK letter takes one square cell of the word's box. An empty box is a frame: all its
    ink lies on the edge of the ink's own bounding box; a letter has strokes inside it too.
    """
    name, x0, y0, x1, y1 = word
    scale = dpi / 72
    cell = (x1 - x0) / len(name)
    inside = total = 0
    for i in range(len(name)):
        left, right = x0 + cell * i, x0 + cell * (i + 1)
        patch = pixels[round(y0 * scale) : round(y1 * scale), round(left * scale) : round(right * scale)]
        ink = patch.astype(int).sum(axis=2) < 384  # darker than middle grey
        assert ink.sum() > 5, f"{name!r}: no ink where its letter {name[i]!r} is"
        ys, xs = np.nonzero(ink)
        inside += int(ink[ys.min() + 2 : ys.max() - 1, xs.min() + 2 : xs.max() - 1].sum())
        total += int(ink.sum())
    return inside / total


def test_chinese_japanese_and_korean_names_are_printed_in_an_embedded_font_any_reader_shows(tmp_path):
    from PIL import Image

    from setwidgets.printables.lettering import cjk_fonts, font_for

    assert cjk_fonts(), "no CJK TrueType font: 'python3 course.py test' installs Debian's fonts-wqy-microhei"
    assert {font_for(name) for name in [*CJK_NAMES, "Zoë 李"]} == {cjk_fonts()[0]}
    event = Competition(":memory:")
    names = [*CJK_NAMES, "Zoë 李", "Ada"]
    for number, name in enumerate(names, 1):
        event.register(number, name)
    event.plan(3)
    env = latin_only_fonts(tmp_path)
    for pdf in (
        entry_cards(tmp_path / "entry.pdf", event),
        score_sheets(tmp_path / "sheets.pdf", event),
        schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=dict(enumerate(names, 1))),
    ):
        # Every font beyond the standard Helvetica is embedded; no Adobe CID font is named.
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        fonts = [line.split() for line in rows.splitlines()[2:]]
        assert all(row[-5] == "yes" for row in fonts if not row[0].startswith("Helvetica")), rows
        assert not any("CID" in row for row in fonts), rows
        assert any("WenQuanYi" in row[0] or "Droid" in row[0] for row in fonts), rows
        words = text(pdf)
        for name in names:
            assert name in words, (pdf.name, name)
        # The pages as poppler draws them without any CJK font of the system's: letters in ink.
        seen = set()
        for page in range(1, pages(pdf) + 1):
            found = [w for w in _words(pdf, page) if w[0] in CJK_NAMES]
            if not found:
                continue
            png = tmp_path / f"{pdf.stem}-{page}"
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "100",
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-png",
                    "-singlefile",
                    str(pdf),
                    png,
                ],
                env=env,
                check=True,
                capture_output=True,
            )
            pixels = np.asarray(Image.open(f"{png}.png").convert("RGB"))
            for word in found:
                share = letters_in_ink(pixels, word, 100)
                assert share > 0.12, (
                    f"{pdf.name}, page {page}: {word[0]!r} looks like empty boxes ({share:.2f})"
                )
                seen.add(word[0])
        assert seen == set(CJK_NAMES), (pdf.name, seen)


def test_without_a_cjk_truetype_font_adobes_cid_fonts_are_named_and_a_chosen_font_comes_first(
    tmp_path, monkeypatch
):
    from setwidgets.printables import lettering

    monkeypatch.setattr(lettering, "cjk_fonts", lambda: ())
    assert [lettering.font_for(n) for n in CJK_NAMES] == [
        "STSong-Light",
        "HeiseiKakuGo-W5",
        "HYGothic-Medium",
    ]
    monkeypatch.undo()

    # SETWIDGETS_CJK_FONT: a file reportlab cannot embed is skipped with a warning, the others are
    # kept. Noto Sans CJK (.otf, .ttc) has PostScript (CFF) outlines, as this small font has.
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "uni674E"])
    builder.setupCharacterMap({0x674E: "uni674E"})
    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((500, 0))
    pen.lineTo((500, 500))
    pen.closePath()
    builder.setupCFF(
        "PostScriptLi",
        {},
        {".notdef": T2CharStringPen(500, None).getCharString(), "uni674E": pen.getCharString()},
        {},
    )
    builder.setupHorizontalMetrics({".notdef": (500, 0), "uni674E": (500, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "PostScriptLi", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    lettering.cjk_fonts.cache_clear()
    try:
        for bad in (tmp_path / "PostScriptLi.otf", tmp_path / "not-a-font.ttf", tmp_path / "missing.ttf"):
            if bad.suffix == ".otf":
                builder.save(str(bad))
            elif bad.stem == "not-a-font":
                bad.write_text("no font")
            lettering.cjk_fonts.cache_clear()
            monkeypatch.setenv(lettering.CJK_FONT_VARIABLE, str(bad))
            with pytest.warns(UserWarning, match="SETWIDGETS_CJK_FONT=.*not a font reportlab can embed"):
                assert f"CJK-{bad.stem}" not in lettering.cjk_fonts()
        droid = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
        if droid.is_file():
            # Droid Sans Fallback chosen: it prints Chinese and kana, not Hangul nor Latin letters.
            lettering.cjk_fonts.cache_clear()
            monkeypatch.setenv(lettering.CJK_FONT_VARIABLE, str(droid))
            assert lettering.cjk_fonts()[0] == "CJK-DroidSansFallbackFull"
            assert lettering.font_for("李小龙") == "CJK-DroidSansFallbackFull"
            assert lettering.font_for("김민준") != "CJK-DroidSansFallbackFull"
            assert lettering.fit("李小龙王大明", "CJK-DroidSansFallbackFull", 10, 40).endswith("\u30fb" * 3)
    finally:
        monkeypatch.delenv(lettering.CJK_FONT_VARIABLE, raising=False)
        lettering.cjk_fonts.cache_clear()


# Names of the longest a competition takes (60 characters), one for each script, with what the
# PDF's text gives back: the name itself, or for Devanagari (no font has it) its Latin reading.
def _sixty(name: str) -> str:
    while len(name) < 60:
        name = f"{name} {name}"
    return name[:60].rstrip(" ") + "x" * (60 - len(name[:60].rstrip(" ")))


LONG_NAMES = [
    _sixty("Zoë Łukasiewicz-Ødegård Nguyễn Thị Minh Khai de la Peña Šťastná"),  # Latin
    _sixty("Александра Владимировна Константинопольская-Преображенская"),  # Cyrillic
    _sixty("Ἀθηνᾶ Παπαδοπούλου Καραμανλή Χατζηγεωργίου Κωνσταντινίδου"),  # Greek
    _sixty("فاطمة الزهراء عبد الرحمن بن عبد العزيز آل سعود الهاشمية"),  # Arabic
    _sixty("李小龙王大明张伟刘洋陈静杨帆赵磊黄敏周杰吴婷徐强孙丽马超朱琳胡斌郭峰何欣高远林涛罗娟"),  # Chinese
    _sixty("प्रियंका रामचंद्र देशपांडे कुलकर्णी महाराष्ट्र विश्वविद्यालय"),  # Devanagari
    _sixty("山田はなこ佐藤太郎鈴木一郎高橋花子田中美咲伊藤健太渡辺翔太中村さくら小林大輔"),  # Japanese
    _sixty("김민준 이서연 박지호 최수아 정예준 강하은 조도윤 윤서준 장지우 임하준"),  # Korean
    "Ada",
]


def _words(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """Each word of a page and its box (x from the left, y from the top, in points), read by pdftotext."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', out
    )
    return [(html.unescape(w), float(a), float(b), float(c), float(d)) for a, b, c, d, w in found]


def _read_in(words, box: tuple[float, float, float, float], where: str) -> str:
    """The words whose middle lies in ``box`` (x0, y0, x1, y1), line by line: each must lie in it whole."""
    x0, y0, x1, y1 = box
    inside = [w for w in words if x0 <= (w[1] + w[3]) / 2 <= x1 and y0 <= (w[2] + w[4]) / 2 <= y1]
    for word, *edges in inside:
        left, top, right, bottom = edges
        assert x0 - 0.5 <= left and right <= x1 + 0.5, f"{where}: {word!r} runs over its box sideways"
        assert y0 - 0.5 <= top and bottom <= y1 + 0.5, f"{where}: {word!r} runs over its box up or down"
    # Line by line: words whose middles lie within 2.5 points of each other share a line (fonts of
    # other scripts are taller than Helvetica on the same baseline), then from left to right.
    inside.sort(key=lambda w: w[2] + w[4])
    lines: list[list] = []
    for w in inside:
        if lines and abs((w[2] + w[4]) - (lines[-1][0][2] + lines[-1][0][4])) / 2 <= 2.5:
            lines[-1].append(w)
        else:
            lines.append([w])
    return "".join(w[0] for line in lines for w in sorted(line, key=lambda w: w[1]))


def _same_name(read: str, name: str, where: str) -> None:
    """The name read back whole: its letters in order (right-to-left names: the same letters)."""
    from setwidgets.printables.lettering import legible

    expected = legible(name).replace(" ", "")
    assert "\u2026" not in read, f"{where}: {name!r} was shortened"
    if any(unicodedata.bidirectional(c) == "AL" for c in name):
        letters = sorted(unicodedata.normalize("NFKC", read).replace(" ", ""))
        assert letters == sorted(expected), where
    else:
        assert read.replace(" ", "") == expected, where


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_long_names_in_every_script_shrink_then_wrap_and_stay_in_their_boxes(tmp_path, paper):
    assert all(len(name) == 60 for name in LONG_NAMES[:-1])
    event = Competition(":memory:")
    for number, name in enumerate(LONG_NAMES, 1):
        event.register(number, name)
    event.plan(4)
    names = dict(enumerate(LONG_NAMES, 1))
    cards = entry_cards(tmp_path / "entry.pdf", event, paper=paper)
    sheets = score_sheets(tmp_path / "sheets.pdf", event, paper=paper)
    plan = schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=names, paper=paper)
    width = {"A4": 595.2756, "letter": 612.0}[paper]

    # Entry cards: the name above its line, below the division boxes (18 points up), in the card.
    words = _words(cards, 1)
    labels = sorted((w for w in words if w[0] == "Name"), key=lambda w: (round(w[2]), w[1]))
    card_w = (width - 20 * 72 / 25.4) / 3 - 8 * 72 / 25.4
    assert len(labels) == 9
    for number, label in enumerate(labels, 1):
        box = (label[1] + 34.5, label[4] - 19.5, label[1] + card_w, label[4] + 1.5)
        _same_name(_read_in(words, box, f"entry card {number}"), names[number], f"entry card {number}")

    # Score sheets: the name in its column, within its player's row (34 points high).
    seen = set()
    for page in range(1, 7):
        words = _words(sheets, page)
        for head in (w for w in words if w[0] == "Name"):
            sets = min((w for w in words if w[0] == "SETs" and abs(w[2] - head[2]) < 1), key=lambda w: w[1])
            numbers = [
                w for w in words if w[0].isdigit() and w[3] < head[1] and w[4] - w[2] > 12 and w[2] > head[4]
            ]
            for n in sorted(numbers, key=lambda w: w[2])[:5]:
                if n[2] - head[4] > 34 * 5 + 20:
                    continue  # the next sheet's rows
                where = f"score sheet, page {page}, player {n[0]}"
                row_middle = (n[2] + n[4]) / 2
                box = (head[1] - 3, row_middle - 16, sets[1] - 3, row_middle + 16)
                _same_name(_read_in(words, box, where), names[int(n[0])], where)
                seen.add(int(n[0]))
    assert seen == set(names)

    # Slips: after 'Player N –' and on the lines below it, above the slip's first round.
    words = _words(plan, 2)
    slip_w = (width - 20 * 72 / 25.4) / 3 - 12
    titles = [w for w in words if w[0] == "Player"]
    assert len(titles) == 9
    for title in titles:
        first_round = min(
            (w for w in words if w[0] == "Round" and w[1] == title[1] and w[2] > title[2]), key=lambda w: w[2]
        )
        # 2 points above the title: the Noto fonts of Indic scripts reach higher than Helvetica.
        box = (title[1], title[2] - 2, title[1] + slip_w, first_round[2])
        read = _read_in(words, box, "slip")
        number = int(re.match(r"Player(\d+)\u2013", read).group(1))
        _same_name(read.removeprefix(f"Player{number}\u2013"), names[number], f"slip of player {number}")

    # The pages render: each entry card's name is there in ink (the pixels looked at too).
    image = PageImage(cards, 1)
    for label in labels:
        x, y = label[1] + 35, label[4] - 18
        patch = image.pixels[
            round(y * image.scale) : round((label[4] + 1) * image.scale),
            round(x * image.scale) : round((label[1] + card_w) * image.scale),
        ]
        assert (patch.sum(axis=2) < 300).sum() > 20, "a name is missing from its entry card"


def test_a_name_shrinks_to_fit_then_wraps_and_never_runs_over():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from setwidgets.printables.lettering import SHRINK, SMALLEST, layout, text_width

    name = "Ada Lovelace, Countess of Lovelace"
    assert layout(name, size=10, width=200) == ("Helvetica", 10, [name])  # it fits
    font, size, lines = layout(name, size=10, width=120, height=30)
    assert lines == [name] and 10 * SHRINK <= size < 10  # a little too long: smaller, on one line
    font, size, lines = layout(name, size=10, width=90, height=30)
    assert lines == ["Ada Lovelace,", "Countess of Lovelace"] and size > 10 * SHRINK  # much too long: wrapped
    for name in LONG_NAMES:
        for width, height in [(120, 17), (60, 30), (30, 12), (300, None)]:
            font, size, lines = layout(name, size=10, width=width, height=height)
            assert size >= min(SMALLEST, 10 * SHRINK)
            for line in lines:
                assert text_width(line, size) <= width + 1e-6, (name, width, line)
                assert font != "Helvetica" or stringWidth(line, font, size) == text_width(line, size)
            if height is not None:
                assert size * (1 + 1.15 * (len(lines) - 1)) <= height + 1e-6, (name, width, lines)
    # Only a name that fits no way at all is shortened, at the end of its last line.
    font, size, lines = layout("W" * 60, size=10, width=20, height=12)
    assert size == SMALLEST and len(lines) == 2 and lines[-1].endswith("\u2026")


# Scripts that neither Helvetica, DejaVu Sans nor the CJK fonts have: each name and its Latin reading,
# printed so only where no Noto font of the script is installed.
UNCOVERED_NAMES = {
    "प्रिया शर्मा": "Priyaa Sharmaa",  # Devanagari
    "தமிழ்செல்வி": "Tamilllcelvi",  # Tamil
    "অমিত": "Amita",  # Bengali
    "አበበ በቀለ": "Ababa Baqala",  # Ethiopic
    "ᏣᎳᎩ": "Tsalagi",  # Cherokee
    "ಕಿರಣ್": "Kirann",  # Kannada
}


@pytest.fixture
def no_script_fonts(monkeypatch):
    """The printables as on a machine without Debian's fonts-noto-core."""
    from setwidgets.printables import lettering, scripts

    monkeypatch.setattr(scripts, "font_for_char", lambda char, bold=False: None)
    lettering._runs.cache_clear()
    lettering.text_width.cache_clear()
    yield
    lettering._runs.cache_clear()
    lettering.text_width.cache_clear()


def test_without_a_font_for_their_script_names_print_as_a_latin_reading_not_boxes(tmp_path, no_script_fonts):
    from setwidgets.printables.lettering import legible

    assert {name: legible(name) for name in UNCOVERED_NAMES} == UNCOVERED_NAMES
    assert legible("Zoë Ødegård 李小龙 Ἀθηνᾶ") == "Zoë Ødegård 李小龙 Ἀθηνᾶ"  # letters a font has stay
    assert legible("राम १२") == "Raama 12"
    names = [*UNCOVERED_NAMES, "Zoë"]
    event = Competition(":memory:")
    for number, name in enumerate(names, 1):
        event.register(number, name)
    event.plan(3)
    for pdf in (
        entry_cards(tmp_path / "entry.pdf", event),
        score_sheets(tmp_path / "sheets.pdf", event),
        schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=dict(enumerate(names, 1))),
    ):
        words = text(pdf)
        for name, reading in UNCOVERED_NAMES.items():
            assert reading in words and name not in words, (pdf.name, name)
        assert "Zoë" in words


# Names in scripts whose letters change shape and place (issue 37): Hindi, Tamil, Thai, Amharic,
# Bengali, Kannada, Cherokee, Sinhala with a zero-width joiner, Persian with a non-joiner, and a
# name in two scripts.
OWN_SCRIPT_NAMES = [
    "प्रिया शर्मा",
    "தமிழ்செல்வி",
    "สมชาย ใจดี",
    "አበበ በቀለ",
    "অমিত",
    "ಕಿರಣ್",
    "ᏣᎳᎩ",
    "ශ්\u200dරීනාත්",
    "علی\u200cرضا",
    "Priya प्रिया",
]


def _joined_letters(name: str) -> str:
    """A right-to-left name as poppler reads it back: its letters in their joined forms, no joiners."""
    from setwidgets.printables.rtl import joined

    return joined(name).replace("\u200c", "")


def glyphs_in_ink(pixels: np.ndarray, word, font: str, dpi: int) -> float:
    """The share of a shaped word's ink inside its glyphs' outlines, each glyph that moves the pen inked.

    The glyphs and their advances are HarfBuzz's, as reportlab draws them; each spacing glyph
    (not a space) has the cell its advance gives it, scaled to the word's box from pdftotext.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfbase.ttfonts import shapeStr

    name, x0, y0, x1, y1 = word
    shaped = shapeStr(name, font, 10)
    data = getattr(shaped, "__shapeData__", None)  # none when HarfBuzz changed nothing
    cells = [d.x_advance for d in data] if data else [stringWidth(c, font, 1000) for c in shaped]
    scale = dpi / 72
    across = (x1 - x0) / sum(cells)
    inside = total = 0
    left = x0
    for glyph, advance in zip(shaped, cells):
        right = left + advance * across
        if advance and not glyph.isspace():
            patch = pixels[round(y0 * scale) : round(y1 * scale), round(left * scale) : round(right * scale)]
            ink = patch.astype(int).sum(axis=2) < 384
            assert ink.sum() > 5, f"{name!r}: no ink where its glyph {glyph!r} is"
            ys, xs = np.nonzero(ink)
            inside += int(ink[ys.min() + 2 : ys.max() - 1, xs.min() + 2 : xs.max() - 1].sum())
            total += int(ink.sum())
        left = right
    return inside / total


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_names_print_in_their_own_script_shaped_embedded_and_copy_as_typed(tmp_path, paper):
    from PIL import Image

    from setwidgets.printables import lettering, scripts

    assert scripts.SHAPING, "reportlab shapes with uharfbuzz: the print extra installs it"
    # Persian is DejaVu Sans's, joined as Arabic is; the name in two scripts is printed in runs.
    fonts = {name: lettering.font_for(name) for name in OWN_SCRIPT_NAMES[:-2]}
    assert all(font.startswith("Noto-") for font in fonts.values()), (
        f"no Noto font for some scripts ({fonts}): 'python3 course.py test' installs Debian's fonts-noto-core"
    )
    assert lettering.legible(OWN_SCRIPT_NAMES[0]) == OWN_SCRIPT_NAMES[0]  # no Latin reading
    event = Competition(":memory:")
    for number, name in enumerate(OWN_SCRIPT_NAMES, 1):
        event.register(number, name)
    event.plan(3)
    names = dict(enumerate(OWN_SCRIPT_NAMES, 1))
    env = latin_only_fonts(tmp_path)  # the Noto fonts hidden: only what the PDF embeds is drawn
    for pdf in (
        entry_cards(tmp_path / "entry.pdf", event, paper=paper),
        score_sheets(tmp_path / "sheets.pdf", event, paper=paper),
        schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=names, paper=paper),
    ):
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        embedded = [line.split() for line in rows.splitlines()[2:]]
        assert all(row[-5] == "yes" for row in embedded if not row[0].startswith("Helvetica")), rows
        assert sum("NotoSans" in row[0] for row in embedded) >= 7, rows
        words = text(pdf)  # what copying gives: each name as it was typed, not glyph codes
        for name in OWN_SCRIPT_NAMES:  # Persian, as Arabic: its letters in their joined forms
            assert name in words or _joined_letters(name) in words, (pdf.name, name)
        assert not re.search("[\ue000-\uf8ff]", words), "a shaped glyph copies as a private character"
        if paper != "A4":
            continue  # the same fonts and glyphs on Letter: the ink is looked for once
        seen = set()
        for page in range(1, pages(pdf) + 1):
            found = [w for w in _words(pdf, page) if w[0] in fonts and w[0] not in seen]
            if not found:
                continue
            png = tmp_path / f"{pdf.stem}-{page}"
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "150",
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-png",
                    "-singlefile",
                    str(pdf),
                    png,
                ],
                env=env,
                check=True,
                capture_output=True,
            )
            pixels = np.asarray(Image.open(f"{png}.png").convert("RGB"))
            for word in found:
                share = glyphs_in_ink(pixels, word, fonts[word[0]], 150)
                assert share > 0.12, (
                    f"{pdf.name}, page {page}: {word[0]!r} looks like empty boxes ({share:.2f})"
                )
                seen.add(word[0])
        assert seen == set(fonts), (pdf.name, seen)


def test_emoji_print_as_emoji_where_a_font_has_them_and_as_their_name_otherwise(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from setwidgets.printables import lettering

    pdf = Canvas(str(tmp_path / "emoji.pdf"))
    for i, name in enumerate(["Ana \U0001f600", "Ana \u263a", "Ana \U0001f984"]):
        lettering.draw(pdf, 50, 700 - 30 * i, name, size=14, width=200)
    pdf.save()
    # DejaVu Sans draws 😀 and ☺; reportlab's map back to letters holds 16-bit codes, so poppler
    # read 😀 as ὠ (U+1F60) until the name's own text was written beside it.
    lines = [line for line in text(tmp_path / "emoji.pdf").splitlines() if line]
    assert lines == ["Ana \U0001f600", "Ana \u263a", "Ana [unicorn face]"]


# The issue's names printed in DejaVu Sans (issue 37): the scripts the Noto and CJK tests above
# leave out. Latin names that Helvetica has are not here: Helvetica is one of the PDF's standard
# fonts, which every reader supplies, and is not embedded by design.
DEJAVU_NAMES = [
    "فاطمة الزهراء",  # Arabic
    "דוד כהן",  # Hebrew
    "علی\u200cرضا",  # Persian, a non-joiner inside the word
    "Ἀθηνᾶ Παπαδοπούλου",  # Greek
    "Анна Иванова",  # Cyrillic
    "Nguyễn Thị Minh Khai",  # Vietnamese
    "Łukasz Żółć",  # Polish
    "Çağrı Şahin",  # Turkish
    "Adéwálé Ọláòkun",  # Yoruba
]


def embedded_only_fonts(folder: Path) -> dict[str, str]:
    """An environment whose fontconfig knows Liberation only (poppler's stand-in for Helvetica).

    DejaVu, Noto and the CJK fonts are all hidden: a name is drawn from the fonts its PDF embeds
    or not at all.
    """
    conf = folder / "liberation-only.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        "<dir>/usr/share/fonts/truetype/liberation</dir>\n"
        f"<cachedir>{folder}/cache</cachedir>\n</fontconfig>\n"
    )
    return dict(os.environ, FONTCONFIG_FILE=str(conf))


def _render(pdf: Path, page: int, dpi: int, env: dict[str, str] | None, out: Path) -> np.ndarray:
    from PIL import Image

    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile", str(pdf), out],
        env=env,
        check=True,
        capture_output=True,
    )
    return np.asarray(Image.open(f"{out}.png").convert("RGB"))


def test_names_in_dejavu_are_drawn_from_the_pdf_with_every_system_font_hidden(tmp_path):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from setwidgets.printables import lettering

    fonts = {name: lettering.font_for(name) for name in DEJAVU_NAMES}
    assert set(fonts.values()) == {"DejaVuSans"}, fonts
    event = Competition(":memory:")
    for number, name in enumerate(DEJAVU_NAMES, 1):
        event.register(number, name)
    event.plan(3)
    names = dict(enumerate(DEJAVU_NAMES, 1))
    # The words as poppler reads them back: right-to-left names in their drawn (joined) letters.
    drawn = {word: name for name in DEJAVU_NAMES for word in _joined_letters(name).split()}
    drawn.update({word: name for name in DEJAVU_NAMES for word in lettering.visual(name).split()})
    drawn.update({word.replace("\u200c", ""): name for word, name in list(drawn.items())})
    drawn.update({word: name for name in DEJAVU_NAMES for word in name.split()})
    hidden = embedded_only_fonts(tmp_path)
    dpi = 100
    for pdf in (
        entry_cards(tmp_path / "entry.pdf", event),
        score_sheets(tmp_path / "sheets.pdf", event),
        schedule_pages(tmp_path / "plan.pdf", event.schedule(), names=names),
    ):
        # Drawn from the PDF alone: every font but Helvetica embedded (poppler would otherwise
        # draw Liberation's letters, or none, in DejaVu's place).
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        embedded = [line.split() for line in rows.splitlines()[2:]]
        assert all(row[-5] == "yes" for row in embedded if not row[0].startswith("Helvetica")), rows
        bold = pdf.stem != "sheets"  # names are bold on entry cards and slips
        dejavu = "DejaVuSans-Bold" if bold else "DejaVuSans"
        assert any(row[0].endswith(dejavu) for row in embedded), rows
        seen = set()
        for page in range(1, pages(pdf) + 1):
            found = [w for w in _words(pdf, page) if w[0] in drawn and drawn[w[0]] not in seen]
            if not found:
                continue
            alone = _render(pdf, page, dpi, hidden, tmp_path / f"{pdf.stem}-{page}")
            scale = dpi / 72
            for word, x0, y0, x1, y1 in found:
                box = (
                    slice(round(y0 * scale), round(y1 * scale)),
                    slice(round(x0 * scale), round(x1 * scale)),
                )
                # Each letter that moves the pen has ink in its cell (a missing font draws nothing).
                font = lettering.font_for(drawn[word], bold=bold)
                advances = [stringWidth(c, font, 1000) for c in word]
                left = x0
                for char, advance in zip(word, advances):
                    right = left + advance * (x1 - x0) / sum(advances)
                    if advance and not char.isspace():
                        cell = alone[box[0], round(left * scale) : round(right * scale)]
                        ink = int((cell.astype(int).sum(axis=2) < 384).sum())
                        assert ink > 2, f"{pdf.name}, page {page}: no ink where {char!r} of {word!r} is"
                    left = right
                # Not boxes: the font has every letter of the name (a missing one draws its .notdef box).
                assert lettering._has_all(font, drawn[word].replace("\u200c", "")), (font, drawn[word])
            seen.update(drawn[w[0]] for w in found)
        assert seen == set(DEJAVU_NAMES), (pdf.name, set(DEJAVU_NAMES) - seen)


def test_right_to_left_names_are_joined_and_read_in_order():
    import unicodedata

    from setwidgets.printables.lettering import visual

    # Arabic letters joined (initial, medial, final forms), the words in reading order.
    forms = [unicodedata.name(c).removeprefix("ARABIC LETTER ") for c in visual("فاطمة الزهراء")]
    assert forms == [
        *("HAMZA ISOLATED FORM", "ALEF ISOLATED FORM", "REH FINAL FORM", "HEH INITIAL FORM"),
        *("ZAIN FINAL FORM", "LAM INITIAL FORM", "ALEF ISOLATED FORM", "SPACE"),
        *("TEH MARBUTA FINAL FORM", "MEEM MEDIAL FORM", "TAH INITIAL FORM"),
        *("ALEF FINAL FORM", "FEH INITIAL FORM"),
    ]
    assert visual("لا") == "\ufefb"  # lam-alef is one letter
    assert visual("Ada") == "Ada"


def test_a_competition_without_players_is_refused(tmp_path):
    with Competition(":memory:") as event, pytest.raises(ValueError, match="has no players yet"):
        entry_cards(tmp_path / "entry.pdf", event)
    assert files(tmp_path) == []


def test_schedule_names_are_checked(tmp_path):
    plan = schedule(9, 3)
    with pytest.raises(ValueError, match="names must hold players 1 to 9 of the schedule; got player 10"):
        schedule_pages(tmp_path / "plan.pdf", plan, names={10: "Ada"})
    with pytest.raises(ValueError, match="U\\+202E"):
        schedule_pages(tmp_path / "plan.pdf", plan, names={1: "Ada\u202e"})
    with pytest.raises(TypeError, match="names must be a dict"):
        schedule_pages(tmp_path / "plan.pdf", plan, names=["Ada"])
    assert files(tmp_path) == []


# -- the competition's paper as a teacher prints it (issue 21) ----------------------------------


def words_of(pdf: Path, page: int | None = None) -> str:
    """The PDF's text with every run of spaces and line ends made one space."""
    return " ".join(text(pdf, page).split())


def said(sentence: str) -> str:
    return " ".join(sentence.split())


def test_the_colorblind_handout_names_the_colors_its_cards_are_drawn_in(kit):
    words = words_of(kit["handout colorblind"])
    assert "color (vermillion, blue, black)" in words
    assert "Color: two are vermillion and one is black" in words
    assert "Not a SET: two are vermillion and one is black; two are solid and one is striped." in words
    assert not re.search(r"\b(red|green|purple)\b", words), words
    page = PageImage(kit["handout colorblind"], 1)
    for color in get_theme("colorblind").colors.values():
        assert page.count_color(None, color) > 300, f"the handout's cards should show {color}"
    assert page.count_color(None, get_theme("classic").colors["red"]) == 0
    # The classic handout keeps the classic words.
    assert "color (red, green, purple)" in words_of(kit["handout"])


def test_color_words_follow_the_paint_of_the_look():
    assert color_words() == {"red": "red", "green": "green", "purple": "purple"}
    assert color_words("colorblind") == {"red": "vermillion", "green": "blue", "purple": "black"}
    own = Theme("mine", {"red": "#123456", "green": "#0072B2", "purple": "#5b2a86"})
    assert color_words(own) == {"red": "#123456", "green": "blue", "purple": "purple"}
    with pytest.raises(ValueError) as error:
        color_words("printable")
    one_sentence(error, "'printable'", "'classic' or 'colorblind'")


def test_the_handout_tells_how_a_game_ends_and_return_six_deal_three(kit):
    assert "6 of them, chosen at random, back into the deck" in DEAL_RULE and "3 new cards" in DEAL_RULE
    for name in ("handout", "handout letter", "handout colorblind"):
        assert pages(kit[name]) == 1
        words = words_of(kit[name])
        assert said(DEAL_RULE) in words and said(END_RULE) in words, name


def test_the_handout_and_the_decks_first_page_say_how_to_print(kit):
    heading = said(PRINTING[0])
    assert (
        "in color" in heading and "100 %" in heading and "fit to page" in heading and "card stock" in heading
    )
    for name in ("handout", "handout letter", "handout colorblind"):
        assert heading in words_of(kit[name]) and said(PRINTING[1]) in words_of(kit[name]), name
    for name in ("classic A4", "classic letter", "printable letter"):
        assert heading in words_of(kit[name], 1) and "card stock" not in words_of(kit[name], 2), name
        # The box ends above the cut marks: its grey fill stops before the first dark mark.
        page = PageImage(kit[name], 1, dpi=72)
        fill = np.all(page.pixels == (238, 241, 244), axis=2).any(axis=1).nonzero()[0]
        dark = (page.pixels.sum(axis=2) < 200).any(axis=1).nonzero()[0]
        marks = dark[dark > fill.max()]
        assert fill.max() < min(y for _, y, _, _ in deck_layout(name.split()[-1])) - 9 * 72 / 25.4, name
        assert marks.size and marks.min() > fill.max() + 1, name


def test_the_advice_for_black_and_white_printers_is_true_of_the_looks():
    # The advice says no look marks color another way: the color-blind look differs from the
    # classic one in its colors only, and its vermillion and blue are close in lightness (grey).
    classic, colorblind = get_theme("classic"), get_theme("colorblind")
    assert colorblind.style == classic.style == "classic" and not colorblind.printable
    grey = {name: simulate(color, "normal")[0] for name, color in colorblind.colors.items()}
    assert abs(grey["red"] - grey["green"]) < 10, grey
    assert "vermillion and blue print as almost the same grey" in PRINTING[1]


def test_the_feature_chart_shows_four_features_with_three_values_each(kit):
    for name in ("chart", "chart colorblind", "chart printable"):
        assert pages(kit[name]) == 1, name
    words = words_of(kit["chart"])
    for feature, values in (
        ("Number", "1 2 3"),
        ("Color", "red green purple"),
        ("Shape", "oval squiggle diamond"),
        ("Shading", "solid striped open"),
    ):
        assert f"{feature} {values}" in words, feature
    assert "Color vermillion blue black" in words_of(kit["chart colorblind"])
    printable = words_of(kit["chart printable"])
    assert "Color, shown by the outer color yellow green purple" in printable
    assert "Number, shown by the inner color orange cyan red" in printable
    assert "Shape, shown by the outer symbol circle hexagon square" in printable
    page = PageImage(kit["chart"], 1)
    for color in get_theme("classic").colors.values():
        assert page.count_color(None, color) > 500, f"the chart's cards should show {color}"
    printed = PageImage(kit["chart printable"], 1)
    for color in ("yellow", "green", "purple", "orange", "cyan", "red"):
        assert printed.count_color(None, get_theme("printable").colors[color]) > 50, color


def test_the_open_house_sheet_has_its_rules_and_a_tally_grid(kit):
    for name in ("open house", "open house letter"):
        assert pages(kit[name]) == 1
        words = words_of(kit[name])
        assert "players at each table judge themselves" in words and "Anyone can drop in" in words
        for rule in OPEN_HOUSE_RULES:
            assert said(rule) in words, rule
        for column in ("Game", "Player No.", "Name", "SETs (tally)", "Penalties (tally)", "Score"):
            assert column in words, column
    # The grid fills the page below the rules: ruled lines across the page, one under each row.
    page = PageImage(kit["open house"], 1, dpi=72)
    across = (page.pixels.sum(axis=2) < 200).mean(axis=1) > 0.8
    rules = 1 + np.count_nonzero(np.diff(np.flatnonzero(across)) > 3)
    assert rules >= 20, rules


def test_new_sheets_refuse_bad_input_and_leave_nothing(tmp_path):
    with pytest.raises(ValueError) as error:
        feature_chart(tmp_path / "chart.pdf", paper="A5")
    one_sentence(error, "paper must be 'A4' or 'letter'", "'A5'")
    with pytest.raises(ValueError) as error:
        feature_chart(tmp_path / "chart.pdf", theme="neon")
    one_sentence(error, "'neon'")
    with pytest.raises(TypeError) as error:
        open_house(tmp_path / "open.pdf", paper=4)
    one_sentence(error, "paper must be 'A4' or 'letter'")
    with pytest.raises(ValueError) as error:
        open_house(tmp_path / "missing" / "open.pdf")
    one_sentence(error, "does not exist")
    with pytest.raises(ValueError) as error:
        handout(tmp_path / "handout.pdf", theme="printable")
    one_sentence(error, "'classic' or 'colorblind'")
    assert files(tmp_path) == []


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_entry_cards_have_a_box_for_every_game_up_to_the_most(tmp_path, paper):
    for games in (1, 4, MOST_GAMES):
        first = words_of(entry_cards(tmp_path / "entry.pdf", 9, games=games, paper=paper), 1)
        boxes = " ".join(f"Game {g}" for g in range(1, games + 1))
        numbers = " ".join(str(g) for g in range(1, games + 1))
        assert f"{boxes} Total Rank" in first or f"{numbers} Total Rank" in first, (games, first[:400])
        assert first.count("Total Rank") == 9


def test_a_score_sheet_of_a_table_of_two_or_four_states_the_adjusted_total(tmp_path):
    # 5 players: a table of 3 and a table of 2; 7 players: a table of 4 and a table of 3.
    for players, odd in ((5, 2), (7, 4)):
        sheets = score_sheets(tmp_path / f"sheets{players}.pdf", schedule(players, 3))
        said = " ".join(text(sheets).split())
        assert said.count(f"A table of {odd} shares a game's SETs among {odd} players") == 3
        assert said.count(f"scaled to a table of three (score \u00d7 {odd} \u00f7 3)") == 3
        assert "A table of 3 shares" not in said
