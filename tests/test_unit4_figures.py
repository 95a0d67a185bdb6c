"""Every figure that lessons 11 to 14 state agrees with the exact counts or with the simulation's interval.

Each lesson is run once in a fresh kernel, as a student runs it; then what it prints, and the
numbers its text states, are held to values fixed here: exact counts worked out in this file
(from C(n, k), the 1080 SETs of the deck and small listings), values from the literature with
their source, and the 95% intervals the lessons' own seeded simulations print.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from conftest import run_lesson

from setwidgets import full_deck, has_set, mini_deck

pytestmark = pytest.mark.notebooks

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
P_SET = Fraction(1, 79)  # 1080 SETs among C(81, 3) triples, checked below
# Literature, fixed here: the booklet's odds against "no SET" (12 and 15 cards); Norvig's
# simulation of 12 random cards, "about 30 : 1"; Vinci (2009), at most 14 SETs among 12 cards;
# the largest caps for n features: Pellegrino 1970 (n = 4), Edel, Ferret, Landjev and Storme 2002
# (n = 5), Potechin 2008 (n = 6).
BOOKLET = {12: 33, 15: 2500}
NORVIG_12 = 30
MOST_SETS_AMONG_12 = 14
LARGEST_CAP = {1: 2, 2: 4, 3: 9, 4: 20, 5: 45, 6: 112}
# SET-free tables of the mini deck, by size: listed below for up to 5 cards; the larger sizes
# from the symmetry count of setwidgets.caps, whose own tests list them.
MINI_SET_FREE = [1, 27, 351, 2808, 14742, 50544, 107406, 126360, 63180, 2106, 0]
FULL_SET_FREE = {3: 84240, 4: 1579500, 5: 22441536, 6: 247615056, 7: 2144076480, 8: 14587567020}


@pytest.fixture(scope="module")
def lesson():
    """Run a lesson (once per session, shared with test_lessons); give its printed text and its prose."""

    def run(stem: str) -> tuple[str, str]:
        nb, _ = run_lesson(LESSONS / f"{stem}.ipynb")
        printed = "".join(
            output.get("text", "")
            for cell in nb.cells
            if cell.cell_type == "code"
            for output in cell.outputs
            if output.get("name") == "stdout"
        )
        prose = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
        return printed, " ".join(prose.split())

    return run


def numbers(pattern: str, text: str) -> tuple[float, ...]:
    found = re.search(pattern, text)
    assert found, f"the lesson should print {pattern!r}"
    return tuple(float(group.replace(",", "")) for group in found.groups())


def test_the_fixed_exact_values_hold():
    deck = full_deck()
    sets = sum(has_set(list(triple)) for triple in combinations(deck[:27], 3))
    assert sets == 117  # a cube of 27 cards, checked the slow way
    assert Fraction(81 * 40 // 3, math.comb(81, 3)) == P_SET
    assert FULL_SET_FREE[3] == math.comb(81, 3) - 1080
    mini = mini_deck()
    for size in range(6):
        free = sum(not has_set(list(table)) for table in combinations(mini, size))
        assert free == MINI_SET_FREE[size], size


def test_lesson_11_expected_sets_and_the_most_among_12(lesson):
    printed, prose = lesson("11_how_many_sets")
    assert "chance that three random cards form a SET: 1/79" in printed
    rows = re.findall(r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+) to ([\d.]+)$", printed, re.MULTILINE)
    assert [int(row[0]) for row in rows] == list(range(3, 22))
    misses = 0
    for k, exact, mean, low, high in rows:
        expected = math.comb(int(k), 3) * P_SET
        assert float(exact) == pytest.approx(float(expected), abs=5e-4), k
        assert float(low) <= float(mean) <= float(high)
        misses += not float(low) - 5e-4 <= expected <= float(high) + 5e-4
    assert f"inside the interval for {19 - misses} of the 19 sizes" in printed
    mean, low, high = numbers(r"over 200,000 tables: ([\d.]+)\s+95% interval ([\d.]+) to ([\d.]+)", printed)
    # What the prose says: the interval is about ±0.01 wide and hides under the exact value's line.
    assert low <= mean <= high and high - low < 0.03
    assert abs(mean - float(Fraction(220, 79))) < 0.01
    assert "220/79 ≈ 2.78" in prose and "1330/79 ≈ 16.8" in prose
    assert math.comb(21, 3) == 1330 and round(1330 / 79, 1) == 16.8
    # The search finds Vinci's maximum and never more; the simple bound is 12 * 5 / 3.
    climbs = re.search(r"top of each climb: \[([\d, ]+)\]", printed).group(1)
    assert max(int(c) for c in climbs.split(",")) == MOST_SETS_AMONG_12
    assert f"holds {MOST_SETS_AMONG_12} SETs" in printed and "12 × 5 / 3 = 20" in prose
    assert "27 cards = 3 ** 3" in printed and "SETs inside that piece: 117" in printed


def test_lesson_12_exact_counts_and_odds(lesson):
    printed, prose = lesson("12_a_table_with_no_set")
    for size, free in enumerate(MINI_SET_FREE):
        chance = free / math.comb(27, size)
        assert re.search(
            rf"^\s*{size}\s+{math.comb(27, size)}\s+{free}\s+{chance:.4%}$", printed, re.MULTILINE
        )
    for size in (3, 4, 5):
        assert f"{size} cards: {math.comb(27, size)} tables listed, {MINI_SET_FREE[size]} without" in printed
    for size, free in FULL_SET_FREE.items():
        assert re.search(rf"^\s*{size}\s+{free}\s+{math.comb(81, size)}\s", printed, re.MULTILINE), size
    for size in (4, 5, 6):
        t = int(numbers(rf"{size} cards:\s+\d+ tables hold the triple, T =\s+(\d+)", printed)[0])
        assert Fraction(84240 * t, math.comb(size, 3)) == FULL_SET_FREE[size]
    assert "2106 of the 4,686,825" in prose and math.comb(27, 9) == 4_686_825
    assert "117 SETs of the mini deck" in prose and "84,240 non-SET triples" in prose
    assert "more than 3 × 10¹⁰" in prose and math.comb(81, 8) > 3e10
    rates = {}
    for size in (12, 15):
        hits, tables, rate, low, high = numbers(
            rf"{size} cards: (\d+) of ([\d,]+) tables without a SET = ([\d.]+)%"
            r" \(95% interval ([\d.]+)% to ([\d.]+)%\)",
            printed,
        )
        assert rate == pytest.approx(100 * hits / tables, abs=5e-5) and low < rate < high
        rates[size] = (low / 100, high / 100)
        # odds against = (1 - p) / p; the booklet's odds are outside, and the lesson says so
        odds_low, odds_high = (1 - high / 100) / (high / 100), (1 - low / 100) / (low / 100)
        assert not odds_low <= BOOKLET[size] <= odds_high
        assert f"the booklet's {BOOKLET[size]} : 1" in printed and "outside" in printed
    low12, high12 = rates[12]
    assert (1 - high12) / high12 <= NORVIG_12 <= (1 - low12) / low12, "Norvig's 30 : 1 agrees"
    assert 0.03 < low12 < high12 < 0.035 and "about 3.2% for 12 cards" in prose
    assert 0.0001 < rates[15][0] < rates[15][1] < 0.001 and "a few in ten thousand for 15" in prose
    assert "33 : 1" in prose and "2500 : 1" in prose and "about 30 : 1" in prose


def test_lesson_13_the_odds_in_play(lesson):
    printed, prose = lesson("13_odds_in_a_real_game")
    game, game_low, game_high = numbers(
        r"12 cards in play:\s+([\d.]+)%\s+\(95% interval ([\d.]+)% to ([\d.]+)%\)", printed
    )
    rand, rand_low, rand_high = numbers(
        r"dealt at random:\s+([\d.]+)%\s+\(95% interval ([\d.]+)% to ([\d.]+)%\)", printed
    )
    assert rand_high < game_low, "the intervals of play and random deals are apart"
    assert 3.0 < rand_low < rand_high < 3.5, "random deals agree with lesson 12"
    _, play15_low, play15_high = numbers(
        r"15 cards in play: ([\d.]+)%\s+\(95% interval ([\d.]+)% to ([\d.]+)%\)", printed
    )
    _, cond_low, cond_high = numbers(
        r"the first 12 without a SET: ([\d.]+)%\s+\(([\d.]+)% to ([\d.]+)%\)", printed
    )
    assert play15_low <= cond_high and cond_low <= play15_high and "agree within their intervals" in prose
    (ratio,) = numbers(r"has no SET ([\d.]+) times as often", printed)
    assert ratio == pytest.approx(game / rand, abs=0.06) and round(ratio) == 2 and "about twice" in prose
    expected9, left9, half = numbers(
        r"C\(9, 3\)/79 = ([\d.]+)\n"
        r"SETs among the 9 left after a SET is taken: ([\d.]+) \(95% interval ±([\d.]+)\)",
        printed,
    )
    assert expected9 == round(84 / 79, 3) and left9 + half < 84 / 79, "the nine left are poorer in SETs"
    first, first_low, first_high = numbers(
        r"first found : 12 cards without a SET ([\d.]+)% \(([\d.]+)% to ([\d.]+)%\)", printed
    )
    other, other_low, other_high = numbers(
        r"random SET  : 12 cards without a SET ([\d.]+)% \(([\d.]+)% to ([\d.]+)%\)", printed
    )
    assert first == game and first_high < other_low, "a random SET leaves slightly more tables without one"
    assert other / rand > 1.8
    shares = dict(
        (int(n), float(share))
        for n, share in re.findall(r"^\s*(\d+) cards left:\s+([\d.]+)%", printed, re.MULTILINE)
    )
    assert all(n % 3 == 0 for n in shares) and sum(shares.values()) == pytest.approx(100, abs=0.05)
    assert sorted(shares, key=shares.get)[-2:] == [9, 6] and "6 or 9 cards" in prose
    per_game, once_in = numbers(
        r"a game sees ([\d.]+) tables of 15 on average, and a table of 18 once in (\d+) games", printed
    )
    assert per_game > 1 and "more than one on average" in prose and once_in > 10


def test_lesson_14_the_largest_caps(lesson):
    printed, prose = lesson("14_caps")
    assert re.search(r"a line of 3 cards: largest cap 2: .* SET-free: True", printed)
    assert re.search(r"a plane of 9 cards: largest cap 4: .* SET-free: True", printed)
    assert f"{math.comb(9, 5)} choices of 5 cards; SET-free: 0" in printed
    assert "C(5, 2) = 10 pairs" in prose and "4 × 2 = 8" in prose
    assert f"largest cap in the mini deck: {LARGEST_CAP[3]} cards; SET-free: True" in printed
    assert "SET-free tables of 10 red cards: 0" in printed and MINI_SET_FREE[10] == 0
    # AG(3, 3): 39 planes, 13 directions of planes and of lines, each line direction in 4 of them.
    assert "39 planes in the cube, in 13 families of 3 parallel planes" in printed
    assert "13 directions of lines; each lies in 4 families" in printed
    assert f"4 x C(10, 2) = {4 * 45} pairs" in printed and f"13 x 13 = {13 * 13}: impossible" in printed
    assert "4 × 45 = 180" in prose and "13 × 13 = 169" in prose
    assert f"{LARGEST_CAP[4]} cards; SET-free: True" in printed
    assert "of the 61 other cards, 61 make a SET with the twenty" in printed
    assert "random tables of 21 cards; without a SET: 0" in printed
    for n, cap in LARGEST_CAP.items():
        assert f"| {n} | {3**n} | {cap} |" in prose
        assert re.search(rf"n = {n}: largest cap\s+{cap} of\s+{3**n} cards =\s+{cap / 3**n:.1%}", printed)
    assert "Pellegrino" in prose and "2.756ⁿ" in prose and "Ellenberg" in prose and "Croot" in prose
    assert np.isclose(
        (2.756 / 3) ** 100,
        float(numbers(r"n = 100: the bound's share is ([\d.e+-]+)", printed)[0]),
        rtol=0.05,
    )
