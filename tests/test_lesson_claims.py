"""A lesson never states what its own output contradicts: claims read back from what the lessons print.

Each lesson runs once per session (``conftest.run_lesson``); these tests read its outputs.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from conftest import run_lesson

pytestmark = pytest.mark.notebooks

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
ALL = sorted(LESSONS.glob("*.ipynb"))


def printed(name: str) -> str:
    """Everything a lesson prints, as text."""
    nb, _ = run_lesson(LESSONS / name)
    return "\n".join(
        output.get("text", "") for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs
    )


def test_the_real_game_s_most_often_left_comes_from_enough_games_to_hold():
    text = printed("07_the_real_game.ipynb")
    rows = re.findall(r"^\s*(\d+) cards left:\s+(\d+) games", text, re.MULTILINE)
    counts = {int(cards): int(games) for cards, games in rows}
    (most,) = re.findall(r"most often: (\d+) cards", text)
    first, second = sorted(counts.values(), reverse=True)[:2]
    assert counts[int(most)] == first
    # The lead is more than twice its standard error: another set of seeds would not reverse it.
    assert first - second > 2 * math.sqrt(first + second), counts


def test_the_real_game_says_that_table_places_count_from_0():
    text = printed("07_the_real_game.ipynb")
    assert re.search(r"^place \d+ \(from 0\):", text, re.MULTILINE)


def test_a_simulated_tournament_table_keeps_at_most_the_27_sets_of_a_deck():
    text = printed("15_running_a_class_tournament.ipynb")
    most = [int(n) for n in re.findall(r"most SETs kept at one table: (\d+)", text)]
    assert most and max(most) <= 27


def test_the_framed_cards_are_the_line_drawn_above():
    text = printed("08_sets_are_lines.ipynb")
    (drawn,) = re.findall(r"the line drawn above: (.+)", text)
    (framed,) = re.findall(r"the framed cards: +(.+)", text)
    assert sorted(drawn.split()) == sorted(framed.split())


def test_the_richest_table_s_cube_says_which_features_it_keeps():
    text = printed("11_how_many_sets.ipynb")
    assert re.search(r"features that stay the same on all its cards: \w+", text)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_no_lesson_prints_a_lone_number_in_brackets_where_it_means_the_number(path):
    # "families of [3] parallel planes": a list or set of one number inside a sentence.
    text = printed(path.name)
    assert not re.search(r"[a-z] [\[{]\d+[\]}] [a-z]", text), re.search(r".*[\[{]\d+[\]}].*", text)
