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

Variants (``variant=``):

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

The game ends when the deck is empty and no SET is left on the table (or,
in solitaire, when the player loses). Scores are SETs kept minus penalties.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from setwidgets import _words
from setwidgets.cards import Card, _what, full_deck, mini_deck, split_codes
from setwidgets.rules import Verdict, explain, find_sets, has_set

__all__ = ["VARIANTS", "Claim", "Game", "GameError", "NoSet", "Player"]

VARIANTS: tuple[str, ...] = ("standard", "solitaire", "online", "competition")
"""The ways to play that :class:`Game` knows (see the module docstring)."""

DECKS: tuple[str, ...] = ("full", "mini")
"""Deck names :class:`Game` accepts: the 81 cards, or the 27 red cards."""

_FORMAT = "setwidgets.game"
_VERSION = 1

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
        An int for a reproducible shuffle, a ``random.Random`` to use (and
        advance), or None for a fresh random seed (then ``g.seed`` tells it).
    table_size:
        How many cards lie on the table normally: 12, or 9 for a deck of 27
        cards or fewer. A positive multiple of 3.
    claim_seconds:
        How long a caller has to show three cards; None for no limit.
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
        self._variant = _check_variant(variant)
        self._cards = _deck_cards(deck)
        names = _player_names(players)
        if self._variant == "solitaire" and len(names) != 1:
            raise GameError(
                f"solitaire is a game for one player; got {len(names)} players ({', '.join(names)})"
            )
        self._table_size = _check_table_size(table_size, len(self._cards))
        self._claim_seconds = _check_seconds(claim_seconds)
        if not callable(clock):
            raise TypeError(f"clock must be a function that returns the time in seconds; got {clock!r}")
        self._clock = clock
        if isinstance(seed, random.Random):
            self._seed: int | None = None
            self._rng = seed
        elif seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
            # A fresh seed is drawn from the operating system (not the global RNG) and kept,
            # so even an unseeded game can be replayed from g.seed.
            self._seed = secrets.randbits(32) if seed is None else seed
            self._rng = random.Random(self._seed)
        else:
            raise TypeError(f"seed must be an int, a random.Random or None; got {seed!r}")

        self._players = [Player(name) for name in names]
        self._deck = list(self._cards)
        self._rng.shuffle(self._deck)
        self._table: list[Card] = []
        self._over = False
        self._lost = False
        self._queue: list[_Call] = []
        self._turn_start: float | None = None
        self._hint: Triple | None = None
        self._hint_shown = 0
        self._history: list[dict[str, Any]] = []
        self._observers: list[Callable[[dict[str, Any]], None]] = []
        self._pending: list[dict[str, Any]] = []

        dealt = self._deal(self._table_size)
        self._record(
            "start",
            variant=self._variant,
            players=names,
            seed=self._seed,
            table=[c.code for c in dealt],
        )
        self._after_deal()
        self._pending = []

    # -- what anyone may look at ------------------------------------------------

    @property
    def table(self) -> list[Card]:
        """The cards face up, in layout order (a copy)."""
        return list(self._table)

    @property
    def deck(self) -> list[Card]:
        """The cards still to deal, next card first (a copy)."""
        return list(self._deck)

    @property
    def cards(self) -> list[Card]:
        """Every card this game is played with (its whole deck at the start)."""
        return list(self._cards)

    @property
    def players(self) -> list[Player]:
        """The players with their SETs and penalties (copies: change the game through its moves)."""
        return [Player(p.name, list(p.sets), p.penalties) for p in self._players]

    @property
    def variant(self) -> str:
        """ "standard", "solitaire", "online" or "competition"."""
        return self._variant

    @property
    def seed(self) -> int | None:
        """The seed of the shuffle (None when a random.Random was passed in)."""
        return self._seed

    @property
    def table_size(self) -> int:
        """How many cards lie on the table normally (12, or 9 for a small deck)."""
        return self._table_size

    @property
    def claim_seconds(self) -> float | None:
        """Seconds a caller has to show three cards (None: no limit)."""
        return self._claim_seconds

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self._over

    @property
    def lost(self) -> bool:
        """Solitaire: True when the player met a table without a SET."""
        return self._lost

    @property
    def caller(self) -> int | None:
        """The index of the player whose call is being served, or None."""
        return self._queue[0].player if self._queue else None

    @property
    def callers(self) -> list[int]:
        """Players who called SET, in the order they are served."""
        return [c.player for c in self._queue]

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every event so far, oldest first, as plain dicts (cards as codes)."""
        return json.loads(json.dumps(self._history))

    @property
    def scores(self) -> dict[str, int]:
        """Each player's name and score."""
        return {p.name: p.score for p in self._players}

    @property
    def winners(self) -> list[str]:
        """The names of the players with the highest score (several when tied)."""
        best = max(p.score for p in self._players)
        return [p.name for p in self._players if p.score == best]

    def sets_on_table(self) -> list[Triple]:
        """Every SET among the cards on the table."""
        return find_sets(self._table)

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds the current caller has left to claim (None: no caller or no limit)."""
        if not self._queue or self._claim_seconds is None or self._turn_start is None:
            return None
        now = self._now(now)
        return max(0.0, self._turn_start + self._claim_seconds - now)

    def on_change(self, callback: Callable[[dict[str, Any]], None], remove: bool = False) -> None:
        """Call ``callback(event)`` after every change, once per event.

        ``event`` is a dict like the ones in :attr:`history`. Callbacks run
        after the move is complete, so they see the new state. Pass
        ``remove=True`` to stop calling a callback.
        """
        if not callable(callback):
            raise TypeError(f"on_change() needs a function taking one event dict; got {callback!r}")
        if remove:
            if callback in self._observers:
                self._observers.remove(callback)
        elif callback not in self._observers:
            self._observers.append(callback)

    def __repr__(self) -> str:
        scores = ", ".join(f"{p.name} {p.score}" for p in self._players)
        state = ", over" if self._over else ""
        return (
            f"<Game {self._variant}: {len(self._table)} on the table, {len(self._deck)} in the deck; "
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
            index = self._player_index(player)
            self._require_playing("call SET")
            now = self._now()
            self._expire(now)
            if self._queue and self._queue[0].player == index:
                raise GameError(
                    f"{self._says(index, 'holds', 'hold')} the call already; pick three cards on the table."
                )
            if any(c.player == index for c in self._queue):
                raise GameError(
                    f"{self._says(index, 'is', 'are')} already in line, after "
                    f"{self._name(self._queue[0].player, start=False)}; "
                    "wait until the players before are done."
                )
            self._queue.append(_Call(index, now))
            if len(self._queue) == 1:
                self._turn_start = now
            self._record("call", player=index, line=len(self._queue))

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
            chosen = self._parse_three(cards)
            index = self._player_index(player)
            self._require_playing("claim cards")
            now = self._now()
            timed_out = self._expire(now)
            if index in timed_out:
                seconds = _words.seconds(self._claim_seconds)
                claim = Claim(
                    False,
                    index,
                    chosen,
                    explain(chosen),
                    f"Too late: {self._name(index, start=False)} had {seconds} to show a SET "
                    "and lost a point.",
                    True,
                )
                return claim
            if not self._queue:
                self._queue.append(_Call(index, now))
                self._turn_start = now
                self._record("call", player=index, line=1)
            holder = self._queue[0].player
            if holder != index:
                mine = next((k for k, c in enumerate(self._queue) if c.player == index), None)
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
            entry = self._queue[0]
            missing = [c for c in chosen if c not in self._table]
            if missing and all(c in entry.taken for c in missing):
                takers = sorted({self._name(entry.taken[c], start=False) for c in missing})
                message = (
                    f"Too late: {_codes(missing)} {'was' if len(missing) == 1 else 'were'} taken by "
                    f"{' and '.join(takers)} after {self._name(index, start=False)} called. No penalty."
                )
                self._finish_turn(now)
                claim = Claim(False, index, chosen, explain(chosen), message, False)
            elif missing:
                raise GameError(self._not_on_table(missing))
            else:
                claim = self._judge(index, chosen, now)
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
                self._after_deal()
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

        If the table has a SET, nothing changes and ``ok`` is False. Otherwise,
        by variant: standard and online deal three more cards; solitaire: the
        player loses and the game is over; competition: three more cards, or
        with three extra already on the table, six go back into the deck, it
        is reshuffled, and three are dealt.
        """
        with self._move():
            index = None if player is None else self._player_index(player)
            self._require_playing("say there is no SET")
            self._expire(self._now())
            if self._queue:
                raise GameError(
                    f"{self._says(self._queue[0].player, 'has', 'have')} called SET; "
                    "wait until the call is over before saying there is no SET."
                )
            count = len(find_sets(self._table))
            if count:
                return NoSet(
                    False,
                    index,
                    f"There {'is 1 SET' if count == 1 else f'are {count} SETs'} on the table; keep looking.",
                )
            returned: list[Card] = []
            if self._variant == "solitaire":
                self._lost = True
                message = (
                    f"No SET among these {len(self._table)} cards: the game is lost, "
                    f"with {_words.count(len(self._deck), 'card')} left in the deck."
                )
                self._record("no_set", player=index, dealt=[], returned=[], lost=True)
                self._end("no SET on the table")
                return NoSet(True, index, message, over=True, lost=True)
            if self._variant == "competition" and len(self._table) >= self._table_size + 3:
                returned, dealt = self._return_six()
                message = (
                    f"No SET among {len(self._table) + 3} cards: 6 went back into the deck and 3 were dealt."
                )
            else:
                dealt = self._deal(3)
                more = f"{len(dealt)} more {'was' if len(dealt) == 1 else 'were'} dealt"
                message = f"No SET among {len(self._table) - len(dealt)} cards: {more}."
            self._record(
                "no_set",
                player=index,
                dealt=[c.code for c in dealt],
                returned=[c.code for c in returned],
                lost=False,
            )
            self._after_deal()
            if self._over:
                message += " No SET is left and the deck is empty: the game is over."
            return NoSet(True, index, message, dealt, returned, over=self._over)

    def hint(self) -> list[Card]:
        """Cards of one SET on the table: one card the first time, then two, then all three.

        The same SET is hinted at until one of its cards leaves the table.
        Returns an empty list when the table has no SET.
        """
        with self._move():
            if self._hint is None or any(c not in self._table for c in self._hint):
                sets = find_sets(self._table)
                if not sets:
                    self._hint, self._hint_shown = None, 0
                    return []
                self._hint, self._hint_shown = sets[0], 0
            self._hint_shown = min(3, self._hint_shown + 1)
            shown = list(self._hint[: self._hint_shown])
            self._record("hint", cards=[c.code for c in shown])
            return shown

    # -- saving and loading -----------------------------------------------------

    def to_json(self) -> str:
        """The whole game as JSON text, including the shuffle's random state.

        :meth:`from_json` makes a game that plays on exactly like this one.
        When a call is pending, the clock's current time is saved too, so the
        caller keeps the seconds left after loading.
        """
        data: dict[str, Any] = {
            "format": _FORMAT,
            "version": _VERSION,
            "variant": self._variant,
            "seed": self._seed,
            "table_size": self._table_size,
            "claim_seconds": self._claim_seconds,
            "cards": [c.code for c in self._cards],
            "deck": [c.code for c in self._deck],
            "table": [c.code for c in self._table],
            "players": [
                {"name": p.name, "sets": [[c.code for c in s] for s in p.sets], "penalties": p.penalties}
                for p in self._players
            ],
            "over": self._over,
            "lost": self._lost,
            "callers": [
                {
                    "player": c.player,
                    "called_at": c.called_at,
                    "taken": [[card.code, who] for card, who in c.taken.items()],
                }
                for c in self._queue
            ],
            "turn_start": self._turn_start,
            "hint": None if self._hint is None else [c.code for c in self._hint],
            "hint_shown": self._hint_shown,
            "history": self._history,
            "rng": _rng_state(self._rng),
        }
        if self._queue:
            data["saved_at"] = self._clock()
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str, clock: Callable[[], float] = time.monotonic) -> Game:
        """Rebuild a game saved with :meth:`to_json`; ``clock`` as for :class:`Game`.

        The new game deals, shuffles and hints exactly as the saved one would
        have. Observers (:meth:`on_change`) are not saved: register them again.
        A random.Random passed in as ``seed`` is not shared any more; the new
        game has its own generator in the same state.
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise TypeError(f"from_json() needs the text made by Game.to_json(); got {type(text).__name__}")
        if not callable(clock):
            raise TypeError(f"clock must be a function that returns the time in seconds; got {clock!r}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameError(f"this is not a saved game (not JSON: {error})") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise GameError(
                "this is not a saved game: Game.to_json() text starts with a 'format' of " + _FORMAT
            )
        if data.get("version") != _VERSION:
            raise GameError(
                f"saved game version {data.get('version')!r} is not supported (expected {_VERSION})"
            )
        try:
            return cls._load(data, clock)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            if isinstance(error, GameError):
                raise
            raise GameError(f"this saved game is damaged: {type(error).__name__}: {error}") from None

    @classmethod
    def _load(cls, data: dict[str, Any], clock: Callable[[], float]) -> Game:
        g = cls.__new__(cls)
        g._variant = _check_variant(data["variant"])
        g._cards = [Card.parse(code) for code in data["cards"]]
        g._seed = data["seed"]
        g._table_size = _check_table_size(data["table_size"], len(g._cards))
        g._claim_seconds = _check_seconds(data["claim_seconds"])
        g._clock = clock
        g._deck = [Card.parse(code) for code in data["deck"]]
        g._table = [Card.parse(code) for code in data["table"]]
        g._players = [
            Player(
                str(p["name"]),
                [tuple(Card.parse(code) for code in s) for s in p["sets"]],  # type: ignore[misc]
                int(p["penalties"]),
            )
            for p in data["players"]
        ]
        if not g._players:
            raise GameError("this saved game is damaged: it has no players")
        g._over = bool(data["over"])
        g._lost = bool(data["lost"])
        # Times of a pending call are shifted to the new clock, so the caller keeps the
        # seconds that were left when the game was saved.
        shift = clock() - data["saved_at"] if data["callers"] else 0.0
        g._queue = []
        for c in data["callers"]:
            if not 0 <= c["player"] < len(g._players):
                raise GameError(f"this saved game is damaged: caller {c['player']} is not a player")
            taken = {Card.parse(code): int(who) for code, who in c["taken"]}
            g._queue.append(_Call(int(c["player"]), c["called_at"] + shift, taken))
        g._turn_start = None if data["turn_start"] is None else data["turn_start"] + shift
        g._hint = None if data["hint"] is None else tuple(Card.parse(code) for code in data["hint"])  # type: ignore[assignment]
        g._hint_shown = int(data["hint_shown"])
        g._history = json.loads(json.dumps(data["history"]))
        g._rng = random.Random()
        state = data["rng"]
        g._rng.setstate((state[0], tuple(state[1]), state[2]))
        g._observers = []
        g._pending = []
        g._check_cards()
        return g

    def _check_cards(self) -> None:
        """Every card of the game is in exactly one place: deck, table or a player's SETs."""
        places = list(self._deck) + list(self._table) + [c for p in self._players for s in p.sets for c in s]
        if (
            len(places) != len(set(places))
            or set(places) != set(self._cards)
            or len(self._cards) != len(places)
        ):
            raise GameError("this saved game is damaged: its deck, table and SETs do not hold each card once")

    # -- the machinery ----------------------------------------------------------

    @contextmanager
    def _move(self) -> Iterator[None]:
        """Run one move: undo everything if it raises, tell the observers if it succeeds."""
        saved = (
            list(self._deck),
            list(self._table),
            [(list(p.sets), p.penalties) for p in self._players],
            self._over,
            self._lost,
            [_Call(c.player, c.called_at, dict(c.taken)) for c in self._queue],
            self._turn_start,
            self._hint,
            self._hint_shown,
            len(self._history),
            self._rng.getstate(),
        )
        self._pending = []
        try:
            yield
        except BaseException:
            (deck, table, players, self._over, self._lost, self._queue, self._turn_start) = saved[:7]
            self._deck, self._table = deck, table
            for p, (sets, penalties) in zip(self._players, players):
                p.sets, p.penalties = sets, penalties
            self._hint, self._hint_shown = saved[7], saved[8]
            del self._history[saved[9] :]
            self._rng.setstate(saved[10])
            self._pending = []
            raise
        events, self._pending = self._pending, []
        for event in events:
            for callback in list(self._observers):
                callback(json.loads(json.dumps(event)))

    def _record(self, kind: str, **data: Any) -> None:
        event = {"type": kind, "time": self._clock(), **data}
        self._history.append(event)
        self._pending.append(event)

    def _now(self, now: float | None = None) -> float:
        if now is None:
            return self._clock()
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            raise TypeError(f"now must be a time in seconds (a number); got {now!r}")
        return now

    def _name(self, index: int, start: bool = True) -> str:
        """The player's name; the default player You is "you" inside a sentence."""
        name = self._players[index].name
        return "you" if name == "You" and not start else name

    def _says(self, index: int, verb: str, you_verb: str, start: bool = True) -> str:
        """The player's name and a verb that agrees with it ("Ana keeps", "You keep")."""
        name = self._name(index, start)
        return f"{name} {you_verb if name.lower() == 'you' else verb}"

    def _player_index(self, player: int | str) -> int:
        names = ", ".join(f"{i} ({p.name})" for i, p in enumerate(self._players))
        if isinstance(player, str):
            for i, p in enumerate(self._players):
                if p.name == player:
                    return i
            raise GameError(f"there is no player called {player!r}; the players are {names}")
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError(f"a player is given by number or name; got {player!r}. The players are {names}")
        if not 0 <= player < len(self._players):
            raise GameError(f"there is no player {player}; the players are {names}")
        return player

    def _require_playing(self, what: str) -> None:
        if self._over:
            raise GameError(f"the game is over, so nobody can {what}; start a new Game to play again")

    def _parse_three(self, cards: Any) -> Triple:
        """Three different cards of this game's deck, or an error saying what is wrong."""
        if isinstance(cards, str):
            items: list[Any] = split_codes(cards)
        elif isinstance(cards, Card) or not isinstance(cards, Iterable):
            raise TypeError(
                f"a claim is three cards, as a list like [a, b, c] or codes like "
                f"['1RSO', '2GTS', '3POD']; got {cards!r}"
            )
        else:
            items = list(cards)
        chosen = []
        for item in items:
            if isinstance(item, Card):
                chosen.append(item)
            elif isinstance(item, str):
                try:
                    chosen.append(Card.parse(item))
                except ValueError as error:
                    raise GameError(f"{item!r} is not a card: {error}") from None
            else:
                raise TypeError(f"each card is a Card or a code like '2RTO'; got {_what(item)}")
        if len(chosen) != 3:
            shown = f": {_codes(chosen)}" if chosen else ""
            raise GameError(f"a SET is exactly three cards; got {len(chosen)}{shown}")
        for k, card in enumerate(chosen):
            if card in chosen[:k]:
                raise GameError(
                    f"the card {card.name} ({card}) is chosen twice; a SET is three different cards"
                )
        strangers = [c for c in chosen if c not in self._cards]
        if strangers:
            raise GameError(
                f"{_codes(strangers)} {'is' if len(strangers) == 1 else 'are'} not in this game's "
                f"deck of {len(self._cards)} cards; choose cards on the table"
            )
        return tuple(chosen)  # type: ignore[return-value]

    def _not_on_table(self, missing: list[Card]) -> str:
        reasons = []
        for card in missing:
            owners = [i for i, p in enumerate(self._players) if any(card in s for s in p.sets)]
            owner = self._name(owners[0], start=False) if owners else None
            where = f"{owner} already took it" if owner else "it is still in the deck"
            reasons.append(f"{card} ({card.name}) is not on the table: {where}")
        return "; ".join(reasons) + ". Choose three cards on the table."

    def _judge(self, index: int, chosen: Triple, now: float) -> Claim:
        """Serve the caller's claim of three cards that are all on the table."""
        verdict = explain(chosen)
        self._finish_turn(now)
        if not verdict.is_set:
            self._players[index].penalties += 1
            return Claim(
                False,
                index,
                chosen,
                verdict,
                f"{verdict} {self._says(index, 'loses', 'lose')} a point.",
                True,
            )
        self._players[index].sets.append(chosen)
        for waiting in self._queue:
            waiting.taken.update(dict.fromkeys(chosen, index))
        positions = sorted(self._table.index(c) for c in chosen)
        # Replace from the deck only up to the usual table size: extra cards laid out
        # after a "no SET" are not replaced, so the table shrinks back.
        fill = max(0, min(3, self._table_size - (len(self._table) - 3)))
        old = [self._table[p] for p in positions]
        _, moved = self._remove(positions, fill)
        replaced = [
            (p, card, self._table[p] if p < len(self._table) else None) for p, card in zip(positions, old)
        ]
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
        self._queue.pop(0)
        self._turn_start = now if self._queue else None

    def _expire(self, now: float) -> list[int]:
        out: list[int] = []
        if self._claim_seconds is None:
            return out
        while self._queue and self._turn_start is not None and now > self._turn_start + self._claim_seconds:
            deadline = self._turn_start + self._claim_seconds
            late = self._queue.pop(0)
            self._players[late.player].penalties += 1
            out.append(late.player)
            # The next caller's seconds started when the previous caller's ran out.
            self._turn_start = max(deadline, self._queue[0].called_at) if self._queue else None
            seconds = _words.seconds(self._claim_seconds)
            self._record(
                "timeout",
                player=late.player,
                message=f"{self._says(late.player, 'loses', 'lose')} a point: no SET shown within {seconds}.",
            )
        return out

    def _deal(self, count: int) -> list[Card]:
        dealt = self._deck[:count]
        del self._deck[:count]
        self._table.extend(dealt)
        return dealt

    def _remove(self, positions: list[int], fill: int) -> tuple[list[Card], list[tuple[int, int, Card]]]:
        """Take the cards at ``positions`` off the table; deal up to ``fill`` into the gaps.

        Gaps that get no new card are filled with the last cards on the table,
        so the layout keeps its shape and only the end of it shrinks.
        """
        gaps = sorted(positions)
        count = min(fill, len(self._deck), len(gaps))
        new = self._deck[:count]
        del self._deck[:count]
        for p, card in zip(gaps, new):
            self._table[p] = card
        rest = gaps[count:]
        size = len(self._table) - len(rest)
        holes = [p for p in rest if p < size]
        tail = [q for q in range(size, len(self._table)) if q not in rest]
        moved = []
        for hole, q in zip(holes, tail):
            self._table[hole] = self._table[q]
            moved.append((q, hole, self._table[q]))
        del self._table[size:]
        return new, moved

    def _return_six(self) -> tuple[list[Card], list[Card]]:
        """Competition: six random cards back into the deck, reshuffle, three dealt into the gaps."""
        positions = sorted(self._rng.sample(range(len(self._table)), 6))
        returned = [self._table[p] for p in positions]
        self._deck.extend(returned)
        self._rng.shuffle(self._deck)
        dealt, _ = self._remove(positions, 3)
        return returned, dealt

    def _after_deal(self) -> None:
        """Online: deal three at a time until a SET lies on the table; then check for the end."""
        if self._variant == "online":
            while self._deck and not has_set(self._table):
                dealt = self._deal(3)
                self._record("deal", cards=[c.code for c in dealt], reason="no SET on the table")
        if not self._deck and not has_set(self._table):
            if self._variant == "solitaire" and len(self._table) >= self._table_size:
                # The rules: a full table without a SET loses solitaire, even with the deck used up.
                self._lost = True
                self._end("no SET on the table")
            else:
                self._end("the deck is empty and no SET is left on the table")

    def _end(self, reason: str) -> None:
        self._over = True
        # Callers still in line have nothing left to claim; they lose nothing.
        self._queue = []
        self._turn_start = None
        self._record("over", reason=reason, scores=self.scores, lost=self._lost)


