"""Saving a :class:`~setwidgets.game.Game` as JSON text, and loading it back as strictly as a move.

``Game.to_json`` and ``Game.from_json`` call :func:`dumps` and :func:`loads`. The
text is written field by field from the game's two records, the setup fixed at
the start and the state that moves change (:class:`~setwidgets.game.state.Setup`
and :class:`~setwidgets.game.state.State`). Each field's ``kind`` picks its writer
and its reader in :data:`_KINDS` below, so a new field of the game is saved
and checked without a line here.

Loading trusts nothing in the text. It checks

1. that it is JSON at all (not too deeply nested, no ``NaN`` or ``Infinity``),
   made by ``Game.to_json`` in a version this code reads, with exactly the
   expected fields;
2. the kind and value of every field, with the same checks that
   ``Game(...)`` gives the same settings (one home for each check);
3. that the whole is a game the rules could have reached: every card in
   exactly one place, kept SETs that are SETs, a line of callers without
   doubles, a hint on the table, a game that is over exactly when the rules
   end it (and lost exactly when its variant says so), and no move left
   half done (this last check is the game's own, ``Game.from_json``);
4. that the state is the one its history tells, move by move: the SETs and
   penalties of each player, the line of callers, the table, the table size
   of the first deal, and the end of the game
   (:mod:`setwidgets.game.history`).

Anything else raises :class:`~setwidgets.game.GameError` saying what is wrong.

>>> from setwidgets import Game
>>> g = Game(seed=1, clock=lambda: 0.0)
>>> setup, state = loads(g.to_json(), lambda: 0.0)
>>> setup.variant, state.table == g.table
('standard', True)
>>> loads('{"format": "setwidgets.game", "version": 1}')
Traceback (most recent call last):
setwidgets.game.state.GameError: this saved game is damaged: the field 'variant' is missing
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from setwidgets import _words
from setwidgets._inputs import clock as check_clock
from setwidgets._inputs import seconds, short, what, whole_number
from setwidgets.cards import Card
from setwidgets.game import history
from setwidgets.game.inputs import (
    check_players_for,
    check_table_size,
    check_variant,
    deck_cards,
    player_names,
    read_clock,
)
from setwidgets.game.state import Call, GameError, Player, Setup, State
from setwidgets.game.variants import rules_of
from setwidgets.rules import has_set, is_set

__all__ = ["FORMAT", "VERSION", "damaged", "dumps", "loads"]

FORMAT = "setwidgets.game"
"""The ``format`` every saved game starts with."""

VERSION = 1
"""The version of the format this module writes and reads."""

# How random.Random's state looks: the version, 624 words of the Mersenne Twister and the
# position in them (0 to 624), and a cached Gaussian value or None.
_RNG_VERSION, _RNG_WORDS = 3, 625


def dumps(setup: Setup, state: State, now: float | None = None) -> str:
    """A game's setup and state as JSON text (always valid JSON: no NaN or Infinity).

    ``now``, the game's time, is needed when a call is pending: the time of the save.
    """
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    for record in (setup, state):
        for f in fields(record):
            data[f.name] = _KINDS[f.metadata["kind"]].write(getattr(record, f.name))
    if state.callers:
        if now is None:
            raise ValueError("a game with a pending call is saved with its time now")
        # Times of a pending call are kept relative to this moment (see loads). A game's own time
        # is never before a moment it holds (Game._now); a ``now`` given here may be, and the save
        # is then made at the latest moment it holds, so that it loads.
        held = [call.called_at for call in state.callers] + [state.turn_start or 0.0]
        data["saved_at"] = max(now, *held)
    return json.dumps(data, allow_nan=False)


def loads(text: str | bytes | bytearray, clock: Callable[[], float] = time.monotonic) -> tuple[Setup, State]:
    """A game's setup and state from the text :func:`dumps` wrote, checked; ``clock`` as for ``Game``."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json() needs the text made by Game.to_json(); got {what(text)}")
    check_clock(clock)
    data = _parse(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameError(f"this is not a saved game: Game.to_json() text starts with a 'format' of {FORMAT}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise GameError(
            f"saved game version {short(data.get('version'))} is not supported (expected {VERSION})"
        )
    expected = ["format", "version"] + [f.name for record in (Setup, State) for f in fields(record)]
    pending = bool(data.get("callers"))
    if pending:
        expected.append("saved_at")
    for key in expected:
        if key not in data:
            raise damaged(f"the field {key!r} is missing")
    for key in data:
        if key not in expected:
            raise damaged(f"it has a field {short(key)} that a saved game does not have")
    # Times of a pending call are moved to the new clock, so the caller keeps the seconds left.
    when = None
    if pending:
        when = (_time(data["saved_at"], "saved_at", None), read_clock(clock))
    setup = Setup(**_read_fields(Setup, data, when))
    state = State(**_read_fields(State, data, when))
    _check_whole(setup, state)
    # The state and its history are saved side by side: each must tell the same game.
    problem = history.disagreement(setup, state)
    if problem is not None:
        raise damaged(problem)
    return setup, state


# -- writers and readers, one pair per kind of field ------------------------------------


@dataclass(frozen=True)
class _Kind:
    write: Callable[[Any], Any]
    # (value, field name, when) -> value; ``when`` is (saved_at, the new clock's time) or None.
    read: Callable[[Any, str, Any], Any]


def damaged(message: str) -> GameError:
    """The error of a save that is no game the rules could have reached: ``message`` says why."""
    return GameError(f"this saved game is damaged: {message}")


def _reused(key: str, check: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """Run one of the checks Game() uses on a setting; its error, whatever the kind, is damage."""
    try:
        return check(*args, **options)
    except (TypeError, ValueError, OverflowError) as error:
        # Most checks name the setting themselves ("table_size must be ..."): say it once.
        text = str(error)
        raise damaged(text if text.startswith(key) else f"{key}: {text}") from None


def _list(value: Any, key: str, items: str) -> list[Any]:
    if type(value) is not list:
        raise damaged(f"{key} must be a list of {items}; got {what(value)}")
    return value


def _object(value: Any, key: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if type(value) is not dict or sorted(value) != sorted(keys):
        wanted = ", ".join(map(repr, keys))
        raise damaged(f"{key} must be an object with the fields {wanted}; got {what(value)}")
    return value


def _whole(value: Any, key: str) -> int:
    return _reused(key, whole_number, value, key, minimum=0, example="0")


def _flag(value: Any, key: str, when: Any = None) -> bool:
    if type(value) is not bool:
        raise damaged(f"{key} must be true or false; got {what(value)}")
    return value


def _time(value: Any, key: str, when: tuple[float, float] | None) -> float:
    """A time of the save, moved to the new clock by ``when`` = (saved_at, now): never after now."""
    try:
        number = float(value) if type(value) in (int, float) else math.nan
    except OverflowError:  # a whole number too large for a float
        number = math.nan
    if not math.isfinite(number):
        raise damaged(f"{key} must be a time in seconds (a finite number); got {what(value)}")
    if when is None:
        return number
    saved_at, now = when
    if number > saved_at:
        # A call made after the save would hold the turn for longer than the claim time.
        raise damaged(f"a call or a turn starts after saved_at, the time the game was saved ({key})")
    # Moved by the clock's step from saved_at to now: a game loaded at the moment it was saved
    # keeps its times exactly, and the min() keeps a time from passing now through rounding.
    moved = min(now, number + (now - saved_at))
    if not math.isfinite(moved):
        raise damaged(f"{key} is too long before saved_at to be a time of this game; got {short(value)}")
    return moved


def _card(value: Any, key: str) -> Card:
    if not isinstance(value, str):
        raise damaged(f"{key} holds {what(value)} where a card code like '2RTO' belongs")
    try:
        return Card.parse(value)
    except ValueError as error:
        raise damaged(f"{key} holds {short(value)}, which is not a card: {error}") from None


def _cards(value: Any, key: str, when: Any = None) -> list[Card]:
    return [_card(code, key) for code in _list(value, key, "card codes")]


def _codes(cards: Any) -> list[str]:
    return [c.code for c in cards]


def _three(value: Any, key: str) -> tuple[Card, Card, Card]:
    cards = _cards(value, key)
    if len(cards) != 3 or len(set(cards)) != 3:
        raise damaged(f"{key} must be three different cards; got {short(value)}")
    return tuple(cards)  # type: ignore[return-value]


def _read_deck(value: Any, key: str, when: Any) -> tuple[Card, ...]:
    return tuple(_reused(key, deck_cards, _list(value, key, "card codes")))


def _read_seed(value: Any, key: str, when: Any) -> int | None:
    if value is not None and type(value) is not int:
        raise damaged(f"{key} must be a whole number or null; got {what(value)}")
    return value


def _read_table_size(value: Any, key: str, when: Any) -> int:
    if value is None:
        raise damaged(f"{key} must be a whole number such as 12; got {what(value)}")
    return _reused(key, check_table_size, value)


def _read_players(value: Any, key: str, when: Any) -> list[Player]:
    entries = [_object(p, key, ("name", "sets", "penalties")) for p in _list(value, key, "players")]
    names = _reused(key, player_names, [p["name"] for p in entries])
    players = []
    for name, entry in zip(names, entries):
        sets = [_three(s, f"{name}'s SETs") for s in _list(entry["sets"], f"{name}'s SETs", "SETs")]
        for kept in sets:
            if not is_set(kept):
                raise damaged(f"{name} keeps {' '.join(_codes(kept))}, which is not a SET")
        players.append(Player(name, sets, _whole(entry["penalties"], f"{name}'s penalties")))
    return players


def _write_players(players: list[Player]) -> list[dict[str, Any]]:
    return [{"name": p.name, "sets": [_codes(s) for s in p.sets], "penalties": p.penalties} for p in players]


def _read_callers(value: Any, key: str, when: Any) -> list[Call]:
    callers = []
    for entry in _list(value, key, "callers"):
        entry = _object(entry, key, ("player", "called_at", "taken"))
        taken: dict[Card, int] = {}
        for pair in _list(entry["taken"], f"{key}' taken cards", "[card, player] pairs"):
            if type(pair) is not list or len(pair) != 2:
                raise damaged(f"{key}' taken cards are [card, player] pairs; got {what(pair)}")
            card = _card(pair[0], f"{key}' taken cards")
            if card in taken:
                raise damaged(f"{key}' taken cards name {card} twice")
            taken[card] = _whole(pair[1], f"{key}' taken cards")
        callers.append(
            Call(
                _whole(entry["player"], f"{key}' player"),
                _time(entry["called_at"], "called_at", when),
                taken,
            )
        )
    return callers


def _write_callers(callers: list[Call]) -> list[dict[str, Any]]:
    return [
        {
            "player": c.player,
            "called_at": c.called_at,
            "taken": [[card.code, who] for card, who in c.taken.items()],
        }
        for c in callers
    ]


def _read_rng(value: Any, key: str, when: Any) -> random.Random:
    problem = f"{key} must be a random generator's state [3, [{_RNG_WORDS} whole numbers], null]"
    if type(value) is not list or len(value) != 3 or type(value[0]) is not int:
        raise damaged(f"{problem}; got {short(value)}")
    version, words, gauss = value
    if (
        version != _RNG_VERSION
        or type(words) is not list
        or len(words) != _RNG_WORDS
        # 625 words in every save: their kinds and range checked at C speed, not word by word.
        or set(map(type, words)) != {int}
        or not 0 <= min(words) <= max(words) < 2**32
        or not 0 <= words[-1] <= _RNG_WORDS - 1
        or not (gauss is None or (type(gauss) is float and math.isfinite(gauss)))
    ):
        raise damaged(f"{problem}; got {short(value)}")
    rng = random.Random(0)
    try:
        rng.setstate((version, tuple(words), gauss))
    except (TypeError, ValueError, OverflowError) as error:  # pragma: no cover - the checks above come first
        raise damaged(f"{problem}: {error}") from None
    return rng


def _write_rng(rng: random.Random) -> list[Any]:
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def _read_history(value: Any, key: str, when: Any) -> list[dict[str, Any]]:
    events = _list(value, key, "events")
    for event in events:
        if type(event) is not dict or not isinstance(event.get("type"), str):
            raise damaged(f"each event of the {key} is an object with a 'type'; got {what(event)}")
    if not events or events[0]["type"] != "start":
        raise damaged(f"the {key} must begin with the 'start' event")
    return events


_KINDS: dict[str, _Kind] = {
    "variant": _Kind(str, lambda v, key, when: _reused(key, check_variant, v)),
    "deck": _Kind(_codes, _read_deck),
    "seed": _Kind(lambda v: v, _read_seed),
    "table_size": _Kind(lambda v: v, _read_table_size),
    "seconds": _Kind(
        lambda v: v, lambda v, key, when: _reused(key, seconds, v, key, allow_none=True, error=GameError)
    ),
    "cards": _Kind(_codes, _cards),
    "players": _Kind(_write_players, _read_players),
    "rng": _Kind(_write_rng, _read_rng),
    "flag": _Kind(lambda v: v, _flag),
    "callers": _Kind(_write_callers, _read_callers),
    "time": _Kind(lambda v: v, lambda v, key, when: None if v is None else _time(v, key, when)),
    "hint": _Kind(
        lambda v: None if v is None else _codes(v),
        lambda v, key, when: None if v is None else _three(v, key),
    ),
    "count": _Kind(lambda v: v, lambda v, key, when: _whole(v, key)),
    "history": _Kind(lambda v: v, _read_history),
}


def _read_fields(record: type, data: dict[str, Any], when: Any) -> dict[str, Any]:
    return {f.name: _KINDS[f.metadata["kind"]].read(data[f.name], f.name, when) for f in fields(record)}


# -- the whole: a game the rules could have reached ---------------------------------------


def _check_whole(setup: Setup, state: State) -> None:
    names = [p.name for p in state.players]
    _reused("players", check_players_for, setup.variant, names)
    _check_cards(setup, state)
    rules = rules_of(setup.variant)
    most = rules.most_on_table(setup.table_size)
    if state.deck and (not setup.table_size <= len(state.table) <= most or len(state.table) % 3):
        raise damaged(
            f"the table holds {_words.count(len(state.table), 'card')} while cards are left in the deck, "
            f"but a {setup.variant} table then holds from {setup.table_size} to {most} cards, "
            "three at a time"
        )
    _check_callers(state, names)
    _check_hint(state)
    if not state.over:
        if state.lost:
            raise damaged("it says the game is lost, but the game is not over")
        return
    if state.callers:
        raise damaged("the game is over, yet players are still in line to claim")
    if has_set(state.table):
        raise damaged("the game is over, yet the table still holds a SET")
    lost = rules.lost(state.table, setup.table_size)
    if state.lost and not lost:
        why = (
            "the table is not a full table without a SET"
            if rules.lost_on_full_table
            else f"a {setup.variant} game cannot be lost"
        )
        raise damaged(f"it says the game is lost, but {why}")
    if lost != state.lost:
        raise damaged(f"it says the game is won, but by the {setup.variant} rules this table is lost")
    if not lost and has_set(state.table + state.deck):
        raise damaged("the game is over, yet the cards left in the deck and on the table still hold a SET")


def _check_cards(setup: Setup, state: State) -> None:
    held = [c for p in state.players for s in p.sets for c in s]
    places = state.deck + state.table + held
    if len(places) == len(set(places)) and set(places) == set(setup.cards):
        return
    problems = []
    missing = [c for c in setup.cards if c not in places]
    if missing:
        problems.append(f"missing {_few(missing)}")
    twice = sorted({c for c in places if places.count(c) > 1})
    if twice:
        problems.append(f"twice {_few(twice)}")
    strangers = sorted({c for c in places if c not in setup.cards})
    if strangers:
        problems.append(f"not among its cards {_few(strangers)}")
    raise damaged("its deck, table and SETs do not hold each card once: " + "; ".join(problems))


def _few(cards: list[Card], shown: int = 6) -> str:
    """The first few cards' codes, and how many more: enough to find them in a long list."""
    more = f" and {len(cards) - shown} more" if len(cards) > shown else ""
    return " ".join(_codes(cards[:shown])) + more


def _check_callers(state: State, names: list[str]) -> None:
    seats = f"the players are 0 to {len(names) - 1}"
    seen: set[int] = set()
    for call in state.callers:
        if call.player >= len(names):
            raise damaged(f"caller {call.player} is not a player; {seats}")
        if call.player in seen:
            raise damaged(f"{names[call.player]} is twice in the line of callers")
        seen.add(call.player)
        for card, who in call.taken.items():
            if who >= len(names):
                raise damaged(f"a taken card names player {who}, who is not a player; {seats}")
            if not any(card in kept for kept in state.players[who].sets):
                raise damaged(f"{card} is noted as taken by {names[who]}, who does not hold it")
    if bool(state.callers) != (state.turn_start is not None):
        raise damaged(
            "turn_start must be a time exactly when someone is in line to claim, and null otherwise"
        )


def _check_hint(state: State) -> None:
    if state.hint is None:
        if state.hint_shown:
            raise damaged(f"hint_shown is {state.hint_shown} but no SET is hinted at")
        return
    if not 1 <= state.hint_shown <= 3:
        raise damaged(f"hint_shown counts the hinted cards shown, 1 to 3; got {state.hint_shown}")
    if not set(state.hint) <= set(state.table):
        raise damaged("the hinted cards are not all on the table")
    if not is_set(state.hint):
        raise damaged(f"the hint {' '.join(_codes(state.hint))} is not a SET")


def _parse(text: str | bytes | bytearray) -> Any:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not a number JSON allows")

    try:
        return json.loads(text, parse_constant=refuse)
    except RecursionError:
        raise GameError("this is not a saved game: it is nested too deeply") from None
    except ValueError as error:
        raise GameError(f"this is not a saved game (not JSON: {error})") from None
