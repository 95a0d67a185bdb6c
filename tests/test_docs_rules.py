"""docs/rules.md, the course's one description of the rules, agrees with the code it names."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import setwidgets

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
TEXT = RULES.read_text(encoding="utf-8")


def _named_in_brackets() -> list[str]:
    """The code names the page gives in brackets, such as `is_set` or `setwidgets.cards.DECK`."""
    names = []
    for inside in re.findall(r"\(([^()]*(?:\(\)[^()]*)*)\)", TEXT):
        for name in re.findall(r"`([^`]+)`", inside):
            names.append(name.removesuffix("()"))
    return names


def _resolve(name: str) -> object:
    """The object a dotted name stands for: a module, or an attribute of one (or of the package)."""
    parts = name.split(".")
    if parts[0] != "setwidgets":
        parts = ["setwidgets", *parts]
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def test_the_page_names_code_in_brackets():
    assert len(_named_in_brackets()) >= 10


@pytest.mark.parametrize("name", _named_in_brackets())
def test_every_name_the_page_gives_exists(name):
    assert _resolve(name) is not None


def test_the_page_lists_exactly_the_engines_variants():
    section = TEXT.split("## The variants the engine plays", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \*\*([a-z]+)\*\*:", section, flags=re.MULTILINE)
    assert tuple(listed) == _resolve("setwidgets.game.variants.VARIANTS")


def test_the_claim_time_the_page_states_is_the_games_default():
    assert "five unless the game says otherwise" in TEXT
    assert setwidgets.Game(seed=1).claim_seconds == 5


def test_the_readme_points_to_the_page():
    assert "docs/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_play_in_and_corrections_rules_match_the_code():
    from setwidgets.competition import Competition, playin

    assert "so it seats at most five players" in TEXT and playin.LARGEST_FINAL == 5
    corrections = TEXT.split("*Corrections.*", 1)[1].split("\n  - ", 1)[0]
    ways = sorted(name for name in dir(Competition) if name.startswith("correct"))
    assert ways == ["correct", "correct_final", "correct_play_in", "correct_tiebreak"]
    for name in ways:
        assert f"`setwidgets.competition.Competition.{name}`" in corrections, name
