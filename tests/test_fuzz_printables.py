"""Fuzzing the printables' public API: every odd input is answered in our words, at once.

``entry_cards``, ``score_sheets``, ``schedule_pages``, ``handout``, ``feature_chart``,
``open_house``, ``color_words``, ``deck``, ``deck_layout``, ``paint_card`` and ``paint_cards``
are called with drawn arguments of every kind (paths that are folders, missing folders, names
too long, bytes; sources that are no competition; sizes past any page; names in every script;
endless generators) through ``fuzzing.attempt``, which fails on a raw error or a hang. Every
PDF goes to a fresh folder under pytest's temporary folder: a refusal must leave that folder
as it was (no new file, no new folder, no half-written PDF), and an accepted call must leave
exactly the one PDF it was asked for.
"""

from __future__ import annotations

import io
import itertools
import math
import tempfile
from pathlib import Path

import fuzzing
import numpy as np
import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas

from setwidgets.cards import full_deck
from setwidgets.competition import Competition, schedule
from setwidgets.printables import (
    deck,
    entry_cards,
    feature_chart,
    handout,
    open_house,
    paint_card,
    schedule_pages,
    score_sheets,
)
from setwidgets.printables.guide import color_words
from setwidgets.printables.kit import deck_layout
from setwidgets.printables.painter import paint_cards

MODULE = "printables"

odd_text = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "A4\x00",
        "\u202eA4",
        "\u200bletter",
        " Letter ",
        "A5",
        "Zoë",
        "Ἀθηνᾶ",
        "李小龙",
        "فاطمة الزهراء",
        "x" * 500,
    ]
) | st.text(max_size=12)
odd_number = (
    st.integers(min_value=-5, max_value=40)
    | st.sampled_from([-1, 0, 99, 100, 1000, 10_000, 10**6, 2**63, 10**30, -(10**30)])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([2.0, -0.0, math.nan, math.inf, np.int64(12), np.float64(4.0)])
    | st.booleans()
    | st.none()
    | st.text(max_size=5)
    | st.binary(max_size=5)
)
# Valid values are drawn often too: an accepted call must write its one PDF and nothing else.
odd_paper = (
    st.sampled_from(["A4", "a4", "letter", " Letter "])
    | st.sampled_from([b"A4", "A5", None, 4, ["A4"]])
    | odd_text
)
odd_theme = (
    st.sampled_from(["classic", "colorblind", "printable", " Classic", b"classic", "neon", None, 1])
    | odd_text
)
# Where the PDF is asked to go, relative to a fresh folder (markers made into paths by `place`).
odd_path = st.sampled_from(["kit.pdf", "Zoë's kit.pdf", "A FILE"]) | st.sampled_from(
    [
        "kit.pdf",
        "kit",
        "Zoë's kit.pdf",
        "missing/kit.pdf",
        "missing/deeper/kit.pdf",
        "FOLDER",
        "FOLDER AS FILE",
        "A FILE/kit.pdf",
        "TOO LONG",
        "LONG PATH",
        "NUL",
        "EMPTY",
        "BYTES",
        "/dev/full",
        "/dev/null",
        "/proc/version",
        "/",
        "NONE",
        "NUMBER",
        "LIST",
    ]
)
FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = [
    "Ada",
    "Zoë Ødegård",
    "Ἀθηνᾶ Παπαδοπούλου",
    "李小龙",
    "فاطمة الزهراء",
    "Ada " + "Lovelace " * 6,
    "Łukasz Żółć",
    "Nguyễn Thị Minh Khai",
    "Ben",
]


@pytest.fixture(scope="module")
def plans():
    return {
        "small": schedule(9, 3),
        "rotations": schedule(20, 4, tables=5),
        "long": schedule(12, 30),
        "many": schedule(100, 4),
    }


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz-printables") / "class.sqlite"
    competition = Competition(path)
    for number, name in enumerate(NAMES, 1):
        competition.register(number, name, "A" if number % 2 else None)
    competition.plan(4)
    yield competition
    competition.close()


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-printables-out")