def _check_variant(variant: Any) -> str:
    if not isinstance(variant, str):
        raise TypeError(f"variant must be one of {', '.join(map(repr, VARIANTS))}; got {variant!r}")
    if variant.strip().lower() not in VARIANTS:
        raise GameError(f"unknown variant {variant!r}; choose one of {', '.join(map(repr, VARIANTS))}")
    return variant.strip().lower()


def _deck_cards(deck: Any) -> list[Card]:
    if isinstance(deck, str) and deck.strip().lower() in ("full", "mini"):
        deck = deck.strip().lower()
    if isinstance(deck, str):
        if deck == "full":
            return full_deck()
        if deck == "mini":
            return mini_deck()
        raise GameError(f"unknown deck {deck!r}; use 'full', 'mini' or a list of cards")
    if isinstance(deck, Card) or not isinstance(deck, Iterable):
        raise TypeError(f"deck must be 'full', 'mini' or a list of cards; got {deck!r}")
    cards = []
    for item in deck:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except ValueError as error:
                raise GameError(f"the deck holds {item!r}, which is not a card: {error}") from None
        else:
            raise TypeError(f"a deck holds Cards or codes like '2RTO'; got {_what(item)}")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise GameError(f"the deck holds {card.name} ({card}) twice; each card appears once")
        seen.add(card)
    if len(cards) < 3:
        raise GameError(f"a deck needs at least three cards to make a SET; got {len(cards)}")
    return cards


