"""Every table number printed in the kit is one ``Competition.record`` takes for that round.

The coordinator's page of ``schedule.pdf``, the players' slips and the score sheets are read
back as text (poppler's pdftotext) and each printed table is fed to ``record``: a number that
names another table (the room's table of a rotation, say) is refused there, so this test fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from setwidgets.competition import Competition
from setwidgets.printables import schedule_pages, score_sheets

if not shutil.which("pdftotext"):  # pragma: no cover
    pytest.fail("poppler-utils is missing: 'python3 course.py test' installs it", pytrace=False)


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def coordinator_tables(text: str) -> list[tuple[int, int, tuple[int, ...]]]:
    """(round, table, players) for every 'Table t: a b c' the coordinator's pages print."""
    found, round_ = [], None
    for line in text.splitlines():
        if line.lstrip().startswith("Player "):  # the slips begin: the coordinator's pages are done
            break
        heading = re.match(r"\s*Round (\d+)\b(?!:)", line)
        if heading:
            round_ = int(heading.group(1))
            continue
        for table, players in re.findall(r"Table (\d+):\s+([\d ]+\d)", line):
            found.append((round_, int(table), tuple(int(p) for p in players.split())))
    return found


def slip_seats(text: str) -> list[tuple[int, int, int]]:
    """(player, round, table) for every 'Round r: table t' line of the players' slips (three to a row)."""
    found = []
    for page in text.split("\f"):
        titles: list[tuple[int, int]] = []  # (column start, player) of the slips' titles
        for line in page.splitlines():
            heads = [(m.start(), int(m.group(1))) for m in re.finditer(r"Player (\d+)", line)]
            if heads:
                titles = heads
                continue
            for m in re.finditer(r"Round (\d+): table (\d+)", line):
                owner = max((t for t in titles if t[0] <= m.start() + 2), default=None)
                assert owner is not None, f"a seat with no slip title above it: {line!r}"
                found.append((owner[1], int(m.group(1)), int(m.group(2))))
    return found


def sheet_headings(text: str) -> list[tuple[int, int]]:
    """(round, table) of every score sheet's heading 'Round r · Table t ...'."""
    return [(int(r), int(t)) for r, t in re.findall(r"Round (\d+) \u00b7 Table (\d+)", text)]


CASES = [
    # players, rounds, the room's tables, seed: 9 to 60 players, 3 to 5 rounds, 4 to 10 tables
    (9, 3, 4, 0),
    (14, 4, 4, 1),
    (21, 4, 5, 2),
    (31, 4, 6, 0),
    (31, 5, 4, 3),
    (40, 3, 7, 1),
    (47, 5, 10, 2),
    (60, 4, 8, 0),
    (60, 3, 4, 5),
]


@pytest.mark.parametrize(("players", "rounds", "tables", "seed"), CASES)
def test_every_printed_table_number_is_accepted_by_record(tmp_path, players, rounds, tables, seed):
    event = Competition(":memory:")
    for number in range(1, players + 1):
        event.register(number, f"P{number}")
    plan = event.plan(rounds=rounds, tables=tables, seed=seed)
    every = {(r, t) for r in range(1, rounds + 1) for t in range(1, len(plan.rounds[r - 1]) + 1)}

    coordinator = coordinator_tables(pdf_text(schedule_pages(tmp_path / "schedule.pdf", plan)))
    assert {(r, t) for r, t, _ in coordinator} == every
    assert len(coordinator) == len(every)
    for r, t, seated in coordinator:
        # The printed number with the printed players: record takes it (a wrong number is refused).
        event.record(r, t, {p: 0 for p in seated})
    assert event.complete()

    slips = slip_seats(pdf_text(schedule_pages(tmp_path / "slips.pdf", plan)))
    assert len(slips) == players * rounds
    for player, r, t in slips:
        assert player in event.table(r, t), f"player {player}'s slip says round {r}, table {t}"

    assert sorted(sheet_headings(pdf_text(score_sheets(tmp_path / "sheets.pdf", plan)))) == sorted(every)


def test_the_coordinators_page_names_the_rooms_table_of_each_rotation(tmp_path):
    event = Competition(":memory:")
    for number in range(1, 22):
        event.register(number, f"P{number}")
    plan = event.plan(rounds=3, tables=5, seed=0)
    text = pdf_text(schedule_pages(tmp_path / "schedule.pdf", plan))
    # 21 players: 7 tables a round, 5 in the room; tables 6 and 7 play second, at the room's 1 and 2.
    assert "rotation 2: tables 6 to 7, at the room's tables 1 to 2" in text
    assert plan.place(1, 7) == (2, 2)
    assert plan.seat(plan.rounds[0][6][0], 1) == "table 7 (rotation 2, at table 2)"
