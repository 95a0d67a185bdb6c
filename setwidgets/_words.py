"""The words in the messages students read, in one place: counted nouns, number words, shared sentences.

Counted nouns agree with their number ("1 card", "3 cards", "1 penalty"), and
so do the verbs beside them ("there is 1 SET", "2 cards were"). The sentence
that says why a third card has its value is written here once; the checks and
the third-card explorer both say it.

>>> count(1, "card"), count(3, "penalty"), seconds(2.5)
('1 card', '3 penalties', '2.5 seconds')
>>> there_are(1, "SET"), there_are(0, "SET")
('there is 1 SET', 'there are 0 SETs')
>>> f"{count(2, 'card')} {agree(2, 'was', 'were')} left"
'2 cards were left'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

__all__ = [
    "NUMBER_WORDS",
    "ORDINALS",
    "a_or_an",
    "agree",
    "and_list",
    "count",
    "count_in_words",
    "is_are",
    "number",
    "number_word",
    "ordinal",
    "plural",
    "seconds",
    "there_are",
    "whole_seconds",
    "third_value",
]

NUMBER_WORDS: tuple[str, ...] = ("one", "two", "three")
"""The numbers on a card, in words: NUMBER_WORDS[n - 1] is n."""

_IRREGULAR = {"penalty": "penalties"}


def plural(noun: str) -> str:
    """The plural of a noun used in messages: 'color' -> 'colors', 'penalty' -> 'penalties'.

    >>> plural("shading"), plural("oval"), plural("penalty")
    ('shadings', 'ovals', 'penalties')
    """
    return _IRREGULAR.get(noun, noun + "s")


def agree(n: float, singular: str, plural_form: str) -> str:
    """``singular`` for one (and minus one), otherwise ``plural_form``: agree(2, 'was', 'were') == 'were'.

    One is what the reader sees: 1.0001 is written "1" (see :func:`number`), so it takes the singular.
    """
    return singular if number(n) in ("1", "-1") else plural_form


def is_are(n: float) -> str:
    """'is' for one, 'are' for any other number."""
    return agree(n, "is", "are")


def number(n: float) -> str:
    """A count as digits: '12', '1000000', '2.5', '0.125' (whole floats without '.0', at most 3 decimals)."""
    if isinstance(n, numbers.Integral):
        return str(int(n))
    if math.isfinite(n) and float(n).is_integer():
        return str(int(n))
    return f"{n:.3f}".rstrip("0").rstrip(".") if math.isfinite(n) else str(n)


def count(n: float, noun: str) -> str:
    """``n`` and the noun, singular for one (and minus one): '1 SET', '-1 point', '0 cards'."""
    return f"{number(n)} {agree(n, noun, plural(noun))}"


def seconds(n: float) -> str:
    """'1 second', '5 seconds', '2.5 seconds'."""
    return count(n, "second")


def whole_seconds(n: float) -> int:
    """Seconds as a clock shows them and a message then says them: whole seconds elapsed, at least 0.

    A clock that reads 00:18 at 18.6 s must not be followed by "solved in 19 seconds".
    """
    return max(0, int(n))


def there_are(n: float, noun: str) -> str:
    """'there is 1 SET', 'there are 3 SETs'."""
    return f"there {is_are(n)} {count(n, noun)}"


def number_word(n: int) -> str:
    """'one', 'two' or 'three': a card's number in words."""
    return NUMBER_WORDS[n - 1]


def count_in_words(n: int, noun: str) -> str:
    """A card's number of things in words: 'one symbol', 'three symbols'."""
    return f"{number_word(n)} {agree(n, noun, plural(noun))}"


def a_or_an(noun: str) -> str:
    """The noun with its article: 'an oval', 'a squiggle'."""
    return ("an " if noun[:1] in ("a", "e", "i", "o", "u") else "a ") + noun


def and_list(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'.

    >>> and_list(["color", "shape", "shading"])
    'color, shape and shading'
    """
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def third_value(feature: str, first: Any, second: Any, third: Any) -> str:
    """Why the card that completes a SET has the value ``third`` in ``feature``.

    When the two cards agree, the third agrees too; when they differ, it has
    the remaining value.

    >>> third_value("color", "red", "green", "purple")
    'the colors red and green differ, so the third card has the remaining color, purple'
    >>> third_value("shape", "oval", "oval", "oval")
    'both cards have shape oval, so the third card has shape oval too'
    """
    if first == second:
        return f"both cards have {feature} {first}, so the third card has {feature} {third} too"
    return (
        f"the {plural(feature)} {first} and {second} differ, so the third card has the remaining "
        f"{feature}, {third}"
    )


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """'first', 'second', ... 'tenth', then 'number 11'.

    >>> ordinal(1), ordinal(3), ordinal(12)
    ('first', 'third', 'number 12')
    """
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"number {n}"
