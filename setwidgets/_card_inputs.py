"""The cards a function is called with: gathered, counted and checked, one policy for every function.

Functions that take cards accept them as separate arguments, ``f(a, b, c)``,
as one list (or any iterable), ``f([a, b, c])``, or as one string of codes,
``f("1RSO 2GTS 3POD")``. The helpers here turn each of these into Cards, or
refuse the call in one sentence that says what was given and what is expected,
following the policy of :mod:`setwidgets._inputs`. An endless iterable is read
only as far as the answer needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Sized
from itertools import islice
from typing import Any

from setwidgets._inputs import refuse_bytes, short, split_codes, what
from setwidgets.cards import Card, as_card

__all__ = ["ENOUGH_TO_REPEAT", "distinct_cards", "exactly", "gather", "listed", "repeated"]

_LISTED = 5  # how many items a message lists before "and N more"
_LISTED_CHARACTERS = 50  # fewer items when the first ones are long


def gather(cards: tuple[Any, ...], at_most: int | None = None) -> tuple[Any, ...]:
    """Cards given as f(a, b, c), f([a, b, c]) or f("1RSO 2GTS 3POD"), as one tuple (not yet Cards).

    ``at_most`` stops reading one iterable after that many items, so that an
    endless generator cannot hang the caller.
    """
    if len(cards) == 1:
        (only,) = cards
        if isinstance(only, str):
            return tuple(split_codes(only))
        refuse_bytes(only, "cards are Cards or codes like '1RSO', several in one string like '1RSO 2GTS'")
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
        shown.append(str(thing) if isinstance(thing, Card) else short(thing))
    total = len(things) if total is None else total
    more = f" and {total - len(shown)} more" if total > len(shown) else ""
    return f"{total}: {', '.join(shown)}{more}"


def exactly(func: str, cards: tuple[Any, ...], count: int) -> tuple[Card, ...]:
    """``count`` Cards from f(a, b), f([a, b]) or a string of codes, or a TypeError that explains the call.

    >>> exactly("third_card", ("1RSO 2GTS",), 2)
    (Card(1, 'red', 'oval', 'solid'), Card(2, 'green', 'squiggle', 'striped'))
    """
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

    >>> repeated(Card.parse(code) for code in ["1RSO", "2GTS", "1RSO"])
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