def place(marker: str, root: Path):
    """A fresh folder, and the path the marker stands for in it (or the odd object itself)."""
    folder = Path(tempfile.mkdtemp(dir=root))
    (folder / "FOLDER").mkdir()
    (folder / "A FILE").write_text("not a folder")
    made = {
        "FOLDER": folder / "FOLDER",
        "FOLDER AS FILE": str(folder / "FOLDER") + "/",
        "TOO LONG": folder / ("x" * 300 + ".pdf"),
        "LONG PATH": folder / "/".join(["y" * 200] * 25) / "kit.pdf",
        "NUL": str(folder / "kit\x00.pdf"),
        "EMPTY": "",
        "BYTES": bytes(folder / "kit.pdf"),
        "NONE": None,
        "NUMBER": 3,
        "LIST": [folder / "kit.pdf"],
    }
    if marker in made:
        return folder, made[marker]
    if marker.startswith("/"):
        return folder, marker
    return folder, folder / marker


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder under ``folder``."""
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


STATE_CHANGES: list[str] = []
"""With SETWIDGETS_FUZZ_COUNT=1 (measuring only), the calls that broke the rules on files."""


def check(outcome: fuzzing.Outcome, folder: Path, before: dict, path) -> None:
    """A refusal leaves the folder as it was; an acceptance writes the one PDF asked for, nothing else."""
    after = tree(folder)
    inside = isinstance(path, Path) and path.is_relative_to(folder)
    problems = []
    if outcome.kind == "refused" and after != before:
        problems.append(f"a refusal changed the folder: {outcome.message}")
    elif outcome.kind == "accepted":
        if not inside:
            problems.append(f"{repr(path)[:80]} was accepted: it is no new file in the folder")
        else:
            name = str(path.relative_to(folder))
            rest_before = {k: v for k, v in before.items() if k != name}
            rest_after = {k: v for k, v in after.items() if k != name}
            if rest_after != rest_before or not (after.get(name) or b"").startswith(b"%PDF"):
                changed = sorted(set(rest_after.items()) ^ set(rest_before.items()))
                problems.append(f"an accepted call changed {changed[:3]}, not only the one PDF {name}")
    for name in ("/dev/full", "/dev/null"):
        if not (Path(name).exists() and not Path(name).is_file()):  # pragma: no cover
            problems.append(f"{name} was replaced")
    if fuzzing.COUNT_ONLY:
        STATE_CHANGES.extend(problems)
    else:
        assert not problems, problems


@pytest.fixture(scope="module", autouse=True)
def _state_report():
    yield
    if fuzzing.COUNT_ONLY:
        print(f"\nprintables: {len(STATE_CHANGES)} calls broke the rules on files, such as:")
        for problem in sorted(set(p[:100] for p in STATE_CHANGES))[:12]:
            print("  ", problem)


def source_of(marker, plans, event):
    if marker == "endless":
        return itertools.count(1)
    if marker == "competition":
        return event
    if marker == "no players":
        return Competition(":memory:")
    if isinstance(marker, str) and marker.startswith("plan:"):
        return plans[marker[5:]]
    return marker


odd_source = (
    st.sampled_from(["competition", "plan:small", "plan:rotations", "plan:long", "plan:many"])
    | st.sampled_from(["no players", "endless"])
    | odd_number
    | st.lists(odd_number, max_size=3)
)


@FUZZ
@given(marker=odd_path, source=odd_source, paper=odd_paper, games=odd_number | st.none())
def test_entry_cards_answer_at_once_and_refusals_leave_nothing(
    root, plans, event, marker, source, paper, games
):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(
        MODULE, entry_cards, path, source_of(source, plans, event), paper=paper, games=games
    )
    check(outcome, folder, before, path)


@FUZZ
@given(marker=odd_path, source=odd_source, paper=odd_paper)
def test_score_sheets_answer_at_once_and_refusals_leave_nothing(root, plans, event, marker, source, paper):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(MODULE, score_sheets, path, source_of(source, plans, event), paper=paper)
    check(outcome, folder, before, path)


odd_names = (
    st.none()
    | st.dictionaries(st.integers(1, 12), st.sampled_from(NAMES), max_size=6)
    | st.dictionaries(odd_number, odd_text | odd_number, max_size=3)
    | st.lists(odd_text, max_size=3)
    | st.sampled_from(["endless", "Ada", b"Ada"])
)


@FUZZ
@given(marker=odd_path, plan=odd_source, names=odd_names, paper=odd_paper)
def test_schedule_pages_answer_at_once_and_refusals_leave_nothing(
    root, plans, event, marker, plan, names, paper
):
    folder, path = place(marker, root)
    before = tree(folder)
    names = ((n, "Ada") for n in itertools.count(1)) if names == "endless" else names
    outcome = fuzzing.attempt(
        MODULE, schedule_pages, path, source_of(plan, plans, event), names=names, paper=paper
    )
    check(outcome, folder, before, path)


@FUZZ
@given(marker=odd_path, paper=odd_paper, theme=odd_theme)
def test_handout_answers_at_once_and_refusals_leave_nothing(root, marker, paper, theme):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(MODULE, handout, path, paper=paper, theme=theme)
    check(outcome, folder, before, path)


@FUZZ
@given(marker=odd_path, paper=odd_paper, theme=odd_theme)
def test_feature_chart_answers_at_once_and_refusals_leave_nothing(root, marker, paper, theme):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(MODULE, feature_chart, path, paper=paper, theme=theme)
    check(outcome, folder, before, path)


@FUZZ
@given(marker=odd_path, paper=odd_paper)
def test_open_house_answers_at_once_and_refusals_leave_nothing(root, marker, paper):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(MODULE, open_house, path, paper=paper)
    check(outcome, folder, before, path)


@FUZZ
@given(theme=odd_theme)
def test_color_words_answer_every_theme(theme):
    outcome = fuzzing.attempt(MODULE, color_words, theme)
    if outcome.kind == "accepted":
        assert sorted(outcome.value) == ["green", "purple", "red"]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(marker=odd_path, paper=odd_paper, theme=odd_theme)
def test_deck_answers_at_once_and_refusals_leave_nothing(root, marker, paper, theme):
    folder, path = place(marker, root)
    before = tree(folder)
    outcome = fuzzing.attempt(MODULE, deck, path, paper=paper, theme=theme)
    check(outcome, folder, before, path)


@FUZZ
@given(paper=odd_paper)
def test_deck_layout_answers_every_paper(paper):
    outcome = fuzzing.attempt(MODULE, deck_layout, paper)
    if outcome.kind == "accepted":
        assert len(outcome.value) == 8


odd_card = st.sampled_from(full_deck()) | st.sampled_from(["2RTS", "1rso", "4RSO", "", b"1RSO"]) | odd_number
odd_canvas = st.sampled_from(["canvas", None, "canvas.pdf", 3, io.BytesIO()])


@FUZZ
@given(
    canvas=odd_canvas,
    card=odd_card,
    x=odd_number,
    y=odd_number,
    width=odd_number,
    theme=odd_theme,
    edge=st.sampled_from([True, False, None, "no", 0, 1]),
)
def test_paint_card_answers_every_call(canvas, card, x, y, width, theme, edge):
    pdf = Canvas(io.BytesIO()) if canvas == "canvas" else canvas
    fuzzing.attempt(MODULE, paint_card, pdf, card, x, y, width=width, theme=theme, edge=edge)


@FUZZ
@given(
    cards=st.lists(odd_card, max_size=4) | odd_card | st.just("endless"),
    x=odd_number,
    width=odd_number,
    gap=odd_number,
    theme=odd_theme,
)
def test_paint_cards_answers_every_call(cards, x, width, gap, theme):
    cards = itertools.cycle(full_deck()) if cards == "endless" else cards
    pdf = Canvas(io.BytesIO())
    fuzzing.attempt(MODULE, paint_cards, pdf, cards, x, 72, width=width, gap=gap, theme=theme)
