"""The kernel's side of a graded test: call the student's function on the grader's inputs, hand back data.

While autograding, :class:`setwidgets.grading.preprocessors.GradingExecute` does not run a
judged test cell in the student's kernel. It asks the kernel instead, with a silent request, to
evaluate :func:`call` on a request that names one of the student's functions and the inputs to
try. :func:`call` answers with plain data in JSON: each case's return value (card codes,
numbers, booleans, None, lists of them), or the error it raised. The grader, outside the
kernel, compares that data with the answers it computed itself (:mod:`setwidgets.grading.judge`).

Nothing here decides anything, and nothing here is trusted: a notebook that replaces this
module, the cards or the builtins can only change the data sent back, never the verdict, and
data that is not the right answer scores nothing. What the kernel never receives, it cannot
read: the expected answers stay with the grader.

The encoding, shared with the grader (:func:`encode` and :func:`decode` are each other's
inverse on these values):

- ``None``, booleans, integers, floats and strings as themselves (in an answer, a string longer
  than :data:`MAX_TEXT` cut and marked, and an integer larger than :data:`MAX_INT_BITS` as an
  object);
- a card as ``{"card": "1RSO"}``; a tuple as ``{"tuple": [...]}``, a list as a list, a set as
  ``{"set": [...]}`` and a frozenset as ``{"frozenset": [...]}`` (kept apart: a set answer is
  not a frozenset one), a dict as ``{"dict": [[key, value], ...]}``, a fraction as
  ``{"fraction": [numerator, denominator]}``, a ``collections.Counter`` as
  ``{"counter": [[key, count], ...]}``, a named tuple as ``{"namedtuple": [type name, [field
  names], [values]]}`` (rebuilt as a named tuple of that name and those fields);
- subclasses of ``int``, ``float`` and ``str`` (an ``IntEnum``, say) are not carried as their
  plain values: in an answer each is an object that equals nothing, named as a subclass, and
  a request refuses them (:func:`setwidgets.grading.judge.encode_request`);
- in a request only, ``{"random": seed}`` for a fresh ``random.Random(seed)``, and
  ``{"random_state": state}`` for a ``random.Random`` in that state (``getstate()``'s value);
- in an answer only, any other object as ``{"object": [type name, a short repr]}``.

This module runs in the student's kernel: it imports only the standard library and the cards.
"""

from __future__ import annotations

import json
import math
import random
import traceback
from collections import Counter, namedtuple
from fractions import Fraction
from functools import lru_cache
from typing import Any

from setwidgets.cards import Card

MAX_VALUES = 200_000
"""The most values one answer may hold (all cases together); a bigger answer is an error."""

MAX_TEXT = 2_000
"""The longest string kept in an answer; a longer one is cut and marked (:data:`CUT`)."""

CUT = f" [cut: longer than {MAX_TEXT:,} characters]"
"""What ends a string cut to :data:`MAX_TEXT`, so that it equals no string the grader wants."""

MAX_INT_BITS = 13_000
"""The largest integer an answer holds as a number (about 3,900 digits, within what JSON reads in
Python); a larger one comes as an object, named by its size."""

MAX_DEPTH = 12
"""How deeply lists may nest in an answer."""


class TooBig(ValueError):
    """An answer that holds more values, or nests more deeply, than the grader reads."""


def encode(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """``value`` as JSON data, by the encoding in the module's help; counts values against ``budget``."""
    budget = budget if budget is not None else [MAX_VALUES]
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig(f"the answer holds more than {MAX_VALUES:,} values")
    if depth > MAX_DEPTH:
        raise TooBig(f"the answer nests more than {MAX_DEPTH} levels deep")
    kind = type(value)
    if kind is str:
        return value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + CUT
    if kind is int and value.bit_length() > MAX_INT_BITS:
        return {"object": ["int", f"an integer of {value.bit_length():,} bits"]}
    if value is None or kind is bool or kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"object": ["float", repr(value)]}
    if kind is Card:
        return {"card": value.code}
    if kind is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if kind is tuple:
        return {"tuple": [encode(item, budget, depth + 1) for item in value]}
    if kind is list:
        return [encode(item, budget, depth + 1) for item in value]
    if kind is set or kind is frozenset:
        return {kind.__name__: [encode(item, budget, depth + 1) for item in value]}
    if kind is dict or kind is Counter:
        tag = "dict" if kind is dict else "counter"
        return {tag: [[encode(k, budget, depth + 1), encode(v, budget, depth + 1)] for k, v in value.items()]}
    if is_namedtuple(kind) and len(kind._fields) == len(value):
        items = [encode(item, budget, depth + 1) for item in value]
        return {"namedtuple": [kind.__name__, list(kind._fields), items]}
    if kind.__module__ == "numpy" and hasattr(value, "tolist"):
        # numpy's scalars and arrays are what a correct answer often returns; as their plain values.
        return encode(value.tolist(), budget, depth)
    base = next((b for b in (int, float, str) if isinstance(value, b)), None)
    if base is not None:
        # An IntEnum or a str subclass equals its plain value in Python, but is not what was asked.
        return {"object": [kind.__name__[:80], f"{_short(value)}, a subclass of {base.__name__}"]}
    return {"object": [kind.__name__[:80], _short(value)]}


MAX_FIELDS, MAX_NAME = 64, 80
"""The most fields of a named tuple the protocol carries, and the longest name of it or a field."""


