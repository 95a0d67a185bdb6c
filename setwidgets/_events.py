"""Callbacks: the one list of functions to call after a change, shared by every ``on_*``.

A game, a card picker, a table of cards and a tournament file each let a notebook
be told about changes (``on_change``, ``on_pick``, ``watch``). They all keep their
functions in a :class:`Callbacks`, so they all behave alike:

- a function is checked when it is added: it must be callable with the arguments
  the change will pass, and the message says what was given and what is expected;
- adding the same function twice calls it once; ``remove=True`` stops it;
- the functions are called after the change is complete, in the order they were
  added; one that raises is reported as a ``RuntimeWarning`` and cannot undo the
  change or keep the others from hearing about it.

>>> heard = []
>>> changes = Callbacks("on_change", "the new card", example="def redraw(card): ...")
>>> changes.add(heard.append)
>>> changes.fire("3GSD", done="the card was picked")
>>> heard
['3GSD']
>>> changes.add(heard.append, remove=True)
>>> changes.fire("1RSO", done="the card was picked")
>>> heard
['3GSD']
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

from setwidgets import _inputs


class Callbacks:
    """The functions to call after each change, for one ``on_*`` method.

    ``method`` is the method's name as the user calls it (``"on_change"``),
    ``passes`` says in words what each function receives (``"the event dict"``;
    empty when it receives nothing) and ``example`` shows a function that fits.
    """

    def __init__(self, method: str, passes: str = "", example: str = "") -> None:
        self.method = method
        self.passes = passes
        self.example = example
        self._functions: list[Callable[..., Any]] = []

    def __len__(self) -> int:
        return len(self._functions)

    def add(self, callback: Callable[..., Any], remove: bool = False) -> None:
        """Call ``callback`` after every change (``remove=True``: stop calling it).

        Refused with a TypeError, changing nothing, when ``callback`` is not a
        function that can be called with what the change passes.
        """
        expected = f"a function taking {self.passes}" if self.passes else "a function taking no argument"
        if not callable(callback):
            raise TypeError(f"{self.method}() needs {expected}; got {_inputs.what(callback)}")
        if remove:
            if callback in self._functions:
                self._functions.remove(callback)
            return
        problem = self._cannot_take(callback)
        if problem:
            hint = f", like {self.example}" if self.example else ""
            raise TypeError(f"{self.method}() needs {expected}{hint}; {problem}")
        if callback not in self._functions:
            self._functions.append(callback)

    def fire(self, *args: Any, done: str = "the change was made", stacklevel: int = 3) -> None:
        """Call every function with ``args``; ``done`` says in the warning what stays done."""
        for callback in list(self._functions):
            try:
                callback(*args)
            except Exception as error:  # noqa: BLE001 - a broken callback must not undo a change
                warnings.warn(
                    f"the {self.method} callback {name_of(callback)} raised "
                    f"{type(error).__name__}: {_inputs.clipped(str(error))} ({done}; "
                    "the other callbacks were told)",
                    RuntimeWarning,
                    stacklevel=stacklevel,
                )

    def _cannot_take(self, callback: Callable[..., Any]) -> str | None:
        arguments = (None,) if self.passes else ()
        try:
            signature = inspect.signature(callback)
        except (TypeError, ValueError):
            return None  # some builtins cannot be inspected; they are given the benefit of the doubt
        try:
            signature.bind(*arguments)
        except TypeError as error:
            given = f"with {self.passes}" if self.passes else "with no argument"
            return f"{name_of(callback)}{signature} cannot be called {given} ({error})"
        return None


def name_of(callback: Callable[..., Any]) -> str:
    """The name a message uses for ``callback`` (its qualified name, else its repr)."""
    return getattr(callback, "__qualname__", None) or repr(callback)
