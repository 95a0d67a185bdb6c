"""A room as saved: its game's history of bounded length, and what a loaded room must agree with.

Failed calls are folded into counts of penalties (:func:`fold`, :func:`unfold`); a room read
back is checked against its game (:func:`disagreement`).

The engine's save holds every event of its history and checks it against the state; a room
(:mod:`setwidgets.classroom.rooms`) shortens that history itself, past its ``HISTORY_LIMIT``
events, so the folding functions reach into the game's state (the only code outside
setwidgets.game that does), each in the one way written here. Scores, SETs, the table and the
queue of callers stay as they are: a room's save stays small however long a class plays.
"""

from __future__ import annotations

import json
import math
from typing import Any

from setwidgets import _inputs
from setwidgets.game import Game
from setwidgets.game.inputs import TIME_LIMIT


def fold(game: Game | None, folded: dict[str, int], fold_at: int, limit: int) -> int:
    """Fold the failed calls out of a game's history longer than ``limit`` into ``folded`` (counts
    by name); the length of history past which the next fold comes."""
    if game is None or len(game._state.history) <= max(limit, fold_at):
        return fold_at
    events = game._state.history
    names = [p.name for p in game._state.players]
    # First the pairs to drop: a call, and the timeout or failed claim that ended it.
    line: list[tuple[int, int]] = []  # the callers in line: (player, their call's event)
    drop: set[int] = set()
    for number, event in enumerate(events):
        kind = event["type"]
        if kind == "call":
            line.append((event["player"], number))
        elif kind in ("timeout", "claim") and line:
            player, called = line.pop(0)
            if kind == "timeout" or not event["ok"]:
                drop.update((called, number))
                if kind == "timeout" or event["penalty"]:
                    folded[names[player]] = folded.get(names[player], 0) + 1
        elif kind == "over":
            line = []
    # The next fold comes when the history has grown by half the limit again.
    fold_at = len(events) - len(drop) + limit // 2
    if not drop:
        return fold_at
    # Then the calls kept are numbered again: their place in a line without the calls dropped.
    kept, places = [], []  # places: for each caller in line, True when their call is kept
    for number, event in enumerate(events):
        kind = event["type"]
        if kind == "call":
            places.append(number not in drop)
            if number not in drop:
                event = {**event, "line": sum(places)}
        elif kind in ("timeout", "claim") and places:
            places.pop(0)
        elif kind == "over":
            places = []
        if number not in drop:
            kept.append(event)
    game._state.history = kept
    return fold_at


def game_text(game: Game, folded: dict[str, int]) -> str:
    """The game's save, with the folded penalties taken out so that it agrees with its history."""
    text = game.to_json()
    if not folded:
        return text
    data = json.loads(text)
    for player in data["players"]:
        player["penalties"] -= folded.get(player["name"], 0)
    if data["over"]:  # the last event, whose scores must be those of the save
        end = data["history"][-1]
        end["scores"] = {n: s + folded.get(n, 0) for n, s in end["scores"].items()}
    return json.dumps(data, allow_nan=False)


def unfold(game: Game | None, saved: Any) -> dict[str, int]:
    """After loading: give the game back the penalties its save left out (``saved``); the counts."""
    if not isinstance(saved, dict):
        raise ValueError(f"folded must be an object of counts by name; got {_inputs.what(saved)}")
    if saved and game is None:
        raise ValueError("it folds penalties but holds no game")
    folded: dict[str, int] = {}
    for name, count in saved.items():
        folded[name] = _inputs.whole_number(count, "a folded count", minimum=1)
    if not folded or game is None:
        return folded
    state = game._state
    seats = {p.name: p for p in state.players}
    for name, count in folded.items():
        if name not in seats:
            raise ValueError(f"it folds penalties of {_inputs.short(name)}, who does not play its game")
        seats[name].penalties += count
    if state.over:
        end = state.history[-1]
        state.history[-1] = {
            **end,
            "scores": {n: s - folded.get(n, 0) for n, s in end["scores"].items()},
        }
    return folded


# The fields of a saved room, by form (Room.to_data's "format"). Some came later than their form:
# a save without them reads as never paused (form 1 of 2026-11-26) or unlocked (form 2 before 11-27).
_FORM_1 = (
    "code variant deck claim_seconds scores_shown seed number status version teacher_n last members game"
)
FIELDS = {
    "setwidgets-room/1": ("format", *_FORM_1.split(), "paused_at", "paused_for"),
    "setwidgets-room/2": ("format", *_FORM_1.split(), "paused_at", "paused_for", "locked", "folded"),
}
LATER = ("paused_at", "paused_for", "locked")


