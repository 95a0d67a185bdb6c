"""What a Board says: the status sentence, the score line, the deck and the clock, as pure functions.

Each function takes the game (and what just happened) and returns text; none
keeps state or touches a widget, so each can be tested without ipywidgets (the
:class:`~setwidgets.widgets.Board` and the :class:`~setwidgets.widgets.PuzzleBoard`
show these words; the wording lives beside the core, the widgets only display it).
Counted nouns come from :mod:`setwidgets._words` ("Deck: 1 card").

>>> from setwidgets import Game
>>> game = Game(players=["Ana", "Ben"], seed=11)
>>> welcome(game)
'12 cards on the table. Click three cards that form a SET.'
>>> scores(game), deck(game), clock_text(75.4)
('Ana 0 · Ben 0', 'Deck: 69 cards', '01:15')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from setwidgets import _words
from setwidgets.cards import Card
from setwidgets.game import Game, variants

__all__ = [
    "AGAIN",
    "after",
    "bot_says",
    "called",
    "clock_text",
    "deck",
    "from_events",
    "game_over",
    "hint",
    "html",
    "new_game",
    "next_caller",
    "refused",
    "rules",
    "scores",
    "timer",
    "welcome",
]

AGAIN = "Press New game to play again."
LONG_RULE = 240
"""A variant's docstring longer than this is cut to its first paragraph on the rules line."""


def clock_text(seconds: float) -> str:
    """Seconds as minutes and seconds on a clock: ``'01:15'`` (never below ``'00:00'``)."""
    whole = _words.whole_seconds(seconds)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def _within(seconds: float | None) -> str:
    return "" if seconds is None else f" within {_words.seconds(seconds)}"


def welcome(game: Game, rival: str | None = None) -> str:
    """The first words on a new table; ``rival`` names the computer's seat when one races."""
    if game.over:
        return ""  # dealt out with no SET at all: the final words say it
    text = f"{_words.count(len(game.table), 'card')} on the table. Click three cards that form a SET"
    if rival is not None:
        text += f", before {rival} does"
    return text + "."


def waiting(rival: str | None = None) -> str:
    """What a board says until the student's first click or key: who waits for it."""
    if rival is None:
        return "The clock starts with your first click or key."
    return f"The clock and {rival} start with your first click or key."


def new_game(seed: int, game: Game, rival: str | None = None) -> str:
    """'New game (seed 5).' and the welcome of the new table."""
    return f"New game (seed {seed}). {welcome(game, rival)}".strip()


def variant_rule(name: str) -> str:
    """What a variant does, in its own words: its docstring on one line (the first paragraph of a long one).

    >>> variant_rule("online")
    'Whenever the table has no SET after a deal, three more cards are dealt. Again and again, until a SET \
lies on the table or the deck is empty.'
    """
    doc = (type(variants.rules_of(name)).__doc__ or "").strip()
    whole = " ".join(doc.split())
    return whole if len(whole) <= LONG_RULE else " ".join(doc.split("\n\n")[0].split())


def rules(game: Game) -> str:
    """The rules in force, as one line: the variant and what it does, the table, the time to pick.

    >>> rules(Game(players=["Ana", "Ben"], variant="standard", seed=1))
    'Rules: standard. No turns; when nobody sees a SET, three more cards are laid out. Cards above the usual \
table size are not replaced when a SET is taken, so the table shrinks back. 12 cards on the table; after a \
call, 5 seconds to pick three cards; several callers are served in the order they called.'
    """
    parts = [f"Rules: {game.variant}.", variant_rule(game.variant)]
    table = f"{_words.count(game.table_size, 'card')} on the table"
    if len(game.players) == 1:
        return " ".join([*parts, f"{table}."])
    seconds = game.claim_seconds
    pick = "no time limit to pick" if seconds is None else f"{_words.seconds(seconds)} to pick three cards"
    parts.append(f"{table}; after a call, {pick}; several callers are served in the order they called.")
    return " ".join(parts)


def scores(game: Game) -> str:
    """The score line, ``'Ana 2 · Ben -1 (0 SETs, 1 penalty)'``: SETs and penalties once penalized."""
    parts = []
    for p in game.players:
        text = f"{p.name} {p.score}"
        if p.penalties:
            text += f" ({_words.count(len(p.sets), 'SET')}, {_words.count(p.penalties, 'penalty')})"
        parts.append(text)
    return " · ".join(parts)