def _player_names(players: Any) -> list[str]:
    if players is None:
        return ["You"]
    if isinstance(players, bool):
        raise TypeError(f"players must be a number or a list of names; got {players!r}")
    if isinstance(players, int):
        if players < 1:
            raise GameError(f"a game needs at least one player; got {players}")
        return [f"Player {i + 1}" for i in range(players)]
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise TypeError(f"players must be a number or a list of names like ['Ana', 'Ben']; got {players!r}")
    names = list(players)
    if not names:
        raise GameError("a game needs at least one player; got an empty list")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise GameError(f"a player's name is a non-empty string; got {name!r}")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise GameError(f"two players are called {twice!r}; give each player a different name")
    return names


def _check_table_size(size: Any, deck_size: int) -> int:
    if size is None:
        return 12 if deck_size > 27 else 9
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"table_size must be a whole number such as 12; got {size!r}")
    if size < 3 or size % 3:
        raise GameError(f"table_size must be a positive multiple of 3 (such as 9 or 12); got {size}")
    return size


def _check_seconds(seconds: Any) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"claim_seconds must be a number of seconds or None; got {seconds!r}")
    if not seconds > 0:
        raise GameError(f"claim_seconds must be more than 0 (or None for no limit); got {seconds}")
    return seconds


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]
