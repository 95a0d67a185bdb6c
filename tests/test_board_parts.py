"""The Board's parts, each on its own: its wording, its seats and keys, its letters, its timers.

The wording (:mod:`setwidgets.wording`) is pure: a game in, a sentence out, with no widget.
The scheduler runs on a hand-made event loop whose time is the ``clock``
fixture's, so a test moves time by hand and sees exactly which timers fire.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from setwidgets import Bot, Game, GameError, full_deck, wording
from setwidgets.widgets import Board, CardTable, _keys
from setwidgets.widgets._scheduler import IDLE_SECONDS, TICK_SECONDS, Scheduler
from setwidgets.widgets._view import Lettering, check_position

pytestmark = pytest.mark.usefixtures("not_in_nbgrader")


def deck_of_one_card():
    """A game whose deck holds exactly one card after the deal."""
    game = Game(deck=full_deck()[:13], table_size=12, seed=1)
    assert len(game.deck) == 1, "twelve of these cards hold a SET, so one card is left in the deck"
    return game


# -- the wording -------------------------------------------------------------------------------------


def test_the_first_words_count_the_cards_and_name_the_rival(clock):
    game = Game(players=["You", "Computer"], seed=11, clock=clock)
    assert wording.welcome(game) == "12 cards on the table. Click three cards that form a SET."
    assert wording.welcome(game, "Computer").endswith("form a SET, before Computer does.")
    assert wording.new_game(5, game).startswith("New game (seed 5). 12 cards on the table.")


def test_counted_nouns_agree_with_their_number():
    game = deck_of_one_card()
    assert wording.deck(game) == "Deck: 1 card"
    assert wording.deck(Game(seed=1)) == "Deck: 69 cards"
    penalized = Game(players=["Ana", "Ben"], seed=11)
    table = penalized.table
    wrong = next(
        (a, b, c)
        for a in table
        for b in table
        for c in table
        if len({a, b, c}) == 3 and not penalized.claim((a, b, c), "Ben").ok
    )
    assert wrong and wording.scores(penalized) == "Ana 0 · Ben -1 (0 SETs, 1 penalty)"


def test_the_board_itself_says_deck_1_card(clock):
    board = Board(deck_of_one_card(), clock=clock)
    assert "Deck: 1 card" in board._repr_mimebundle_()["text/plain"].splitlines()
    assert board._deck_widget.value == "Deck: 1 card"
    board.close()


def test_the_timer_line_shows_the_game_time_and_the_callers_seconds(clock):
    game = Game(players=["Ana", "Ben"], seed=11, clock=clock)
    assert wording.timer(game, 75.4) == "Time 01:15"
    game.call("Ben")
    clock.advance(2.2)
    assert wording.timer(game, 2.2) == "Time 00:02 · Ben: 3 s to pick"
    untimed = Game(players=["Ana", "Ben"], seed=11, claim_seconds=None, clock=clock)
    untimed.call(0)
    assert wording.timer(untimed, 0) == "Time 00:00 · Ana is picking"
    assert wording.called(untimed, 0) == "Ana called SET! Pick three cards."
    assert wording.clock_text(-3) == "00:00" and wording.clock_text(3600) == "60:00"


def test_the_next_caller_is_told_how_long_is_left(clock):
    game = Game(players=["Ana", "Ben"], seed=11, clock=clock)
    assert wording.next_caller(game) == "" and wording.after("Done.", game) == "Done."
    game.call("Ana")
    assert wording.called(game, 0) == "Ana called SET! Pick three cards within 5 seconds."
    game.call("Ben")
    clock.advance(5.5)  # Ana's time ran out at 5; Ben's began then
    events = []
    game.on_change(events.append)
    game.expire()
    said = wording.from_events(events, game)
    assert said == "Ana loses a point: no SET shown within 5 seconds. Ben, pick three cards within 5 seconds."
    clock.advance(4.9)
    assert wording.next_caller(game) == "Ben, pick three cards within 1 second."
    assert wording.from_events([], game) is None
    assert wording.from_events([{"type": "hint"}, {"type": "claim", "message": "A."}], game) == "A."


@pytest.mark.parametrize(
    ("shown", "said"),
    [
        (0, "There is no SET among these 12 cards: press “No SET here”."),
        (1, "Hint: the framed card is part of a SET."),
        (2, "Hint: the two framed cards are in a SET. Which card completes it?"),
        (3, "Hint: the three framed cards form a SET."),
    ],
)
def test_a_hint_says_how_much_it_shows(shown, said):
    game = Game(seed=11)
    assert wording.hint(game.sets_on_table()[0][:shown], game) == said


NO_SET_AT_ALL = ["1RSO", "1RSS", "1RTO", "1RTS", "2RSO", "2RSS", "2RTO", "2RTS", "1GSO"]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (["Ana", "Ben"], "Game over: Ana and Ben tie with 0 points. "),
        (["Ana", "Ben", "Cy"], "Game over: Ana, Ben and Cy tie with 0 points. "),
        (["Ana"], "Game over: Ana kept 0 SETs, score 0. "),
    ],
)
def test_the_final_words_after_a_deal_without_any_set(players, said):
    game = Game(deck=NO_SET_AT_ALL, players=players, table_size=9)
    assert game.over and wording.game_over(game) == said + wording.AGAIN


def test_the_final_words_name_the_winner_in_the_singular():
    game = Game(deck=["1RSO", "2RSO", "3RSO"], players=["Ana", "Ben"], table_size=3)
    assert wording.game_over(game) == ""
    game.claim(game.table, "Ben")
    assert wording.game_over(game) == "Game over: Ben wins with 1 point. " + wording.AGAIN
    alone = Game(deck=["1RSO", "2RSO", "3RSO"], table_size=3)
    alone.claim(alone.table)
    assert wording.game_over(alone).startswith("Game over: You kept 1 SET, score 1.")


def test_a_lost_solitaire_game_says_so_and_a_refused_move_then_gives_the_final_words():
    lost = Game(deck=NO_SET_AT_ALL, variant="solitaire", table_size=9)
    assert wording.game_over(lost).startswith(
        "Game over: no SET on the table, so this solitaire game is lost."
    )
    assert wording.refused(GameError("anything"), lost) == wording.game_over(lost)


def test_a_refused_move_reads_as_a_sentence_and_html_is_escaped():
    game = Game(seed=1)
    assert wording.refused(GameError("there is no player 3"), game) == "There is no player 3"
    assert wording.html("<b>&</b>") == "<span>&lt;b&gt;&amp;&lt;/b&gt;</span>"
    assert wording.html("x", "b") == "<b>x</b>"


def test_the_wording_needs_no_jupyter_module():
    code = (
        "import sys\n"
        "from setwidgets import wording\n"
        "assert 'ipywidgets' not in sys.modules and 'ipycanvas' not in sys.modules, sorted(sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


# -- seats and keys -------------------------------------------------------------------------------------


def test_seats_are_the_games_own_numpy_and_names_included():
    game = Game(players=["Ana", "Ben", "Computer"], seed=1)
    assert _keys.bot_seat(game) == 2 and _keys.bot_seat(game, np.int64(0)) == 0
    assert _keys.player_seat(game, None, 2) == 0 and _keys.player_seat(game, "Ben", 2) == 1
    keys = _keys.call_keys(game, {"1": np.int64(0), "2": "Ben", "Space": 1}, player=0)
    assert keys == {" ": 1, "1": 0, "2": 1}
    assert all(type(seat) is int for seat in keys.values())
    board = Board(game, keys={"1": np.int32(1)}, player=np.int64(1), bot=Bot("expert", rng=1))
    assert board.player == 1 and board.call_keys["1"] == 1 and board.bot_player == 2
    assert board.call(np.int64(0)) and game.caller == 0
    board.close()


def test_a_wrong_seat_gets_the_games_message_and_names_the_argument():
    game = Game(players=["Ana", "Ben"], seed=1)
    with pytest.raises(
        GameError, match=r"^the player for key '3': there is no player 5; the players are 0 \(Ana\)"
    ):
        _keys.call_keys(game, {"3": 5}, player=0)
    with pytest.raises(GameError, match="^bot_player: there is no player called 'Cy'"):
        Board(game, bot=Bot(), bot_player="Cy")
    with pytest.raises(TypeError, match=r"^player: a player is given by number or name; got 1.0"):
        Board(game, player=1.0)
    with pytest.raises(TypeError, match="^a key is a string such as '1'; got 1 \\(a number\\)"):
        _keys.call_keys(game, {1: 0}, player=0)
    with pytest.raises(ValueError, match="non-empty"):
        _keys.call_keys(game, {"": 0}, player=0)
    with pytest.raises(ValueError, match="already selects a card"):
        _keys.call_keys(game, {"Q": 0}, player=0)
    board = Board(game)
    with pytest.raises(GameError, match="^player: there is no player 2; the players are"):
        board.call(2)
    assert game.caller is None
    board.close()


# -- letters, on the Board and on a CardTable -----------------------------------------------------------


def test_board_and_card_table_letters_alike():
    board, table = Board(Game(seed=1)), CardTable(full_deck()[:26])
    for widget, first in ((board, ["q", "a", "z", "w"]), (table, ["a", "b", "c", "d"])):
        letters = widget.letters
        assert type(letters) is list and letters[:4] == first
        assert len(letters) == len(widget.card_rects)
        for position, letter in enumerate(letters):
            assert widget.press(letter.upper()), f"{letter} selects position {position}"
            widget.press("escape")
    assert type(Board.letters) is type(CardTable.letters) is property
    # Past the last letter a position has none, the same on both.
    assert Lettering(_keys.KEY_ROWS).letters(22)[-1] is None and _keys.card_letter(21) is None
    assert Lettering(("ab",)).letters(3) == ["a", "b", None]
    with pytest.raises(ValueError, match="position must be at least 0"):
        _keys.card_letter(-1)
    with pytest.raises(TypeError, match="position must be a whole number"):
        _keys.card_letter("q")
    assert _keys.card_letter(np.int64(3)) == "w"
    board.close()


def test_a_position_is_checked_the_same_everywhere():
    cards = full_deck()[:9]
    assert check_position(np.int64(8), cards, "the first card") == 8
    with pytest.raises(ValueError, match="from 0 to 8 \\(a card on the table\\); got 9$"):
        check_position(9, cards, "the first card")
    with pytest.raises(TypeError, match="like 0 \\(the first card\\); got True"):
        check_position(True, cards, "the first card")
    table, board = CardTable(cards), Board(Game(seed=1))
    assert table.pick(np.int64(2)) is None and table.picked == [2]
    assert board.select(np.int64(2)) is None and board.selected == [2]
    board.close()


# -- the scheduler --------------------------------------------------------------------------------------


class Recorder:
    def __init__(self):
        self.moves = 0
        self.ticks = 0
        self.counting_down = False
        self.wanted = True

    def scheduler(self, clock, loop, **options):
        return Scheduler(self.move, self.tick, lambda: self.wanted, clock=clock, loop=loop, **options)

    def move(self):
        self.moves += 1

    def tick(self):
        self.ticks += 1
        return self.counting_down


def test_nothing_runs_before_start_without_a_loop_or_under_nbgrader(clock, loop, monkeypatch):
    asked = []
    r = Recorder()
    s = r.scheduler(clock, loop)
    s.move_in(lambda: asked.append(1) or 1.0)
    s.keep_ticking()
    assert not s.running and loop.waiting == [] and asked == [], "a bot's delay is not drawn in vain"
    s.start()
    assert s.running
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    s.move_in(lambda: 1.0)
    assert not s.running and loop.waiting == []
    monkeypatch.delenv("NBGRADER_EXECUTION")
    loop.closed = True
    assert not s.running
    # Made in a thread of its own: after the browser tests, Playwright keeps a loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        no_loop = pool.submit(Scheduler, r.move, r.tick, lambda: True, clock=clock).result()
    no_loop.start()
    assert no_loop.loop is None and not no_loop.running


def test_the_computer_moves_after_its_delay_and_a_new_delay_replaces_the_old(clock, loop):
    r = Recorder()
    s = r.scheduler(clock, loop)
    s.start()
    s.move_in(lambda: 3.0)
    loop.run(2.9)
    assert r.moves == 0 and s.move_pending
    s.move_in(lambda: 2.0)  # a new table: the computer looks again from the start
    loop.run(1.9)
    assert r.moves == 0
    loop.run(0.2)
    assert r.moves == 1 and not s.move_pending
    s.move_in(lambda: 1.0)
    s.move_in(None)
    loop.run(5)
    assert r.moves == 1


def test_the_clock_ticks_until_the_board_is_idle_unless_a_countdown_runs(clock, loop):
    r = Recorder()
    s = r.scheduler(clock, loop, tick_seconds=TICK_SECONDS, idle_seconds=IDLE_SECONDS)
    s.start()
    s.keep_ticking()
    s.keep_ticking()  # one tick at a time
    loop.run(10)
    assert r.ticks == 20
    loop.run(IDLE_SECONDS)
    assert r.ticks == 2 * IDLE_SECONDS and not s.ticking, "an idle board stops ticking"
    r.counting_down = True
    s.touch()
    s.keep_ticking()
    loop.run(IDLE_SECONDS + 60)
    assert s.ticking, "a running countdown keeps the clock going on an idle board"
    r.wanted = False
    loop.run(1)
    assert not s.ticking
    r.wanted = True
    s.keep_ticking()
    s.stop()
    assert not s.ticking and not s.running and loop.waiting == []


def test_a_board_races_the_computer_and_runs_out_the_callers_time_on_the_loop(clock, loop):
    game = Game(players=["You", "Computer"], seed=4, clock=clock)
    bot = Bot("expert", rng=1)
    board = Board(game, bot=bot, clock=clock, loop=loop)
    loop.run(60)
    assert game.players[1].score == 0, "nobody races a board that no browser shows"
    expected = Bot("expert", rng=1).delay(game.table)
    board.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])
    loop.run(60)
    assert game.players[1].score == 0 and board.waiting, "shown, the board still waits for the student"
    assert board.status.endswith("The clock and Computer start with your first click or key.")
    assert board.timer == "Time 00:00"
    board.press("Escape")  # the student's first key: now the computer looks, and the clock runs
    loop.run(expected - 0.01)
    assert game.players[1].score == 0 and not board.waiting
    loop.run(0.02)
    assert game.players[1].score == 1 and board.status.startswith("Computer keeps a SET")
    board.call()
    loop.run(5 + TICK_SECONDS)  # the first tick after the 5 seconds
    assert game.players[0].penalties == 1, "the ticks ran out your time"
    assert board.status.startswith("You lose a point: no SET shown within 5 seconds.")
    since_the_key = expected + 0.01 + 5 + TICK_SECONDS
    assert board.timer.startswith(f"Time {wording.clock_text(since_the_key)}")
    assert board._timer_widget.value == wording.html(board.timer)
    board.close()
    assert loop.waiting == [], "a closed board leaves no timer behind"


# -- the rules line ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "solitaire", "online", "competition"])
def test_the_rules_line_names_the_variant_and_quotes_its_own_description(variant):
    from setwidgets.game import variants

    players = ["You"] if variant == "solitaire" else ["Ana", "Ben"]
    line = wording.rules(Game(players=players, variant=variant, seed=1))
    assert line.startswith(f"Rules: {variant}. ")
    first_sentence = variants.rules_of(variant).__doc__.strip().split(".")[0]
    assert " ".join(first_sentence.split()) in line
    assert "12 cards on the table" in line
    assert ("served in the order they called" in line) == (len(players) > 1)


def test_the_competition_rules_line_says_what_happens_at_fifteen():
    line = wording.rules(Game(players=2, variant="competition", seed=1))
    assert "No SET among 15" in line and "back into the deck" in line


def test_the_rules_line_gives_the_time_to_pick_or_its_absence():
    assert "after a call, 2 seconds to pick" in wording.rules(Game(players=2, claim_seconds=2, seed=1))
    assert "no time limit to pick" in wording.rules(Game(players=2, claim_seconds=None, seed=1))
    assert "9 cards on the table" in wording.rules(Game(deck="mini", seed=1))


# -- the puzzle and the practice record (pure) ------------------------------------------------------------


def test_a_puzzle_deal_is_seeded_and_holds_the_sets_asked_for(clock):
    from setwidgets import find_sets
    from setwidgets.puzzles import Puzzle

    a, b = Puzzle(seed=8, clock=clock), Puzzle(seed=8, clock=clock)
    assert a.cards == b.cards and len(a.cards) == 12 and a.seed == 8
    assert a.solutions == find_sets(a.cards) and a.solutions
    six = Puzzle(seed=2, sets=6, clock=clock)
    assert len(find_sets(six.cards)) == 6 and six.left == 6
    assert len(Puzzle(seed=2, size=9, clock=clock).cards) == 9
    assert Puzzle(seed=None, clock=clock).seed is not None


def test_a_puzzle_counts_found_repeated_and_missed_claims_and_stops_its_clock(clock):
    from setwidgets.puzzles import Puzzle

    puzzle = Puzzle(seed=3, clock=clock)
    total = len(puzzle.solutions)
    assert total >= 2
    clock.advance(5)
    first = puzzle.claim(puzzle.solutions[0])
    assert first.kind == "found" and first.ok and puzzle.left == total - 1
    assert first.message == f"A SET! {total - 1} SET{'s' if total > 2 else ''} still to find."
    again = puzzle.claim(list(reversed(puzzle.solutions[0])))
    assert again.kind == "again" and not again.ok and puzzle.misses == 0 and puzzle.left == total - 1
    wrong = next(
        (a, b, c)
        for a, b, c in itertools.combinations(puzzle.cards, 3)
        if not any({a, b, c} == set(s) for s in puzzle.solutions)
    )
    miss = puzzle.claim(wrong)
    assert miss.kind == "miss" and puzzle.misses == 1 and miss.message.startswith("Not a SET: ")
    assert miss.message.endswith(" A miss.")
    for triple in puzzle.solutions[1:]:
        clock.advance(10)
        last = puzzle.claim(triple)
    assert puzzle.solved and puzzle.left == 0
    seconds = 5 + 10 * (total - 1)
    assert last.message == f"A SET! That was the last one: solved in {seconds} seconds."
    clock.advance(100)
    assert puzzle.elapsed() == seconds  # the clock stopped at the last SET
    assert puzzle.progress() == f"SETs found: {total} of {total} · 1 miss"


def test_the_puzzle_s_last_message_says_the_seconds_its_clock_shows(clock):
    from setwidgets.puzzles import Puzzle

    puzzle = Puzzle(seed=4, clock=clock)
    for triple in puzzle.solutions:
        clock.advance(6.2)
        last = puzzle.claim(triple)
    shown = wording.clock_text(puzzle.elapsed())
    assert last.message.endswith(f"solved in {int(shown[:2]) * 60 + int(shown[3:])} seconds.")


def test_a_puzzle_refuses_bad_claims_and_counts_nothing(clock):
    from setwidgets.puzzles import Puzzle

    puzzle = Puzzle(seed=3, clock=clock)
    off_table = next(c for c in full_deck() if c not in puzzle.cards)
    on = puzzle.cards
    with pytest.raises(ValueError, match=f"{off_table.code} is not on the table"):
        puzzle.claim(on[0], on[1], off_table)
    with pytest.raises(ValueError, match="three different cards"):
        puzzle.claim(on[0], on[0], on[1])
    with pytest.raises(TypeError, match="exactly three cards"):
        puzzle.claim(on[0], on[1])
    assert puzzle.misses == 0 and puzzle.found == []
    for triple in puzzle.solutions:
        puzzle.claim(triple)
    with pytest.raises(ValueError, match="solved"):
        puzzle.claim(puzzle.solutions[0])


def test_a_puzzle_checks_what_it_is_made_of(clock):
    from setwidgets.puzzles import Puzzle

    with pytest.raises(ValueError, match="at least one SET"):
        Puzzle(["1RSO", "2RSO", "1GSO"], clock=clock)
    with pytest.raises(TypeError, match="either cards="):
        Puzzle(["1RSO", "2RSO", "3RSO"], seed=1, clock=clock)
    with pytest.raises(ValueError, match="from 3 to 20"):
        Puzzle(seed=1, size=21, clock=clock)
    with pytest.raises(ValueError, match="at least 1"):
        Puzzle(seed=1, sets=0, clock=clock)
    with pytest.raises(ValueError, match="at most 1: 3 cards hold no more SETs"):
        Puzzle(seed=1, size=3, sets=2, clock=clock)
    with pytest.raises(ValueError, match="ask for fewer SETs"):
        Puzzle(seed=1, size=4, sets=2, clock=clock)  # two SETs need five cards
    with pytest.raises(TypeError, match="clock"):
        Puzzle(seed=1, clock=5)


def test_the_practice_record_counts_boards_medians_and_misses(clock):
    from setwidgets.puzzles import PracticeRecord, Puzzle

    record = PracticeRecord()
    assert record.summary() == "0 boards solved, no time yet, 0 misses."
    times = []
    for seed, seconds in ((1, 30), (2, 50), (3, 20)):
        puzzle = Puzzle(seed=seed, clock=clock)
        clock.advance(seconds)
        for triple in puzzle.solutions:
            puzzle.claim(triple)
        times.append(seconds)
        record.add(puzzle)
    unfinished = Puzzle(seed=4, clock=clock)
    wrong = next(
        t
        for t in itertools.combinations(unfinished.cards, 3)
        if not any(set(t) == set(s) for s in unfinished.solutions)
    )
    unfinished.claim(wrong)
    unfinished.claim(wrong)
    clock.advance(99)
    record.add(unfinished)
    assert len(record) == 4 and record.solved == 3 and record.misses == 2
    assert record.median_seconds == 30
    assert record.summary() == "3 boards solved, median time 30 seconds, 2 misses."
    assert [a.solved for a in record.attempts] == [True, True, True, False]
    assert record.rows()[3] == (4, len(unfinished.solutions), 0, 99.0, 2, "no")
    table = record.table().splitlines()
    assert table[0].split() == ["board", "SETs", "found", "seconds", "misses", "solved"]
    assert table[-1] == record.summary() and len(table) == 6
    assert "<table>" in record._repr_html_() and "<td>no</td>" in record._repr_html_()
    with pytest.raises(ValueError, match="already in the record"):
        record.add(unfinished)
    with pytest.raises(TypeError, match="records a Puzzle"):
        record.add("1RSO 2RSO 3RSO")
    assert len(record) == 4


def test_the_practice_record_plots_one_bar_per_board_and_the_median(clock):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from setwidgets.puzzles import PracticeRecord, Puzzle

    record = PracticeRecord()
    for seconds in (10, 40):
        puzzle = Puzzle(seed=seconds, clock=clock)
        clock.advance(seconds)
        for triple in puzzle.solutions:
            puzzle.claim(triple)
        record.add(puzzle)
    ax = record.plot()
    assert [round(bar.get_height()) for bar in ax.patches] == [10, 40]
    assert [line.get_ydata()[0] for line in ax.get_lines()] == [25]
    assert ax.get_title() == record.summary()
    # Two records side by side on a shared axis: the smaller one does not cut the larger one's bars.
    small = PracticeRecord()
    puzzle = Puzzle(seed=1, clock=clock)
    clock.advance(5)
    for triple in puzzle.solutions:
        puzzle.claim(triple)
    small.add(puzzle)
    _, (left, right) = plt.subplots(1, 2, sharey=True)
    record.plot(left)
    small.plot(right)
    assert left.get_ylim()[1] >= 40 * 1.3
    plt.close("all")


def test_a_timer_set_from_a_subshell_thread_is_set_on_the_boards_own_loop(clock, loop):
    """JupyterLab may run a click on a kernel subshell, a thread with a loop of its own."""
    import threading

    scheduler = Scheduler(lambda: None, lambda: False, lambda: True, clock=clock, loop=loop)
    scheduler.start()

    def click():
        scheduler.move_in(lambda: 2.0)
        scheduler.keep_ticking()

    subshell = threading.Thread(target=click)
    subshell.start()
    subshell.join()
    assert loop.handles == [] and len(loop.soon) == 2
    for planned in loop.soon:
        planned()
    assert [h.when for h in loop.waiting] == [clock() + 2.0, clock() + TICK_SECONDS]
    assert scheduler.move_pending and scheduler.ticking

    # In the board's own thread a timer is set at once, whatever other loop runs there (the
    # tests' browser driver keeps one running).
    scheduler.cancel_move()
    scheduler.move_in(lambda: 3.0)
    assert len(loop.soon) == 2 and [h.when for h in loop.waiting][-1] == clock() + 3.0


def test_a_record_takes_every_new_puzzle_even_where_a_freed_one_had_the_same_id():
    """Python hands a freed object's id to the next one (at once, on 3.12): a record keyed by id()
    took a new board for one it already held."""
    from setwidgets.puzzles import PracticeRecord, Puzzle

    record = PracticeRecord()
    for _ in range(200):
        puzzle = Puzzle(["1RSO", "2RSO", "3RSO"])
        record.add(puzzle)
        # A puzzle holds no cycle: the del frees it at once, and an id()-keyed record then fails
        # on the second puzzle (checked). No gc.collect(): in a worker with a large heap each one
        # took 0.45 s (90 s for this test).
        del puzzle
    assert len(record) == 200
