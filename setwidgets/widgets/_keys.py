"""Seats and keys on a Board: the game it shows, who clicks, where the computer sits, what each key does.

Every seat is looked up by the game itself (:meth:`~setwidgets.game.Game.seat`),
so a player given by number (numpy's too) or by name gets the same answer, and
the same message when there is no such player, in the Board as in the Game.
The functions here only add what is the Board's own: the default seats, and
the map from keys to the players who call SET with them.

>>> from setwidgets import Game
>>> game = Game(players=["Ana", "Ben"], seed=1)
>>> call_keys(game, {"1": "Ana", "2": 1}, player=0)
{' ': 0, '1': 0, '2': 1}
>>> card_letter(0), card_letter(3), card_letter(21)
('q', 'w', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from setwidgets import _words
from setwidgets._inputs import short, what
from setwidgets.bot import Bot
from setwidgets.game import Game, GameError
from setwidgets.widgets._view import Lettering

__all__ = [
    "CALL_KEY",
    "CLEAR_KEY",
    "HINT_KEY",
    "KEY_ROWS",
    "LETTERS",
    "board_game",
    "bot_seat",
    "call_keys",
    "card_letter",
    "check_bot",
    "key_name",
    "player_seat",
    "seat",
]

KEY_ROWS: tuple[str, str, str] = ("qwertyu", "asdfghj", "zxcvbnm")
"""The letters of the cards: one keyboard row per table row, left to right."""
LETTERS = Lettering(KEY_ROWS)
"""The Board's letters: positions run down the columns (q, a, z, then w, s, x, ...)."""
CALL_KEY = " "
"""The space bar calls SET (for the first player, unless ``keys`` says otherwise)."""
HINT_KEY = "?"
CLEAR_KEY = "escape"
COMPUTER = "Computer"
"""The name of the computer's seat when ``bot_player`` is not given."""


def card_letter(position: int) -> str | None:
    """The keyboard letter of a table position (None beyond 21 cards).

    Positions run down the columns: 0, 1, 2 are the first column (q, a, z),
    3, 4, 5 the second (w, s, x), and so on.
    """
    return LETTERS.letter(position)


def key_name(key: str) -> str:
    """A key as the Board compares it: lower case, with "space" for the space bar."""
    if key.lower() in ("space", "spacebar"):
        return CALL_KEY
    return key if key == CALL_KEY else key.lower()


def board_game(
    game: Any, *, variant: Any, players: Any, seed: Any, deck: Any, clock: Callable[[], float]
) -> Game:
    """The game a Board shows: ``game`` itself, or a new one dealt from the other arguments, not both."""
    if game is None:
        return Game(
            deck="full" if deck is None else deck,
            players=players,
            variant="standard" if variant is None else variant,
            seed=seed,
            clock=clock,
        )
    if not isinstance(game, Game):
        raise TypeError(
            f"Board() shows a Game, as in Board(Game(seed=1)) or Board(variant='online', seed=1); "
            f"got {what(game)}"
        )
    given = [
        n
        for n, v in (("variant", variant), ("players", players), ("seed", seed), ("deck", deck))
        if v is not None
    ]
    if given:
        raise TypeError(
            f"{_words.and_list(given)}= make a new game; the game given has its own. "
            "Use Board(game) or Board(variant=..., players=..., seed=...), not both"
        )
    return game


def check_bot(bot: Any, bot_player: Any) -> None:
    """A Board's computer is a Bot or None, and it has a seat (``bot_player``) only when it is there."""
    if bot is not None and not isinstance(bot, Bot):
        raise TypeError(f"bot must be a Bot, as in bot=Bot('beginner'); got {what(bot)}")
    if bot is None and bot_player is not None:
        raise TypeError(
            "bot_player= is the computer's seat; give the computer too, as in Board(game, "
            f"bot=Bot('beginner'), bot_player=1); got bot_player={short(bot_player)} and no bot"
        )


def seat(game: Game, who: Any, name: str) -> int:
    """The seat of ``who`` (number or name) in ``game``; errors name the argument ``name``."""
    try:
        return game.seat(who)
    except (GameError, TypeError) as error:
        # The game's own message, led by the argument it was about.
        raise type(error)(f"{name}: {error}") from None


def bot_seat(game: Game, bot_player: Any = None) -> int:
    """The computer's seat: ``bot_player``, else the player called "Computer", else the last one."""
    if bot_player is not None:
        return seat(game, bot_player, "bot_player")
    names = [p.name for p in game.players]
    if COMPUTER in names:
        return names.index(COMPUTER)
    if len(names) > 1:
        return len(names) - 1
    raise GameError(
        "the computer needs a seat at the table: make the game with a player for it, "
        "e.g. Game(players=['You', 'Computer'])"
    )


def player_seat(game: Game, player: Any = None, computer: int | None = None) -> int:
    """Who clicks when nobody has called: ``player``, else the first seat that is not the computer's."""
    if player is not None:
        found = seat(game, player, "player")
    else:
        found = next((i for i in range(len(game.players)) if i != computer), 0)
    if found == computer:
        raise GameError(f"player {found} is the computer's seat; choose another player to click for")
    return found


def call_keys(game: Game, keys: Mapping[str, Any] | None, player: int) -> dict[str, int]:
    """The keys that call SET, each with its player's seat; space calls for ``player`` unless mapped.

    Each key is a non-empty string that does not select a card, give a hint or
    clear; each player is given as :meth:`~setwidgets.game.Game.seat` takes one.
    """
    table: dict[str, int] = {CALL_KEY: player}
    if keys is None:
        return table
    if not isinstance(keys, Mapping):
        raise TypeError(
            f'keys maps a key to the player who calls with it, like {{"1": 0, "2": 1}}; got {what(keys)}'
        )
    letters = set("".join(KEY_ROWS))
    for key, who in keys.items():
        if not isinstance(key, str):
            raise TypeError(f"a key is a string such as '1'; got {what(key)}")
        if not key:
            raise ValueError("a key is a non-empty string such as '1'; got ''")
        name = key_name(key)
        if name in letters or name in (HINT_KEY, CLEAR_KEY):
            raise ValueError(
                f"the key {short(key)} already selects a card or gives a hint; "
                "choose another one, such as a digit"
            )
        table[name] = seat(game, who, f"the player for key {short(key)}")
    return table
