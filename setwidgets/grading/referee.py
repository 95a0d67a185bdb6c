"""The grader's referee of an exercise's visible tests: the package's own answers kept out of reach.

:class:`Referee` is for the visible tests of the exercises, not for students: made before any
student code runs, it keeps the package's own answers out of reach while those tests run a
student's function in the student's notebook. Grading does not rely on it: the graded tests are
judged outside the student's kernel (:mod:`setwidgets.grading.judge`); their ``hidden_tests.py``
use its references (a magic square, a cap's problem, Wilson's interval).

The students' side, the instant checks, is :mod:`setwidgets.checks`.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import os
import pkgutil
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.cards import Card, full_deck
from setwidgets.checks.ex4_the_dealer import competition_by_engine, engine_moves
from setwidgets.checks.ex6_probability import interval_problem
from setwidgets.checks.ex7_caps import cap_problem, set_among
from setwidgets.geometry import lines_through, magic_square

__all__ = ["Referee"]

_MISSING: Any = object()

# The parts of the package whose answers the referee keeps out of reach: the core, the engines
# and the checks (whose references the referee uses), every module of each, and the referee itself.
_WATCHED = (
    *("cards", "rules", "game", "bot", "sim", "geometry", "caps"),
    *("_inputs", "_card_inputs", "_words", "checks"),
)


def _watched_modules() -> tuple[str, ...]:
    names = ["setwidgets", __name__]
    for part in _WATCHED:
        name = f"setwidgets.{part}"
        names.append(name)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            names += [m.name for m in pkgutil.walk_packages(spec.submodule_search_locations, f"{name}.")]
    return tuple(names)


_CORE = _watched_modules()
_FEATURE_ATTRIBUTES = ("number", "color", "shape", "shading", "_index", "index", "vector", "code", "name")


class _Forbidden(BaseException):
    """Raised by a blocked function; a BaseException, so a student's ``except Exception`` cannot hide it."""


def _copy_function(func: Callable) -> Callable:
    """A new function object with the same code and globals: blocking the original leaves it working."""
    copy = types.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__qualname__ = func.__qualname__
    return copy


@functools.cache
def _blocker(name: str) -> types.CodeType:
    """The code a blocked function runs instead of its own: it reports ``name`` to the referee."""
    source = f"def blocked(*args, **kwargs):\n    return __referee_forbidden__({name!r})\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<referee>", "exec"), {}, namespace)  # noqa: S102 - fixed source, no input
    return namespace["blocked"].__code__


