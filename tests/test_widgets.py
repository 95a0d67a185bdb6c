"""The live widgets, driven through their public input methods without a browser.

Outside a kernel ipywidgets uses a dummy comm, so the widgets can be built and
clicked here; what reaches the browser is checked by catching ipycanvas's
batched draw messages. Pixels in a real browser are tested in tests/browser.
"""

import asyncio
import itertools
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

import pytest
from ipycanvas.canvas import _CANVAS_MANAGER, COMMANDS

from setwidgets import Bot, Card, Game, GameError, explain, find_sets, is_set, mini_deck, third_card, wording
from setwidgets.widgets import Board, CardPicker, CardTable, MagicRuleChecker, ThirdCardExplorer
from setwidgets.widgets._view import WIDGET_VIEW
from setwidgets.widgets.board import card_letter

SVG = "{http://www.w3.org/2000/svg}"
COMMAND_NAMES = {index: name for name, index in COMMANDS.items()}


def run_alone(coroutine):
    """Run a coroutine on an event loop of its own, in a thread of its own.

    Playwright's synchronous API keeps a loop running in the main thread while the
    browser tests' session lasts, and asyncio.run refuses to start inside it.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=60)


@pytest.fixture
def game(clock):
    return Game(players=["Ana", "Ben"], seed=11, clock=clock)


@pytest.fixture
def board(game, clock):
    b = Board(game, clock=clock)
    yield b
    b.close()


@pytest.fixture
def sent(monkeypatch):
    """The batches of draw commands sent to the browser, as lists of command names."""
    batches = []

    def capture(command, buffers=None):
        batches.append([COMMAND_NAMES[c[0]] for c in command] if isinstance(command[0], list) else [command])

    monkeypatch.setattr(_CANVAS_MANAGER, "_send_custom", capture)
    return batches


def centre(board, position):
    x, y, w, h = board.card_rects[position]
    return x + w / 2, y + h / 2


def click_card(board, position):
    return board.click(*centre(board, position))


def positions_of(game, cards):
    return [game.table.index(c) for c in cards]


def non_set_positions(game):
    table = game.table
    return next(
        list(p) for p in itertools.combinations(range(len(table)), 3) if not is_set(*(table[i] for i in p))
    )


def seed_without_set(**options):
    return next(s for s in range(1000) if not Game(seed=s, **options).sets_on_table())


def simulate_browser(widget):
    """What ipycanvas does when a browser has loaded the canvas and can draw."""
    widget.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])


# -- the Board: selecting and claiming -------------------------------------------------------------


def test_board_layout_letters_and_rects(board, game):
    rects = board.card_rects
    assert len(rects) == len(game.table) == 12
    assert board.canvas.width >= max(x + w for x, y, w, h in rects)
    assert board.canvas.height >= max(y + h for x, y, w, h in rects)
    assert board.letters == list("qazwsxedcrfv")
    assert [card_letter(p) for p in (12, 13, 14, 18, 20, 21)] == ["t", "g", "b", "u", "m", None]
    assert board.status.startswith("12 cards on the table")
    assert board.scores == "Ana 0 · Ben 0"
    assert "setw-board" in board._dom_classes
    assert board.card_names[:2] == [f"Q: {game.table[0].name}", f"A: {game.table[1].name}"]
    assert board._names.value.count("<li>") == 12 and "setw-names" in board._names._dom_classes


def test_a_click_on_a_card_selects_it_and_a_second_click_deselects(board, sent):
    assert click_card(board, 4) == 4
    assert board.selected == [4]
    assert board.highlights == {4: "selected"}
    assert click_card(board, 7) == 7
    assert board.selected == [4, 7]
    board.click(*centre(board, 4))
    assert board.selected == [7]
    assert board.click(1, 1) is None, "a click in the margin selects nothing"
    assert board.selected == [7]
    # Each input redraws the whole table in one message.
    assert len(sent) == 3 and all("fillText" in batch for batch in sent)


def test_three_clicks_on_a_set_score_and_deal_new_cards(board, game, sent):
    before = game.table
    chosen = game.sets_on_table()[0]
    where = positions_of(game, chosen)
    for p in where:
        click_card(board, p)
    assert [p.score for p in game.players] == [1, 0]
    assert board.scores == "Ana 1 · Ben 0"
    assert board.status == f"Ana keeps a SET (+1 point). {explain(chosen)}"
    assert all(game.table[p] != before[p] for p in where)
    assert board.selected == [] and board.highlights == {}
    assert len(game.table) == 12 and len(game.deck) == 81 - 15
    # The SET flashes on the old table, the browser waits, then the new cards appear: one message.
    last = sent[-1]
    assert last.count("clear") == 2 and "sleep" in last
    assert last.index("sleep") < last.index("clear", last.index("sleep"))


def test_three_clicks_on_a_non_set_show_the_magic_rule_and_the_odd_card(board, game):
    table = game.table
    where = non_set_positions(game)
    cards = [game.table[p] for p in where]
    for p in where:
        board.select(p)
    verdict = explain(cards)
    assert board.status == f"{verdict} Ana loses a point."
    assert "two " in board.status and " and one " in board.status
    assert game.players[0].penalties == 1 and board.scores.startswith("Ana -1 (0 SETs, 1 penalty)")
    odd = {game.table.index(cards[f.odd_index]) for f in verdict.broken}
    assert board.highlights == dict.fromkeys(odd, "odd")
    assert game.table == table, "the cards of a wrong claim stay where they are"


def test_keys_select_cards_and_space_calls_set(board, game, clock):
    assert board.press("q") and board.selected == [0]
    assert board.press("Q") and board.selected == []
    board.press("w")
    assert board.press(" ")
    assert game.caller == 0 and board.selected == [3], "your own picks stay when you call"
    assert board.status == "Ana called SET! Pick three cards within 5 seconds."
    board.press("w")
    chosen = game.sets_on_table()[0]
    for p in positions_of(game, chosen):
        board.press(card_letter(p))
    assert game.players[0].score == 1 and game.caller is None
    assert board.press("%") is False
    assert board.press("Escape")
    with pytest.raises(TypeError, match="a key such as"):
        board.press(5)


def test_player_keys_let_two_players_share_one_screen(game, clock):
    board = Board(game, keys={"1": "Ana", "2": 1}, clock=clock)
    board.select(5)
    assert board.press("2")
    assert board.selected == [], "Ben starts afresh"
    assert game.caller == 1 and board.status.startswith("Ben called SET!")
    chosen = game.sets_on_table()[0]
    for p in positions_of(game, chosen):
        board.select(p)
    assert [p.score for p in game.players] == [0, 1], "the caller's picks count for the caller"
    assert board.press("1") and game.caller == 0
    board.close()


def test_a_second_caller_waits_in_line_and_leaves_the_first_caller_s_picks_alone(game, clock):
    board = Board(game, keys={"1": "Ana", "2": "Ben"}, clock=clock)
    assert board.press("1")
    board.select(0)
    board.select(1)
    assert board.press("2")
    assert board.status == "Ben called SET too, and picks after Ana."
    assert board.selected == [0, 1] and game.caller == 0
    assert "Ana: 5 s to pick" in wording.timer(game, 0)
    board.close()


def test_the_call_button_shows_only_when_someone_races(clock):
    alone = Board(Game(seed=1, clock=clock), clock=clock)
    assert alone.buttons["call"].layout.display == "none"
    assert alone.press(" ") and alone.game.caller == 0, "space still calls, for those who like to"
    for board in (
        Board(Game(players=["Ana", "Ben"], seed=1, clock=clock), clock=clock),
        Board(
            Game(players=["You", "Computer"], seed=1, clock=clock), bot=Bot("beginner", rng=1), clock=clock
        ),
    ):
        assert board.buttons["call"].layout.display != "none"
        board.close()
    alone.close()


def test_the_next_caller_is_told_to_pick_and_a_second_call_reads_as_a_sentence(game, clock):
    board = Board(game, keys={"1": "Ana", "2": "Ben"}, clock=clock)
    assert board.press("2") and board.press("1")
    board.press("2")
    assert board.status == "Ben holds the call already; pick three cards on the table."
    board.press("1")
    assert board.status == "Ana is already in line, after Ben; wait until the players before are done."
    for p in positions_of(game, game.sets_on_table()[0]):
        board.select(p)
    assert board.status.startswith("Ben keeps a SET")
    assert board.status.endswith(" Ana, pick three cards within 5 seconds.")
    board.close()


def test_the_next_caller_hears_the_seconds_really_left(game, clock):
    board = Board(game, keys={"1": "Ana", "2": "Ben"}, clock=clock)
    board.press("1")
    clock.advance(1)
    board.press("2")
    clock.advance(7)  # now 8: Ana's 5 seconds ran out at 5 and Ben's began then, so 2 are left
    board.tick()
    assert (
        board.status
        == "Ana loses a point: no SET shown within 5 seconds. Ben, pick three cards within 2 seconds."
    )
    board.close()


def test_a_solitaire_deal_without_any_set_says_only_that_the_game_is_lost(clock):
    no_set_at_all = ["1RSO", "1RSS", "1RTO", "1RTS", "2RSO", "2RSS", "2RTO", "2RTS", "1GSO"]
    assert not find_sets(no_set_at_all)
    game = Game(deck=no_set_at_all, variant="solitaire", table_size=9, clock=clock)
    board = Board(game, clock=clock)
    assert game.over and game.lost
    assert (
        board.status.startswith("Game over: no SET on the table") and "Click three cards" not in board.status
    )
    board.close()


def test_a_final_score_of_one_reads_in_the_singular(clock):
    game = Game(deck=["1RSO", "2RSO", "3RSO", "1GTS"], table_size=3, clock=clock)
    board = Board(game, clock=clock)
    if not game.sets_on_table():
        board.no_set()
    for p in positions_of(game, game.sets_on_table()[0]):
        board.select(p)
    assert game.over
    assert "Game over: You kept 1 SET, score 1." in board.status
    board.close()


def test_bad_key_maps_are_refused():
    game = Game(players=2, seed=1)
    with pytest.raises(ValueError, match="already selects a card"):
        Board(game, keys={"q": 1})
    with pytest.raises(ValueError, match="the players are 0 \\(Player 1\\), 1 \\(Player 2\\)"):
        Board(game, keys={"3": 2})
    with pytest.raises(TypeError, match="keys maps a key"):
        Board(game, keys=["1", "2"])


def test_the_claim_countdown_and_its_penalty(board, game, clock):
    board.call()
    assert board.timer == "Time 00:00 · Ana: 5 s to pick"
    clock.advance(2.2)
    board.tick()
    assert board.timer == "Time 00:02 · Ana: 3 s to pick"
    board.select(0)
    clock.advance(3.0)
    board.tick()
    assert game.caller is None and game.players[0].penalties == 1
    assert board.status == "Ana loses a point: no SET shown within 5 seconds."
    assert board.selected == []
    assert board.timer == "Time 00:05"


def test_a_second_call_while_calling_says_why_in_the_status(board, game):
    assert board.call() is True
    assert board.call() is False
    assert "Ana holds the call" in board.status and game.caller == 0


def test_hints_frame_one_two_then_three_cards_of_one_set(board, game):
    first = board.hint()
    assert len(first) == 1 and board.highlights == {game.table.index(first[0]): "hint"}
    assert board.status == "Hint: the framed card is part of a SET."
    board.hint()
    three = board.hint()
    assert is_set(three) and set(board.highlights.values()) == {"hint"} and len(board.highlights) == 3
    assert board.press("?")


def test_no_set_on_a_table_with_a_set_changes_nothing(board, game):
    table = game.table
    result = board.no_set()
    assert result.ok is False and game.table == table
    assert board.status.startswith("There are ") and board.status.endswith(" on the table; keep looking.")


def test_no_set_deals_three_more_and_the_table_grows_a_column(clock):
    seed = seed_without_set()
    game = Game(seed=seed, clock=clock)
    board = Board(game, clock=clock)
    width = board.canvas.width
    result = board.no_set()
    assert result.ok and len(game.table) == 15 and len(board.card_rects) == 15
    assert board.canvas.width > width
    assert board.letters[12:] == ["t", "g", "b"]
    assert board.status == "No SET among 12 cards: 3 more were dealt."
    assert board.hint() and board.status.startswith("Hint")
    board.close()


def test_new_game_deals_again_with_the_same_settings_and_a_reproducible_seed(board, game, clock):
    board.select(0)
    new = board.new_game()
    assert board.game is new and new is not game
    assert [p.name for p in new.players] == ["Ana", "Ben"] and new.variant == "standard"
    assert board.selected == [] and board.scores == "Ana 0 · Ben 0"
    assert board.status.startswith(f"New game (seed {new.seed}).")
    twin = Board(Game(players=["Ana", "Ben"], seed=11, clock=clock), clock=clock)
    assert twin.new_game().table == new.table
    assert board.new_game(seed=5).table == Game(seed=5).table
    # The old game no longer drives this board.
    table = board.game.table
    game.claim(game.sets_on_table()[0], player=0)
    assert board.game.table == table
    twin.close()


def test_a_whole_mini_game_to_the_end(clock):
    game = Game(deck="mini", seed=3, clock=clock)
    board = Board(game, clock=clock)
    assert len(board.card_rects) == 9 and board.letters == list("qazwsxedc")
    while not game.over:
        sets = game.sets_on_table()
        if sets:
            for p in positions_of(game, sets[0]):
                board.select(p)
        else:
            board.no_set()
    assert "Game over: You kept" in board.status
    assert board.buttons["call"].disabled and board.buttons["hint"].disabled
    assert not board.buttons["new_game"].disabled
    board.select(0)
    assert board.status.startswith("Game over") and board.hint() == []
    over = board.status
    assert board.press(" ") and board.status == over, "a call after the end shows the final score again"
    assert board.no_set() is None and board.status == over
    board.buttons["new_game"].click()
    assert not board.game.over and not board.buttons["call"].disabled
    board.close()


@pytest.mark.parametrize("variant", ["standard", "competition", "online"])
def test_a_whole_full_deck_game_to_the_end_through_the_board(clock, variant):
    game = Game(seed=21, players=["Ana", "Ben"], variant=variant, clock=clock)
    board = Board(game, keys={"1": "Ana", "2": "Ben"}, clock=clock)
    turn = 0
    while not game.over:
        sets = game.sets_on_table()
        if not sets:
            assert board.no_set().ok
            continue
        board.press("12"[turn % 2])
        for p in positions_of(game, sets[0]):
            board.select(p)
        turn += 1
        # What the board shows is what the game holds, after every move.
        assert len(board.card_rects) == len(game.table)
        assert [name.split(": ", 1)[1] for name in board.card_names] == [c.name for c in game.table]
    kept = sum(len(p.sets) for p in game.players)
    assert kept == turn and 3 * kept + len(game.table) == 81 and game.deck == []
    assert board.status.endswith("Press New game to play again.") and "Game over" in board.status
    assert board.scores == " · ".join(f"{p.name} {p.score}" for p in game.players)
    board.close()


def test_buttons_do_what_their_names_say(board, game):
    names = {b.description for b in board.buttons.values()}
    assert names == {"SET!", "No SET here", "Hint", "New game"}
    board.buttons["call"].click()
    assert game.caller == 0
    board.buttons["hint"].click()
    assert board.status.startswith("Hint")
    board.buttons["new_game"].click()
    assert board.game is not game and board.status.startswith("New game (seed")


def test_the_no_set_button_deals_three_more_on_a_table_without_a_set(clock, sent):
    game = Game(seed=seed_without_set(), clock=clock)
    board = Board(game, clock=clock)
    table, width = game.table, board.canvas.width
    board.buttons["no_set"].click()
    assert [e["type"] for e in game.history[-1:]] == ["no_set"], "the click reached the game"
    assert game.table[:12] == table and len(game.table) == 15 and len(game.deck) == 81 - 15
    assert board.status == "No SET among 12 cards: 3 more were dealt."
    assert board._status_widget.value == "<span>No SET among 12 cards: 3 more were dealt.</span>"
    assert board._deck_widget.value == "Deck: 66 cards"
    assert len(board.card_rects) == 15 and board.letters[12:] == ["t", "g", "b"]
    assert board.canvas.width > width and sent[-1].count("fillText") > 0, "the table was drawn again"
    board.close()


def test_the_no_set_button_on_a_table_with_a_set_says_so_and_changes_nothing(board, game, sent):
    table, history = game.table, len(game.history)
    said = Game(players=["Ana", "Ben"], seed=11).no_set().message  # what the game answers, on a twin
    assert board.status != said
    board.buttons["no_set"].click()
    assert board.status == said and said.endswith("on the table; keep looking.")
    assert game.table == table and len(game.history) == history and board.selected == []


def test_moves_made_outside_the_board_show_up_on_it(board, game):
    board.select(0)
    chosen = game.sets_on_table()[0]
    claim = game.claim(chosen, player="Ben")
    assert board.status == claim.message
    assert board.scores == "Ana 0 · Ben 1"
    assert all(c in game.table for c in [game.table[p] for p in board.selected])


def test_bad_input_raises_and_changes_nothing(board, game):
    table = game.table
    with pytest.raises(ValueError, match="from 0 to 11"):
        board.select(12)
    with pytest.raises(TypeError, match="position must be a whole number like 0 \\(the top-left card\\)"):
        board.select(True)
    with pytest.raises(TypeError, match="write 2, without the '.0'"):
        board.select(2.0)
    with pytest.raises(TypeError, match="canvas coordinates"):
        board.click("left", 3)
    assert game.table == table and board.selected == []
    with pytest.raises(TypeError, match="Board\\(\\) shows a Game"):
        Board("game")
    with pytest.raises(
        ValueError, match=r"^width \(the largest width in pixels\) must be at least 100; got 20$"
    ):
        Board(game, width=20)
    with pytest.raises(ValueError, match="theme must be one of"):
        Board(game, theme="neon")


def test_themes_and_width_reach_the_canvas(game, clock):
    board = Board(game, theme="colorblind", width=600, clock=clock)
    assert board.canvas.layout.max_width == "600px" and board.layout.max_width == "600px"
    assert board.canvas.layout.width == "100%" and board.canvas.layout.height == "auto"
    drawn = board.svg()
    palette = {"red": "#d55e00", "green": "#0072b2", "purple": "#000000"}
    assert all(f'stroke="{palette[c.color]}"' in drawn for c in game.table)
    assert "#e0201b" not in drawn, "no classic red in the color-blind theme"
    board.no_set()  # a SET is on the table: nothing changes, the width stays
    assert board.canvas.layout.max_width == "600px"
    board.close()


# -- the computer --------------------------------------------------------------------------------------


def test_the_computer_claims_through_the_game(clock):
    game = Game(players=["You", "Computer"], seed=4, clock=clock)
    board = Board(game, bot=Bot("expert", rng=1), clock=clock)
    assert board.bot_player == 1 and board.player == 0
    claim = board.bot_move()
    assert claim.ok and claim.player == 1 and board.scores == "You 0 · Computer 1"
    assert board.status.startswith("Computer keeps a SET")
    board.call()
    assert board.bot_move() is None, "the computer waits while you hold the call"
    board.close()


def test_the_computer_needs_a_seat():
    with pytest.raises(ValueError, match="needs a seat"):
        Board(Game(seed=1), bot=Bot())
    with pytest.raises(TypeError, match="bot must be a Bot"):
        Board(Game(players=2, seed=1), bot="expert")
    with pytest.raises(ValueError, match="computer's seat"):
        Board(Game(players=["You", "Computer"], seed=1), bot=Bot(), player="Computer")


def test_a_board_s_clock_waits_for_the_first_click_or_key(clock):
    board = Board(Game(seed=3, clock=clock), clock=clock)
    assert board.waiting and board.status.endswith("The clock starts with your first click or key.")
    clock.advance(300)  # Run All, then the student reads the lesson down to the board
    assert board.timer == "Time 00:00"
    board.click(1, 1)  # between the cards: no card chosen, but the student is here
    clock.advance(12)
    assert not board.waiting and board.timer == "Time 00:12"
    board.close()


def test_the_computer_plays_on_its_own_once_a_browser_shows_the_board(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)

    async def race():
        game = Game(players=["You", "Computer"], seed=4)
        board = Board(game, bot=Bot(0.02, rng=1))
        await asyncio.sleep(0.3)
        untouched = game.players[1].score
        simulate_browser(board)
        await asyncio.sleep(0.3)
        waited = game.players[1].score
        board.press("Escape")  # the student is here
        await asyncio.sleep(0.5)
        board.close()
        return untouched, waited, game.players[1].score, board.timer

    untouched, waited, score, timer = run_alone(race())
    assert untouched == 0, "nobody races a board that no browser shows"
    assert waited == 0, "the computer waits for the student's first click or key"
    assert score >= 1
    assert timer.startswith("Time 00:0")


def test_the_computer_never_moves_while_nbgrader_runs(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")

    async def race():
        game = Game(players=["You", "Computer"], seed=4)
        board = Board(game, bot=Bot(0.02, rng=1))
        simulate_browser(board)
        await asyncio.sleep(0.3)
        board.close()
        return game.players[1].score

    assert run_alone(race()) == 0


# -- drawing for a browser, and the static picture ------------------------------------------------------


def test_the_canvas_waits_for_a_browser_and_the_static_picture_stands_in(board, sent):
    assert board.canvas.layout.display == "none"
    assert board._picture.value.count("<title>") == 12
    simulate_browser(board)
    assert board.canvas.layout.display is None and board._picture.layout.display == "none"
    assert board._picture.value == ""
    assert len(sent) == 1 and "fillText" in sent[0], "a connecting browser gets the whole table"


def test_display_data_holds_the_widget_and_a_static_picture(board, game, monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    board.select(0)
    data = board._repr_mimebundle_()
    assert data[WIDGET_VIEW]["model_id"] == board.model_id
    svg = ET.fromstring(data["image/svg+xml"])
    assert [t.text for t in svg.iter(SVG + "title")] == [c.name for c in game.table]
    html = data["text/html"]
    assert 'class="setw-board setw-static"' in html and html.count("<title>") == 12
    assert board.status in data["text/plain"] and "Ana 0 · Ben 0" in html
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert WIDGET_VIEW not in board._repr_mimebundle_()


def test_every_widget_has_a_static_picture():
    for widget, count in (
        (MagicRuleChecker(), 3),
        (ThirdCardExplorer(), 3),
        (ThirdCardExplorer("1RSO", "1RSO"), 2),
    ):
        data = widget._repr_mimebundle_()
        assert len(list(ET.fromstring(data["image/svg+xml"]).iter(SVG + "title"))) == count
        assert "setw-static" in data["text/html"]
        widget.close()


# -- MagicRuleChecker ------------------------------------------------------------------------------------


def test_checker_explains_feature_by_feature():
    checker = MagicRuleChecker()
    assert checker.verdict.is_set and "setw-checker" in checker._dom_classes
    assert checker.text.splitlines()[0] == str(checker.verdict)
    verdict = checker.set_cards("1RSO", "2RSO", "3PSO")
    assert str(verdict) == "Not a SET: two are red and one is purple."
    assert checker.text.splitlines() == [
        "Not a SET: two are red and one is purple.",
        "number: all different (1, 2 and 3)",
        "color: two are red and one is purple (card 3 is the odd one out)",
        "shape: all the same (oval)",
        "shading: all the same (solid)",
    ]
    assert checker.highlights == {2: "odd"}
    assert len(checker.card_rects) == 3
    assert "✗" in checker._features_widget.value and "setw-not" in checker._verdict_widget.value


def test_checker_follows_its_dropdowns_and_its_cards_property():
    checker = MagicRuleChecker(["1RSO", "2RSO", "3RSO"])
    assert checker.verdict.is_set and checker.highlights == dict.fromkeys(range(3), "found")
    checker.pickers[1].dropdowns["color"].value = "green"
    assert checker.cards[1] == Card(2, "green", "oval", "solid")
    assert str(checker.verdict) == "Not a SET: two are red and one is green."
    checker.cards = ["1RSO", "1RSO", "2GTS"]
    assert checker.text.startswith("Not a SET: the same card (one red solid oval) is used more than once.")
    assert checker.lines == []
    with pytest.raises(ValueError, match="needs three cards"):
        MagicRuleChecker(["1RSO"])
    with pytest.raises(ValueError, match="card code"):
        checker.set_cards("1RSO", "2RSO", "nope")
    assert checker.cards == [Card.parse(c) for c in ("1RSO", "1RSO", "2GTS")]
    with pytest.raises(TypeError, match="set_cards\\(\\) needs exactly three cards.*; got 2: '1RSO', '2RSO'"):
        checker.set_cards(["1RSO", "2RSO"])
    assert checker.cards == [Card.parse(c) for c in ("1RSO", "1RSO", "2GTS")]


def test_checker_and_explorer_take_cards_as_a_list_or_a_string_of_codes():
    checker = MagicRuleChecker()
    assert str(checker.set_cards(["1RSO", "2RSO", "3PSO"])) == "Not a SET: two are red and one is purple."
    assert checker.set_cards("1RSO 2GTS 3POD").is_set
    explorer = ThirdCardExplorer()
    assert explorer.set_cards(["2RTO", "3GTO"]) == Card(1, "purple", "oval", "striped")
    assert explorer.set_cards("2RTO 3GTO") == Card(1, "purple", "oval", "striped")
    with pytest.raises(TypeError, match="set_cards\\(\\) needs exactly two cards, .*; got 1: '2RTO'$"):
        explorer.set_cards(["2RTO"])
    with pytest.raises(TypeError, match="; got none$"):
        explorer.set_cards("")
    assert MagicRuleChecker("1RSO 2RSO 3PSO").cards == [Card.parse(c) for c in ("1RSO", "2RSO", "3PSO")]


# -- CardTable and the checker under it ------------------------------------------------------------------

NINE = mini_deck()[:9]


def test_a_card_table_picks_three_by_click_or_letter_and_starts_again():
    table = CardTable(NINE)
    heard = []
    table.on_pick(heard.append)
    assert table.letters == list("abcdefghi") and len(table.card_rects) == 9
    assert len({round(r[1]) for r in table.card_rects}) == 3, "three rows (of three) for nine cards"
    x, y, w, h = table.card_rects[4]
    assert table.click(x + w / 2, y + h / 2) == 4
    assert table.click(0, 0) is None, "the gap between cards picks nothing"
    assert table.press("A") and table.picked == [4, 0] and heard == []
    assert table.pick(4) is None and table.picked == [0], "a second click unframes"
    assert table.press("b") and table.press("c")
    assert heard == [[NINE[0], NINE[1], NINE[2]]] and table.highlights == dict.fromkeys([0, 1, 2], "selected")
    table.press("i")
    assert table.picked == [8] and len(heard) == 1, "a complete pick starts again"
    assert table.press("escape") and table.picked == []
    assert not table.press("z")
    assert "a: one red solid oval" in table.static_html()


def test_a_card_table_refuses_what_it_cannot_show():
    with pytest.raises(ValueError, match="^CardTable\\(\\) got the card one red solid oval \\(1RSO\\) twice"):
        CardTable(["1RSO", "1RSO", "2RSO"])
    with pytest.raises(ValueError, match="picks must be from 1 to 2, the number of cards shown; got 3"):
        CardTable(["1RSO", "2RSO"])
    with pytest.raises(TypeError, match="^columns must be a whole number like 3; got '3' \\(a string\\)$"):
        CardTable(NINE, columns="3")
    with pytest.raises(ValueError, match="^table= needs at least three cards to pick from; got 2$"):
        MagicRuleChecker(table=["1RSO", "2RSO"])
    with pytest.raises(TypeError, match="columns= lays out the cards of table="):
        MagicRuleChecker(columns=3)
    table = CardTable(NINE)
    with pytest.raises(ValueError, match="position must be a whole number from 0 to 8"):
        table.pick(9)
    with pytest.raises(TypeError, match="position must be a whole number like 0 \\(the first card\\)"):
        table.pick("a")
    table.show_picked(NINE[:3] + NINE[3:4])
    assert table.picked == [], "four cards are not a pick of three"
    table.show_picked([NINE[0], NINE[0], NINE[1]])
    assert table.picked == [], "nor is a card twice"
    with pytest.raises(TypeError, match="on_pick\\(\\) needs a function"):
        table.on_pick("print")
    assert table.picked == []


def test_a_checker_over_a_table_checks_the_three_cards_clicked():
    checker = MagicRuleChecker(table=NINE)
    assert checker.cards == NINE[:3] and checker.table.picked == [0, 1, 2]
    for letter in "aei":
        checker.table.press(letter)
    assert checker.cards == [NINE[0], NINE[4], NINE[8]] and checker.verdict.is_set
    for letter in "abd":
        checker.table.press(letter)
    assert str(checker.verdict) == str(explain(NINE[0], NINE[1], NINE[3]))
    assert not checker.verdict.is_set and checker.highlights == {1: "odd", 2: "odd"}
    checker.set_cards("3PSO", "2RSO", "1RSO")
    assert checker.table.picked == [], "cards not on the table leave the table unframed"
    checker.set_cards(NINE[6], NINE[7], NINE[8])
    assert checker.table.picked == [6, 7, 8]
    assert checker.children[1] is checker.table and "Click three cards" in checker.children[0].value


# -- ThirdCardExplorer -----------------------------------------------------------------------------------


def test_explorer_reasons_in_words_and_mod_3():
    explorer = ThirdCardExplorer("2RTO", "3GTO")
    assert explorer.third == third_card("2RTO", "3GTO") == Card(1, "purple", "oval", "striped")
    assert explorer.text.splitlines() == [
        "The numbers 2 and 3 differ, so the third card has the remaining number, 1.",
        "The colors red and green differ, so the third card has the remaining color, purple.",
        "Both cards have shape oval, so the third card has shape oval too.",
        "Both cards have shading striped, so the third card has shading striped too.",
        "The third card is one purple striped oval.",
        "(1,0,0,1) + (2,1,0,1) + (0,2,0,1) = (3,3,0,3) ≡ (0,0,0,0) mod 3",
    ]
    assert explorer.highlights == {2: "found"} and len(explorer.card_rects) == 3
    assert "setw-explorer" in explorer._dom_classes


def test_explorer_on_every_pair_gives_a_set_and_a_true_sum():
    explorer = ThirdCardExplorer()
    for a, b in [("1RSO", "2GTS"), ("3POD", "3POS"), ("1GTD", "2PSO")]:
        c = explorer.set_cards(a, b)
        assert is_set(a, b, c) and find_sets([a, b, c]) == [(Card.parse(a), Card.parse(b), c)]
        assert explorer.text.splitlines()[-1].endswith("≡ (0,0,0,0) mod 3")


def test_explorer_is_friendly_about_the_same_card_twice():
    explorer = ThirdCardExplorer("1RSO", "2RSO")
    explorer.pickers[1].dropdowns["number"].value = 1
    assert explorer.third is None
    assert explorer.text.startswith("Pick two different cards: both are one red solid oval.")
    assert len(explorer.card_rects) == 2


def test_card_picker_tells_its_listeners_once_per_new_card():
    picker = CardPicker("1RSO", description="Card 1")
    seen = []
    picker.on_change(seen.append)
    picker.card = "3PTD"
    assert seen == [Card.parse("3PTD")]
    picker.dropdowns["shape"].value = "oval"
    assert seen[-1] == Card.parse("3PTO") and len(seen) == 2
    picker.on_change(seen.append, remove=True)
    picker.card = "1RSO"
    assert len(seen) == 2
    with pytest.raises(TypeError, match="needs a function"):
        picker.on_change("print")


def test_a_failing_picker_or_table_listener_is_reported_and_the_others_still_hear():
    picker, table = CardPicker("1RSO"), CardTable(NINE)
    heard = []

    def broken(_):
        raise ValueError("a bug in a lesson's cell")

    for on, listen in ((picker.on_change, heard.append), (table.on_pick, heard.append)):
        on(broken)
        on(listen)
    with pytest.warns(
        RuntimeWarning, match="the on_change callback .*broken raised ValueError: .*new card is picked"
    ):
        picker.card = "2RSO"
    assert picker.card == Card.parse("2RSO") and heard == [Card.parse("2RSO")]
    with pytest.warns(
        RuntimeWarning, match="the on_pick callback .*broken raised ValueError: .*cards are picked"
    ):
        table.pick(0), table.pick(1), table.pick(2)
    assert heard[-1] == list(NINE[:3]) and table.picked == [0, 1, 2]
    with pytest.raises(
        TypeError, match="^on_pick\\(\\) needs a function taking the list of picked cards, like"
    ):
        table.on_pick(lambda: None)


def test_a_card_table_stops_telling_a_listener_that_is_removed():
    table = CardTable(NINE)
    heard = []
    table.on_pick(heard.append)
    table.on_pick(heard.append)  # added twice, told once
    for letter in "abc":
        table.press(letter)
    assert heard == [list(NINE[:3])]
    table.on_pick(heard.append, remove=True)
    for letter in "def":
        table.press(letter)
    assert len(heard) == 1 and table.picked == [3, 4, 5]


@pytest.mark.notebooks
def test_exported_html_shows_the_cards_where_no_widget_runs():
    import re

    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from setwidgets import Game\nfrom setwidgets.widgets import Board\n"
            "board = Board(Game(seed=7))\nboard"
        ),
        # What nbgrader sets while it runs a notebook (autograde, then feedback from its outputs).
        nbformat.v4.new_code_cell("import os\nos.environ['NBGRADER_EXECUTION'] = 'autograde'\nboard"),
    ]
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    live, graded = (cell.outputs[0]["data"] for cell in nb.cells)
    assert WIDGET_VIEW in live and "text/html" in live and "image/svg+xml" in live
    assert WIDGET_VIEW not in graded and graded["text/html"].count("<title>") == 12

    def pictures(notebook):
        html, _ = HTMLExporter().from_notebook_node(notebook)
        # Widget state sits in <script> elements as JSON; count only what the page shows.
        shown = re.sub(r"<script\b.*?</script>", "", html, flags=re.DOTALL)
        return len(re.findall(r"<title>(?:one|two|three) ", shown)), shown.count("setw-static")

    # nbclient keeps the widget state: the live board needs a widget manager, the graded one does not.
    assert pictures(nb) == (12, 1)
    # Saved by JupyterLab (no widget state, the default): both boards show their cards.
    del nb.metadata["widgets"]
    assert pictures(nb) == (24, 2)


# -- the Board's variants and its rules line ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "online", "competition"])
def test_the_board_deals_a_game_of_any_variant_and_shows_its_rules(variant, clock):
    board = Board(variant=variant, players=["Ana", "Ben"], seed=4, clock=clock)
    assert board.game.variant == variant and board.game.seed == 4
    assert board.game.table == Game(players=["Ana", "Ben"], variant=variant, seed=4).table
    assert board.rules.startswith(f"Rules: {variant}. ")
    assert board._rules_widget.value == wording.html(board.rules, "small", wording.RULES_STYLE)
    assert board._rules_widget.value.endswith(f">{board.rules}</small>")
    assert "setw-rules" in board._rules_widget._dom_classes
    assert board.rules in board.static_html()
    board.close()


def test_a_board_keeps_its_rules_line_after_a_new_game(clock):
    board = Board(variant="solitaire", seed=2, clock=clock)
    assert board.rules.startswith("Rules: solitaire. One player.")
    board.new_game()
    assert board.game.variant == "solitaire" and ">Rules: solitaire. One player." in board._rules_widget.value
    board.close()


def test_a_board_refuses_a_game_and_game_settings_together(game, clock):
    with pytest.raises(TypeError, match="variant= make a new game"):
        Board(game, variant="online")
    with pytest.raises(TypeError, match="seed and deck= make a new game"):
        Board(game, seed=1, deck="mini")
    with pytest.raises(GameError):
        Board(variant="chess", clock=clock)


# -- the puzzle board ----------------------------------------------------------------------------


@pytest.fixture
def record():
    from setwidgets.widgets import PracticeRecord

    return PracticeRecord()


@pytest.fixture
def puzzle_board(clock, record):
    from setwidgets.widgets import PuzzleBoard

    b = PuzzleBoard(seed=3, record=record, clock=clock)
    yield b
    b.close()


def claim_by_clicks(board, cards):
    for card in cards:
        board.click(*centre(board, board.puzzle.cards.index(card)))


def test_the_puzzle_board_shows_twelve_cards_with_the_boards_letters(puzzle_board):
    assert len(puzzle_board.card_rects) == 12
    assert puzzle_board.letters == [card_letter(p) for p in range(12)]
    total = len(puzzle_board.puzzle.solutions)
    assert (
        puzzle_board.status
        == f"Find all {total} SETs among these 12 cards: click three cards, or press their letters. "
        "The clock starts with your first click or key."
    )
    assert puzzle_board.progress == f"SETs found: 0 of {total} · 0 misses"
    assert puzzle_board.found == [] and "none yet" in puzzle_board._found_widget.value
    assert puzzle_board.timer == "Time 00:00"


def test_clicking_a_set_on_the_puzzle_board_lists_it_as_found(puzzle_board, clock):
    puzzle = puzzle_board.puzzle
    first = puzzle.solutions[0]
    clock.advance(30)  # the page was open before the student came: that time does not count
    claim_by_clicks(puzzle_board, first[:2])
    assert puzzle_board.selected == [puzzle.cards.index(c) for c in first[:2]]
    assert set(puzzle_board.highlights.values()) == {"selected"}
    clock.advance(12)
    claim_by_clicks(puzzle_board, first[2:])
    codes = " ".join(c.code for c in first)
    assert puzzle_board.found == [codes]
    assert puzzle_board.selected == []
    assert puzzle_board.highlights == {puzzle.cards.index(c): "found" for c in first}
    assert puzzle_board.status.startswith("A SET! ")
    assert puzzle_board.progress.startswith(f"SETs found: 1 of {len(puzzle.solutions)}")
    found_html = puzzle_board._found_widget.value
    assert found_html.count('class="setw-found-set"') == 1 and codes in found_html
    assert found_html.count('class="setw-card"') == 3
    assert puzzle_board.timer == "Time 00:12"


def test_a_miss_frames_the_odd_cards_and_a_repeat_costs_nothing(puzzle_board):
    puzzle = puzzle_board.puzzle
    wrong = next(
        t
        for t in itertools.combinations(puzzle.cards, 3)
        if not any(set(t) == set(s) for s in puzzle.solutions)
    )
    claim_by_clicks(puzzle_board, wrong)
    verdict = explain(wrong)
    assert puzzle_board.status == f"{verdict} A miss."
    odd = {puzzle.cards.index(verdict.cards[f.odd_index]) for f in verdict.broken}
    assert puzzle_board.highlights == dict.fromkeys(odd, "odd")
    assert puzzle.misses == 1 and puzzle_board.progress.endswith("1 miss")
    claim_by_clicks(puzzle_board, puzzle.solutions[0])
    claim_by_clicks(puzzle_board, puzzle.solutions[0])
    assert puzzle_board.status.startswith("You found that SET already")
    assert puzzle.misses == 1 and len(puzzle_board.found) == 1


def test_solving_the_puzzle_board_records_it_and_stops_the_time(puzzle_board, record, clock):
    puzzle = puzzle_board.puzzle
    for triple in puzzle.solutions:
        clock.advance(7)
        claim_by_clicks(puzzle_board, triple)
    seconds = 7 * (len(puzzle.solutions) - 1)  # from the first click on
    assert puzzle.solved and len(record) == 1 and record.solved == 1
    assert record.attempts[0].seconds == seconds
    assert f"solved in {seconds} seconds" in puzzle_board.status
    assert record.summary() in puzzle_board.status
    clock.advance(60)
    puzzle_board.tick()
    assert puzzle_board.timer == f"Time 00:{seconds:02d}"
    puzzle_board.select(0)
    assert puzzle_board.status == f"Solved in {seconds} seconds. Press New board for another puzzle."
    assert puzzle_board.selected == [] and len(record) == 1


def test_new_board_records_a_started_board_once_and_deals_a_reproducible_series(puzzle_board, record, clock):
    from setwidgets.widgets import PuzzleBoard

    first = puzzle_board.puzzle
    puzzle_board.buttons["new_board"].click()  # an untouched board is not recorded
    assert len(record) == 0 and puzzle_board.puzzle is not first
    claim_by_clicks(puzzle_board, puzzle_board.puzzle.solutions[0])
    second = puzzle_board.new_board()
    assert len(record) == 1 and not record.attempts[0].solved and record.attempts[0].found == 1
    twin = PuzzleBoard(seed=3, record=record, clock=clock)
    twin.new_board()
    assert twin.new_board().cards == second.cards
    assert len(record) == 1
    twin.close()


def test_the_puzzle_board_listens_to_letters_and_escape(puzzle_board):
    assert puzzle_board.press("q") and puzzle_board.press("A")
    assert puzzle_board.selected == [0, 1]
    assert puzzle_board.press("Escape") and puzzle_board.selected == []
    assert not puzzle_board.press("p")
    puzzle_board.press("q")
    puzzle_board.buttons["clear"].click()
    assert puzzle_board.selected == []


def test_the_puzzle_board_refuses_bad_input_and_changes_nothing(puzzle_board, clock):
    from setwidgets.widgets import Puzzle, PuzzleBoard

    with pytest.raises(ValueError, match="from 0 to 11"):
        puzzle_board.select(12)
    with pytest.raises(TypeError, match="press"):
        puzzle_board.press(3)
    with pytest.raises(TypeError, match="shows a Puzzle"):
        PuzzleBoard("1RSO 2RSO 3RSO")
    with pytest.raises(TypeError, match="not both"):
        PuzzleBoard(Puzzle(seed=1, clock=clock), seed=2)
    with pytest.raises(TypeError, match="PracticeRecord"):
        PuzzleBoard(seed=1, record=[])
    assert puzzle_board.selected == [] and puzzle_board.puzzle.misses == 0


def test_puzzle_boards_share_the_session_record_unless_given_one(clock):
    from setwidgets.widgets import PuzzleBoard, session_record

    a, b = PuzzleBoard(seed=1, clock=clock), PuzzleBoard(seed=2, clock=clock)
    assert a.record is b.record is session_record()
    a.close(), b.close()


def test_the_puzzle_board_has_a_static_twin_with_its_lines(puzzle_board):
    claim_by_clicks(puzzle_board, puzzle_board.puzzle.solutions[0])
    html = puzzle_board.static_html()
    assert html.count('class="setw-card"') == 12
    assert puzzle_board.progress in html and f"found: {puzzle_board.found[0]}" in html
    bundle = puzzle_board._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"].startswith("PuzzleBoard:")


# -- the whole deck in one picture (lesson 5) ----------------------------------------------------------


def test_the_deck_picture_holds_each_card_once_one_feature_per_direction():
    from setwidgets import FEATURES, VALUES, full_deck
    from setwidgets.draw.deck import SIDE, deck_grid, show_deck

    cells = deck_grid()
    cards = [c for c in cells if c is not None]
    assert sorted(cards) == sorted(full_deck())
    for index, card in enumerate(cells):
        row, column = divmod(index, SIDE)
        gap = row % 4 == 3 or column % 4 == 3
        assert (card is None) == gap, (row, column)
        if card is not None:
            assert VALUES["color"].index(card.color) == row // 4
            assert VALUES["number"].index(card.number) == column // 4
            assert VALUES["shape"].index(card.shape) == row % 4
            assert VALUES["shading"].index(card.shading) == column % 4
    turned = deck_grid(rows="shape", columns="shading", inner_rows="color", inner_columns="number")
    assert turned[0] == cells[0] and turned[1].number == 2 and turned[4].shading == "striped"
    picture = show_deck()
    assert picture.svg.count('class="setw-card"') == 81
    assert "Blocks from top to bottom: color (red, green, purple)" in picture._repr_html_()
    with pytest.raises(ValueError, match="four features once each"):
        deck_grid(rows="color", columns="color")
    with pytest.raises(TypeError, match="unknown options"):
        show_deck(colour="rows")
    assert set(FEATURES) == {"number", "color", "shape", "shading"}
