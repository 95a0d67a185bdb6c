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

import asyncio
import math
import random
import time
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from html import escape
from typing import Any

from ipywidgets import HTML, Button, HBox, Layout

from setwidgets import _words
from setwidgets._words import count
from setwidgets.bot import Bot
from setwidgets.cards import Card
from setwidgets.draw import geometry as geo
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.game import Claim, Game, GameError, NoSet
from setwidgets.widgets._view import CardsView, nbgrader_running

__all__ = ["CALL_KEY", "KEY_ROWS", "Board", "card_letter"]

KEY_ROWS: tuple[str, str, str] = ("qwertyu", "asdfghj", "zxcvbnm")
"""The letters of the cards: one keyboard row per table row, left to right."""
CALL_KEY = " "
"""The space bar calls SET (for the first player, unless ``keys`` says otherwise)."""
HINT_KEY = "?"
CLEAR_KEY = "escape"

ROWS = 3
"""A table has three rows; three more cards make one more column."""
FLASH_SECONDS = 0.7
"""How long a taken SET stays framed before the new cards are shown."""
TICK_SECONDS = 0.5
IDLE_SECONDS = 600.0
AGAIN = "Press New game to play again."


def card_letter(position: int) -> str | None:
    """The keyboard letter of a table position (None beyond 21 cards).

    Positions run down the columns: 0, 1, 2 are the first column (q, a, z),
    3, 4, 5 the second (w, s, x), and so on.
    """
    row, column = position % ROWS, position // ROWS
    return KEY_ROWS[row][column] if column < len(KEY_ROWS[row]) else None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _clock_text(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class Board(CardsView):
    """A live SET table for a :class:`~setwidgets.game.Game`: click three cards that form a SET.

    ::

        from setwidgets import Game
        from setwidgets.widgets import Board

        board = Board(Game(deck="mini", seed=1))
        board            # shows the table; click (or press a card's letter) to select

    Each card has a letter in its corner (top row ``q w e r t y u``, middle
    ``a s d f g h j``, bottom ``z x c v b n m``). Space calls SET, ``?`` asks
    for a hint, Escape clears the selection. The buttons call SET, say there
    is no SET (more cards are dealt) and start a new game. To race the
    computer: ``Board(Game(players=["You", "Computer"]), bot=Bot("beginner"))``.

    Parameters
    ----------
    game:
        The game to show and play.
    theme:
        "classic", "colorblind", "printable" or a :class:`~setwidgets.draw.themes.Theme`.
    bot:
        A :class:`~setwidgets.bot.Bot` to race, or None.
    keys:
        Extra keys that call SET for a player, e.g. ``{"1": 0, "2": "Ben"}``
        (by index or name). Space calls for the first player unless mapped here.
    width:
        The largest width of the table in pixels; it shrinks to fit narrower
        output areas and keeps its proportions.
    player:
        Who clicks when nobody has called (default: the first player that is not the computer).
    bot_player:
        The computer's seat (default: the player named "Computer", else the last player).
    clock:
        Time in seconds for the game clock shown on the board (tests pass a fake one).

    What a program or a test can use: :meth:`click`, :meth:`select`,
    :meth:`press`, :meth:`call`, :meth:`no_set`, :meth:`hint`,
    :meth:`new_game`, :meth:`bot_move`, :meth:`tick`; :attr:`status`,
    :attr:`selected`, :attr:`highlights`, :attr:`card_rects`, :attr:`card_names`,
    :attr:`canvas`, :attr:`scores`, :attr:`timer`.
    """

    def __init__(
        self,
        game: Game,
        theme: str | Theme = "classic",
        bot: Bot | None = None,
        keys: Mapping[str, int | str] | None = None,
        width: int | None = None,
        *,
        player: int | str | None = None,
        bot_player: int | str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"Board() shows a Game, as in Board(Game(seed=1)); got {game!r}")
        if bot is not None and not isinstance(bot, Bot):
            raise TypeError(f"bot must be a Bot, as in bot=Bot('beginner'); got {bot!r}")
        if not callable(clock):
            raise TypeError(f"clock must be a function returning seconds; got {clock!r}")
        self.theme = get_theme(theme)
        self.bot = bot
        self._clock = clock
        self.game = game
        self.bot_player = self._find_bot_seat(game, bot_player) if bot is not None else None
        self.player = self._find_player(game, player)
        self.call_keys = self._check_keys(game, keys)
        self._seeds = random.Random(game.seed if game.seed is not None else 0)

        self._setup_canvas("setw-board", width)
        self._status_widget = HTML()
        self._status_widget.add_class("setw-status")
        self._scores_widget = HTML()
        self._scores_widget.add_class("setw-scores")
        self._deck_widget = HTML()
        self._deck_widget.add_class("setw-deck")
        self._timer_widget = HTML()
        self._timer_widget.add_class("setw-timer")
        self.buttons = {
            "call": Button(description="SET!", tooltip="Call SET (space bar), then pick three cards"),
            "no_set": Button(description="No SET here", tooltip="Nobody can find a SET: deal more cards"),
            "hint": Button(description="Hint", tooltip="Show a card of a SET (?)"),
            "new_game": Button(description="New game", tooltip="Shuffle and deal a new game"),
        }
        self.buttons["call"].button_style = "primary"
        if len(game.players) == 1 and bot is None:
            # Alone there is nobody to race: a click on three cards is the claim.
            self.buttons["call"].layout.display = "none"
        for name, button in self.buttons.items():
            button.add_class(f"setw-button-{name.replace('_', '-')}")
        self.buttons["call"].on_click(lambda _: self.call())
        self.buttons["no_set"].on_click(lambda _: self.no_set())
        self.buttons["hint"].on_click(lambda _: self.hint())
        self.buttons["new_game"].on_click(lambda _: self.new_game())
        info = HBox(
            [self._scores_widget, self._deck_widget, self._timer_widget],
            layout=Layout(justify_content="space-between", width="100%", flex_flow="row wrap"),
        )
        super().__init__(
            children=[info, self.picture_box, self._status_widget, HBox(list(self.buttons.values()))],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-board")

        self.canvas.on_mouse_down(self._mouse_down)
        self.canvas.on_key_down(self._key_down)
        self._loop = _running_loop()
        self._bot_handle: asyncio.TimerHandle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._start(game, "")

    # -- seats and keys ---------------------------------------------------------------------------

    @staticmethod
    def _seat(game: Game, who: int | str, what: str) -> int:
        names = [p.name for p in game.players]
        if isinstance(who, str) and who in names:
            return names.index(who)
        if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
            return who
        listed = ", ".join(f"{i} ({n})" for i, n in enumerate(names))
        raise ValueError(f"{what} must be a player's number or name; the players are {listed}; got {who!r}")

    def _find_bot_seat(self, game: Game, bot_player: int | str | None) -> int:
        names = [p.name for p in game.players]
        if bot_player is not None:
            return self._seat(game, bot_player, "bot_player")
        if "Computer" in names:
            return names.index("Computer")
        if len(names) > 1:
            return len(names) - 1
        raise ValueError(
            "the computer needs a seat at the table: make the game with a player for it, "
            "e.g. Game(players=['You', 'Computer'])"
        )

    def _find_player(self, game: Game, player: int | str | None) -> int:
        if player is not None:
            seat = self._seat(game, player, "player")
        else:
            seat = (
                next(i for i in range(len(game.players)) if i != self.bot_player)
                if len(game.players) > 1
                else 0
            )
        if seat == self.bot_player:
            raise ValueError(f"player {seat} is the computer's seat; choose another player to click for")
        return seat

    def _check_keys(self, game: Game, keys: Mapping[str, int | str] | None) -> dict[str, int]:
        table: dict[str, int] = {CALL_KEY: self.player}
        if keys is None:
            return table
        if not isinstance(keys, Mapping):
            raise TypeError(
                f'keys maps a key to the player who calls with it, like {{"1": 0, "2": 1}}; got {keys!r}'
            )
        letters = {c for row in KEY_ROWS for c in row}
        for key, who in keys.items():
            if not isinstance(key, str) or not key:
                raise ValueError(f"a key is a non-empty string such as '1'; got {key!r}")
            name = self._key_name(key)
            if name in letters or name in (HINT_KEY, CLEAR_KEY):
                raise ValueError(
                    f"the key {key!r} already selects a card or gives a hint; "
                    "choose another one, such as a digit"
                )
            table[name] = self._seat(game, who, f"the player for key {key!r}")
        return table

    @staticmethod
    def _key_name(key: str) -> str:
        if key.lower() in ("space", "spacebar"):
            return CALL_KEY
        return key if key == CALL_KEY else key.lower()

    # -- state -----------------------------------------------------------------------------------

    def _start(self, game: Game, status: str) -> None:
        self.game = game
        game.on_change(self._on_event)
        self._selected: list[Card] = []
        self._marks: dict[Card, str] = {}
        self._flash: geo.Scene | None = None
        self._acting = 0
        self._events: list[dict[str, Any]] = []
        self._started = self._clock()
        self._ended: float | None = None
        self._table_key: tuple[Card, ...] | None = None
        self._last_input = self._started
        self._status_text = f"{status} {self._welcome()}".strip()
        self._after_change()

    def _welcome(self) -> str:
        if self.game.over:
            return ""  # dealt out with no SET at all: the final words say it
        n = len(self.game.table)
        text = f"{n} cards on the table. Click three cards that form a SET"
        if self.bot is not None:
            text += f", before {self.game.players[self.bot_player].name} does"
        return text + "."

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
    def scores(self) -> str:
        """The score line as text, e.g. ``'You 2 · Computer 1'``."""
        parts = []
        for p in self.game.players:
            text = f"{p.name} {p.score}"
            if p.penalties:
                text += f" ({count(len(p.sets), 'SET')}, {count(p.penalties, 'penalty')})"
            parts.append(text)
        return " · ".join(parts)

    @property
    def timer(self) -> str:
        """The timer line: game time, and the seconds left to the caller."""
        end = self._ended if self._ended is not None else self._clock()
        text = f"Time {_clock_text(end - self._started)}"
        caller = self.game.caller
        if caller is not None:
            left = self.game.time_left()
            name = self.game.players[caller].name
            text += f" · {name} is picking" if left is None else f" · {name}: {math.ceil(left)} s to pick"
        return text

    def letters(self) -> list[str | None]:
        """The keyboard letter of each card on the table, by position."""
        return [card_letter(p) for p in range(len(self.game.table))]

    # -- input: mouse, keys, buttons ---------------------------------------------------------------

    def _mouse_down(self, x: float, y: float) -> None:
        self.click(x, y)

    def _key_down(self, key: str, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
        if not (ctrl or meta):
            self.press(key)

    def click(self, x: float, y: float) -> int | None:
        """A click at canvas pixel (x, y): selects or deselects the card there.

        Returns the card's position, or None when the click is between cards.
        """
        position = self.position_at(x, y)
        if position is not None:
            self.select(position)
        return position

    def press(self, key: str) -> bool:
        """A key press: a card letter, space (call SET), a player's call key, ``?`` or Escape.

        Returns True when the key did something.
        """
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'q' or ' '; got {key!r}")
        name = self._key_name(key)
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
        for position in range(len(self.game.table)):
            if card_letter(position) == name:
                self.select(position)
                return True
        return False

    def select(self, position: int) -> Claim | None:
        """Select or deselect the card at a table position (0 is the top-left card).

        The third selected card sends the three to the game as a claim, for the
        player who called SET (or the board's player when nobody called).
        Returns the :class:`~setwidgets.game.Claim` when a claim was made.
        """
        table = self.game.table
        if isinstance(position, bool) or not isinstance(position, int):
            raise ValueError(
                f"position must be a whole number such as 0 (the top-left card); got {position!r}"
            )
        if self.game.over:
            with self._action():
                self._set_status(self._over_text())
            return None
        if not 0 <= position < len(table):
            raise ValueError(
                f"position must be a whole number from 0 to {len(table) - 1} (a card on the table); "
                f"got {position!r}"
            )
        card = table[position]
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
        self._set_status(claim.message + self._next_caller())
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
        seat = self.player if player is None else self._seat(self.game, player, "player")
        with self._action():
            try:
                self.game.call(seat)
            except GameError as error:
                self._refuse(error)
                return False
            if seat != self.player:
                # The cards picked so far were someone else's idea; the caller starts afresh.
                self._selected = []
            seconds = self.game.claim_seconds
            within = "" if seconds is None else f" within {_words.seconds(seconds)}"
            self._set_status(f"{self.game.players[seat].name} called SET! Pick three cards{within}.")
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
                self._set_status(self._over_text())
                return []
            cards = self.game.hint()
            self._marks = dict.fromkeys(cards, "hint")
            if not cards:
                self._set_status(
                    f"There is no SET among these {len(self.game.table)} cards: press “No SET here”."
                )
            elif len(cards) == 1:
                self._set_status("Hint: the framed card is part of a SET.")
            elif len(cards) == 2:
                self._set_status("Hint: the two framed cards are in a SET. Which card completes it?")
            else:
                self._set_status("Hint: the three framed cards form a SET.")
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
        self._start(game, f"New game (seed {seed}).")
        return game

    # -- the computer -------------------------------------------------------------------------------

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
            self._schedule_bot(retry=True)
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
                self._set_status(f"{self.game.players[self.bot_player].name}: {result.message}")
            return result

    def _can_schedule(self) -> bool:
        # Only a board that a browser shows runs its clock and its computer player: no one
        # races a board in a notebook run by nbclient or nbgrader, and its output stays the same.
        return self._live and self._loop is not None and not self._loop.is_closed() and not nbgrader_running()

    def _schedule_bot(self, retry: bool = False) -> None:
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None
        if self.bot is None or self.game.over or not self._can_schedule():
            return
        delay = 1.0 if retry else self.bot.delay(self.game.table)
        self._bot_handle = self._loop.call_later(delay, self._bot_fire)

    def _bot_fire(self) -> None:
        self._bot_handle = None
        self.bot_move()

    # -- the clock -----------------------------------------------------------------------------------

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

    def _schedule_tick(self) -> None:
        if self._tick_handle is not None or self.game.over or not self._can_schedule():
            return
        self._tick_handle = self._loop.call_later(TICK_SECONDS, self._tick_fire)

    def _tick_fire(self) -> None:
        self._tick_handle = None
        if self.comm is None:  # closed
            return
        self.tick()
        # A board nobody touched for a while (an old output, a forgotten tab) stops ticking;
        # the next click or key starts the clock display again.
        if self.game.caller is not None or self._clock() - self._last_input < IDLE_SECONDS:
            self._schedule_tick()

    # -- keeping the view in step with the game ---------------------------------------------------------

    @contextmanager
    def _action(self):
        """Group one input's game moves: redraw once at the end, whatever happened."""
        self._acting += 1
        self._last_input = self._clock()
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
        """Show why the game refused a move, as a sentence (the final score once the game is over)."""
        text = str(error)
        self._set_status(self._over_text() if self.game.over else text[:1].upper() + text[1:])

    def _next_caller(self) -> str:
        """' Ana, pick three cards within 5 seconds.' when another caller's turn has begun."""
        caller = self.game.caller
        if caller is None or self.game.over:
            return ""
        left = self.game.time_left()
        # The next caller's time started when the last one's ran out, so it may be partly gone.
        seconds = None if left is None else max(1, math.ceil(left))
        within = "" if seconds is None else f" within {_words.seconds(seconds)}"
        return f" {self.game.players[caller].name}, pick three cards{within}."

    def _on_event(self, event: dict[str, Any]) -> None:
        self._events.append(event)
        if not self._acting:
            # A move made outside the board (another cell, another widget): show it.
            self._after_change()

    def _after_change(self) -> None:
        messages = [e["message"] for e in self._events if e.get("message")]
        if messages:
            timed_out = any(e.get("type") == "timeout" for e in self._events)
            self._status_text = " ".join(messages) + (self._next_caller() if timed_out else "")
        self._events = []
        table = self.game.table
        self._selected = [c for c in self._selected if c in table]
        self._marks = {c: k for c, k in self._marks.items() if c in table}
        if self.game.over and self._ended is None:
            self._ended = self._clock()
            self._status_text = (self._status_text + " " + self._over_text()).strip()
        self._update_text()
        for name in ("call", "no_set", "hint"):
            self.buttons[name].disabled = self.game.over
        flash, self._flash = self._flash, None
        self.redraw(before=flash, pause=FLASH_SECONDS if flash is not None else 0.0)
        if tuple(table) != self._table_key:
            self._table_key = tuple(table)
            self._schedule_bot()
        self._schedule_tick()

    def _over_text(self) -> str:
        game = self.game
        if game.lost:
            return "Game over: no SET on the table, so this solitaire game is lost. " + AGAIN
        players = game.players
        if len(players) == 1:
            p = players[0]
            return f"Game over: {p.name} kept {count(len(p.sets), 'SET')}, score {p.score}. " + AGAIN
        best = max(p.score for p in players)
        winners = game.winners
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins with {count(best, 'point')}. " + AGAIN
        return f"Game over: {' and '.join(winners)} tie with {count(best, 'point')}. " + AGAIN

    def _update_text(self) -> None:
        self._status_widget.value = f"<span>{escape(self._status_text)}</span>"
        self._scores_widget.value = f"<b>{escape(self.scores)}</b>"
        deck = len(self.game.deck)
        self._deck_widget.value = f"Deck: {count(deck, 'card')}"
        timer = escape(self.timer)
        if self._timer_widget.value != timer:
            self._timer_widget.value = timer

    # -- drawing ------------------------------------------------------------------------------------------

    def _scale(self) -> float:
        return 0.9

    def _scene(
        self,
        table: list[Card] | None = None,
        marks: Mapping[Card, str] | None = None,
        selected: tuple[Card, ...] | list[Card] | None = None,
    ) -> geo.Scene:
        table = self.game.table if table is None else table
        marks = self._marks if marks is None else marks
        selected = self._selected if selected is None else selected
        kinds = {p: marks[c] for p, c in enumerate(table) if c in marks}
        kinds.update({p: "selected" for p, c in enumerate(table) if c in selected})
        slots = max(len(table), self.game.table_size)
        letters = [card_letter(p) for p in range(len(table))]
        scene = geo.scene(
            table,
            rows=ROWS,
            order="columns",
            letters=letters,
            highlight=kinds,
            theme=self.theme,
            scale=self._scale(),
            background=self.theme.table,
            slots=math.ceil(slots / ROWS) * ROWS,
        )
        return scene

    @property
    def card_rects(self) -> list[tuple[float, float, float, float]]:
        """Where each card on the table is drawn: ``(x, y, w, h)`` in canvas pixels, by position."""
        return super().card_rects[: len(self.game.table)]

    def _client_ready(self) -> None:
        super()._client_ready()
        self._schedule_bot()
        self._schedule_tick()

    def redraw(self, before: geo.Scene | None = None, pause: float = 0.0) -> None:
        """Paint the table (see :meth:`CardsView.redraw`); the lines around it keep to its width."""
        super().redraw(before, pause)
        self.layout.max_width = self.canvas.layout.max_width

    def _natural_width(self) -> float:
        _, width, _ = geo.grid(self.game.table_size, rows=ROWS, order="columns", scale=self._scale())
        return width

    def _static_text(self) -> list[str]:
        return [self.status, self.scores, f"Deck: {len(self.game.deck)} cards"]

    def close(self) -> None:
        """Stop the computer and the clock, and close the widget."""
        for name in ("_bot_handle", "_tick_handle"):
            handle = getattr(self, name, None)
            if handle is not None:
                handle.cancel()
            setattr(self, name, None)
        if hasattr(self, "_status_text"):
            self.game.on_change(self._on_event, remove=True)
        super().close()

    def __repr__(self) -> str:
        return f"<Board: {len(self.game.table)} cards, {self.scores}>"
