"""A room: one class game of SET, its players, and the referee that serves their messages.

A :class:`Room` is pure Python, like the game it holds: no network, no database. The
service (:mod:`setwidgets.classroom.service`) hands it each message as plain data, with the
name of the player who sent it (the service knows who from the token, never from the
message), saves the room after every change, and sends everyone the room's new view.

>>> room = Room("BCDFG", seed=4, clock=lambda: 0.0)
>>> room.join("Ana")["ok"], room.join("Ben")["ok"]
(True, True)
>>> sorted(room.view()["players"][0])
['name', 'penalties', 'present', 'score', 'sets', 'team']
>>> a, b, c = room.game.sets_on_table()[0]
>>> reply = room.play("Ben", {"n": 1, "type": "claim", "cards": [a.code, b.code, c.code]})
>>> reply["ok"], room.game.scores
(True, {'Ana': 0, 'Ben': 1})
>>> room.play("Ben", {"n": 1, "type": "call"})["message"]
'message 1 was served already; each message needs a higher number "n" than the one before'

What a player may send (each with a number ``n``, higher than the player's last one, so
that a message replayed by a network or a script is served once only):

- ``{"n": 3, "type": "call"}``: call "SET!" and join the line of callers;
- ``{"n": 4, "type": "claim", "cards": ["1RSO", "2GTS", "3POD"]}``: show three cards;
- ``{"n": 5, "type": "no_set"}``: say there is no SET on the table.

What the teacher may send: ``pause``, ``resume``, ``end``, ``new_game``, ``remove``
(with ``"name"``), ``scores`` (with ``"shown"``: true or false), ``lock`` and ``unlock``.
Every answer is a dict ``{"ok": ..., "message": ...}``; a refused message changes nothing.

A removed player sends nothing more and is left out of the next game; a call they made before
runs out of time like any other (the rules' penalty), so the line moves on.

A game's history keeps every move, and a room is saved whole after each one. So that a save
costs the same after 10 penalties as after 100,000, a room whose game's history passes
:data:`HISTORY_LIMIT` events folds the moves that only cost points (a call that ran out of
time, a wrong or late claim, and the call before it) into a count of penalties per player,
kept beside the game (``folded`` in :meth:`Room.to_data`). Scores, SETs, the table and the
line of callers are those of the whole game; only the story of those failed calls is gone.
"""

from __future__ import annotations

import random
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.classroom import folding
from setwidgets.game import MAX_PLAYERS, Game, GameError
from setwidgets.game.engine import SEED_LIMIT
from setwidgets.game.inputs import check_variant, look_alike, name_key, player_name

__all__ = ["CLASS_VARIANTS", "HISTORY_LIMIT", "MAX_N", "STATUSES", "Member", "Room", "RoomError"]

CLASS_VARIANTS: tuple[str, ...] = ("standard", "online", "competition")
"""The variants a class plays at one table (solitaire is for one player)."""

STATUSES: tuple[str, ...] = ("waiting", "open", "paused", "over", "ended")
"""A room's states: waiting for its first player, playing, paused by the teacher, the game over
(the teacher may start a new one), ended by the teacher (nothing more is played)."""

FORMAT = "setwidgets-room/2"
"""What :meth:`Room.to_data` writes first: a saved room says what it is and in which form.

Form 2 added ``folded``, the penalties folded out of the game's history; a save of form 1 (which
has none) is read too. A reader of form 1 would take a save of form 2 for a game with fewer
penalties, so the form's number changed: such a reader refuses it instead.
"""
_FORMATS = ("setwidgets-room/1", FORMAT)

HISTORY_LIMIT = 200
"""The events of a game's history past which the room folds failed calls into counts
(:mod:`setwidgets.classroom.folding`).

After a fold the history may grow by half as much again before the next: the moves that cannot
be folded (the start, joins, SETs kept, deals, calls still in line) are some 30 in a game of a
few players and at most a few hundred in one of 100, and each fold then costs one pass over
them. A room's save stays within some 30 KB for a small class and 100 KB for the largest."""

MAX_N = 2**53
"""The highest message number: a number every client language holds exactly (JavaScript too)."""

