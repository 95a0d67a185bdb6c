"""What a student types, turned into cards, numbers, seeds, seconds and players: one policy for errors.

The policy, used by every public function of the package:

- the wrong *kind* of object (a string where a number belongs, a float where a
  whole number belongs, bytes where text belongs) raises ``TypeError``;
- the right kind with a wrong *value* (a negative count, an unknown name)
  raises ``ValueError``, or the caller's own subclass of it (``error=``), such
  as :class:`~setwidgets.game.GameError`;
- every message names what was wrong, quotes the input in short (see
  :func:`short`) and says what is expected;
- nothing is changed before the input has been checked.

Any ``numbers.Integral`` is a whole number (``2``, ``numpy.int64(2)``);
``True`` and ``False`` are not.

Cards may be given as Card objects or codes such as ``"2RTO"``; several cards
as separate arguments, one list (or any iterable), or one string of codes
separated by spaces, commas or semicolons (:func:`split_codes`). Bytes are
refused with a message about bytes: a code is text.
"""

from __future__ import annotations

import math
import numbers
import random
import re
import reprlib
from collections.abc import Callable, Iterable, Sequence, Sized
from itertools import islice
from typing import TYPE_CHECKING, Any

from setwidgets import _words

if TYPE_CHECKING:  # cards imports this module; the functions below import cards when they run
    from setwidgets.cards import Card

__all__ = [
    "as_card",
    "as_cards",
    "bytes_hint",
    "distinct_cards",
    "exactly",
    "gather",
    "is_whole",
    "listed",
    "player_index",
    "rng_and_seed",
    "seconds",
    "short",
    "split_codes",
    "what",
    "whole_hint",
    "whole_number",
]

_SHORT = reprlib.Repr()
# A message quotes a few items and the start of a long string: enough to recognise the input.
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxfrozenset = _SHORT.maxdeque = 4
_SHORT.maxdict = 4
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlevel = 2
_LONGEST_QUOTE = 100  # characters; even a short repr of many long items is cut here


def short(obj: Any) -> str:
    """A readable repr of ``obj``, shortened: the first few items and "and N more".

    >>> short([None] * 100000)
    '[None, None, None, None, ...] (100000 items)'
    >>> short("1RSO")
    "'1RSO'"
    """
    text = _SHORT.repr(obj)  # reprlib names an object whose own repr fails
    if len(text) > _LONGEST_QUOTE:
        text = text[: _LONGEST_QUOTE - 3] + "..."
    try:
        size = len(obj)
    except Exception:
        return text
    if not isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxlist:
        return f"{text} ({size} items)"
    if isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxstring:
        return f"{text} ({size} characters)"
    return text


def path_text(path: Any, width: int = 80) -> str:
    """A file's path for a message, quoted; a long one keeps its end, where the file's name is.

    >>> path_text("/home/ana/" + "x" * 90 + "/class.sqlite")
    "'...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/class.sqlite'"
    """
    text = str(path)
    return repr(text if len(text) <= width else "..." + text[3 - width :])


def what(obj: Any) -> str:
    """A value and what kind of thing it is, in words: "3 (a number)", "None (nothing)".

    >>> what(None), what(2.5), what(b"1RSO")
    ('None (nothing)', '2.5 (a number)', "b'1RSO' (bytes, not text)")
    """
    if obj is None:
        return "None (nothing)"
    if isinstance(obj, bool):
        kind = "True or False"
    elif isinstance(obj, numbers.Number):
        kind = "a number"
    elif isinstance(obj, (bytes, bytearray)):
        kind = "bytes, not text"
    else:
        kinds = {list: "a list", tuple: "a tuple", str: "a string", dict: "a dict", set: "a set"}
        kind = kinds.get(type(obj)) or _words.a_or_an(type(obj).__name__)
    return f"{short(obj)} ({kind})"


_what = what  # for functions whose parameter is called ``what``