class Referee:
    """What the hidden tests of an exercise trust, kept before any student code runs.

    The exercise's locked setup cell, which runs before the first answer cell,
    makes one: ``_referee = Referee()``. Then:

    - ``Card``, ``deck`` (the 81 cards), ``Game``, and untouched copies of
      ``first_set``, ``find_sets``, ``has_set``, ``is_set`` and ``third_card``
      are the references the hidden tests compute expected answers with;
    - :meth:`untouched` fails when a function, class or name of the package was
      replaced or changed since (so a notebook that rewrites ``setwidgets``
      scores nothing on the tests that check it);
    - :meth:`guard` runs the student's function with the package's own answers
      out of reach: the functions of the modules named there raise (and are
      reported even when the student's code catches the error), and with
      ``hide_features`` the cards' features cannot be read from the student's
      code; :meth:`count` counts the calls of the one helper allowed.

    >>> referee = Referee()
    >>> referee.untouched()
    >>> with referee.guard("first_set", modules=["setwidgets.rules"]):  # doctest: +ELLIPSIS
    ...     from setwidgets import find_sets
    ...     find_sets(referee.deck[:3])
    Traceback (most recent call last):
    AssertionError: first_set used setwidgets.find_sets while the tests ran: ...
    """

    def __init__(self) -> None:
        import sys

        import setwidgets.rules as rules
        from setwidgets.game import Game

        for name in _CORE:
            try:
                importlib.import_module(name)
            except ImportError:  # a module this version of the package does not have
                pass
        self._modules = {name: sys.modules[name] for name in _CORE if name in sys.modules}
        self._names = {name: dict(vars(module)) for name, module in self._modules.items()}
        self._classes = {
            cls: dict(vars(cls))
            for module in self._modules.values()
            for cls in vars(module).values()
            if isinstance(cls, type) and cls.__module__ in self._modules
        }
        self._codes = {id(f): (f, f.__code__) for f in self._functions()}
        self.Card = Card
        self.Game = Game
        self.deck = tuple(full_deck())
        self.first_set = _copy_function(rules.first_set)
        self.find_sets = _copy_function(rules.find_sets)
        self.has_set = _copy_function(rules.has_set)
        self.is_set = _copy_function(rules.is_set)
        self.third_card = _copy_function(rules.third_card)
        self.Fraction = Fraction
        self._package = os.path.dirname(os.path.abspath(rules.__file__)) + os.sep
        self._calls: list[str] = []

    def moves(self, variant: str, seed: int) -> list[dict]:
        """The moves of a seeded game of the untouched engine (see :func:`setwidgets.checks.engine_moves`)."""
        return engine_moves(variant, seed, self.Game, self.first_set)

    def competition(self, table: list[Card], deck: list[Card], state: tuple) -> tuple[list[Card], list[Card]]:
        """What the engine's competition rule does to any table and deck, its generator in ``state``."""
        return competition_by_engine(table, deck, state, self.Game)

    # The references below are the package's own code (the geometry, the checks), which untouched()
    # watches too.

    def square(self, a: Card, b: Card, c: Card) -> list[list[Card]]:
        """The plane of three cards not in one SET as a magic square: a, b in the top row, c under a."""
        return magic_square(a, b, c)

    def lines_through(self, card: Card, cards: Sequence[Card]) -> list[tuple[Card, Card, Card]]:
        """The SETs (card, b, c) with b before c among the cards, in the order of b."""
        return lines_through(card, cards)

    def set_among(self, cards: Sequence[Card]) -> tuple[Card, Card, Card] | None:
        """A SET among the cards, or None when they are SET-free."""
        return set_among(cards)

    def cap_problem(self, got: Any, deck: Sequence[Card], size: int | None = None) -> str | None:
        """None when ``got`` is a SET-free list of different cards of ``deck``, maximal in it (or of
        ``size`` cards, when given); else what is wrong."""
        return cap_problem(got, deck, size)

    def interval_problem(self, got: Any, hits: int, trials: int) -> str | None:
        """None when ``got`` is Wilson's 95% interval for ``hits`` out of ``trials``; else what is wrong."""
        return interval_problem(got, hits, trials)

    def _functions(self, modules: Iterable[str] | None = None) -> Iterator[Callable]:
        """The plain functions of the modules, and of the classes defined there, methods included."""
        if modules is None:
            chosen = self._modules
        else:  # a package stands for all of its modules
            wanted = tuple(modules)
            chosen = {
                name: module
                for name, module in self._modules.items()
                if any(name == m or name.startswith(f"{m}.") for m in wanted)
            }
        for name, module in chosen.items():
            for obj in list(vars(module).values()):
                if inspect.isfunction(obj) and obj.__module__ == name:
                    yield obj
                elif isinstance(obj, type) and obj.__module__ == name:
                    for item in list(vars(obj).values()):
                        item = getattr(item, "__func__", item)  # class and static methods
                        if inspect.isfunction(item):
                            yield item

    def untouched(self) -> None:
        """Fail (AssertionError) when the package was changed since the referee was made."""
        import sys

        changed = []
        for name, module in self._modules.items():
            if sys.modules.get(name) is not module:
                changed.append(f"the module {name}")
                continue
            now = vars(module)
            changed += [f"{name}.{k}" for k, v in self._names[name].items() if now.get(k, _MISSING) is not v]
        for cls, saved in self._classes.items():
            now = vars(cls)
            changed += [f"{cls.__qualname__}.{k}" for k, v in saved.items() if now.get(k, _MISSING) is not v]
        changed += [
            f"the code of {f.__qualname__}" for f, code in self._codes.values() if f.__code__ is not code
        ]
        if changed:
            what = _inputs.short(", ".join(changed))
            raise AssertionError(
                f"this notebook changed the package setwidgets while it ran ({what}); "
                "the grader needs the package as it is installed, so these tests score nothing. "
                "Restart the kernel and run all cells after removing that change."
            )

    @contextmanager
    def guard(
        self,
        student: str,
        modules: Iterable[str] = (),
        allowed: Iterable[str] = (),
        hide_features: bool = False,
    ) -> Iterator[None]:
        """Run the student's ``student`` function with the package's answers out of reach.

        Every function of ``modules`` (and of their classes) except those named
        in ``allowed`` raises while the block runs; with ``hide_features``, the
        student's code cannot read a card's features, code, name, vector or
        index. Any such attempt fails the block with a message that says what was
        called, even when the student's code caught the error.
        """
        self._calls = []
        blocked = [
            f
            for f in self._functions(modules)
            if f.__name__ not in set(allowed) and not f.__code__.co_freevars
        ]
        saved_codes = [(f, f.__code__) for f in blocked]
        spaces = {id(f.__globals__): f.__globals__ for f in blocked}
        saved_attributes = {name: vars(Card)[name] for name in _FEATURE_ATTRIBUTES} if hide_features else {}
        try:
            for space in spaces.values():
                space["__referee_forbidden__"] = self._forbidden
            for f, _ in saved_codes:
                where = f.__module__ if f.__qualname__ == f.__name__ else f"{f.__module__}"
                name = (
                    f"setwidgets.{f.__qualname__}"
                    if where in ("setwidgets.rules", "setwidgets.cards")
                    else f"{where}.{f.__qualname__}"
                )
                f.__code__ = _blocker(name)
            for name, original in saved_attributes.items():
                setattr(Card, name, property(self._hidden_feature(name, original)))
            try:
                yield
            except _Forbidden:
                pass
        finally:
            for f, code in saved_codes:
                f.__code__ = code
            for space in spaces.values():
                space.pop("__referee_forbidden__", None)
            for name, original in saved_attributes.items():
                setattr(Card, name, original)
        if self._calls:
            used = _words.and_list(sorted(set(self._calls)))
            counted = "setwidgets.third_card" in used
            helper = " (third_card is counted: call it by its name, third_card(a, b))" if counted else ""
            raise AssertionError(
                f"{student} used {used} while the tests ran: the exercise asks you to write this "
                f"yourself{helper}, so these tests score nothing."
            )

    def _forbidden(self, name: str) -> None:
        self._calls.append(name)
        raise _Forbidden(name)

    def _hidden_feature(self, name: str, original: Any) -> Callable[[Any], Any]:
        import sys

        package = self._package

        def read(card: Any) -> Any:
            caller = sys._getframe(1).f_code.co_filename
            if not os.path.abspath(caller).startswith(package):
                self._calls.append(f"the cards' {name.lstrip('_')} (decide SETs with third_card)")
                raise _Forbidden(name)
            return original.__get__(card, Card)

        return read

    @contextmanager
    def count(self, namespace: dict[str, Any], name: str = "third_card") -> Iterator[list[int]]:
        """Put a counting ``name`` (the package's own, untouched) into the notebook's namespace.

        The block gets a list whose one item is the number of calls so far.
        """
        reference = getattr(self, name)
        calls = [0]

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            return reference(*args, **kwargs)

        counted.__name__ = counted.__qualname__ = name
        saved = namespace.get(name, _MISSING)
        namespace[name] = counted
        try:
            yield calls
        finally:
            if saved is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = saved
