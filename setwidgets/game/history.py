"""A saved game's history, told again move by move: it must end where the save says the game is.

A save holds both the state of a game (the table, each player's SETs and penalties, the line
of callers, whether the game is over) and its history, the events of every move. Each could be
changed without the other, so :func:`disagreement` plays the history again and compares:

- the first event is the ``start`` of this game: its variant, players and seed, and a first
  deal of as many cards as the table size says (``table_size`` cards, or the whole deck when
  it is smaller);
- the players are those of the start, then each one a ``join`` event seats, in that order, and
  nobody plays before being seated;
- each player keeps exactly the SETs the history says they took, in that order, and has one
  penalty for each claim that cost a point and each call that ran out of time;
- the line of callers is the one the calls, claims and timeouts leave;
- the game is over exactly when the history ends it with an ``over`` event, the last one, whose
  scores and loss are the save's;
- a hint shown is the last one the history shows;
- the table is the one the deals, claims and "no SET"s lay out, card by card, for every variant
  whose rules are all in its numbers (a variant with rules in code may record events of its own).

:func:`disagreement` returns one sentence saying the first thing that does not agree, or None;
:mod:`setwidgets.game.save` turns it into the error of a damaged save.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from setwidgets import _words
from setwidgets._inputs import short, what
from setwidgets.cards import Card
from setwidgets.game.state import Setup, State
from setwidgets.game.variants import rules_of

__all__ = ["EVENTS", "disagreement"]


class _Wrong(Exception):
    """What does not agree in a history, in one sentence (only inside this module)."""


def _index(value: Any, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise _Wrong(f"it names player {short(value)}, but the players are 0 to {players - 1}")
    return value


def _code(value: Any) -> str:
    if type(value) is not str:
        raise _Wrong(f"it holds {what(value)} where a card code like '2RTO' belongs")
    try:
        return Card.parse(value).code
    except ValueError:
        raise _Wrong(f"it holds {short(value)}, which is not a card") from None


def _codes(value: Any, players: int) -> list[str]:
    if type(value) is not list:
        raise _Wrong(f"it holds {what(value)} where a list of card codes belongs")
    return [_code(item) for item in value]


def _text(value: Any, players: int) -> str:
    if type(value) is not str:
        raise _Wrong(f"it holds {what(value)} where text belongs")
    return value


def _flag(value: Any, players: int) -> bool:
    if type(value) is not bool:
        raise _Wrong(f"it holds {what(value)} where true or false belongs")
    return value


def _whole(value: Any, players: int) -> int:
    if type(value) is not int or value < 0:
        raise _Wrong(f"it holds {short(value)} where a whole number belongs")
    return value


def _anyone(value: Any, players: int) -> int | None:
    return None if value is None else _index(value, players)


def _seed(value: Any, players: int) -> int | None:
    if value is not None and type(value) is not int:
        raise _Wrong(f"it holds {what(value)} where a seed (a whole number or null) belongs")
    return value


def _names(value: Any, players: int) -> list[str]:
    if type(value) is not list or any(type(name) is not str for name in value):
        raise _Wrong(f"it holds {short(value)} where the players' names belong")
    return value


def _scores(value: Any, players: int) -> dict[str, int]:
    if type(value) is not dict or any(type(score) is not int for score in value.values()):
        raise _Wrong(f"it holds {short(value)} where each player's score belongs")
    return value


def _replaced(value: Any, players: int) -> list[tuple[int, str, str | None]]:
    if type(value) is not list or any(type(item) is not list or len(item) != 3 for item in value):
        raise _Wrong(f"it holds {short(value)} where [position, old card, new card] entries belong")
    return [(_whole(p, players), _code(old), None if new is None else _code(new)) for p, old, new in value]


EVENTS: dict[str, dict[str, Callable[[Any, int], Any]]] = {
    "start": {"variant": _text, "players": _names, "seed": _seed, "table": _codes},
    "call": {"player": _index, "line": _whole},
    "claim": {
        "player": _index,
        "cards": _codes,
        "ok": _flag,
        "penalty": _flag,
        "message": _text,
        "replaced": _replaced,
    },
    "timeout": {"player": _index, "message": _text},
    "no_set": {"player": _anyone, "dealt": _codes, "returned": _codes, "lost": _flag},
    "hint": {"cards": _codes},
    "join": {"name": _text},
    "deal": {"cards": _codes, "reason": _text},
    "over": {"reason": _text, "scores": _scores, "lost": _flag},
}
"""Each kind of event a game records, and the check of each of its fields (besides ``type`` and ``time``)."""


def disagreement(setup: Setup, state: State) -> str | None:
    """The first thing in which ``state.history`` and the rest of the save disagree, or None."""
    try:
        _Replay(setup, state).run()
    except _Wrong as wrong:
        return str(wrong)
    return None


class _Replay:
    """The game as its history tells it: table, line of callers, SETs and penalties."""

    def __init__(self, setup: Setup, state: State) -> None:
        self.setup, self.state = setup, state
        self.names = [p.name for p in state.players]
        # A variant with rules in code may record events of its own and lay out cards its own way.
        self.exact = not rules_of(setup.variant).rules_in_code()
        self.table: list[str] = []
        self.line: list[int] = []
        self.sets: list[list[list[str]]] = [[] for _ in self.names]
        self.penalties = [0] * len(self.names)
        self.hinted: list[str] | None = None
        self.over: dict[str, Any] | None = None
        self.seated = 0  # the players seated so far: those at the start, then each who joined

    def run(self) -> None:
        events = [self.read(number, event) for number, event in enumerate(self.state.history, 1)]
        for number, event in enumerate(events, 1):
            if self.over is not None:
                raise _Wrong(f"event {number} of the history comes after the game was over")
            if (event["type"] == "start") != (number == 1):
                raise _Wrong("the history must begin with the 'start' event, and only once")
            play = getattr(self, f"_{event['type']}", None)
            if play is not None:
                play(event)
        self.compare()

    def read(self, number: int, event: dict[str, Any]) -> dict[str, Any]:
        """The event, its fields checked: a history that a game of this setup could have written."""
        kind = event["type"]
        checks = EVENTS.get(kind)
        if checks is None:
            if self.exact:
                raise _Wrong(f"event {number} of the history is of an unknown type, {short(kind)}")
            return event
        time = event.get("time")
        if type(time) not in (int, float) or not math.isfinite(time):
            raise _Wrong(f"event {number} of the history ({kind}) has no finite 'time'")
        if sorted(event) != sorted(["type", "time", *checks]):
            fields = ", ".join(map(repr, ["type", "time", *checks]))
            raise _Wrong(f"event {number} of the history ({kind}) must have the fields {fields}")
        try:
            read = {key: check(event[key], len(self.names)) for key, check in checks.items()}
        except _Wrong as wrong:
            raise _Wrong(f"event {number} of the history ({kind}): {wrong}") from None
        return {"type": kind, **read}

    # -- each kind of event, played on the table and the line ---------------------------------------

    def _start(self, event: dict[str, Any]) -> None:
        setup = self.setup
        told = (event["variant"], event["players"], event["seed"])
        self.seated = len(event["players"])
        if told != (setup.variant, self.names[: self.seated], setup.seed):
            raise _Wrong("the history's start names another variant, other players or another seed")
        first = min(setup.table_size, len(setup.cards))
        if len(event["table"]) != first:
            raise _Wrong(
                f"the history's first deal laid out {_words.count(len(event['table']), 'card')}, "
                f"but a table_size of {setup.table_size} and a deck of {len(setup.cards)} lay out {first}"
            )
        self.table = []
        self.lay(event["table"])

    def _join(self, event: dict[str, Any]) -> None:
        if self.seated >= len(self.names) or event["name"] != self.names[self.seated]:
            raise _Wrong(
                f"the history seats {short(event['name'])}, who is not the next of the save's players"
            )
        self.seated += 1

    def _call(self, event: dict[str, Any]) -> None:
        player = self.present(event)
        if player in self.line or event["line"] != len(self.line) + 1:
            raise _Wrong(f"the history has {self.names[player]} call SET out of turn")
        self.line.append(player)

    def _claim(self, event: dict[str, Any]) -> None:
        player = self.holder(event, "claims")
        if event["ok"] and event["penalty"]:
            raise _Wrong("the history has a claim that both kept a SET and cost a point")
        self.penalties[player] += event["penalty"]
        if not event["ok"]:
            return
        cards = event["cards"]
        # The table is followed card by card only where the variant's rules are all in its numbers.
        if len(cards) != 3 or (self.exact and not set(cards) <= set(self.table)):
            raise _Wrong(f"the history has {self.names[player]} take cards that were not on the table")
        self.sets[player].append(cards)
        if not self.exact:
            return
        positions = sorted(self.table.index(code) for code in cards)
        # Cards new to the table came from the deck; the others moved there from its end.
        dealt = [new for _, _, new in event["replaced"] if new is not None and new not in self.table]
        old = list(self.table)
        self.remove(positions, dealt)
        replaced = [(p, old[p], self.table[p] if p < len(self.table) else None) for p in positions]
        if replaced != event["replaced"]:
            raise _Wrong(f"the history's claim of {' '.join(cards)} does not fit the table it was made on")

    def _timeout(self, event: dict[str, Any]) -> None:
        self.penalties[self.holder(event, "runs out of time")] += 1

    def _no_set(self, event: dict[str, Any]) -> None:
        if event["player"] is not None:
            self.present(event)
        if self.line:
            raise _Wrong('the history has someone say "no SET" while a caller held the call')
        if not self.exact:
            return
        returned = event["returned"]
        if not set(returned) <= set(self.table) or len(set(returned)) != len(returned):
            raise _Wrong("the history sends cards back into the deck that were not on the table")
        if returned:
            self.remove(sorted(self.table.index(code) for code in returned), event["dealt"])
        else:
            self.lay(event["dealt"])

    def _deal(self, event: dict[str, Any]) -> None:
        if self.exact:
            self.lay(event["cards"])

    def _hint(self, event: dict[str, Any]) -> None:
        self.hinted = event["cards"]

    def _over(self, event: dict[str, Any]) -> None:
        self.over = event
        self.line = []

    def present(self, event: dict[str, Any]) -> int:
        """The event's player, who must have been seated by then (at the start, or joining later)."""
        player = event["player"]
        if player >= self.seated:
            raise _Wrong(f"the history has {self.names[player]} play before joining the game")
        return player

    def holder(self, event: dict[str, Any], does: str) -> int:
        player = self.present(event)
        if not self.line or self.line[0] != player:
            raise _Wrong(f"the history has {self.names[player]} {does} without holding the call")
        self.line.pop(0)
        return player

    def lay(self, codes: list[str]) -> None:
        self.table.extend(codes)
        self.unique()

    def remove(self, positions: list[int], dealt: list[str]) -> None:
        """The table's own move (State.remove), with the cards the history says were dealt."""
        on_table = State(deck=list(dealt), table=self.table, players=[], rng=None)  # type: ignore[arg-type]
        on_table.remove(positions, len(dealt))
        self.table = on_table.table
        self.unique()

    def unique(self) -> None:
        if len(set(self.table)) != len(self.table):
            raise _Wrong("the history lays out a card that is already on the table")

    # -- the end: the save must hold what the history says ----------------------------------------

    def compare(self) -> None:
        state = self.state
        if self.seated != len(self.names):
            raise _Wrong("the save seats players whom the history never seats")
        for name, player, sets, penalties in zip(self.names, state.players, self.sets, self.penalties):
            if [[c.code for c in kept] for kept in player.sets] != sets:
                told = _words.count(len(sets), "SET")
                raise _Wrong(f"{name} keeps other SETs than the {told} the history says {name} took")
            if player.penalties != penalties:
                raise _Wrong(
                    f"{name} has {_words.count(player.penalties, 'penalty')}, "
                    f"but the history tells of {penalties}"
                )
        if [call.player for call in state.callers] != self.line:
            raise _Wrong("the line of callers is not the one the history leaves")
        if state.over != (self.over is not None):
            raise _Wrong(
                "it says the game is over, but the history does not end it"
                if state.over
                else "it says the game is not over, but the history ends it"
            )
        if self.over is not None:
            scores = {p.name: p.score for p in state.players}
            if self.over["scores"] != scores or self.over["lost"] != state.lost:
                raise _Wrong("the scores or the loss at the end of the history are not the game's")
        if state.hint is not None and self.hinted != [c.code for c in state.hint[: state.hint_shown]]:
            raise _Wrong("the hint shown is not the last one the history shows")
        if self.exact and self.table != [c.code for c in state.table]:
            raise _Wrong("the table is not the one the history lays out")
