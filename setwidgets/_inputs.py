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
"""

from __future__ import annotations

import math
import numbers
import random
import reprlib
from collections.abc import Sequence
from typing import Any

__all__ = ["is_whole", "player_index", "rng_and_seed", "seconds", "short", "what", "whole_number"]

_SHORT = reprlib.Repr()
# A message quotes a few items and the start of a long string: enough to recognise the input.
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxfrozenset = _SHORT.maxdeque = 4
_SHORT.maxdict = 4
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlevel = 3


def short(obj: Any) -> str:
    """A readable repr of ``obj``, shortened: the first few items and "and N more".

    >>> short([None] * 100000)
    '[None, None, None, None, ...] (100000 items)'
    >>> short("1RSO")
    "'1RSO'"
    """
    text = _SHORT.repr(obj)
    try:
        size = len(obj)
    except Exception:
        return text
    if not isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxlist:
        return f"{text} ({size} items)"
    if isinstance(obj, (str, bytes, bytearray)) and size > _SHORT.maxstring:
        return f"{text} ({size} characters)"
    return text


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
        kind = kinds.get(type(obj), f"a {type(obj).__name__}")
    return f"{short(obj)} ({kind})"


def is_whole(value: Any) -> bool:
    """True for whole numbers: ints and other ``numbers.Integral`` (numpy's too), not True/False."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


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
    if is_whole(value):
        number = int(value)
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        hint = (
            f": write {int(value)}, without the '.0'"
            if math.isfinite(value) and float(value).is_integer()
            else ""
        )
        raise TypeError(f"{name} must be a whole number like {example}; got {what(value)}{hint}")
    else:
        raise TypeError(f"{name} must be a whole number like {example}; got {what(value)}")
    if minimum is not None and number < minimum:
        raise error(f"{name} must be at least {minimum}; got {number}")
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
    number = float(value) if not is_whole(value) else int(value)
    if not math.isfinite(number) or not number > 0:
        raise error(f"{name} must be a finite number of seconds above 0{none}; got {value!r}")
    return number


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
        raise error(f"there is no player {int(player)}; the players are {listed}")
    return int(player)