def fits_namedtuple(name: Any, fields: Any) -> bool:
    """Whether a named tuple of that name and fields is one the protocol carries (both ways: the
    grader makes no class of a forged answer's thousands of fields)."""
    return (
        type(name) is str
        and len(name) <= MAX_NAME
        and type(fields) in (tuple, list)
        and 0 < len(fields) <= MAX_FIELDS
        and all(type(f) is str and f.isidentifier() and len(f) <= MAX_NAME for f in fields)
    )


def is_namedtuple(kind: type) -> bool:
    """True for a class made by ``collections.namedtuple`` (or ``typing.NamedTuple``)."""
    fields = getattr(kind, "_fields", None)
    return issubclass(kind, tuple) and type(fields) is tuple and fits_namedtuple(kind.__name__, fields)


@lru_cache(maxsize=64)
def namedtuple_class(name: str, fields: tuple[str, ...]) -> type:
    """The named tuple class of that name and fields, made once (a class made by a forged
    answer is refused by ``namedtuple`` itself: names must be identifiers)."""
    return namedtuple(name, fields)  # noqa: PYI024 - the caller's own names, known only now


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as error:  # a broken __repr__ is the student's, and says nothing to the grader
        text = f"<repr failed: {type(error).__name__}>"
    return text if len(text) <= 200 else text[:197] + "..."


_parsed: dict[str, Card] = {}


def card_of(code: str) -> Card:
    """The card of a code; each of the 81 is parsed once, since a request holds thousands."""
    card = _parsed.get(code)
    if card is None:
        card = _parsed[code] = Card.parse(code)
    return card


def decode_request(value: Any) -> Any:
    """A value of a request, in the kernel: cards, tuples, sets, fractions and seeded generators rebuilt."""
    if isinstance(value, list):
        # A case is mostly a list of cards: each read here, without a call of this function per card.
        return [
            card_of(item["card"])
            if type(item) is dict and len(item) == 1 and "card" in item
            else decode_request(item)
            for item in value
        ]
    if not isinstance(value, dict):
        return value
    (key, inner), *_ = value.items()
    if key == "card":
        return card_of(inner)
    if key == "random":
        return random.Random(inner)
    if key == "random_state":
        generator = random.Random()
        version, internal, gauss = inner
        generator.setstate((version, tuple(internal), gauss))
        return generator
    if key == "tuple":
        return tuple(decode_request(item) for item in inner)
    if key == "set":
        return {decode_request(item) for item in inner}
    if key == "frozenset":
        return frozenset(decode_request(item) for item in inner)
    if key in ("dict", "counter"):
        pairs = {decode_request(k): decode_request(v) for k, v in inner}
        return pairs if key == "dict" else Counter(pairs)
    if key == "namedtuple":
        name, fields, items = inner
        return namedtuple_class(name, tuple(fields))(*(decode_request(item) for item in items))
    if key == "fraction":
        return Fraction(*inner)
    raise ValueError(f"unknown value in a grading request: {key!r}")


def _error(error: BaseException) -> str:
    lines = traceback.format_exception_only(type(error), error)
    return "".join(lines).strip()[:MAX_TEXT]


_MISSING = ("there is no function ", " in the notebook (run its cell?)")


def missing(name: str) -> str:
    """The sentence for a function the notebook does not hold (deleted, or its cell never run):
    the student reads it, and the class insight reads it back (:func:`missing_function`)."""
    head, tail = _MISSING
    return f"{head}{name}{tail}"


def missing_function(sentence: str) -> str | None:
    """The function a :func:`missing` sentence names; None for any other sentence."""
    head, tail = _MISSING
    if not (sentence.startswith(head) and sentence.endswith(tail)):
        return None
    name = sentence[len(head) : len(sentence) - len(tail)]
    return name if name.isidentifier() else None


def call(request: str, namespace: dict[str, Any] | None = None) -> str:
    """Run the request's cases against the student's function; the answers as a JSON string.

    ``request`` is JSON: ``{"function": name, "cases": [[args, kwargs], ...], "after": bool,
    "count": [names]}``. Each case's answer is ``{"value": ...}`` or ``{"error": "..."}``, with
    ``"args"`` (the arguments after the call, when ``after``) and ``"counts"`` (how often each
    function named in ``count`` was called from the notebook's namespace during the case).
    ``namespace`` is where the student's functions are (the notebook's, by default).
    """
    asked = json.loads(request)
    if namespace is None:
        from IPython import get_ipython

        namespace = get_ipython().user_ns
    name = asked["function"]
    function = namespace.get(name)
    if not callable(function):
        return json.dumps({"missing": missing(name)})
    budget = [MAX_VALUES]
    answers = []
    for args, kwargs in asked["cases"]:
        args, kwargs = decode_request(args), {k: decode_request(v) for k, v in kwargs.items()}
        counts = {counted: 0 for counted in asked.get("count", [])}
        saved = {counted: namespace.get(counted) for counted in counts}
        for counted, original in saved.items():
            if callable(original):
                namespace[counted] = _counting(original, counts, counted)
        answer: dict[str, Any] = {}
        try:
            answer["value"] = encode(function(*args, **kwargs), budget)
        except TooBig as error:
            answer = {"error": f"TooBig: {error}"}
        except (Exception, SystemExit) as error:  # the student's error is the case's answer
            answer = {"error": _error(error)}
        finally:
            for counted, original in saved.items():
                namespace[counted] = original
        if asked.get("after"):
            try:
                answer["args"] = encode(list(args), budget)
            except TooBig as error:
                answer = {"error": f"TooBig: {error}"}
        if counts:
            answer["counts"] = counts
        answers.append(answer)
    return json.dumps({"answers": answers})


def _counting(function: Any, counts: dict[str, int], name: str) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return function(*args, **kwargs)

    return counted
