"""Board: a live SET table to play on, alone, with friends, or against the computer.

The board is a view of a :class:`~setwidgets.game.Game`: clicks and keys
become the game's moves (``call``, ``claim``, ``no_set``, ``hint``) and the
picture is redrawn from the game's state. Every move a player can make is
also a method, so a lesson or a test can play without a mouse::

    from setwidgets import Game, Bot
    from setwidgets.widgets import Board

    game = Game(players=["Ana", "Computer"], seed=7)
    board = Board(game, bot=Bot("beginner", rng=7))
    board                      # click three cards, or use the keys below

    board.select(0); board.select(4); board.select(8)   # the same as three clicks
    board.status
    # 'Not a SET: two have two symbols and one has three symbols; two are squiggles and one is
    #  a diamond. Ana loses a point.'

Keys (click the table once so it listens to the keyboard):

- each card has a letter, shown in its corner: the top row of cards is
  ``q w e r t y u``, the middle row ``a s d f g h j``, the bottom row
  ``z x c v b n m`` (left to right); a letter selects or deselects its card;
- space calls SET for the first player; ``keys={"1": 0, "2": 1}`` gives each
  player on a shared screen a key to call SET, after which that player picks
  three cards before the time runs out;
- ``?`` asks for a hint, Escape clears the selection.

Against the computer (``bot=Bot(...)``), the computer plays as the player
called "Computer" (or the last player): it waits as long as
:meth:`~setwidgets.bot.Bot.delay` says, then claims its SET through the game,
like anyone else. While nbgrader runs a notebook the computer never moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from typing import Any

from ipywidgets import Button, HBox, Layout

from setwidgets import wording
from setwidgets._inputs import what
from setwidgets.bot import Bot
from setwidgets.cards import Card
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.game import Claim, Game, GameError, NoSet
from setwidgets.widgets import _keys
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._keys import CALL_KEY, CLEAR_KEY, HINT_KEY, KEY_ROWS, LETTERS, card_letter
from setwidgets.widgets._scheduler import RETRY_SECONDS, Loop, Scheduler
from setwidgets.widgets._tables import TableView
from setwidgets.widgets._view import check_position, check_width

__all__ = ["CALL_KEY", "KEY_ROWS", "Board", "card_letter"]

FLASH_SECONDS = 0.7
"""How long a taken SET stays framed before the new cards are shown."""


class Board(TableView):
    """A live SET table for a :class:`~setwidgets.game.Game`: click three cards that form a SET.

    ::

        from setwidgets import Game
        from setwidgets.widgets import Board

        board = Board(Game(deck="mini", seed=1))
        board            # shows the table; click (or press a card's letter) to select

        Board(variant="online", players=["Ana", "Ben"], seed=3)   # the board deals the game itself

    The line above the table says which rules are in force: the variant and
    what it does (from :mod:`setwidgets.variants`), the table size and the
    time to pick. The variants are

    - ``"standard"``: when nobody sees a SET, three more cards; they are not
      replaced when the next SET is taken;
    - ``"solitaire"``: one player; a full table without a SET loses;
    - ``"online"``: deal three at a time until the table holds a SET;
    - ``"competition"``: no SET among 15 sends 6 back into the deck and deals 3.

    With several players, callers are served in the order they called.

    Each card has a letter in its corner (top row ``q w e r t y u``, middle
    ``a s d f g h j``, bottom ``z x c v b n m``). Space calls SET, ``?`` asks
    for a hint, Escape clears the selection. The buttons call SET, say there
    is no SET (more cards are dealt) and start a new game. To race the
    computer: ``Board(Game(players=["You", "Computer"]), bot=Bot("beginner"))``.

    Parameters
    ----------
    game:
        The game to show and play; or None, and the board deals a new
        ``Game(deck=deck, players=players, variant=variant, seed=seed)``.
    theme:
        "classic", "colorblind", "printable" or a :class:`~setwidgets.draw.themes.Theme`.
    bot:
        A :class:`~setwidgets.bot.Bot` to race, or None.
    keys:
        Extra keys that call SET for a player, e.g. ``{"1": 0, "2": "Ben"}``
        (by number or name). Space calls for the first player unless mapped here.
    width:
        The largest width of the table in pixels; it shrinks to fit narrower
        output areas and keeps its proportions.
    player:
        Who clicks when nobody has called (default: the first player that is not the computer).
    bot_player:
        The computer's seat (default: the player named "Computer", else the last player).
    clock:
        Time in seconds for the game clock shown on the board (tests pass a fake one).
    loop:
        The event loop that runs the computer and the clock (default: the kernel's).
    variant, players, seed, deck:
        The new game's, when ``game`` is None (see :class:`~setwidgets.game.Game`):
        ``variant="standard"``, ``"solitaire"``, ``"online"`` or ``"competition"``.

    What a program or a test can use: :meth:`click`, :meth:`select`,
    :meth:`press`, :meth:`call`, :meth:`no_set`, :meth:`hint`,
    :meth:`new_game`, :meth:`bot_move`, :meth:`tick`; :attr:`status`,
    :attr:`rules`, :attr:`selected`, :attr:`letters`, :attr:`highlights`, :attr:`card_rects`,
    :attr:`card_names`, :attr:`canvas`, :attr:`scores`, :attr:`timer`.
    """

    def __init__(
        self,
        game: Game | None = None,
        theme: str | Theme = "classic",
        bot: Bot | None = None,
        keys: Mapping[str, int | str] | None = None,
        width: int | None = None,
        *,
        player: int | str | None = None,
        bot_player: int | str | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
        variant: str | None = None,
        players: Any = None,
        seed: Any = None,
        deck: Any = None,
    ) -> None:
        game = _keys.board_game(game, variant=variant, players=players, seed=seed, deck=deck, clock=clock)
        _keys.check_bot(bot, bot_player)
        # Everything is checked before the board listens to the game: a refused board leaves no trace.
        self.theme = get_theme(theme)
        width = check_width(width)
        self.bot = bot
        self._clock = clock
        self.game = game
        self.bot_player = _keys.bot_seat(game, bot_player) if bot is not None else None
        self.player = _keys.player_seat(game, player, self.bot_player)
        self.call_keys = _keys.call_keys(game, keys, self.player)
        self._seeds = random.Random(game.seed if game.seed is not None else 0)
        self._scheduler = Scheduler(
            self._timed_move, self._timed_tick, self._clock_wanted, clock=clock, loop=loop
        )

        self._setup_canvas("setw-board", width)
        self._status_widget = announce(self._line("setw-status"))
        self._scores_widget = self._line("setw-scores")
        self._deck_widget = self._line("setw-deck")
        self._timer_widget = self._line("setw-timer")
        self._rules_widget = self._line("setw-rules")
        self.buttons = self._buttons(alone=len(game.players) == 1 and bot is None)
        super().__init__(
            children=[
                self._info(self._scores_widget, self._deck_widget, self._timer_widget),
                self._rules_widget,
                self.picture_box,
                self._status_widget,
                HBox(list(self.buttons.values())),
            ],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-board")
        self._listen(self._mouse_down, self._key_down)
        self._start(game, "")

    def _buttons(self, alone: bool) -> dict[str, Button]:
        """The buttons under the table, each wired to the move of its name."""
        buttons = {
            "call": Button(description="SET!", tooltip="Call SET (space bar), then pick three cards"),
            "no_set": Button(description="No SET here", tooltip="Nobody can find a SET: deal more cards"),
            "hint": Button(description="Hint", tooltip="Show a card of a SET (?)"),
            "new_game": Button(description="New game", tooltip="Shuffle and deal a new game"),
        }
        buttons["call"].button_style = "primary"
        if alone:
            # Alone there is nobody to race: a click on three cards is the claim.
            buttons["call"].layout.display = "none"
        moves = {"call": self.call, "no_set": self.no_set, "hint": self.hint, "new_game": self.new_game}
        return self._wire(buttons, moves)

    # -- state -----------------------------------------------------------------------------------

    def _start(self, game: Game, status: str) -> None:
        self.game = game
        self._selected: list[Card] = []
        self._marks: dict[Card, str] = {}
        self._flash: shapes.Scene | None = None
        self._acting = 0
        self._events: list[dict[str, Any]] = []
        # The clock and the computer wait for the student: a board run from "Run All" and read
        # minutes later starts when the student first clicks or presses a key.
        self._waiting = not game.over
        self._started = self._clock()
        self._ended: float | None = None
        self._table_key: tuple[Card, ...] | None = None
        self._scheduler.touch()
        self._status_text = status or wording.welcome(game, self._rival())
        if self._waiting:
            self._status_text = f"{self._status_text} {wording.waiting(self._rival())}"
        self._after_change()
        game.on_change(self._on_event)  # last: a board that failed to start does not listen

    def _rival(self) -> str | None:
        """The computer's name, when it races."""
        return None if self.bot_player is None else self.game.players[self.bot_player].name

    @property
    def status(self) -> str:
        """The text of the status line: the last verdict or message."""
        return self._status_text

    @property
    def selected(self) -> list[int]:
        """Table positions of the selected cards, in the order they were picked."""
        table = self.game.table
        return [table.index(c) for c in self._selected if c in table]

    @property
    def letters(self) -> list[str | None]:
        """The keyboard letter of each card on the table, by position (None beyond 21 cards)."""
        return LETTERS.letters(len(self.game.table))

    @property
    def rules(self) -> str:
        """The rules line: the variant in force and what it does, the table size, the time to pick."""
        return wording.rules(self.game)

    @property
    def scores(self) -> str:
        """The score line as text, e.g. ``'You 2 · Computer 1'``."""
        return wording.scores(self.game)

    @property
    def timer(self) -> str:
        """The timer line: game time, and the seconds left to the caller."""
        end = self._ended if self._ended is not None else self._clock()
        return wording.timer(self.game, 0.0 if self._waiting else end - self._started)

    def _on_begin(self) -> None:
        """The student is here: the game's clock starts, and the computer starts looking."""
        self._started = self._clock()
        self._plan_bot()

    # -- input: mouse, keys, buttons ---------------------------------------------------------------

    def _mouse_down(self, x: float, y: float) -> None:
        self.click(x, y)

    def _key_down(self, key: str, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
        if not (ctrl or meta):
            self.press(key)

    def press(self, key: str) -> bool:
        """A key press: a card letter, space (call SET), a player's call key, ``?`` or Escape.

        Returns True when the key did something.
        """
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'q' or ' '; got {what(key)}")
        self._begin()
        name = _keys.key_name(key)
        if name in self.call_keys:
            self.call(self.call_keys[name])
            return True
        if name == HINT_KEY:
            self.hint()
            return True
        if name == CLEAR_KEY:
            with self._action():
                self._selected = []
            return True
        return self._press_card(name, len(self.game.table))

    def select(self, position: int) -> Claim | None:
        """Select or deselect the card at a table position (0 is the top-left card).

        The third selected card sends the three to the game as a claim, for the
        player who called SET (or the board's player when nobody called).
        Returns the :class:`~setwidgets.game.Claim` when a claim was made.
        """
        if self.game.over:
            with self._action():
                self._set_status(wording.game_over(self.game))
            return None
        card = self.game.table[check_position(position, self.game.table, "the top-left card")]
        with self._action():
            self._marks = {c: kind for c, kind in self._marks.items() if kind == "hint"}
            if card in self._selected:
                self._selected.remove(card)
            else:
                self._selected.append(card)
            if len(self._selected) < 3:
                return None
            chosen, self._selected = list(self._selected), []
            return self._claim(chosen)

    def _claim(self, cards: list[Card]) -> Claim | None:
        caller = self.game.caller
        player = caller if caller is not None else self.player
        before = self.game.table
        try:
            claim = self.game.claim(cards, player)
        except GameError as error:
            self._refuse(error)
            return None
        self._show_claim(claim, before)
        return claim

    def _show_claim(self, claim: Claim, before: list[Card]) -> None:
        self._set_status(wording.after(claim.message, self.game))
        if claim.ok:
            # Frame the SET on the old table, then show the new cards (one message, see redraw()).
            taken = dict.fromkeys(claim.cards, "found")
            self._flash = self._scene(before, taken, selected=())
            self._marks = {}
        elif claim.penalty and not claim.verdict.is_set:
            self._marks = {claim.verdict.cards[f.odd_index]: "odd" for f in claim.verdict.broken}

    def call(self, player: int | str | None = None) -> bool:
        """Call SET for a player (default: the board's player); that player then picks three cards.

        Returns True when the call was accepted; otherwise the status line says why.
        """
        seat = self.player if player is None else _keys.seat(self.game, player, "player")
        with self._action():
            try:
                self.game.call(seat)
            except GameError as error:
                self._refuse(error)
                return False
            if seat != self.player and self.game.caller == seat:
                # The cards picked so far were someone else's idea; the caller starts afresh. A caller
                # who waits in line leaves the picks of the one being served alone.
                self._selected = []
            self._set_status(wording.called(self.game, seat))
            return True

    def no_set(self) -> NoSet | None:
        """Everyone agrees there is no SET: the game deals more cards (or ends, by its variant)."""
        with self._action():
            try:
                result = self.game.no_set()
            except GameError as error:
                self._refuse(error)
                return None
            self._set_status(result.message)
            if result.ok:
                self._selected, self._marks = [], {}
            return result

    def hint(self) -> list[Card]:
        """Mark one more card of a SET on the table (one, then two, then all three)."""
        with self._action():
            if self.game.over:
                self._set_status(wording.game_over(self.game))
                return []
            cards = self.game.hint()
            self._marks = dict.fromkeys(cards, "hint")
            self._set_status(wording.hint(cards, self.game))
            return cards

    def new_game(self, seed: int | None = None) -> Game:
        """Start a new game with the same deck, players, variant and timing; returns it.

        Without a seed, the next seed comes from a generator seeded with the
        first game's seed, so a lesson replays the same series of games.
        """
        old = self.game
        if seed is None:
            seed = self._seeds.randrange(2**32)
        game = Game(
            deck=old.cards,
            players=[p.name for p in old.players],
            variant=old.variant,
            seed=seed,
            table_size=old.table_size,
            claim_seconds=old.claim_seconds,
            clock=self._clock,
        )
        old.on_change(self._on_event, remove=True)
        self._start(game, wording.new_game(game.seed, game, self._rival()))
        return game

    # -- the computer and the clock --------------------------------------------------------------------

    def bot_move(self) -> Claim | NoSet | None:
        """Let the computer move now: claim a SET, or say there is none.

        The board does this by itself after the bot's delay; lessons and tests
        call it directly. Returns the Claim or NoSet, or None when the computer
        cannot move (no bot, game over, or someone else holds the call).
        """
        if self.bot is None or self.game.over:
            return None
        caller = self.game.caller
        if caller is not None and caller != self.bot_player:
            self._scheduler.move_in(lambda: RETRY_SECONDS)
            return None
        before = self.game.table
        with self._action():
            try:
                result = self.bot.play(self.game, self.bot_player)
            except GameError as error:
                self._refuse(error)
                return None
            if isinstance(result, Claim):
                self._selected = [c for c in self._selected if c not in result.cards]
                self._show_claim(result, before)
            else:
                self._set_status(wording.bot_says(self.game, self.bot_player, result.message))
            return result

    def tick(self) -> None:
        """Update the timer; a caller whose seconds ran out gets the game's penalty.

        The board calls this twice a second while a browser shows it; tests call it directly.
        """
        if self.game.caller is not None and self.game.time_left() == 0:
            with self._action():
                self.game.expire()
                self._selected = []
        else:
            self._update_text()

    def _timed_move(self) -> None:
        self.bot_move()

    def _timed_tick(self) -> bool:
        self.tick()
        return self.game.caller is not None  # a countdown runs: keep ticking, idle or not

    def _clock_wanted(self) -> bool:
        return not self.game.over and self.comm is not None

    def _plan_bot(self) -> None:
        """Give the computer its delay on a new table (it looks again from the start)."""
        bot, table = self.bot, self.game.table
        idle = bot is None or self.game.over or self._waiting
        self._scheduler.move_in(None if idle else lambda: bot.delay(table))

    # -- keeping the view in step with the game ---------------------------------------------------------

    @contextmanager
    def _action(self):
        """Group one input's game moves: redraw once at the end, whatever happened."""
        self._begin()
        self._acting += 1
        self._scheduler.touch()
        try:
            yield
        finally:
            self._acting -= 1
            if self._acting == 0:
                self._after_change()

    def _set_status(self, text: str) -> None:
        self._status_text = text
        self._events = []

    def _refuse(self, error: GameError) -> None:
        self._set_status(wording.refused(error, self.game))

    def _on_event(self, event: dict[str, Any]) -> None:
        self._events.append(event)
        if not self._acting:
            # A move made outside the board (another cell, another widget): show it.
            self._after_change()

    def _after_change(self) -> None:
        said = wording.from_events(self._events, self.game)
        if said is not None:
            self._status_text = said
        self._events = []
        table = self.game.table
        self._selected = [c for c in self._selected if c in table]
        self._marks = {c: k for c, k in self._marks.items() if c in table}
        if self.game.over and self._ended is None:
            self._ended = self._clock()
            self._status_text = f"{self._status_text} {wording.game_over(self.game)}".strip()
        self._update_text()
        for name in ("call", "no_set", "hint"):
            self.buttons[name].disabled = self.game.over
        flash, self._flash = self._flash, None
        self.redraw(before=flash, pause=FLASH_SECONDS if flash is not None else 0.0)
        if tuple(table) != self._table_key:
            self._table_key = tuple(table)
            self._plan_bot()
        self._scheduler.keep_ticking()

    def _update_text(self) -> None:
        self._status_widget.value = wording.html(self._status_text)
        self._scores_widget.value = wording.html(self.scores, "b")
        self._deck_widget.value = wording.deck(self.game)
        rules = wording.html(self.rules, "small", wording.RULES_STYLE)
        if self._rules_widget.value != rules:
            self._rules_widget.value = rules
        timer = wording.html(self.timer)
        if self._timer_widget.value != timer:
            self._timer_widget.value = timer

    # -- drawing ------------------------------------------------------------------------------------------

    def _shown(self) -> tuple[list[Card], dict[Card, str], list[Card]]:
        return self.game.table, self._marks, self._selected

    def _slots(self) -> int:
        return self.game.table_size

    @property
    def card_rects(self) -> list[tuple[float, float, float, float]]:
        """Where each card on the table is drawn: ``(x, y, w, h)`` in canvas pixels, by position."""
        return super().card_rects[: len(self.game.table)]

    def _client_ready(self) -> None:
        super()._client_ready()
        self._scheduler.start()
        self._plan_bot()
        self._scheduler.keep_ticking()

    def _static_text(self) -> list[str]:
        return [self.rules, self.status, self.scores, wording.deck(self.game)]

    def close(self) -> None:
        """Stop the computer and the clock, and close the widget."""
        if hasattr(self, "_status_text"):
            self.game.on_change(self._on_event, remove=True)
        super().close()

    def __repr__(self) -> str:
        return f"<Board: {len(self.game.table)} cards, {self.scores}>"
