"""Counted nouns in the messages students read: "1 card", "3 cards", "1 second", "2.5 seconds"."""

from __future__ import annotations

_IRREGULAR = {"penalty": "penalties"}


def count(n: float, noun: str) -> str:
    """``n`` and the noun, singular for one (and minus one): '1 SET', '-1 point', '0 cards'."""
    plural = noun if abs(n) == 1 else _IRREGULAR.get(noun, noun + "s")
    return f"{n:g} {plural}"


def seconds(n: float) -> str:
    """'1 second', '5 seconds', '2.5 seconds'."""
    return count(n, "second")
