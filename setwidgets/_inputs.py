"""What a student types, turned into numbers, seeds, seconds and players: one policy for errors.

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

Cards follow the same policy; they are turned into Card objects in
:mod:`setwidgets.cards` (one card, one list) and :mod:`setwidgets._card_inputs`
(the cards a function is called with). This module knows no Card, so that
every module, ``cards`` included, can use it.
"""

from __future__ import annotations

import math
import numbers
import os
import pathlib
import random
import re
import reprlib
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from setwidgets import _words

__all__ = [
    "bytes_hint",
    "clipped",
    "display_name",
    "file_path",
    "finite_number",
    "is_whole",
    "one_of",
    "player_index",
    "refuse_bytes",
    "rng_and_seed",
    "seconds",
    "short",
    "split_codes",
    "true_or_false",
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
    >>> short(10**5000)
    'a whole number of about 5001 digits'
    """
    if isinstance(obj, int) and obj.bit_length() > 10_000:
        # Python will not write an int of more than 4300 digits (its repr raises ValueError).
        digits = int(obj.bit_length() * math.log10(2)) + 1
        return f"{'-' if obj < 0 else ''}a whole number of about {digits} digits"
    text = _SHORT.repr(obj)  # reprlib names an object whose own repr fails
    text = clipped(text)
    try:
        size = len(obj)
    except Exception:
        return text
    if not isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxlist:
        return f"{text} ({size} items)"
    if isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxstring:
        return f"{text} ({size} characters)"
    return text


def clipped(text: str) -> str:
    """A message from elsewhere (an error's text) cut to a readable length, not quoted.

    >>> clipped("no such player")
    'no such player'
    >>> len(clipped("x" * 1000))
    100
    """
    return text if len(text) <= _LONGEST_QUOTE else text[: _LONGEST_QUOTE - 3] + "..."


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
    elif isinstance(obj, numbers.Real):
        kind = "a number"
    elif isinstance(obj, numbers.Number):
        # Decimal, complex: told by their type, since "must be a number; got 2.5 (a number)"
        # contradicts itself where only real numbers (int, float, Fraction) are taken.
        kind = _words.a_or_an(type(obj).__name__ + " number")
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


def finite_number(
    value: Any,
    name: str,
    *,
    above: float | None = None,
    example: str = "72",
    error: type[ValueError] = ValueError,
) -> float:
    """``value`` as a float when it is a finite number (an int or a float), above ``above`` if given.

    A place or a size on a page, say: ``nan`` and infinities are refused, and so are
    True/False, strings and other objects, as the wrong kind.

    >>> finite_number(2, "width", above=0)
    2.0
    >>> finite_number(float("nan"), "width")
    Traceback (most recent call last):
    ValueError: width must be a finite number like 72; got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number like {example}; got {what(value)}")
    try:
        number = float(value)
    except OverflowError:  # a whole number beyond the floats
        number = math.inf
    if not math.isfinite(number):
        raise error(f"{name} must be a finite number like {example}; got {short(value)}")
    if above is not None and not number > above:
        raise error(f"{name} must be a number above {above:g}, like {example}; got {short(value)}")
    return number


def true_or_false(value: Any, name: str) -> bool:
    """``value`` when it is True or False (numpy's too); anything else is refused as the wrong kind.

    A string such as ``"no"`` would count as true, so only a bool is taken.

    >>> true_or_false(False, "progress")
    False
    >>> true_or_false("no", "progress")
    Traceback (most recent call last):
    TypeError: progress must be True or False; got 'no' (a string)
    """
    kind = type(value)
    if isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):
        return bool(value)
    raise TypeError(f"{name} must be True or False; got {what(value)}")


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
    """The time ``clock()`` gives: a number (TypeError otherwise) of seconds, finite (``error`` otherwise).

    >>> read_clock(lambda: 10**400)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the clock must return a finite time in seconds; it returned ...
    """
    reading = clock()
    if isinstance(reading, bool) or not isinstance(reading, numbers.Real):
        raise TypeError(f"{name} must return the time in seconds, a number; it returned {what(reading)}")
    try:
        finite = math.isfinite(reading)
    except OverflowError:  # a whole number beyond the floats: no clock reaches it
        finite = False
    if not finite:
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


def one_of(value: Any, choices: Sequence[str], name: str, *, error: type[ValueError] = ValueError) -> str:
    """``value`` when it is one of the names ``choices``; anything else is refused, the choices listed.

    >>> one_of("final", ("round", "final"), "stage")
    'final'
    >>> one_of("semi", ("round", "final"), "stage")
    Traceback (most recent call last):
    ValueError: stage must be one of 'round' or 'final'; got 'semi'
    """
    listed = " or ".join(
        [", ".join(map(repr, choices[:-1])), repr(choices[-1])] if len(choices) > 1 else map(repr, choices)
    )
    if isinstance(value, str) and value in choices:
        return value
    if not isinstance(value, str):
        refuse_bytes(value, f"{name} must be one of {listed}")
        raise TypeError(f"{name} must be one of {listed}; got {what(value)}")
    raise error(f"{name} must be one of {listed}; got {short(value)}")


# Control characters (NUL, escape), invisible formatting ones (zero-width space, right-to-left
# override), line and paragraph separators, lone surrogates, private and unassigned code points:
# shown on a board or printed on a card, they hide, reorder or garble what is written.
_UNSEEN = {"Cc": "a control character", "Cf": "an invisible formatting character", "Zl": "a line break",
           "Zp": "a paragraph break", "Cs": "a lone surrogate", "Co": "a private-use character",
           "Cn": "an unassigned character"}  # fmt: skip


def display_name(
    value: Any, name: str, *, longest: int = 60, example: str = "'Ada'", error: type[ValueError] = ValueError
) -> str:
    """A person's name as a board shows it and a card prints it: text, trimmed, 1 to ``longest`` characters.

    Every character must be one a reader sees: letters of any script, digits, punctuation,
    spaces. Control characters, invisible ones (a zero-width space, a right-to-left
    override) and the like are refused, with the first of them named.

    >>> display_name("  Zoë ", "name")
    'Zoë'
    >>> display_name("Ada\\u202e", "name")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: name must be text a reader can see, like 'Ada'; got ..., which holds U+202E (an invisible ...)
    """
    if not isinstance(value, str):
        refuse_bytes(value, f"{name} must be text like {example}")
        raise TypeError(f"{name} must be text like {example}; got {what(value)}")
    text = value.strip()
    if not text or len(text) > longest:
        raise error(f"{name} must be 1 to {longest} characters, like {example}; got {short(value)}")
    for char in text:
        kind = _UNSEEN.get(unicodedata.category(char))
        if kind:
            raise error(
                f"{name} must be text a reader can see, like {example}; got {short(value)}, "
                f"which holds U+{ord(char):04X} ({kind})"
            )
    return text


def file_path(value: Any, name: str, *, example: str, error: type[ValueError] = ValueError) -> pathlib.Path:
    """``value`` as a Path, when it is the path of a file or folder (text or ``os.PathLike``).

    Bytes, None and numbers are refused as the wrong kind; an empty path, one with a NUL
    character, or one no file name can hold (a lone surrogate) as a wrong value (``error``).
    ``name`` is what the path is of ("the roster"), ``example`` one such path, quoted.
    """
    expected = f"{name} must be a path, like {example}"
    text = value
    if isinstance(value, os.PathLike):
        try:
            text = os.fspath(value)
        except TypeError:
            text = None
    if not isinstance(text, str):
        refuse_bytes(text, expected)
        raise TypeError(f"{expected}; got {what(value)}")
    if not text or "\x00" in text:
        raise error(f"{expected}, not empty and without NUL characters; got {short(text)}")
    try:
        encoded = os.fsencode(text)
    except UnicodeEncodeError:
        raise error(f"{expected}, in characters a file name can hold; got {short(text)}") from None
    # Linux's limits (NAME_MAX, PATH_MAX): past them the system answers no question about the path.
    if len(encoded) >= 4096 or max(map(len, encoded.split(b"/"))) > 255:
        raise error(f"{expected}, each name in it at most 255 bytes long; got {short(text)}")
    return pathlib.Path(text)


# -- cards -------------------------------------------------------------------------------


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


def refuse_bytes(obj: Any, expected: str) -> None:
    if isinstance(obj, (bytes, bytearray)):
        raise TypeError(f"{expected}; got {what(obj)}{bytes_hint(obj)}")


def split_codes(text: str) -> list[str]:
    """The card codes in a string such as ``"1RSO 2GTS, 3POD"`` (spaces, commas or semicolons).

    >>> split_codes("1RSO 2GTS, 3POD;1RSS")
    ['1RSO', '2GTS', '3POD', '1RSS']
    """
    if not isinstance(text, str):
        refuse_bytes(text, "card codes are text like '1RSO 2GTS 3POD'")
        raise TypeError(f"card codes are text like '1RSO 2GTS 3POD'; got {what(text)}")
    return [word for word in re.split(r"[\s,;]+", text) if word]
