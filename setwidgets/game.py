"""The game of SET as a state machine: deck, table, calls, claims, penalties and variants.

A :class:`Game` holds everything a real table holds: the shuffled deck, the
cards face up, each player's SETs and penalty points, and who has called
"SET!" and must now show three cards. Nothing here draws or listens to the
mouse; widgets call these methods and redraw from the state (see
:meth:`Game.on_change`), and a test or an autograder can play the same game
without a screen.

A short game::

    >>> from setwidgets import Game
    >>> g = Game(players=["Ana", "Ben"], seed=39, clock=lambda: 0.0)
    >>> len(g.table), len(g.deck)
    (12, 69)
    >>> a, b, c = g.sets_on_table()[0]
    >>> g.call(player="Ben")                  # Ben shouts "SET!" first...
    >>> claim = g.claim([a, b, c], player="Ben")
    >>> claim.ok, claim.replaced[0][0]       # ...keeps the SET; new cards fill the gaps
    (True, 0)
    >>> print(claim.verdict)
    A SET: all different numbers, all different colors, all different shapes and same shading.
    >>> wrong = g.claim(g.table[:3], player="Ana")   # a claim without a call includes the call
    >>> print(wrong.message)
    Not a SET: two are red and one is purple. Ana loses a point.
    >>> [(p.name, p.score) for p in g.players]
    [('Ana', -1), ('Ben', 1)]
    >>> Game.from_json(g.to_json(), clock=lambda: 0.0).to_json() == g.to_json()
    True

Cards may be given as :class:`~setwidgets.cards.Card` objects or as codes
such as ``"2RTO"``; ``g.claim("1RSO 2GTS 3POD")`` works too.

Variants (``variant=``; each variant's rules live in one class of
:mod:`setwidgets.variants`):

``"standard"``
    No turns; if nobody sees a SET, :meth:`Game.no_set` lays out three more
    cards. Cards above the usual table size are not replaced when a SET is
    taken, so the table shrinks back.
``"solitaire"``
    One player; a full table (12 cards, 9 for the mini deck) without a SET
    loses the game, whether the player says "no SET" or the deck has run out.
``"online"``
    Whenever the table has no SET after a deal, three more cards are dealt,
    again and again, until there is one (or the deck is empty).
``"competition"``
    A judged table: no SET among 12 gives 3 more; no SET among 15 sends 6 of
    them back into the deck, which is reshuffled, and 3 are dealt (back to 12).

Every game ends: as soon as no SET can be made any more from the cards on
the table and in the deck together (when the deck is empty, that is the
table alone), the game is over, in every variant. A solitaire game can also
end earlier, lost (see :class:`~setwidgets.variants.Solitaire`). Scores are
SETs kept minus penalties.
"""

from __future__ import annotations

import inspect
import json
import math
import numbers
import random
import time
import warnings
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass, field, fields
from itertools import islice
from typing import Any

from setwidgets import _card_inputs, _inputs, _words, variants
from setwidgets.cards import Card, full_deck, mini_deck, parse_cards
from setwidgets.rules import Verdict, _first_positions, explain, find_sets
from setwidgets.variants import VARIANTS

__all__ = ["VARIANTS", "Claim", "Game", "GameError", "NoSet", "Player"]

DECKS: tuple[str, ...] = ("full", "mini")
"""Deck names :class:`Game` accepts: the 81 cards, or the 27 red cards."""

MAX_PLAYERS = 26
"""The most players one game seats (a class plays at several tables)."""
MAX_NAME = 40
"""The longest player's name, in characters: it has to fit on the board and in every message."""

Triple = tuple[Card, Card, Card]


class GameError(ValueError):
    """A move the rules do not allow, or input that does not describe one.

    The message says what was wrong and what is expected; the game's state is
    exactly as it was before the move.
    """


@dataclass
class Player:
    """One player: a ``name``, the ``sets`` kept and the ``penalties`` marked.

    ``score`` is the number of SETs kept minus the penalty points.
    """

    name: str
    sets: list[Triple] = field(default_factory=list)
    penalties: int = 0

    @property
    def score(self) -> int:
        """SETs kept minus penalty points."""
        return len(self.sets) - self.penalties


