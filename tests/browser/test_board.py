"""The Board in a real JupyterLab: the cards on the canvas, clicks on them, claims, a new game.

The notebook deals ``Game(seed=SEED)``. The test process deals the same seeded
game into a Board of its own (widgets run without a browser) and plays the same
moves on it, so it knows which card is where, which three form a SET, and what
the status and score lines must say; the browser must show exactly that.
"""

from __future__ import annotations

import itertools

import pytest

from setwidgets import Game, explain, is_set
from setwidgets.widgets import Board

from . import boardpage
from .boardpage import TABLE, BoardPage, open_board
from .harness import python_cells
from .painted import CLASSIC, Still, around, assert_card_shown, assert_frames, card_background_share

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser

SEED = 3
NO_SET_SEED = next(seed for seed in range(1000) if not Game(seed=seed).sets_on_table())
"""The first seed whose 12 dealt cards hold no SET."""


@pytest.fixture
def board(notebook_page) -> BoardPage:
    # The kernel dealt what the test process dealt, and lays the cards out in the same places.
    return open_board(notebook_page, SEED)


def test_the_dealt_cards_are_painted_where_the_game_puts_them(board: BoardPage) -> None:
    nb = board.nb
    assert len(board.rects) == 12
    board.assert_table_shown()
    still = Still(nb, board.canvas)  # the canvas read once for the checks below
    for position, rect in enumerate(board.rects):
        assert card_background_share(still, board.canvas, rect) > 0.3, (
            f"card {position} has no white card under it"
        )
    assert still.count_color(board.canvas, TABLE) > 10_000, "the table color should show between the cards"
    assert_frames(still, board.canvas, board.rects, {})
    assert board.status() == board.twin.status
    assert board.scores() == "You 0"
    # The rules in force, in the variant's own words, above the table.
    rules = nb.text(".setw-board .setw-rules")
    assert rules == board.twin.rules and rules.startswith("Rules: standard. No turns;")
    nb.screenshot("board-01-dealt")

    before = nb.digest(board.canvas)
    board.click_button("New game")
    nb.wait_changed(board.canvas, before)
    nb.wait_text(".setw-board .setw-status", "New game (seed")
    assert board.status() == board.twin.status
    board.assert_table_shown()
    nb.screenshot("board-02-new-game")


def test_clicking_a_set_scores_a_point_and_deals_new_cards(board: BoardPage) -> None:
    nb, canvas, twin = board.nb, board.canvas, board.twin
    sets = twin.game.sets_on_table()
    assert sets, f"the seed {SEED} should deal a table with a SET"
    positions = [twin.game.table.index(card) for card in sets[0]]
    before = board.digests()

    for count, position in enumerate(positions[:2], start=1):
        board.click(position)
        selected = CLASSIC.highlights["selected"][0]
        nb.wait_color(canvas, selected, around(board.rects[position]), min_pixels=100)
        assert twin.selected == positions[:count]
    assert_frames(Still(nb, canvas), canvas, board.rects, dict.fromkeys(positions[:2], "selected"))
    nb.screenshot("board-03-two-selected")

    old_status = board.status()
    board.click(positions[2])
    assert twin.game.players[0].score == 1, f"the twin should have scored: {twin.status}"
    # The taken SET is framed for a moment on the old table, then the new cards replace it.
    found = CLASSIC.highlights["found"][0]
    nb.wait_color(canvas, found, around(board.rects[positions[2]]), min_pixels=100, timeout=5)
    nb.screenshot("board-04-set-found")
    nb.wait_color(canvas, found, None, min_pixels=0)
    status = nb.wait_text(".setw-board .setw-status", differs_from=old_status)
    assert status == twin.status
    assert str(explain(*sets[0])) in status  # "A SET: all different numbers, same color, ..."
    assert board.scores(twin.scores) == twin.scores == "You 1"

    after = board.digests()
    for position in range(12):
        if position in positions:
            assert after[position] != before[position], f"card {position} was taken but still looks the same"
        else:
            assert after[position] == before[position], f"card {position} was not taken but was repainted"
    board.assert_table_shown()
    assert_frames(Still(nb, canvas), canvas, board.rects, {})
    nb.screenshot("board-05-set-taken")