def deck(game: Game) -> str:
    """``'Deck: 1 card'``, ``'Deck: 69 cards'``."""
    return f"Deck: {_words.count(len(game.deck), 'card')}"


def timer(game: Game, elapsed: float) -> str:
    """The timer line: the game's time, and how long the caller has left to pick."""
    text = f"Time {clock_text(elapsed)}"
    caller = game.caller
    if caller is not None:
        left = game.time_left()
        name = game.players[caller].name
        text += f" · {name} is picking" if left is None else f" · {name}: {math.ceil(left)} s to pick"
    return text


def called(game: Game, seat: int) -> str:
    """'Ana called SET! Pick three cards within 5 seconds.', or, for a caller who waits in line,
    'Ben called SET too, and picks after Ana.'"""
    name = game.players[seat].name
    ahead = game.callers[: game.callers.index(seat)] if seat in game.callers else []
    if ahead:
        names = _words.and_list([game.players[c].name for c in ahead])
        return f"{name} called SET too, and picks after {names}."
    return f"{name} called SET! Pick three cards{_within(game.claim_seconds)}."


def next_caller(game: Game) -> str:
    """'Ana, pick three cards within 2 seconds.' when a caller waits to pick, else ''."""
    caller = game.caller
    if caller is None or game.over:
        return ""
    left = game.time_left()
    # The next caller's time started when the last one's ran out, so it may be partly gone.
    seconds = None if left is None else max(1, math.ceil(left))
    return f"{game.players[caller].name}, pick three cards{_within(seconds)}."


def after(text: str, game: Game) -> str:
    """``text`` followed by the next caller's turn, when one waits to pick."""
    return " ".join(part for part in (text, next_caller(game)) if part)


def hint(cards: Sequence[Card], game: Game) -> str:
    """What a hint of ``cards`` (none, one, two or three cards of a SET) says."""
    if not cards:
        return f"There is no SET among these {_words.count(len(game.table), 'card')}: press “No SET here”."
    if len(cards) == 1:
        return "Hint: the framed card is part of a SET."
    if len(cards) == 2:
        return "Hint: the two framed cards are in a SET. Which card completes it?"
    return "Hint: the three framed cards form a SET."


def game_over(game: Game) -> str:
    """The final words: who won, or that a solitaire game is lost; '' while the game goes on."""
    if not game.over:
        return ""
    if game.lost:
        return "Game over: no SET on the table, so this solitaire game is lost. " + AGAIN
    players = game.players
    if len(players) == 1:
        p = players[0]
        return f"Game over: {p.name} kept {_words.count(len(p.sets), 'SET')}, score {p.score}. " + AGAIN
    best = max(p.score for p in players)
    winners = game.winners
    verb = "wins" if len(winners) == 1 else "tie"
    return f"Game over: {_words.and_list(winners)} {verb} with {_words.count(best, 'point')}. " + AGAIN


def refused(error: Exception, game: Game) -> str:
    """Why the game refused a move, as a sentence (the final score once the game is over)."""
    if game.over:
        return game_over(game)
    text = str(error)
    return text[:1].upper() + text[1:]


def bot_says(game: Game, seat: int, message: str) -> str:
    """'Computer: No SET among 12 cards: 3 more were dealt.'"""
    return f"{game.players[seat].name}: {message}"


def from_events(events: Iterable[Mapping[str, Any]], game: Game) -> str | None:
    """What the game's events since the last input said, as one status line (None if nothing).

    After a caller's time ran out, the next caller in line is told to pick.
    """
    events = list(events)
    messages = [e["message"] for e in events if e.get("message")]
    if not messages:
        return None
    text = " ".join(messages)
    return after(text, game) if any(e.get("type") == "timeout" for e in events) else text


def html(text: str, tag: str = "span", style: str = "") -> str:
    """Text for an HTML widget: escaped, inside one element (with an inline ``style``, if given)."""
    attribute = f' style="{escape(style)}"' if style else ""
    return f"<{tag}{attribute}>{escape(text)}</{tag}>"


RULES_STYLE = "display:block;line-height:1.35;margin:2px 0 4px;color:#444"
"""How the rules line looks: small, compact, a little quieter than the status line."""