def is_whole(value: Any) -> bool:
    """True for whole numbers: ints and other ``numbers.Integral`` (numpy's too), not True/False."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def whole_hint(value: Any) -> str:
    """For a whole float such as 2.0, how to write it (": write 2, without the '.0'"); otherwise ''."""
    if is_whole(value) or isinstance(value, bool) or not isinstance(value, numbers.Real):
        return ""
    try:
        whole = math.isfinite(value) and float(value).is_integer()
    except (OverflowError, ValueError):
        return ""
    return f": write {short(int(value))}, without the '.0'" if whole else ""


def whole_number(
    value: Any,
    name: str,
    *,
    minimum: int | None = None,
    example: str = "12",
    error: type[ValueError] = ValueError,
) -> int:
    """``value`` as a plain int, or a clear error about ``name``.

    A whole float such as ``2.0`` is refused with the way to write it (``2``);
    ``True``/``False``, strings and other objects are refused as the wrong kind.

    >>> whole_number(3, "players")
    3
    >>> whole_number(2.0, "players")
    Traceback (most recent call last):
    TypeError: players must be a whole number like 12; got 2.0 (a number): write 2, without the '.0'
    """
    if not is_whole(value):
        raise TypeError(f"{name} must be a whole number like {example}; got {what(value)}{whole_hint(value)}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise error(f"{name} must be at least {minimum}; got {short(number)}")
    return number


def seconds(
    value: Any,
    name: str,
    *,
    allow_none: bool = True,
    error: type[ValueError] = ValueError,
) -> float | None:
    """A finite number of seconds above 0 (an int or a float), or None when ``allow_none``."""
    if value is None and allow_none:
        return None
    none = " or None for no limit" if allow_none else ""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds{none}; got {what(value)}")
    try:
        number = float(value)
    except OverflowError:  # a whole number or a Fraction beyond the floats: no clock reaches it
        number = math.inf if value > 0 else -math.inf
    if not math.isfinite(number) or not number > 0:
        raise error(f"{name} must be a finite number of seconds above 0{none}; got {short(value)}")
    return int(value) if is_whole(value) else number


def clock(clock: Any, name: str = "clock") -> Callable[[], float]:
    """``clock`` when it is a function taking no arguments; otherwise a TypeError."""
    if not callable(clock):
        raise TypeError(f"{name} must be a function that returns the time in seconds; got {what(clock)}")
    return clock


def read_clock(
    clock: Callable[[], float], name: str = "the clock", *, error: type[ValueError] = ValueError
) -> float:
    """The time ``clock()`` gives: a number (TypeError otherwise) of seconds, finite (``error`` otherwise)."""
    reading = clock()
    if isinstance(reading, bool) or not isinstance(reading, numbers.Real):
        raise TypeError(f"{name} must return the time in seconds, a number; it returned {what(reading)}")
    if not math.isfinite(reading):
        raise error(f"{name} must return a finite time in seconds; it returned {what(reading)}")
    return reading


def rng_and_seed(seed: Any, name: str = "seed") -> tuple[random.Random, int | None]:
    """A generator and the seed it was made from.

    An int (numpy's too) seeds a new ``random.Random``; a ``random.Random``
    is used as it is (the seed is then None); None draws a fresh seed from the
    operating system, never from the global generator, and returns it, so the
    run can be repeated.
    """
    if isinstance(seed, random.Random):
        return seed, None
    if seed is None:
        # The operating system's randomness, not the global RNG: a fresh seed is kept and can be replayed.
        fresh = random.SystemRandom().getrandbits(32)
        return random.Random(fresh), fresh
    if is_whole(seed):
        return random.Random(int(seed)), int(seed)
    raise TypeError(f"{name} must be a whole number, a random.Random or None; got {what(seed)}")


def player_index(player: Any, names: Sequence[str], *, error: type[ValueError] = ValueError) -> int:
    """The seat of ``player`` (a number from 0, or a name) among ``names``.

    >>> player_index("Ben", ["Ana", "Ben"]), player_index(0, ["Ana", "Ben"])
    (1, 0)
    """
    listed = ", ".join(f"{i} ({name})" for i, name in enumerate(names))
    if isinstance(player, str):
        if player in names:
            return list(names).index(player)
        folded = [n for n in names if n.strip().casefold() == player.strip().casefold()]
        if len(folded) == 1:
            return list(names).index(folded[0])
        raise error(f"there is no player called {short(player)}; the players are {listed}")
    if not is_whole(player):
        raise TypeError(f"a player is given by number or name; got {what(player)}. The players are {listed}")
    if not 0 <= int(player) < len(names):
        raise error(f"there is no player {short(int(player))}; the players are {listed}")
    return int(player)


# -- cards -------------------------------------------------------------------------------

_EXAMPLE_CARD = "Card(2, 'red', 'oval', 'striped')"
_LISTED = 5  # how many items a message lists before "and N more"
_LISTED_CHARACTERS = 50  # fewer items when the first ones are long


def bytes_hint(obj: Any) -> str:
    """For bytes, how to write them as text (": write '1RSO', without the b"); otherwise ''."""
    if not isinstance(obj, (bytes, bytearray)):
        return ""
    try:
        text = bytes(obj).decode()
    except UnicodeDecodeError:
        return ": give text, not bytes"
    if not text.isprintable() or len(text) > _LONGEST_QUOTE:
        return ": give text, not bytes"
    return f": write {short(text)}, without the b"


def _refuse_bytes(obj: Any, expected: str) -> None:
    if isinstance(obj, (bytes, bytearray)):
        raise TypeError(f"{expected}; got {what(obj)}{bytes_hint(obj)}")


def split_codes(text: str) -> list[str]:
    """The card codes in a string such as ``"1RSO 2GTS, 3POD"`` (spaces, commas or semicolons).

    >>> split_codes("1RSO 2GTS, 3POD;1RSS")
    ['1RSO', '2GTS', '3POD', '1RSS']
    """
    if not isinstance(text, str):
        _refuse_bytes(text, "card codes are text like '1RSO 2GTS 3POD'")
        raise TypeError(f"card codes are text like '1RSO 2GTS 3POD'; got {what(text)}")
    return [word for word in re.split(r"[\s,;]+", text) if word]


def as_card(obj: Any) -> Card:
    """Return ``obj`` as a Card: a Card is returned as it is, a code is parsed.

    Anything else raises a TypeError that says what a card looks like.

    >>> as_card("2rto")
    Card(2, 'red', 'oval', 'striped')
    """
    from setwidgets.cards import Card

    if isinstance(obj, Card):
        return obj
    if isinstance(obj, str):
        return Card.parse(obj)
    expected = f"expected a Card (for example {_EXAMPLE_CARD}) or a card code like '2RTO'"
    _refuse_bytes(obj, expected)
    hint = ""
    if isinstance(obj, (tuple, list)) and len(obj) == 4 and all(is_whole(x) for x in obj):
        hint = f"; four numbers make a card with Card.from_vector({short(obj)})"
    raise TypeError(f"{expected}; got {what(obj)}{hint}")


def as_cards(objs: Any, what: str = "cards") -> list[Card]:
    """Return a list of Cards from a list (or any iterable) of Cards or codes, or one string of codes.

    ``what`` names the cards in the message when ``objs`` is not a list of cards.

    >>> [card.code for card in as_cards("1RSO 2GTS, 3POD")]
    ['1RSO', '2GTS', '3POD']
    """
    from setwidgets.cards import Card

    if isinstance(objs, str):
        objs = split_codes(objs)
    _refuse_bytes(objs, f"expected a list of {what} or a string of codes like '1RSO 2GTS'")
    if isinstance(objs, Card) or not isinstance(objs, Iterable):
        raise TypeError(f"expected a list of {what}; got {_what(objs)}")
    return [as_card(obj) for obj in objs]


def parse_cards(items: Iterable[Any], *, where: str = "", error: type[ValueError] = ValueError) -> list[Card]:
    """Each item as a Card: Cards as they are, codes parsed; ``where`` places a bad code ("in the deck").

    A code that is not a card raises ``error`` (a ValueError) quoting it in short; any other
    kind of item raises TypeError.

    >>> parse_cards(["1RSO", "2gts"])
    [Card(1, 'red', 'oval', 'solid'), Card(2, 'green', 'squiggle', 'striped')]
    """
    from setwidgets.cards import Card

    cards = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except ValueError as problem:
                raise error(f"{short(item)}{where} is not a card: {problem}") from None
        else:
            raise TypeError(f"each card is a Card or a code like '2RTO'; got {what(item)}{bytes_hint(item)}")
    return cards


def gather(cards: tuple[Any, ...], at_most: int | None = None) -> tuple[Any, ...]:
    """Cards given as f(a, b, c), f([a, b, c]) or f("1RSO 2GTS 3POD"), as one tuple (not yet Cards).

    ``at_most`` stops reading one iterable after that many items, so that an
    endless generator cannot hang the caller.
    """
    from setwidgets.cards import Card

    if len(cards) == 1:
        (only,) = cards
        if isinstance(only, str):
            return tuple(split_codes(only))
        _refuse_bytes(only, "cards are Cards or codes like '1RSO', several in one string like '1RSO 2GTS'")
        if not isinstance(only, Card) and isinstance(only, Iterable):
            return tuple(islice(only, at_most))  # all of it when at_most is None
    return cards


def listed(things: Sequence[Any], total: int | None = None) -> str:
    """'none', or how many and which, in short: "2: 1RSO, '2RSO'", "100: None, None, ... and 95 more".

    ``total`` is how many there are when ``things`` holds only the first of them.
    """
    if not things:
        return "none"
    shown: list[str] = []
    for thing in things[:_LISTED]:
        if shown and sum(len(text) for text in shown) > _LISTED_CHARACTERS:
            break  # a few long items are enough to recognise the input
        shown.append(str(thing) if _is_card(thing) else short(thing))
    total = len(things) if total is None else total
    more = f" and {total - len(shown)} more" if total > len(shown) else ""
    return f"{total}: {', '.join(shown)}{more}"


def _is_card(obj: Any) -> bool:
    from setwidgets.cards import Card

    return isinstance(obj, Card)


def exactly(func: str, cards: tuple[Any, ...], count: int) -> tuple[Card, ...]:
    """``count`` Cards from f(a, b), f([a, b]) or a string of codes, or a TypeError that explains the call.

    >>> exactly("third_card", ("1RSO 2GTS",), 2)
    (Card(1, 'red', 'oval', 'solid'), Card(2, 'green', 'squiggle', 'striped'))
    """
    from setwidgets.cards import Card

    if len(cards) == count and all(isinstance(card, Card) for card in cards):
        return cards  # the common case, in loops over many cards: nothing to gather or parse
    # One item more than needed is enough to refuse: range(10**12) must not be read to the end.
    gathered = gather(cards, at_most=count + 1)
    if len(gathered) != count:
        names = ", ".join("abc"[:count])
        only = cards[0] if len(cards) == 1 else None
        if len(gathered) < count or len(cards) != 1 or isinstance(only, str):
            got = listed(gathered)  # every item was read
        elif isinstance(only, Sized):
            got = listed(gathered, total=len(only))
        else:
            got = f"more than {count}: " + listed(gathered).split(": ", 1)[1]
        raise TypeError(
            f"{func}() needs exactly {('two', 'three')[count - 2]} cards, as {func}({names}) or "
            f"{func}([{names}]); got {got}"
        )
    return tuple(as_card(x) for x in gathered)


ENOUGH_TO_REPEAT = 3**4 + 1
"""Among this many cards one comes twice (there are 81), so an endless iterable is read no further."""


def repeated(cards: Iterable[Card]) -> Card | None:
    """The first card that comes a second time, or None when every card is different.

    >>> repeated(as_cards("1RSO 2GTS 1RSO"))
    Card(1, 'red', 'oval', 'solid')
    """
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    return None


def distinct_cards(func: str, cards: Any, more: tuple[Any, ...] = ()) -> list[Card]:
    """The cards as a list, from one list, several cards or a string of codes; each may appear once.

    An endless iterable stops at the first card given twice (there are only 81).
    """
    from setwidgets.cards import Card

    if not more and not isinstance(cards, (Card, str, Iterable)):
        raise TypeError(f"{func}() needs a list of cards, like {func}(game.table); got {what(cards)}")
    if more or isinstance(cards, (Card, str, bytes, bytearray)):
        items: Iterable[Any] = gather((cards, *more))
    else:
        items = cards
    found = [as_card(item) for item in islice(items, ENOUGH_TO_REPEAT)]
    twice = repeated(found)
    if twice is not None:
        raise ValueError(f"{func}() got the card {twice.name} ({twice}) twice; each card appears once")
    return found