def test_three_cards_that_are_not_a_set_get_the_magic_rule_sentence(board: BoardPage) -> None:
    nb, canvas, twin = board.nb, board.canvas, board.twin
    table = twin.game.table
    # The first three positions that are not a SET, preferring a single broken feature.
    triples = [t for t in itertools.combinations(range(12), 3) if not is_set(*(table[p] for p in t))]
    positions = min(triples, key=lambda t: len(explain(*(table[p] for p in t)).broken))
    verdict = explain(*(table[p] for p in positions))

    old_status = board.status()
    for position in positions:
        board.click(position)
    status = nb.wait_text(".setw-board .setw-status", "Not a SET", differs_from=old_status)
    assert str(verdict) in status
    assert " and one " in str(verdict), "the sentence should be in the magic-rule form"
    assert status == twin.status
    assert board.scores(twin.scores) == twin.scores == "You -1 (0 SETs, 1 penalty)"

    # The odd card out is framed, the cards stay, the selection is gone.
    odd = {positions[f.odd_index] for f in verdict.broken}
    assert twin.highlights == dict.fromkeys(odd, "odd")
    nb.wait_color(canvas, CLASSIC.highlights["odd"][0], around(board.rects[min(odd)]), min_pixels=100)
    still = Still(nb, canvas)  # the canvas read once for the checks below
    assert_frames(still, canvas, board.rects, twin.highlights)
    for position, card in enumerate(table):
        if position not in odd:
            assert_card_shown(still, canvas, board.rects[position], card, where=f"card {position}")
    nb.screenshot("board-06-not-a-set")


def test_no_set_here_on_a_table_without_a_set_paints_three_more_cards(notebook_page) -> None:
    board = open_board(notebook_page, NO_SET_SEED)
    nb, canvas, twin = board.nb, board.canvas, board.twin
    assert not twin.game.sets_on_table(), f"the seed {NO_SET_SEED} should deal a table without a SET"
    before, size, old_status = board.digests(), nb.canvas_size(canvas), board.status()

    board.click_button("No SET here")
    assert len(twin.game.table) == 15, f"the twin should have dealt three more: {twin.status}"
    status = board.wait_status(old_status, "3 more were dealt")
    assert status == twin.status == "No SET among 12 cards: 3 more were dealt."
    assert nb.wait_text(".setw-board .setw-deck", "Deck: 66 cards") == "Deck: 66 cards"

    # One more column: the canvas widens, the twelve cards stay as they were, three new ones are painted.
    width, height = board.wait_size()
    assert width > size[0] and height == size[1]
    assert len(board.rects) == 15
    for position in range(12, 15):
        nb.wait_painted(canvas, board.rects[position], min_pixels=500, background=TABLE)
    board.assert_table_shown()
    assert board.digests()[:12] == before, "the twelve cards already dealt should look the same"
    assert_frames(Still(nb, canvas), canvas, board.rects, {})
    nb.screenshot("board-07-no-set-dealt-three")


def test_a_board_dealt_from_its_constructor_shows_the_variants_rules(notebook_page) -> None:
    cells = python_cells(
        """
        from setwidgets.widgets import Board

        Board(variant="competition", players=["Ana", "Ben", "Cleo"], seed=5)
        """
    )
    nb = notebook_page("board_competition.ipynb", cells)
    twin = Board(variant="competition", players=["Ana", "Ben", "Cleo"], seed=5)
    canvas = nb.canvas(".setw-board canvas")
    nb.wait_painted(canvas, min_pixels=10_000, background=TABLE)
    rules = nb.text(".setw-board .setw-rules")
    assert rules == twin.rules
    assert "No SET among 15" in rules and "served in the order they called" in rules
    assert nb.text(".setw-board .setw-scores") == "Ana 0 · Ben 0 · Cleo 0"
    nb.screenshot("board-08-competition-rules", selector=".setw-board")


def test_no_set_here_on_a_table_with_a_set_says_so_and_changes_nothing(board: BoardPage) -> None:
    nb, canvas, twin = board.nb, board.canvas, board.twin
    assert twin.game.sets_on_table(), f"the seed {SEED} should deal a table with a SET"
    before, size, old_status = nb.digest(canvas), nb.canvas_size(canvas), board.status()

    board.click_button("No SET here")
    status = board.wait_status(old_status, "keep looking")
    assert status == twin.status and status.endswith("on the table; keep looking.")
    assert len(twin.game.table) == 12
    # The kernel redraws after every input; give that picture time to arrive, then compare.
    nb.page.wait_for_timeout(500)
    assert nb.canvas_size(canvas) == size and nb.digest(canvas) == before, "nothing should be repainted"
    assert nb.text(".setw-board .setw-deck") == "Deck: 69 cards"
    board.assert_table_shown()