PLAYER_MOVES: tuple[str, ...] = ("call", "claim", "no_set")
TEACHER_MOVES: tuple[str, ...] = ("pause", "resume", "end", "new_game", "remove", "scores", "lock", "unlock")


class RoomError(ValueError):
    """A message or a request the room refuses; its text says what was wrong and what is expected."""


@dataclass
class Member:
    """A player of the room: their team, whether they were removed, and their last message's number."""

    name: str
    team: str = ""
    removed: bool = False
    last_n: int = 0


class Room:
    """One class game: the game of the engine, its players, and what each may do.

    Parameters
    ----------
    code:
        The room's short join code, such as ``"BCDFG"``.
    variant, deck, claim_seconds:
        As for :class:`~setwidgets.game.Game` (a class plays ``"standard"``, ``"online"``
        or ``"competition"``).
    scores_shown:
        False for the classroom mode: players see no scoreboard, only "a SET was found"
        and the SETs of each team.
    seed:
        The first game's shuffle (each new game takes the next number).
    clock:
        The time in seconds; the service uses the wall clock, so that a call's seconds run on
        across a restart of the service.
    """

    def __init__(
        self,
        code: str,
        variant: str = "standard",
        deck: str = "full",
        claim_seconds: float | None = 5.0,
        scores_shown: bool = True,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.code = code
        self.variant = check_variant(variant)
        if self.variant not in CLASS_VARIANTS:
            raise RoomError(
                f"a class plays {_words.and_list(CLASS_VARIANTS)} rules at one table; "
                f"got {_inputs.short(variant)}"
            )
        self.deck = _inputs.one_of(deck, ("full", "mini"), "deck", error=RoomError)
        self.claim_seconds = _inputs.seconds(claim_seconds, "claim_seconds", error=RoomError)
        self.scores_shown = _inputs.true_or_false(scores_shown, "scores_shown")
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else _seed(seed)
        self.clock = clock
        self.members: dict[str, Member] = {}
        self.locked = False  # the teacher's lock: nobody new joins
        self.game: Game | None = None
        self.number = 0  # the game's number in this room: 1 for the first
        self.status = "waiting"
        self.version = 0  # goes up by one with every change anyone may see
        self.teacher_n = 0
        self.last: dict[str, Any] | None = None  # the latest move, as everyone is told of it
        # A pause stops the game's clock: the game reads the room's clock less the time spent paused.
        self.paused_at: float | None = None
        self.paused_for = 0.0
        # Penalties folded out of the game's history, by player (see HISTORY_LIMIT): the game itself
        # holds every penalty; its save holds these fewer, so that it agrees with its shorter history.
        self.folded: dict[str, int] = {}
        self._fold_at = 0  # the length of history past which the next fold comes (with HISTORY_LIMIT)
        self._seen: tuple[tuple[int, int], dict[str, tuple[int, Any]]] | None = None

    # -- what anyone may see --------------------------------------------------------------------

    def view(self, teacher: bool = False) -> dict[str, Any]:
        """The room as every player and the projector see it: plain data, ready for JSON.

        With the scores hidden, the players' scores are left out, except for the ``teacher``.
        """
        game = self.game
        seated = self._seated()
        players = []
        for member in self.members.values():
            entry: dict[str, Any] = {"name": member.name, "team": member.team, "present": not member.removed}
            p = seated[member.name][1] if member.name in seated else None
            if p is not None:
                entry.update(sets=len(p.sets), penalties=p.penalties, score=p.score)
            elif game is not None:
                entry.update(sets=0, penalties=0, score=0)
            players.append(entry)
        by_seat = {seat: name for name, (seat, _) in seated.items()}
        teams: dict[str, int] = {}
        for entry in players:
            if entry["team"]:
                teams[entry["team"]] = teams.get(entry["team"], 0) + entry.get("sets", 0)
        if not self.scores_shown and not teacher:
            players = [{"name": e["name"], "team": e["team"], "present": e["present"]} for e in players]
        return {
            "type": "room",
            "code": self.code,
            "version": self.version,
            "status": self.status,
            "locked": self.locked,
            "game": self.number,
            "variant": self.variant,
            "deck": self.deck,
            "scores_shown": self.scores_shown,
            "table": [] if game is None else [c.code for c in game.table],
            "deck_left": 0 if game is None else len(game.deck),
            "sets_found": sum(len(p.sets) for _, p in seated.values()),
            "callers": [] if game is None else [by_seat[c] for c in game.callers],
            "claim_seconds": self.claim_seconds,
            "time_left": None if game is None else game.time_left(),
            "players": players,
            "teams": teams,
            "last": self.last,
        }

    def you(self, name: str) -> dict[str, Any]:
        """What only ``name`` is told: their score, their place in the line of callers (``line``)
        and the number of their last message served (``last_n``)."""
        member, seated = self.members.get(name), self._seated()
        last_n = 0 if member is None else member.last_n
        if name not in seated or self.game is None:
            return {"name": name, "score": 0, "sets": 0, "line": None, "last_n": last_n}
        seat, p = seated[name]
        line = self.game.callers.index(seat) + 1 if seat in self.game.callers else None
        return {"name": name, "score": p.score, "sets": len(p.sets), "line": line, "last_n": last_n}

    # -- players come and go --------------------------------------------------------------------

    def check_newcomer(self, name: str) -> None:
        """Refuse, in a sentence, a newcomer no door lets in: the room is full, or the teacher took
        out a player of that name. A join and the waiting list at a locked door both ask here."""
        present = sum(not m.removed for m in self.members.values())
        if present >= MAX_PLAYERS or len(self.members) >= 2 * MAX_PLAYERS:
            raise RoomError(
                f"room {self.code} is full: a room seats at most {MAX_PLAYERS} players; ask your teacher"
            )
        letters = _letters(name)
        if any(m.removed and _letters(m.name) == letters for m in self.members.values()):
            raise RoomError(
                f"the teacher took a player called {_inputs.short(name)} or alike out of room {self.code}; "
                "that name stays out"
            )

    def join(self, name: Any, team: Any = "") -> dict[str, Any]:
        """Seat a player, at any time until the room ends, unless it is locked or full.

        A room seats at most 100 players (the engine's ``MAX_PLAYERS``). The name goes through
        the engine's one names policy (:func:`setwidgets.game.inputs.player_name`); a name that
        looks like one already in the room ("Аna" in Cyrillic beside "Ana") is refused, and so
        is one with the letters of a player the teacher took out ("Ben 2" after Ben). A refusal
        names nobody but the one who asked.
        """
        if self.status == "ended":
            raise RoomError(f"room {self.code} has ended; ask your teacher for the code of a new room")
        name = player_name(name, "name", error=RoomError)
        team = "" if team in ("", None) else player_name(team, "team", error=RoomError)
        if self.locked:
            raise RoomError(f"room {self.code} is locked: the teacher lets nobody new in; ask your teacher")
        self.check_newcomer(name)
        if look_alike(name, self.members) is not None:
            raise RoomError(
                f"the name {_inputs.short(name)} is taken in room {self.code}, or looks like one that is; "
                "choose another name"
            )
        if self.game is None:
            self._new_game([name])
        elif not self.game.over:
            try:
                self.game.join(name)
            except GameError as refused:
                raise RoomError(str(refused)) from None
        self.members[name] = Member(name, team)
        if self.game is not None and self.game.over and self.status != "over":
            self.status = "over"
        self._changed({"type": "join", "name": name, "message": f"{name} joined the game."})
        return {"ok": True, "message": f"Welcome, {name}: you play in room {self.code}.", "name": name}

    # -- messages -------------------------------------------------------------------------------

    def play(self, name: str, message: Any) -> dict[str, Any]:
        """Serve one message of player ``name``; a refused message changes nothing."""
        try:
            return self._play(name, message)
        except (RoomError, GameError, TypeError, ValueError) as refused:
            return {"ok": False, "message": str(refused)}

    def teach(self, message: Any) -> dict[str, Any]:
        """Serve one message of the teacher; a refused message changes nothing."""
        try:
            return self._teach(message)
        except (RoomError, GameError, TypeError, ValueError) as refused:
            return {"ok": False, "message": str(refused)}

    def expire(self) -> bool:
        """Give a penalty to each caller whose seconds ran out; True when anything changed."""
        if self.game is None or self.status != "open":
            return False  # a paused game's clock stands still
        late = self.game.expire()
        if not late:
            return False
        names = [self.game.players[p].name for p in late]
        self._changed(
            {
                "type": "timeout",
                "name": names[-1],
                "message": f"{_words.and_list(names)} showed no SET in time and "
                f"{_words.agree(len(names), 'loses', 'lose')} a point.",
            }
        )
        return True

    def deadline(self) -> float | None:
        """When the caller holding the call runs out of time, on the room's clock, or None."""
        game = self.game
        left = None if game is None or self.status != "open" else game.time_left()
        return None if left is None else self.clock() + left

    def _play(self, name: str, message: Any) -> dict[str, Any]:
        member = self.members.get(name)
        if member is None:
            raise RoomError(f"{_inputs.short(name)} has not joined room {self.code}; join first")
        if member.removed:
            raise RoomError(f"the teacher took {name} out of room {self.code}")
        kind, n = self._read(message, PLAYER_MOVES, member.last_n, {"cards"})
        if "player" in message or "name" in message:
            raise RoomError("a message does not name a player: you always play as yourself")
        if self.status in ("ended", "over", "waiting"):
            raise RoomError(self._closed())
        game = self.game
        assert game is not None  # a room with members has a game
        holds = game.callers[:1] == [game.seat(name)]
        if self.status == "paused" and not (kind == "claim" and holds):
            raise RoomError("the teacher paused the game; wait until it goes on")
        if kind == "call":
            game.call(name)
            place = game.callers.index(game.seat(name)) + 1
            said = (
                f"{name} called SET!" if place == 1 else f"{name} called SET and is number {place} in line."
            )
            event, reply = {"type": "call", "name": name, "message": said}, said
        elif kind == "claim":
            if "cards" not in message:
                raise RoomError('a claim needs "cards": three card codes like ["1RSO", "2GTS", "3POD"]')
            claim = game.claim(message["cards"], name)
            cards = [c.code for c in claim.cards]
            said = claim.message if self.scores_shown or not claim.ok else f"{name} found a SET."
            event = {"type": "claim", "name": name, "ok": claim.ok, "cards": cards, "message": said}
            reply = claim.message
        else:
            outcome = game.no_set(name)
            event = {"type": "no_set", "name": name, "ok": outcome.ok, "message": outcome.message}
            reply = outcome.message
        member.last_n = n
        if game.over:
            self.status = "over"
        self._changed(event)
        return {"ok": event.get("ok", True), "message": reply, "n": n}

    def _teach(self, message: Any) -> dict[str, Any]:
        kind, n = self._read(message, TEACHER_MOVES, self.teacher_n, {"name", "shown"})
        if self.status == "ended":
            raise RoomError(self._closed())
        if kind == "pause":
            if self.status != "open":
                raise RoomError(f"only a game in play can be paused; this room is {self.status}")
            self.status, said = "paused", "The teacher paused the game."
            self.paused_at = self.clock()
        elif kind == "resume":
            if self.status != "paused":
                raise RoomError(f"only a paused game can go on; this room is {self.status}")
            self._unpause()
            self.status, said = "open", "The game goes on."
        elif kind == "end":
            self.status, said = "ended", "The teacher ended the game."
        elif kind == "new_game":
            names = [m.name for m in self.members.values() if not m.removed]
            self._unpause()
            self._new_game(names)
            said = f"Game {self.number} begins."
        elif kind == "remove":
            name = message.get("name")
            member = self.members.get(name) if isinstance(name, str) else None
            if member is None:
                raise RoomError(f"nobody called {_inputs.short(name)} plays in room {self.code}")
            if member.removed:
                raise RoomError(f"{name} was taken out of room {self.code} already")
            member.removed = True
            said = f"The teacher took {name} out of the game."
        elif kind in ("lock", "unlock"):
            self.locked = kind == "lock"
            said = (
                "The teacher locked the room: nobody new joins."
                if self.locked
                else "The teacher unlocked the room: new players may join."
            )
        else:
            self.scores_shown = _inputs.true_or_false(message.get("shown"), "shown")
            said = (
                "Scores are shown."
                if self.scores_shown
                else "Scores are hidden: only the SETs found are told."
            )
        self.teacher_n = n
        self._changed({"type": kind, "message": said})
        return {"ok": True, "message": said, "n": n}

    # -- saving and loading ---------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The whole room as plain data (JSON-ready); :meth:`from_data` makes a room that plays on."""
        return {
            "format": FORMAT,
            "code": self.code,
            "variant": self.variant,
            "deck": self.deck,
            "claim_seconds": self.claim_seconds,
            "scores_shown": self.scores_shown,
            "seed": self.seed,
            "number": self.number,
            "status": self.status,
            "locked": self.locked,
            "version": self.version,
            "teacher_n": self.teacher_n,
            "last": self.last,
            "paused_at": self.paused_at,
            "paused_for": self.paused_for,
            "members": [[m.name, m.team, m.removed, m.last_n] for m in self.members.values()],
            "game": None if self.game is None else folding.game_text(self.game, self.folded),
            "folded": dict(self.folded),
        }

    @classmethod
    def from_data(cls, data: Any, clock: Callable[[], float] = time.time) -> Room:
        """Rebuild a room saved with :meth:`to_data`, checked: a damaged save raises RoomError.

        Besides the checks of the game's own save (:meth:`Game.from_json
        <setwidgets.game.Game.from_json>`), the room and its game must agree: the players of the
        game are members of the room, names are text and appear once, the status is one the game
        can be in, and the penalties folded out of the history belong to players of the game.
        """
        if not isinstance(data, dict) or data.get("format") not in _FORMATS:
            raise RoomError(f"this is not a saved room: Room.to_data() writes a 'format' of {FORMAT}")
        problem = folding.fields_problem(data)
        if problem is not None:
            raise RoomError(f"the saved room {_inputs.short(data.get('code'))} is damaged: {problem}")
        code = data.get("code")
        # A code is a word of capitals and digits (the service deals five consonants): it names
        # the room in messages and in the store, so nothing else is read as one.
        if not (
            isinstance(code, str)
            and 1 <= len(code) <= 16
            and code.isascii()
            and code.isalnum()
            and code == code.upper()
        ):
            raise RoomError(
                f"this saved room is damaged: its code must be 1 to 16 capital letters or digits, "
                f"like 'BCDFG'; got {_inputs.short(code)}"
            )
        try:
            room = cls(
                data["code"],
                data["variant"],
                data["deck"],
                data["claim_seconds"],
                data["scores_shown"],
                data["seed"],
                clock,
            )
            room.number = folding.counter(data["number"], "number", MAX_N)
            room.status = _inputs.one_of(data["status"], STATUSES, "status")
            room.locked = _inputs.true_or_false(data.get("locked", False), "locked")  # older saves: unlocked
            room.version = folding.counter(data["version"], "version", MAX_N)
            room.teacher_n = folding.counter(data["teacher_n"], "teacher_n", MAX_N)
            room.last = folding.last_move(data["last"], room.version)
            room.paused_at, room.paused_for = folding.pause(data, room.status, clock)
            if not isinstance(data["members"], list):
                raise ValueError(f"members must be a list; got {_inputs.what(data['members'])}")
            for name, team, removed, last_n in map(folding.member_fields, data["members"]):
                if type(name) is not str or type(team) is not str or type(removed) is not bool:
                    raise ValueError(f"a member is [name, team, removed, last_n]; got {_inputs.short(name)}")
                # Through the one names policy, as join() takes them: a save is not a way around it.
                if player_name(name, "a member's name", error=ValueError) != name or (
                    team and player_name(team, "a member's team", error=ValueError) != team
                ):
                    raise ValueError(
                        f"a member's name or team is not as join() keeps it: {_inputs.short(name)}"
                    )
                if look_alike(name, room.members) is not None or len(room.members) >= 2 * MAX_PLAYERS:
                    raise ValueError(f"{_inputs.short(name)} is a member twice, or alike, or one too many")
                last_n = _inputs.whole_number(last_n, "last_n", minimum=0)
                room.members[name] = Member(name, team, removed, last_n)
            if data["game"] is not None:
                room.game = Game.from_json(data["game"], room.game_time)
            # A save of form 1 folded nothing.
            saved = data.get("folded", {}) if data["format"] == FORMAT else {}
            room.folded = folding.unfold(room.game, saved)
        except (KeyError, TypeError, ValueError) as damaged:
            raise RoomError(
                f"the saved room {_inputs.short(data.get('code'))} is damaged: {damaged}"
            ) from None
        problem = folding.disagreement(room, MAX_N)
        if problem is not None:
            raise RoomError(f"the saved room {room.code} is damaged: {problem}")
        return room

    def restore(self, data: Any) -> None:
        """Become again the room saved as ``data`` (from :meth:`to_data`), in place.

        The service does this when a change could not be saved: the room it serves is then the
        one on disk, and whoever holds this object (each connection of the room) sees it too.
        """
        again = Room.from_data(data, self.clock)
        if again.code != self.code:
            raise RoomError(f"room {self.code} cannot become the saved room {again.code}")
        self.__dict__.update(again.__dict__)

    # -- the machinery --------------------------------------------------------------------------

    def _read(self, message: Any, kinds: tuple[str, ...], last_n: int, extra: set[str]) -> tuple[str, int]:
        """The message's type and number, checked: a dict with a known type and a new number."""
        if not isinstance(message, dict):
            raise RoomError(
                f'a message is a JSON object like {{"n": 1, "type": "call"}}; got {_inputs.what(message)}'
            )
        kind = message.get("type")
        if kind not in kinds:
            raise RoomError(f'"type" must be one of {_words.and_list(kinds)}; got {_inputs.short(kind)}')
        unknown = sorted(set(message) - {"n", "type", *extra} - {"player", "name"}, key=str)
        if unknown:
            raise RoomError(f'a "{kind}" message has no field {_inputs.short(unknown[0])}')
        n = message.get("n")
        if type(n) is not int or not 0 < n <= MAX_N:
            raise RoomError(
                'a message needs "n", a whole number from 1 to 2**53 above the last one; '
                f"got {_inputs.short(n)}"
            )
        if n <= last_n:
            raise RoomError(
                f'message {n} was served already; each message needs a higher number "n" than the one before'
            )
        return kind, n

    def game_time(self) -> float:
        """The game's clock: the room's, less the time spent paused (it stands still in a pause)."""
        now = self.clock() if self.paused_at is None else self.paused_at
        return now - self.paused_for

    def _unpause(self) -> None:
        if self.paused_at is not None:
            self.paused_for += max(0.0, self.clock() - self.paused_at)
            self.paused_at = None

    def _seated(self) -> dict[str, tuple[int, Any]]:
        """The players of the current game by name, with their seats (read once per change)."""
        key = (self.number, self.version)
        if self._seen is None or self._seen[0] != key:
            players = [] if self.game is None else self.game.players
            self._seen = (key, {p.name: (i, p) for i, p in enumerate(players)})
        return self._seen[1]

    def _new_game(self, names: list[str]) -> None:
        self.number += 1
        self.folded, self._fold_at = {}, 0
        if not names:
            self.game, self.status = None, "waiting"
            return
        self.game = Game(
            deck=self.deck,
            players=names,
            variant=self.variant,
            seed=(self.seed + self.number - 1) % 2**32,
            claim_seconds=self.claim_seconds,
            clock=self.game_time,
        )
        self.status = "over" if self.game.over else "open"

    def _closed(self) -> str:
        if self.status == "waiting":
            return f"room {self.code} waits for its first player"
        if self.status == "over":
            return f"game {self.number} of room {self.code} is over; wait for the teacher to start a new one"
        return f"room {self.code} has ended; ask your teacher for the code of a new room"

    def _changed(self, event: dict[str, Any]) -> None:
        self.version += 1
        self.last = {**event, "version": self.version}
        self._fold_at = folding.fold(self.game, self.folded, self._fold_at, HISTORY_LIMIT)


def _letters(name: str) -> str:
    """The letters of a name as it looks, in lower case: "Ben 2", "ben." and "B e n" are "ben"."""
    return "".join(c for c in name_key(name)[1] if unicodedata.category(c)[0] == "L")


def _seed(value: Any) -> int:
    """A room's seed: a whole number from 0 to below 2**128, so that its save reads back."""
    seed = _inputs.whole_number(value, "seed", minimum=0, error=RoomError)
    if seed >= SEED_LIMIT:
        raise RoomError(f"seed must be a whole number below 2**128 (39 digits); got {_inputs.short(seed)}")
    return seed