def fields_problem(data: dict[str, Any]) -> str | None:
    """What is missing from a saved room, or there besides its form's fields, in words; or None."""
    fields = FIELDS[data["format"]]
    missing = [key for key in fields if key not in data and key not in LATER]
    if missing:
        return f"the field {missing[0]!r} is missing"
    unknown = [key for key in data if key not in fields]
    if unknown:
        return f"it has a field {_inputs.short(unknown[0])} that a saved room of its form does not"
    return None


def counter(value: Any, name: str, most: int) -> int:
    """A count a room keeps (games, changes, the teacher's messages), checked: 0 to ``most``."""
    number = _inputs.whole_number(value, name, minimum=0)
    if number > most:
        raise ValueError(f"{name} must be at most 2**53; got {_inputs.short(number)}")
    return number


def last_move(value: Any, version: int) -> dict[str, Any] | None:
    """The latest move as told: none before the first change, else a move of the room's ``version``."""
    if value is None and version == 0:
        return None
    if (
        type(value) is not dict
        or not isinstance(value.get("type"), str)
        or not isinstance(value.get("message"), str)
        or value.get("version") != version
    ):
        raise ValueError(
            f"last must be the latest move told (a type, a message and the room's version {version}); "
            f"got {_inputs.short(value)}"
        )
    return value


def member_fields(value: Any) -> tuple[Any, Any, Any, Any]:
    """A saved member's [name, team, removed, last_n], unchecked but four of them."""
    if type(value) is not list or len(value) != 4:
        raise ValueError(f"a member is [name, team, removed, last_n]; got {_inputs.short(value)}")
    return value[0], value[1], value[2], value[3]


def pause(data: dict[str, Any], status: str, clock: Any) -> tuple[float | None, float]:
    """A saved room's pause: when it began (None when not paused) and the seconds paused before."""
    if "paused_at" not in data:
        # The first saves of form 1 (2026-11-26) kept no pause: a pause then held no time, and one
        # saved so begins when the room is loaded; the time paused before is none.
        return (_time(clock(), "the clock's time") if status == "paused" else None), 0.0
    paused_at = None if data["paused_at"] is None else _time(data["paused_at"], "paused_at")
    return paused_at, _time(data.get("paused_for"), "paused_for")


def _time(value: Any, name: str) -> float:
    # Within the game's TIME_LIMIT: a room paused for 1e300 s loaded, then refused every move
    # because its game's clock (the room's, less the time paused) read beyond what a game counts.
    if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value < TIME_LIMIT:
        raise ValueError(f"{name} must be a time in seconds from 0 to 2**40; got {_inputs.short(value)}")
    return float(value)


def disagreement(room: Any, most_n: int) -> str | None:
    """What in a loaded room does not agree with its game, in words, or None (``most_n``: the
    highest message number)."""
    game = room.game
    seated = set() if game is None else {p.name for p in game.players}
    if not seated <= set(room.members):
        return "its players are not those of its game"
    if game is not None and room.number < 1:
        return "it holds a game but counts no game begun"
    if game is not None and (game.variant, game.claim_seconds) != (room.variant, room.claim_seconds):
        return (
            f"its game is played by other rules ({game.variant}, {game.claim_seconds} s to claim) "
            f"than the room's ({room.variant}, {room.claim_seconds} s)"
        )
    if game is not None and set(game.cards) != set(Game(deck=room.deck, players=1, seed=0).cards):
        return f"its game is dealt from another deck than the room's ({room.deck} deck)"
    if game is None:
        fits: tuple[str, ...] = ("waiting", "ended")
    elif game.over:
        fits = ("over", "ended")
    else:
        fits = ("open", "paused", "ended")
    if room.status not in fits:
        return f"its status {room.status} does not fit {'no game' if game is None else 'its game'}"
    if room.status == "paused" and room.paused_at is None:
        return "it is paused without the time its pause began"
    if room.paused_at is not None and room.status not in ("paused", "ended"):
        # Its game's clock would stand still while the room is in play: no claim would run out.
        return f"it holds the time a pause began but is {room.status}, not paused"
    if room.teacher_n > most_n or any(m.last_n > most_n for m in room.members.values()):
        return "a message number is above 2**53"
    if not set(room.folded) <= seated:
        return "it folds penalties of someone who does not play its game"
    return None