@dataclass(frozen=True)
class Claim:
    """What happened when a player showed three cards (see :meth:`Game.claim`).

    - ``ok``: True when the cards were a SET and the player keeps them;
    - ``player``: the player's index; ``cards``: the three cards shown;
    - ``verdict``: :func:`~setwidgets.rules.explain` of the cards
      (``str(verdict)`` is the sentence);
    - ``message``: one sentence to show the players;
    - ``penalty``: True when the player lost a point;
    - ``replaced``: one ``(position, old_card, new_card_or_None)`` per
      taken card, where the new card is the one now at that position
      (dealt from the deck, or moved from the end of the table when the
      table shrinks) and None when the table no longer reaches there;
    - ``moved``: ``(from_position, to_position, card)`` for the cards that
      moved into the gaps.
    """

    ok: bool
    player: int
    cards: Triple
    verdict: Verdict
    message: str
    penalty: bool
    replaced: list[tuple[int, Card, Card | None]] = field(default_factory=list)
    moved: list[tuple[int, int, Card]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class NoSet:
    """What happened when someone said "there is no SET" (see :meth:`Game.no_set`).

    ``ok`` is False (and nothing changed) when the table does have a SET.
    Otherwise ``dealt`` lists the cards laid out, ``returned`` the cards sent
    back into the deck (competition), and ``over``/``lost`` tell whether the
    game ended and, in solitaire, whether the player lost.
    """

    ok: bool
    player: int | None
    message: str
    dealt: list[Card] = field(default_factory=list)
    returned: list[Card] = field(default_factory=list)
    over: bool = False
    lost: bool = False

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.message


@dataclass
class _Call:
    """One player waiting in line after calling SET."""

    player: int
    called_at: float
    # Cards taken by earlier callers since this call, with who took them: a claim
    # of such cards is "too late", not a mistake, and costs nothing.
    taken: dict[Card, int] = field(default_factory=dict)


def _part(kind: str, **options: Any) -> Any:
    """A field of the game's records; ``kind`` tells :mod:`setwidgets.save` how to write and check it."""
    return field(metadata={"kind": kind}, **options)


@dataclass(frozen=True)
class _Setup:
    """What is decided when a game starts and never changes."""

    variant: str = _part("variant")
    cards: tuple[Card, ...] = _part("deck")
    seed: int | None = _part("seed")
    table_size: int = _part("table_size")
    claim_seconds: float | None = _part("seconds")


@dataclass
class _State:
    """Everything a move can change, declared once.

    A move's undo (:meth:`snapshot` and :meth:`restore`), :meth:`Game.to_json`
    and :meth:`Game.from_json` all go through these fields, so a new part of
    the state is added here and nowhere else (with its ``kind``; a new kind
    also needs its reader and writer in :mod:`setwidgets.save`).
    """

    deck: list[Card] = _part("cards")
    table: list[Card] = _part("cards")
    players: list[Player] = _part("players")
    rng: random.Random = _part("rng")
    over: bool = _part("flag", default=False)
    lost: bool = _part("flag", default=False)
    callers: list[_Call] = _part("callers", default_factory=list)
    turn_start: float | None = _part("time", default=None)
    hint: Triple | None = _part("hint", default=None)
    hint_shown: int = _part("count", default=0)
    history: list[dict[str, Any]] = _part("history", default_factory=list)

    def snapshot(self) -> _State:
        """A copy to roll a refused move back to, all but the shuffling generator.

        Copying the generator's state costs more than the rest of a move, and only one move
        draws from it (:meth:`Game._send_back`), which saves that state itself first; the
        snapshot's ``rng`` is None.
        """
        saved = object.__new__(_State)  # every field is set here: no need for __init__'s defaults
        for name in _STATE_KEPT:
            setattr(saved, name, getattr(self, name))
        for name, copy in _STATE_COPIES:
            setattr(saved, name, copy(getattr(self, name)))
        return saved

    def restore(self, saved: _State) -> None:
        """Put every field but the generator back as it was in ``saved``."""
        for name in _STATE_FIELDS:
            if name != "rng":
                setattr(self, name, getattr(saved, name))


def _copied(value: Any) -> Any:
    """A copy deep enough that a move cannot change it: cards and events are never changed in place."""
    if isinstance(value, list):
        # Only players and callers change in place; a list of cards, SETs or events is copied shallow.
        if value and isinstance(value[0], (Player, _Call)):
            return [_copied(item) for item in value]
        return list(value)
    if isinstance(value, Player):
        return Player(value.name, list(value.sets), value.penalties)
    if isinstance(value, _Call):
        return _Call(value.player, value.called_at, dict(value.taken))
    return value


def _same(value: Any) -> Any:
    return value


# How each kind of field is copied for a move's undo: every move takes a snapshot, so the copy
# is chosen once per field (by its kind), not found out value by value.
_COPY_BY_KIND: dict[str, Callable[[Any], Any]] = {
    "cards": list,
    "history": list,  # events are never changed in place
    "rng": lambda rng: None,  # see _State.snapshot
    "flag": _same,
    "time": _same,
    "count": _same,
    "hint": _same,
}
_STATE_FIELDS = tuple(f.name for f in fields(_State))
# The values a move replaces but never changes in place are kept as they are (no call to copy them).
_STATE_KEPT = tuple(f.name for f in fields(_State) if _COPY_BY_KIND.get(f.metadata["kind"]) is _same)
_STATE_COPIES = tuple(
    (f.name, _COPY_BY_KIND.get(f.metadata["kind"], _copied))
    for f in fields(_State)
    if f.name not in _STATE_KEPT
)


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


class Game:
    """A game of SET in progress: deck, table, players, calls and claims.

    Parameters
    ----------
    deck:
        ``"full"`` (81 cards), ``"mini"`` (the 27 red cards) or any list of
        different cards (Card objects or codes such as ``"2RTO"``).
    players:
        A list of names, or how many players (named "Player 1", "Player 2",
        ...). The default is one player called "You".
    variant:
        ``"standard"``, ``"solitaire"``, ``"online"`` or ``"competition"``.
    seed:
        A whole number for a reproducible shuffle, a ``random.Random`` to use
        (and advance), or None for a fresh random seed (then ``g.seed`` tells it).
    table_size:
        How many cards lie on the table normally: 12, or 9 for a deck of 27
        cards or fewer. A positive multiple of 3.
    claim_seconds:
        How long a caller has to show three cards (a finite number of
        seconds); None for no limit.
    clock:
        A function returning the time in seconds; tests pass a fake one.

    The main moves are :meth:`call`, :meth:`claim`, :meth:`no_set`,
    :meth:`expire` and :meth:`hint`. A move that the rules forbid, or input
    that does not make sense, raises :class:`GameError` (or TypeError for
    the wrong kind of object) and leaves the game unchanged.
    """

    def __init__(
        self,
        deck: str | Iterable[Card | str] = "full",
        players: Iterable[str] | int | None = None,
        variant: str = "standard",
        seed: int | random.Random | None = None,
        table_size: int | None = None,
        claim_seconds: float | None = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        name = _check_variant(variant)
        cards = _deck_cards(deck)
        names = _player_names(players)
        _check_players_for(name, names)
        size = _check_table_size(table_size, len(cards))
        seconds = _inputs.seconds(claim_seconds, "claim_seconds", error=GameError)
        _inputs.clock(clock)
        rng, seed_used = _inputs.rng_and_seed(seed)

        shuffled = list(cards)
        rng.shuffle(shuffled)
        self._adopt(
            _Setup(name, tuple(cards), seed_used, size, seconds),
            _State(deck=shuffled, table=[], players=[Player(n) for n in names], rng=rng),
            clock,
        )
        dealt = self._deal(size)
        self._record("start", variant=name, players=names, seed=seed_used, table=[c.code for c in dealt])
        self._settle()
        self._pending = []

    def _adopt(self, setup: _Setup, state: _State, clock: Callable[[], float]) -> None:
        """Take on a setup and a state: for a new game, and for one loaded from a save."""
        self._setup = setup
        self._in_deck = frozenset(setup.cards)  # a claim's cards are looked up here, not in a list
        self._state = state
        self._rules = variants.rules_of(setup.variant)
        self._clock = clock
        self._observers: list[Callable[[dict[str, Any]], None]] = []
        self._pending: list[dict[str, Any]] = []
        # The generator's state before the current move first drew from it (see _State.snapshot).
        self._rng_before: tuple[Any, ...] | None = None

    # -- what anyone may look at ------------------------------------------------

    @property
    def table(self) -> list[Card]:
        """The cards face up, in layout order (a copy)."""
        return list(self._state.table)

    @property
    def deck(self) -> list[Card]:
        """The cards still to deal, next card first (a copy)."""
        return list(self._state.deck)

    @property
    def cards(self) -> list[Card]:
        """Every card this game is played with (its whole deck at the start)."""
        return list(self._setup.cards)

    @property
    def players(self) -> list[Player]:
        """The players with their SETs and penalties (copies: change the game through its moves)."""
        return [Player(p.name, list(p.sets), p.penalties) for p in self._state.players]

    @property
    def variant(self) -> str:
        """ "standard", "solitaire", "online" or "competition"."""
        return self._setup.variant

    @property
    def seed(self) -> int | None:
        """The seed of the shuffle (None when a random.Random was passed in)."""
        return self._setup.seed

    @property
    def table_size(self) -> int:
        """How many cards lie on the table normally (12, or 9 for a small deck)."""
        return self._setup.table_size

    @property
    def claim_seconds(self) -> float | None:
        """Seconds a caller has to show three cards (None: no limit)."""
        return self._setup.claim_seconds

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self._state.over

    @property
    def lost(self) -> bool:
        """Solitaire: True when the game ended on a full table without a SET."""
        return self._state.lost

    @property
    def caller(self) -> int | None:
        """The index of the player whose call is being served, or None."""
        callers = self._state.callers
        return callers[0].player if callers else None

    @property
    def callers(self) -> list[int]:
        """Players who called SET, in the order they are served."""
        return [c.player for c in self._state.callers]

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every event so far, oldest first, as plain dicts (cards as codes)."""
        return json.loads(json.dumps(self._state.history))

    @property
    def scores(self) -> dict[str, int]:
        """Each player's name and score."""
        return {p.name: p.score for p in self._state.players}

    @property
    def winners(self) -> list[str]:
        """The names of the players with the highest score (several when tied)."""
        best = max(p.score for p in self._state.players)
        return [p.name for p in self._state.players if p.score == best]

    def seat(self, player: int | str) -> int:
        """The seat, from 0, of a player given by number or name.

        >>> Game(players=["Ana", "Ben"], seed=1).seat("Ben")
        1

        An unknown player raises :class:`GameError`, and something that is
        neither a number nor a name raises TypeError; both messages list the
        players.
        """
        if type(player) is int and 0 <= player < len(self._state.players):
            return player  # the usual case, a seat number, needs no more checking
        return _inputs.player_index(player, [p.name for p in self._state.players], error=GameError)

    def sets_on_table(self) -> list[Triple]:
        """Every SET among the cards on the table."""
        return find_sets(self._state.table)

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds the current caller has left to claim (None: no caller or no limit)."""
        s, limit = self._state, self._setup.claim_seconds
        if not s.callers or limit is None or s.turn_start is None:
            return None
        return max(0.0, s.turn_start + limit - self._now(now))

    def on_change(self, callback: Callable[[dict[str, Any]], None], remove: bool = False) -> None:
        """Call ``callback(event)`` after every change, once per event.

        ``event`` is a dict like the ones in :attr:`history`. Callbacks run
        after the move is complete, so they see the new state. A callback
        that raises does not undo the move and does not keep the other
        callbacks from hearing about it: its error is reported as a
        RuntimeWarning. Pass ``remove=True`` to stop calling a callback.
        """
        if not callable(callback):
            raise TypeError(
                f"on_change() needs a function taking one event dict; got {_inputs.what(callback)}"
            )
        if remove:
            if callback in self._observers:
                self._observers.remove(callback)
            return
        problem = _cannot_take_an_event(callback)
        if problem:
            raise TypeError(
                f"on_change() needs a function that takes one argument, the event dict, "
                f"like def redraw(event): ...; {problem}"
            )
        if callback not in self._observers:
            self._observers.append(callback)

    def __repr__(self) -> str:
        s = self._state
        scores = ", ".join(f"{p.name} {p.score}" for p in s.players)
        state = ", over" if s.over else ""
        return (
            f"<Game {self._setup.variant}: {len(s.table)} on the table, {len(s.deck)} in the deck; "
            f"{scores}{state}>"
        )

    # -- moves ------------------------------------------------------------------

    def call(self, player: int | str = 0) -> None:
        """Call "SET!": the player joins the line of callers.

        The first in line has ``claim_seconds`` to :meth:`claim`; the next
        one's time starts when the one before is done. Meanwhile nobody else
        may take cards.
        """
        with self._move():
            s = self._state
            index = self.seat(player)
            self._require_playing("call SET")
            now = self._now()
            self._expire(now)
            if s.callers and s.callers[0].player == index:
                raise GameError(
                    f"{self._says(index, 'holds', 'hold')} the call already; pick three cards on the table."
                )
            if any(c.player == index for c in s.callers):
                raise GameError(
                    f"{self._says(index, 'is', 'are')} already in line, after "
                    f"{self._name(s.callers[0].player, start=False)}; "
                    "wait until the players before are done."
                )
            s.callers.append(_Call(index, now))
            if len(s.callers) == 1:
                s.turn_start = now
            self._record("call", player=index, line=len(s.callers))

    def claim(self, cards: Iterable[Card | str] | str, player: int | str = 0) -> Claim:
        """Show three cards after calling SET, and find out whether they are a SET.

        ``cards`` are three cards on the table: Card objects, codes, or one
        string of three codes such as ``"1RSO 2GTS 3POD"``. If nobody is
        calling, the claim includes the call.

        - A SET: the player keeps it (+1) and the cards are replaced from the
          deck (or removed when the table holds more than its usual size).
        - Not a SET: the player loses a point and the cards stay.
        - Cards that an earlier caller took after this player called: too
          late, but no penalty.
        - After the claim time ran out: the timeout's penalty, nothing else.

        Returns a :class:`Claim`. Raises :class:`GameError` when the cards are
        not three different cards of this table, when another player holds
        the call, or when the game is over.
        """
        with self._move():
            s = self._state
            chosen = self._parse_three(cards)
            index = self.seat(player)
            self._require_playing("claim cards")
            now = self._now()
            if index in self._expire(now):
                seconds = _words.seconds(self._setup.claim_seconds)
                return Claim(
                    False,
                    index,
                    chosen,
                    explain(*chosen),
                    f"Too late: {self._name(index, start=False)} had {seconds} to show a SET "
                    "and lost a point.",
                    True,
                )
            if not s.callers:
                s.callers.append(_Call(index, now))
                s.turn_start = now
                self._record("call", player=index, line=1)
            holder = s.callers[0].player
            if holder != index:
                mine = next((k for k, c in enumerate(s.callers) if c.player == index), None)
                if mine is None:
                    raise GameError(
                        f"{self._says(holder, 'has', 'have')} called SET; nobody else may take cards "
                        "until the caller has chosen. Call SET yourself to be next in line."
                    )
                raise GameError(
                    f"{self._says(holder, 'holds', 'hold')} the call; "
                    f"{self._says(index, 'is', 'are', start=False)} number {mine + 1} in line "
                    "and may claim when the players before are done."
                )
            entry = s.callers[0]
            position = {card: p for p, card in enumerate(s.table)}
            missing = [c for c in chosen if c not in position]
            if missing and all(c in entry.taken for c in missing):
                takers = sorted({self._name(entry.taken[c], start=False) for c in missing})
                message = (
                    f"Too late: {_codes(missing)} {_words.agree(len(missing), 'was', 'were')} taken by "
                    f"{_words.and_list(takers)} after {self._name(index, start=False)} called. No penalty."
                )
                self._finish_turn(now)
                claim = Claim(False, index, chosen, explain(*chosen), message, False)
            elif missing:
                raise GameError(self._not_on_table(missing))
            else:
                claim = self._judge(index, chosen, now, sorted(position[c] for c in chosen))
            self._record(
                "claim",
                player=index,
                cards=[c.code for c in chosen],
                ok=claim.ok,
                penalty=claim.penalty,
                message=claim.message,
                replaced=[[p, old.code, None if new is None else new.code] for p, old, new in claim.replaced],
            )
            if claim.ok:
                self._settle()
            return claim

    def expire(self, now: float | None = None) -> list[int]:
        """Give a penalty to each caller whose time to claim has run out.

        Returns their indexes, in order. ``now`` defaults to the game's
        clock. :meth:`call`, :meth:`claim` and :meth:`no_set` do this first
        on their own; a widget may also call it from a timer.
        """
        with self._move():
            return self._expire(self._now(now))

    def no_set(self, player: int | str | None = None) -> NoSet:
        """Say "there is no SET on the table" (``player`` None: everyone agrees).

        If the table has a SET, nothing changes and ``ok`` is False. Otherwise
        the variant decides (see :mod:`setwidgets.variants`): standard and
        online deal three more cards; solitaire: the game is over, lost on a
        full table; competition: three more cards, or with three extra
        already on the table, six go back into the deck, it is reshuffled,
        and three are dealt.
        """
        with self._move():
            s = self._state
            index = None if player is None else self.seat(player)
            self._require_playing("say there is no SET")
            self._expire(self._now())
            if s.callers:
                raise GameError(
                    f"{self._says(s.callers[0].player, 'has', 'have')} called SET; "
                    "wait until the call is over before saying there is no SET."
                )
            count = len(find_sets(s.table))
            if count:
                there = _words.there_are(count, "SET")
                return NoSet(False, index, f"{there[0].upper()}{there[1:]} on the table; keep looking.")
            outcome = self._rules.no_set(self)
            lost = outcome.ends and self._rules.lost(s.table, self._setup.table_size)
            self._record(
                "no_set",
                player=index,
                dealt=[c.code for c in outcome.dealt],
                returned=[c.code for c in outcome.returned],
                lost=lost,
            )
            if outcome.ends:
                self._end()
            else:
                self._settle()
            return NoSet(True, index, outcome.message, outcome.dealt, outcome.returned, s.over, s.lost)

    def hint(self) -> list[Card]:
        """Cards of one SET on the table: one card the first time, then two, then all three.

        The same SET is hinted at until one of its cards leaves the table.
        Returns an empty list when the table has no SET.
        """
        with self._move():
            s = self._state
            if s.hint is None:
                sets = find_sets(s.table)
                if not sets:
                    return []
                s.hint = sets[0]
            s.hint_shown = min(3, s.hint_shown + 1)
            shown = list(s.hint[: s.hint_shown])
            self._record("hint", cards=[c.code for c in shown])
            return shown

    # -- saving and loading -----------------------------------------------------

    def to_json(self) -> str:
        """The whole game as JSON text, including the shuffle's random state.

        :meth:`from_json` makes a game that plays on exactly like this one.
        When a call is pending, the clock's current time is saved too, so the
        caller keeps the seconds left after loading. (See :mod:`setwidgets.save`.)
        """
        from setwidgets import save

        return save.dumps(self)

    @classmethod
    def from_json(cls, text: str | bytes, clock: Callable[[], float] = time.monotonic) -> Game:
        """Rebuild a game saved with :meth:`to_json`; ``clock`` as for :class:`Game`.

        The save is checked as strictly as a move: anything that is not a
        game the rules could have reached raises :class:`GameError` saying
        what is wrong. The new game deals, shuffles and hints exactly as the
        saved one would have. Observers (:meth:`on_change`) are not saved:
        register them again. A random.Random passed in as ``seed`` is not
        shared any more; the new game has its own generator in the same state.
        """
        from setwidgets import save

        return save.loads(text, clock, cls)

    # -- the machinery ----------------------------------------------------------

    def _move(self) -> _Move:
        """Run one move: undo everything if it raises, tell the observers if it succeeds."""
        return _Move(self)

    def _record(self, kind: str, **data: Any) -> None:
        event = {"type": kind, "time": self._now(), **data}
        self._state.history.append(event)
        self._pending.append(event)

    def _now(self, now: float | None = None) -> float:
        """``now``, checked, or the clock's time."""
        if now is None:
            return _read_clock(self._clock)
        if isinstance(now, bool) or not isinstance(now, numbers.Real):
            raise TypeError(f"now must be a time in seconds (a number); got {_inputs.what(now)}")
        if not math.isfinite(now):
            raise GameError(f"now must be a finite time in seconds; got {now!r}")
        return now

    def _name(self, index: int, start: bool = True) -> str:
        """The player's name; the default player You is "you" inside a sentence."""
        name = self._state.players[index].name
        return "you" if name == "You" and not start else name

    def _says(self, index: int, verb: str, you_verb: str, start: bool = True) -> str:
        """The player's name and a verb that agrees with it ("Ana keeps", "You keep")."""
        name = self._name(index, start)
        return f"{name} {you_verb if name.lower() == 'you' else verb}"

    def _require_playing(self, what: str) -> None:
        if self._state.over:
            raise GameError(f"the game is over, so nobody can {what}; start a new Game to play again")

    def _parse_three(self, cards: Any) -> Triple:
        """Three different cards of this game's deck, or an error saying what is wrong."""
        if (
            type(cards) in (tuple, list)
            and len(cards) == 3
            and all(type(c) is Card for c in cards)
            and len(set(cards)) == 3
            and all(c in self._in_deck for c in cards)
        ):
            return tuple(cards)  # type: ignore[return-value]  # the usual claim: nothing to parse or refuse
        if isinstance(cards, (bytes, bytearray)):
            raise TypeError(
                f"a claim is three cards, given as text; got {_inputs.what(cards)}{_inputs.bytes_hint(cards)}"
            )
        if isinstance(cards, str):
            items: list[Any] = _inputs.split_codes(cards)
            given: int | None = len(items)
        elif isinstance(cards, Card) or not isinstance(cards, Iterable):
            raise TypeError(
                f"a claim is three cards, as a list like [a, b, c] or codes like "
                f"['1RSO', '2GTS', '3POD']; got {_inputs.what(cards)}"
            )
        else:
            # One card more than a SET is enough to refuse: an endless iterable is read no further.
            items = list(islice(cards, 4))
            given = len(cards) if isinstance(cards, Sized) else None if len(items) > 3 else len(items)
        chosen = parse_cards(items, error=GameError)
        if given != 3:
            how_many = "more than 3" if given is None else str(given)
            shown = f": {_inputs.short(_codes(chosen))[1:-1]}" if chosen else ""
            raise GameError(f"a SET is exactly three cards; got {how_many}{shown}")
        twice = _card_inputs.repeated(chosen)
        if twice is not None:
            raise GameError(
                f"the card {twice.name} ({twice}) is chosen twice; a SET is three different cards"
            )
        strangers = [c for c in chosen if c not in self._in_deck]
        if strangers:
            raise GameError(
                f"{_codes(strangers)} {_words.is_are(len(strangers))} not in this game's deck of "
                f"{_words.count(len(self._setup.cards), 'card')}; choose cards on the table"
            )
        return tuple(chosen)  # type: ignore[return-value]

    def _not_on_table(self, missing: list[Card]) -> str:
        reasons = []
        for card in missing:
            owners = [i for i, p in enumerate(self._state.players) if any(card in s for s in p.sets)]
            owner = self._name(owners[0], start=False) if owners else None
            where = f"{owner} already took it" if owner else "it is still in the deck"
            reasons.append(f"{card} ({card.name}) is not on the table: {where}")
        return "; ".join(reasons) + ". Choose three cards on the table."

    def _judge(self, index: int, chosen: Triple, now: float, positions: list[int]) -> Claim:
        """Serve the caller's claim of three cards that are all on the table, at ``positions``."""
        s = self._state
        verdict = explain(*chosen)
        self._finish_turn(now)
        if not verdict.is_set:
            s.players[index].penalties += 1
            return Claim(
                False,
                index,
                chosen,
                verdict,
                f"{verdict} {self._says(index, 'loses', 'lose')} a point.",
                True,
            )
        s.players[index].sets.append(chosen)
        for waiting in s.callers:
            waiting.taken.update(dict.fromkeys(chosen, index))
        # Replace from the deck only up to the usual table size: extra cards laid out
        # after a "no SET" are not replaced, so the table shrinks back.
        fill = max(0, min(3, self._setup.table_size - (len(s.table) - 3)))
        old = [s.table[p] for p in positions]
        _, moved = self._remove(positions, fill)
        replaced = [(p, card, s.table[p] if p < len(s.table) else None) for p, card in zip(positions, old)]
        return Claim(
            True,
            index,
            chosen,
            verdict,
            f"{self._says(index, 'keeps', 'keep')} a SET (+1 point). {verdict}",
            False,
            replaced,
            moved,
        )

    def _finish_turn(self, now: float) -> None:
        s = self._state
        s.callers.pop(0)
        s.turn_start = now if s.callers else None

    def _expire(self, now: float) -> list[int]:
        s, limit = self._state, self._setup.claim_seconds
        out: list[int] = []
        if limit is None:
            return out
        while s.callers and s.turn_start is not None and now > s.turn_start + limit:
            deadline = s.turn_start + limit
            late = s.callers.pop(0)
            s.players[late.player].penalties += 1
            out.append(late.player)
            # The next caller's seconds started when the previous caller's ran out.
            s.turn_start = max(deadline, s.callers[0].called_at) if s.callers else None
            self._record(
                "timeout",
                player=late.player,
                message=(
                    f"{self._says(late.player, 'loses', 'lose')} a point: "
                    f"no SET shown within {_words.seconds(limit)}."
                ),
            )
        return out

    # -- what a variant may do to the table (see setwidgets.variants) ------------

    def _deal(self, count: int) -> list[Card]:
        """Lay out up to ``count`` cards from the deck at the end of the table."""
        s = self._state
        dealt = s.deck[:count]
        del s.deck[:count]
        s.table.extend(dealt)
        return dealt

    def _send_back(self, count: int, deal: int) -> tuple[list[Card], list[Card]]:
        """``count`` random cards from the table back into the deck, reshuffled; ``deal`` into the gaps."""
        s = self._state
        if self._rng_before is None:
            self._rng_before = s.rng.getstate()  # for the undo of a move that fails after this
        positions = sorted(s.rng.sample(range(len(s.table)), count))
        returned = [s.table[p] for p in positions]
        s.deck.extend(returned)
        s.rng.shuffle(s.deck)
        dealt, _ = self._remove(positions, deal)
        return returned, dealt

    def _remove(self, positions: list[int], fill: int) -> tuple[list[Card], list[tuple[int, int, Card]]]:
        """Take the cards at ``positions`` off the table; deal up to ``fill`` into the gaps.

        Gaps that get no new card are filled with the last cards on the table,
        so the layout keeps its shape and only the end of it shrinks.
        """
        s = self._state
        gaps = sorted(positions)
        count = min(fill, len(s.deck), len(gaps))
        new = s.deck[:count]
        del s.deck[:count]
        for p, card in zip(gaps, new):
            s.table[p] = card
        rest = gaps[count:]
        size = len(s.table) - len(rest)
        holes = [p for p in rest if p < size]
        tail = [q for q in range(size, len(s.table)) if q not in rest]
        moved = []
        for hole, q in zip(holes, tail):
            s.table[hole] = s.table[q]
            moved.append((q, hole, s.table[q]))
        del s.table[size:]
        return new, moved

    def _settle(self) -> None:
        """After the table changed: drop a hint that left it; end the game, or let the variant deal."""
        s = self._state
        if s.hint is not None and not set(s.hint) <= set(s.table):
            s.hint, s.hint_shown = None, 0
        # The one end of every game: the table and the deck together can no longer make a SET.
        if _no_set_in(s.table) and _no_set_in(s.table + s.deck):
            self._end()
        else:
            self._rules.after_deal(self)

    def _end(self) -> None:
        s = self._state
        s.over = True
        s.lost = self._rules.lost(s.table, self._setup.table_size)
        # Callers still in line have nothing left to claim; they lose nothing.
        s.callers = []
        s.turn_start = None
        if s.lost:
            reason = "no SET on the table"
        elif s.deck:
            reason = "no SET can be made from the cards left, on the table and in the deck"
        else:
            reason = "the deck is empty and no SET is left on the table"
        self._record("over", reason=reason, scores=self.scores, lost=s.lost)


class _Move:
    """The context of one move of a game (see Game._move); a plain class, as every move makes one."""

    __slots__ = ("game", "saved")

    def __init__(self, game: Game) -> None:
        self.game = game

    def __enter__(self) -> None:
        game = self.game
        self.saved = game._state.snapshot()
        game._pending = []
        game._rng_before = None

    def __exit__(self, kind: type[BaseException] | None, raised: BaseException | None, trace: Any) -> bool:
        game = self.game
        if kind is not None:
            game._state.restore(self.saved)
            if game._rng_before is not None:
                # Into the same generator: a random.Random passed in as the seed stays shared.
                game._state.rng.setstate(game._rng_before)
            game._pending = []
            return False  # the error goes on to the caller
        events, game._pending = game._pending, []
        for event in events:
            for callback in list(game._observers):
                try:
                    callback(json.loads(json.dumps(event)))
                except Exception as error:  # noqa: BLE001 - a broken observer must not undo a made move
                    warnings.warn(
                        f"the on_change callback {_callback_name(callback)} raised "
                        f"{type(error).__name__}: {error} (the {event['type']} was made; "
                        "the other callbacks were told)",
                        RuntimeWarning,
                        stacklevel=3,  # the code that made the move
                    )
        return False


def _no_set_in(cards: list[Card]) -> bool:
    """True when no SET lies among these different cards (the game's own, already checked)."""
    return _first_positions([c.index for c in cards]) is None


# -- input checks shared by Game() and Game.from_json() -------------------------------


def _check_variant(variant: Any) -> str:
    known = ", ".join(map(repr, variants.names()))
    if not isinstance(variant, str):
        raise TypeError(f"variant must be one of {known}; got {_inputs.what(variant)}")
    name = variant.strip().lower()
    if name not in variants.names():
        raise GameError(f"unknown variant {_inputs.short(variant)}; choose one of {known}")
    return name


def _check_players_for(variant: str, names: list[str]) -> None:
    wanted = variants.rules_of(variant).players
    if wanted is not None and len(names) != wanted:
        raise GameError(
            f"{variant} is a game for {_words.count(wanted, 'player')}; "
            f"got {_words.count(len(names), 'player')} ({_inputs.short(', '.join(names))[1:-1]})"
        )


def _read_clock(clock: Callable[[], float]) -> float:
    """The clock's time, which must be a finite number of seconds."""
    reading = clock()
    if type(reading) is float and math.isfinite(reading):
        return reading  # the usual case; anything else gets the shared checks and messages
    return _inputs.read_clock(lambda: reading, "the game's clock", error=GameError)


def _deck_cards(deck: Any) -> list[Card]:
    if isinstance(deck, str) and deck.strip().lower() in DECKS:
        return full_deck() if deck.strip().lower() == "full" else mini_deck()
    if isinstance(deck, str):
        raise GameError(f"unknown deck {_inputs.short(deck)}; use 'full', 'mini' or a list of cards")
    if isinstance(deck, (Card, bytes, bytearray)) or not isinstance(deck, Iterable):
        raise TypeError(f"deck must be 'full', 'mini' or a list of cards; got {_inputs.what(deck)}")
    cards = parse_cards(islice(deck, _card_inputs.ENOUGH_TO_REPEAT), where=" in the deck", error=GameError)
    twice = _card_inputs.repeated(cards)
    if twice is not None:
        raise GameError(f"the deck holds {twice.name} ({twice}) twice; each card appears once")
    if len(cards) < 3:
        raise GameError(f"a deck needs at least three cards to make a SET; got {len(cards)}")
    return cards


def _player_names(players: Any) -> list[str]:
    if players is None:
        return ["You"]
    if isinstance(players, numbers.Number):
        count = _inputs.whole_number(players, "players", example="2")
        if not 1 <= count <= MAX_PLAYERS:
            raise GameError(f"a game needs from 1 to {MAX_PLAYERS} players; got {count}")
        return [f"Player {i + 1}" for i in range(count)]
    if isinstance(players, (str, bytes, bytearray)) or not isinstance(players, Iterable):
        raise TypeError(
            f"players must be a number or a list of names like ['Ana', 'Ben']; got {_inputs.what(players)}"
        )
    names = list(islice(players, MAX_PLAYERS + 1))
    if not names:
        raise GameError("a game needs at least one player; got an empty list")
    if len(names) > MAX_PLAYERS:
        raise GameError(
            f"a game needs from 1 to {MAX_PLAYERS} players; got more: {_card_inputs.listed(names)}"
        )
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a player's name is a string like 'Ana'; got {_inputs.what(name)}")
        if not name.strip():
            raise GameError(f"a player's name is a non-empty string; got {_inputs.short(name)}")
        if len(name) > MAX_NAME:
            raise GameError(
                f"a player's name has at most {MAX_NAME} characters, to fit on the board; "
                f"got {_inputs.short(name)}"
            )
    # Seats are found by name whatever the case ("ana" is Ana), so names must differ in more than case.
    folded = [name.strip().casefold() for name in names]
    for k, name in enumerate(folded):
        if name in folded[:k]:
            first, again = names[folded.index(name)], names[k]
            called = _inputs.short(first)
            if again != first:
                called += f" and {_inputs.short(again)}, which differ only in case"
            raise GameError(f"two players are called {called}; give each player a different name")
    return names


def _check_table_size(size: Any, deck_size: int) -> int:
    if size is None:
        return 12 if deck_size > 27 else 9
    number = _inputs.whole_number(size, "table_size", example="12", error=GameError)
    if number < 3 or number % 3:
        raise GameError(f"table_size must be a positive multiple of 3 (such as 9 or 12); got {number}")
    return number


def _cannot_take_an_event(callback: Callable[..., Any]) -> str | None:
    """Why ``callback`` cannot be called with one event, or None when it can (or cannot be inspected)."""
    try:
        signature = inspect.signature(callback)
    except (TypeError, ValueError):
        return None  # some builtins cannot be inspected; they are given the benefit of the doubt
    try:
        signature.bind({})
    except TypeError as error:
        return f"{_callback_name(callback)}{signature} cannot be called with one event ({error})"
    return None


def _callback_name(callback: Callable[..., Any]) -> str:
    return getattr(callback, "__qualname__", None) or repr(callback)
