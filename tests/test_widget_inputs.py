"""Every input a widget takes, tried with the wrong kind and the wrong value.

Each bad input must raise TypeError (wrong kind) or ValueError (right kind,
wrong value; GameError is one), with a message short enough to read (the
input quoted in short), and it must leave the widget and its game as they
were. Numpy integers are whole numbers everywhere, as in the core.
"""

from __future__ import annotations

import decimal
import fractions
import math
import random
import re
import warnings

import numpy as np
import pytest
from conftest import Clock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setwidgets import Bot, Game
from setwidgets.game import MAX_PLAYERS
from setwidgets.widgets import Board, CardPicker, CardTable, MagicRuleChecker, ThirdCardExplorer

LONGEST_MESSAGE = 300
FIVE = ["1RSO", "2RSO", "3RSO", "1GSO", "2GSO"]


class BrokenRepr:
    """An object whose own repr fails: a message must still quote it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def nested(depth: int) -> list:
    """A list in a list in a list ... (a message must not recurse into it)."""
    inner: list = []
    for _ in range(depth):
        inner = [inner]
    return inner


# Wrong for every input below, whatever it expects: not a number, a name, a key, a card or a function.
WRONG_KIND = [
    True,
    False,
    b"1RSO",
    bytearray(b"q"),
    [None] * 10**5,
    list(range(10**5)),
    {"1": [None] * 10**5},
    object(),
    BrokenRepr(),
    nested(3000),
    complex(1, 2),
    decimal.Decimal("2"),
    np.array([1, 2]),
]
# Wrong where a whole number belongs (a position, a count, a width, a seed).
NOT_WHOLE = [
    None,
    2.0,
    np.float64(2.0),
    2.5,
    math.nan,
    math.inf,
    -math.inf,
    fractions.Fraction(1, 2),
    "2",
    "x" * 10**5,
]
OUT_OF_RANGE = [-1, -(10**100), 10**100, 10**400, np.int64(-1), np.int64(2**62)]
NOT_A_FUNCTION = [None, 1, "print", "x" * 10**5]
NOT_CARDS = [None, 1, 2.0, "1RSﬆ", "1RSß", "x" * 10**5, ["x" * 10**5], [1, 2, 3], ["1RSO"] * 10**4]
NOT_A_THEME = [None, 1, 2.0, "neon", "x" * 10**5]
WIDTHS = [*NOT_WHOLE[1:], -1, 0, 99, 10_001, 10**100, 10**400, np.int64(20)]
# Huge whole floats are quoted in short, not written out in full.
HUGE_FLOATS = [1e300]


def ids(values):
    from setwidgets._inputs import short

    # Without the memory address a default repr holds ("at 0x7f..."): pytest-xdist's workers
    # must collect the same names.
    return [re.sub(r" at 0x[0-9a-f]+", "", short(v))[:40] for v in values]


def refused(call, state, value) -> None:
    """``call(value)`` raises TypeError or ValueError with a short message, and ``state()`` stays."""
    before = state()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning (such as a failing game listener) is a failure too
        with pytest.raises((TypeError, ValueError)) as caught:
            call(value)
    # Only the two kinds of the policy: not an OverflowError or RecursionError dressed as something else.
    assert type(caught.value) in (TypeError, ValueError) or type(caught.value).__name__ == "GameError"
    message = str(caught.value)
    assert len(message) < LONGEST_MESSAGE, f"{len(message)} characters: {message[:200]}..."
    assert message.strip(), "a message says what was wrong"
    assert state() == before, f"refusing {message!r} changed the state"


# -- the widgets and what their state is --------------------------------------------------------------


def board_state(board: Board):
    return lambda: (
        board.game.to_json(),
        board.status,
        board.selected,
        board.highlights,
        board.theme,
        board.player,
        board.bot_player,
        dict(board.call_keys),
        board.canvas.layout.max_width,
    )


def table_state(table: CardTable):
    return lambda: (table.cards, table.picked, table.columns, table.picks, table.theme, len(table._picks))


def checker_state(checker: MagicRuleChecker):
    return lambda: (
        checker.cards,
        checker.text,
        checker.theme,
        checker.table and table_state(checker.table)(),
    )


def explorer_state(explorer: ThirdCardExplorer):
    return lambda: (explorer.cards, explorer.text, explorer.theme)


def picker_state(picker: CardPicker):
    return lambda: (picker.card, picker.description, len(picker._changes))


@pytest.fixture
def board(clock):
    game = Game(players=["Ana", "Ben"], seed=3, clock=clock)
    b = Board(game, keys={"1": 0, "2": "Ben"}, clock=clock)
    b.select(0)  # one card already selected: a refused input must keep it
    yield b
    b.close()


@pytest.fixture
def bot_board(clock):
    b = Board(Game(players=["You", "Computer"], seed=4, clock=clock), bot=Bot(rng=1), clock=clock)
    yield b
    b.close()


@pytest.fixture
def table():
    t = CardTable(FIVE)
    t.pick(1)
    return t


# -- methods ------------------------------------------------------------------------------------------

POSITIONS = [*WRONG_KIND, *NOT_WHOLE, *OUT_OF_RANGE, "q", 12]
KEYS = [*WRONG_KIND, None, 2, np.int64(2), 2.0]
COORDINATES = [*WRONG_KIND, None, "1", "x" * 10**5]
PLAYERS = [*WRONG_KIND, 2.0, 2.5, math.nan, -1, 2, 10**100, np.int64(5), "Nobody", "x" * 10**5]
SEEDS = [*WRONG_KIND, 2.0, 2.5, math.nan, "1", "x" * 10**5]


@pytest.mark.parametrize("value", POSITIONS, ids=ids(POSITIONS))
def test_board_select_refuses(board, value):
    refused(board.select, board_state(board), value)


@pytest.mark.parametrize("value", KEYS, ids=ids(KEYS))
def test_board_press_refuses(board, value):
    refused(board.press, board_state(board), value)


@pytest.mark.parametrize("value", COORDINATES, ids=ids(COORDINATES))
def test_board_click_refuses(board, value):
    refused(lambda v: board.click(v, 10), board_state(board), value)
    refused(lambda v: board.click(10, v), board_state(board), value)


@pytest.mark.parametrize("value", PLAYERS, ids=ids(PLAYERS))
def test_board_call_refuses(board, value):
    refused(board.call, board_state(board), value)


@pytest.mark.parametrize("value", SEEDS, ids=ids(SEEDS))
def test_board_new_game_refuses(board, value):
    refused(board.new_game, board_state(board), value)


@pytest.mark.parametrize("value", POSITIONS, ids=ids(POSITIONS))
def test_table_pick_refuses(table, value):
    refused(table.pick, table_state(table), value)


@pytest.mark.parametrize("value", KEYS, ids=ids(KEYS))
def test_table_press_refuses(table, value):
    refused(table.press, table_state(table), value)


@pytest.mark.parametrize("value", COORDINATES, ids=ids(COORDINATES))
def test_table_click_refuses(table, value):
    refused(lambda v: table.click(v, 10), table_state(table), value)


FUNCTIONS = [*WRONG_KIND, *NOT_A_FUNCTION]


@pytest.mark.parametrize("value", FUNCTIONS, ids=ids(FUNCTIONS))
def test_table_on_pick_and_picker_on_change_refuse(table, value):
    refused(table.on_pick, table_state(table), value)
    picker = CardPicker()
    refused(picker.on_change, picker_state(picker), value)


@pytest.mark.parametrize(
    "value", [*WRONG_KIND[:4], *NOT_CARDS[:6]], ids=ids([*WRONG_KIND[:4], *NOT_CARDS[:6]])
)
def test_table_show_picked_refuses(table, value):
    refused(table.show_picked, table_state(table), value)


@pytest.mark.parametrize("value", [*WRONG_KIND, *NOT_CARDS], ids=ids([*WRONG_KIND, *NOT_CARDS]))
def test_checker_explorer_and_picker_setters_refuse(value):
    checker, over_table = MagicRuleChecker(), MagicRuleChecker(table=FIVE)
    explorer, picker = ThirdCardExplorer(), CardPicker("2GTS")
    for c in (checker, over_table):
        refused(c.set_cards, checker_state(c), value)
        refused(lambda v, c=c: setattr(c, "cards", v), checker_state(c), value)
        refused(lambda v, c=c: c.set_cards(v, v, v), checker_state(c), value)
    refused(explorer.set_cards, explorer_state(explorer), value)
    refused(lambda v: explorer.set_cards("1RSO", v), explorer_state(explorer), value)
    refused(lambda v: setattr(picker, "card", v), picker_state(picker), value)


# -- constructors --------------------------------------------------------------------------------------


def nothing():
    return None


BOARD_OPTIONS = {
    "theme": [*WRONG_KIND, *NOT_A_THEME[1:]],
    "bot": [*WRONG_KIND, 1, "expert", "x" * 10**5],
    "keys": [*WRONG_KIND, 1, "1", {"q": 0}, {"": 0}, {1: 0}, {"1": "Nobody"}, {"1": 2.0}, {"1": 10**100}],
    "width": [*WRONG_KIND, *WIDTHS],
    "player": PLAYERS,
    "bot_player": [*WRONG_KIND, 0, "Ana", np.int64(1)],  # no bot: a seat for nobody
    "clock": [*WRONG_KIND, 1, "x" * 10**5, lambda: "noon", lambda: math.nan, lambda: None],
    "loop": [*WRONG_KIND, 1, "loop", 2.0],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in BOARD_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in BOARD_OPTIONS.items() for i in ids(vs)],
)
def test_a_board_refuses_bad_options_and_leaves_the_game_alone(clock, option, value):
    game = Game(players=["Ana", "Ben"], seed=3, clock=clock)
    refused(lambda v: Board(game, **{option: v}), game.to_json, value)
    # A refused board does not listen to the game: a move made now warns of no failing listener.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game.call(0)


@pytest.mark.parametrize("value", [*WRONG_KIND, 1, "x" * 10**5], ids=ids([*WRONG_KIND, 1, "x" * 10**5]))
def test_a_board_shows_only_a_game(value):
    refused(Board, nothing, value)


def test_a_board_with_a_bot_refuses_bad_seats(clock):
    game = Game(players=["You", "Computer"], seed=4, clock=clock)
    for option, values in {"bot_player": PLAYERS, "player": [*PLAYERS, "Computer", 1]}.items():
        for value in values:
            refused(lambda v, option=option: Board(game, bot=Bot(), **{option: v}), game.to_json, value)


TABLE_OPTIONS = {
    "cards": [*WRONG_KIND, *NOT_CARDS, [], FIVE * 2, "1RSO " * 27],
    "columns": [*WRONG_KIND, *NOT_WHOLE[1:], *OUT_OF_RANGE, 0, 6],
    "picks": [*WRONG_KIND, *NOT_WHOLE, *OUT_OF_RANGE, 0, 6],
    "theme": [*WRONG_KIND, *NOT_A_THEME],
    "width": [*WRONG_KIND, *WIDTHS],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in TABLE_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in TABLE_OPTIONS.items() for i in ids(vs)],
)
def test_a_card_table_refuses_bad_options(option, value):
    options = {"cards": FIVE, option: value}
    refused(lambda _: CardTable(**options), nothing, value)


CHECKER_OPTIONS = {
    "cards": [*WRONG_KIND, *NOT_CARDS[1:], "1RSO 2GTS"],
    "table": [*WRONG_KIND, *NOT_CARDS[1:], "1RSO 2GTS"],
    "columns": [*WRONG_KIND, *NOT_WHOLE[1:], *OUT_OF_RANGE, 0, 6],
    "theme": [*WRONG_KIND, *NOT_A_THEME],
    "width": [*WRONG_KIND, *WIDTHS],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in CHECKER_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in CHECKER_OPTIONS.items() for i in ids(vs)],
)
def test_a_checker_refuses_bad_options(option, value):
    options = {"table": FIVE} if option == "columns" else {}
    refused(lambda v: MagicRuleChecker(**options, **{option: v}), nothing, value)
    if option == "columns" and value is not None:
        refused(lambda v: MagicRuleChecker(columns=v), nothing, value)  # columns= needs table=


EXPLORER_OPTIONS = {
    "a": [*WRONG_KIND, 1, 2.0, "1RSﬆ", "x" * 10**5, "1RSO 2GTS 3POD", ["1RSO"]],
    "b": [*WRONG_KIND, 1, 2.0, "1RSﬆ", "x" * 10**5, "1RSO 2GTS"],
    "theme": [*WRONG_KIND, *NOT_A_THEME],
    "width": [*WRONG_KIND, *WIDTHS],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in EXPLORER_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in EXPLORER_OPTIONS.items() for i in ids(vs)],
)
def test_an_explorer_refuses_bad_options(option, value):
    refused(lambda v: ThirdCardExplorer(**{option: v}), nothing, value)


@pytest.mark.parametrize("value", [*WRONG_KIND, *NOT_CARDS], ids=ids([*WRONG_KIND, *NOT_CARDS]))
def test_a_picker_refuses_bad_cards_and_descriptions(value):
    refused(lambda v: CardPicker(card=v), nothing, value)
    if not isinstance(value, str):
        refused(lambda v: CardPicker(description=v), nothing, value)


# -- what is known to be left: in setwidgets/_inputs.py, whose owner is told ----------------------------


@pytest.mark.parametrize("value", HUGE_FLOATS)
def test_a_huge_whole_float_is_quoted_in_short(table, value):
    refused(table.pick, table_state(table), value)


class ManyCards:
    """A sized iterable of a million codes that counts how many of them were read."""

    def __init__(self) -> None:
        self.read = 0

    def __len__(self) -> int:
        return 10**6

    def __iter__(self):
        for _ in range(len(self)):
            self.read += 1
            yield "1RSO"


def test_too_many_cards_are_refused_without_reading_them_all():
    explorer, many = ThirdCardExplorer(), ManyCards()
    # set_cards(range(10**12)) would fill the memory before saying "exactly two cards".
    with pytest.raises(TypeError, match="needs exactly two cards"):
        explorer.set_cards(many)
    assert many.read <= 3


# -- numpy numbers are numbers ---------------------------------------------------------------------------


def test_numpy_whole_numbers_are_taken_everywhere(clock):
    n = np.int64
    game = Game(players=["Ana", "Ben"], seed=n(3), clock=clock)
    board = Board(game, keys={"1": n(0), "2": np.int32(1)}, width=n(600), player=n(0), clock=clock)
    assert board.canvas.layout.max_width == "600px" and board.call_keys["2"] == 1
    assert board.select(np.uint8(0)) is None and board.selected == [0]
    assert board.call(n(1)) and game.caller == 1
    x, y, w, h = board.card_rects[1]
    assert board.click(np.float32(x + w / 2), n(int(y + h / 2))) == 1
    assert board.new_game(n(7)).seed == 7
    board.close()
    rival = Game(players=["You", "Computer"], seed=4, clock=clock)
    assert Board(rival, bot=Bot(rng=1), bot_player=n(1), clock=clock).bot_player == 1
    table = CardTable(FIVE, columns=n(2), picks=n(2), width=n(300))
    assert table.columns == 2 and type(table.columns) is int and table.picks == 2
    assert table.pick(n(4)) is None and table.pick(np.int16(3)) == [table.cards[4], table.cards[3]]
    checker = MagicRuleChecker(table=FIVE, columns=n(5), width=n(400))
    assert checker.table.columns == 5
    assert ThirdCardExplorer(width=np.int32(500))._max_width == 500


def test_the_messages_say_how_to_write_a_whole_number(board, table):
    with pytest.raises(TypeError, match=r"^position must be a whole number like 0 \(the top-left card\); "):
        board.select(np.float64(2.0))
    with pytest.raises(TypeError, match="write 3, without the '.0'$"):
        CardTable(FIVE, columns=3.0)
    with pytest.raises(
        TypeError, match=r"^width \(the largest width in pixels\) must be a whole number like 600"
    ):
        Board(board.game, width=600.0)
    with pytest.raises(
        ValueError, match=r"^width \(the largest width in pixels\) must be at most 10000; got 1000+\.\.\.0+$"
    ):
        CardTable(FIVE, width=10**400)
    with pytest.raises(ValueError, match="^columns must be from 1 to 5, the number of cards shown; got 6$"):
        CardTable(FIVE, columns=6)
    with pytest.raises(TypeError, match=r"^bot_player= is the computer's seat; give the computer too"):
        Board(board.game, bot_player=1)
    with pytest.raises(
        TypeError, match=r"^click\(\) takes canvas coordinates.*; got True \(True or False\)$"
    ):
        table.click(True, 3)
    with pytest.raises(
        TypeError, match=r"^clock must return the time in seconds, a number; it returned 'noon'"
    ):
        Board(board.game, clock=lambda: "noon")
    with pytest.raises(
        TypeError, match=r"^loop must be an asyncio event loop, or None for the kernel's; got 1 "
    ):
        Board(board.game, loop=1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.none(),
        st.booleans(),
        st.floats(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.text(max_size=300),
        st.binary(max_size=50),
        st.lists(st.integers(), max_size=30),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    )
)
def test_any_position_or_key_is_answered_clearly(value):
    """Whatever reaches pick, press or click: it works, or it is refused by the policy, and nothing breaks."""
    table = CardTable(FIVE)
    for call in (table.pick, table.press, lambda v: table.click(v, v)):
        before = table.picked
        try:
            call(value)
        except (TypeError, ValueError) as error:
            assert type(error) in (TypeError, ValueError) and len(str(error)) < LONGEST_MESSAGE
            assert table.picked == before


def test_a_seeded_board_replays_its_series_of_games():
    # new_game draws its seeds from the first game's seed, not the global generator.
    state = random.getstate()
    first = Board(Game(seed=np.int64(5), clock=Clock()))
    second = Board(Game(seed=5, clock=Clock()))
    assert [first.new_game().seed for _ in range(3)] == [second.new_game().seed for _ in range(3)]
    assert random.getstate() == state


# -- the puzzle board, the puzzle and the Board's own game ------------------------------------------------


def puzzle_state(board):
    return lambda: (
        board.puzzle.cards,
        list(board.puzzle.found),
        board.puzzle.misses,
        board.status,
        board.selected,
        len(board.record),
    )


@pytest.fixture
def puzzle_board(clock):
    from setwidgets.widgets import PracticeRecord, PuzzleBoard

    b = PuzzleBoard(seed=3, record=PracticeRecord(), clock=clock)
    b.select(0)  # one card already selected: a refused input must keep it
    yield b
    b.close()


@pytest.mark.parametrize("value", POSITIONS, ids=ids(POSITIONS))
def test_puzzle_board_select_refuses(puzzle_board, value):
    refused(puzzle_board.select, puzzle_state(puzzle_board), value)


@pytest.mark.parametrize("value", KEYS, ids=ids(KEYS))
def test_puzzle_board_press_refuses(puzzle_board, value):
    refused(puzzle_board.press, puzzle_state(puzzle_board), value)


@pytest.mark.parametrize("value", COORDINATES, ids=ids(COORDINATES))
def test_puzzle_board_click_refuses(puzzle_board, value):
    refused(lambda v: puzzle_board.click(v, 10), puzzle_state(puzzle_board), value)


@pytest.mark.parametrize("value", SEEDS, ids=ids(SEEDS))
def test_puzzle_board_new_board_refuses(puzzle_board, value):
    refused(puzzle_board.new_board, puzzle_state(puzzle_board), value)


CLAIMS = [*WRONG_KIND, *NOT_CARDS, "1RSO 2RSO", "1RSO 1RSO 1RSO"]


@pytest.mark.parametrize("value", CLAIMS, ids=ids(CLAIMS))
def test_a_puzzle_claim_refuses(puzzle_board, value):
    puzzle = puzzle_board.puzzle
    refused(puzzle.claim, lambda: (list(puzzle.found), puzzle.misses), value)


PUZZLE_OPTIONS = {
    "seed": SEEDS,
    "sets": [*WRONG_KIND, *NOT_WHOLE[1:], *OUT_OF_RANGE, 0, 67],
    "theme": [*WRONG_KIND, *NOT_A_THEME],
    "width": [*WRONG_KIND, *WIDTHS],
    "record": [*WRONG_KIND, 1, "x" * 10**5, []],
    "clock": [*WRONG_KIND, 1, "x" * 10**5, lambda: "noon", lambda: math.nan, lambda: None],
    "loop": [*WRONG_KIND, 1, "loop", 2.0],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in PUZZLE_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in PUZZLE_OPTIONS.items() for i in ids(vs)],
)
def test_a_puzzle_board_refuses_bad_options(clock, option, value):
    from setwidgets.widgets import PuzzleBoard, session_record

    options = {"clock": clock, option: value}
    before = len(session_record())
    refused(lambda v: PuzzleBoard(**options), lambda: len(session_record()) == before, value)


PUZZLE_CARDS = [*WRONG_KIND, *NOT_CARDS[1:], [], "1RSO 2RSO 1GSO", "1RSO 2RSO 3RSO 1RSO"]


@pytest.mark.parametrize("value", PUZZLE_CARDS, ids=ids(PUZZLE_CARDS))
def test_a_puzzle_refuses_bad_cards(clock, value):
    from setwidgets.widgets import Puzzle

    refused(lambda v: Puzzle(v, clock=clock), nothing, value)


@pytest.mark.parametrize(
    "value", [*WRONG_KIND, *NOT_WHOLE, 2, 21, 10**100], ids=ids([*WRONG_KIND, *NOT_WHOLE, 2, 21, 10**100])
)
def test_a_puzzle_refuses_bad_sizes(clock, value):
    from setwidgets.widgets import Puzzle

    refused(lambda v: Puzzle(seed=1, size=v, clock=clock), nothing, value)


BOARD_GAME_OPTIONS = {
    "variant": [*WRONG_KIND, 1, "chess", "x" * 10**5],
    # (a dict is taken by the game as its keys, the names: not wrong here)
    "players": [
        *(v for v in WRONG_KIND if not isinstance(v, dict)),
        0,
        MAX_PLAYERS + 1,
        "x" * 10**5,
        ["Ana", "ana"],
    ],
    "seed": SEEDS,
    "deck": [*WRONG_KIND, *NOT_CARDS[1:], "tiny"],
}


@pytest.mark.parametrize(
    "option,value",
    [(k, v) for k, vs in BOARD_GAME_OPTIONS.items() for v in vs],
    ids=[f"{k}={i}" for k, vs in BOARD_GAME_OPTIONS.items() for i in ids(vs)],
)
def test_a_board_refuses_bad_settings_for_its_own_game(clock, option, value):
    refused(lambda v: Board(clock=clock, **{option: v}), nothing, value)
