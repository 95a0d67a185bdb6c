"""The records of a game of SET: what a move returns, the setup, the state, and the dealer.

- :class:`GameError`, :class:`Player`, :class:`Claim` and :class:`NoSet` are what a
  player of :class:`~setwidgets.game.Game` meets: a refused move, a seat, and the
  outcome of showing three cards or of saying "no SET".
- :class:`Setup` is decided when a game starts and never changes; :class:`State` is
  everything a move can change. Each field has a *kind*, by which a move's undo copies
  it and :mod:`setwidgets.game.save` writes and checks it.
- :class:`Dealer` is what a variant (:mod:`setwidgets.game.variants`) may do to the
  table: look at it and the deck, deal, send cards back into the deck, record an event.

>>> import random
>>> from setwidgets.cards import Card
>>> state = State(deck=[Card.parse(c) for c in "1RSO 2RSO 3RSO".split()], table=[], players=[],
...               rng=random.Random(0))
>>> [c.code for c in Dealer(state, table_size=3).deal(2)], [c.code for c in state.deck]
(['1RSO', '2RSO'], ['3RSO'])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from setwidgets.cards import Card
from setwidgets.rules import Verdict

__all__ = [
    "Call",
    "Claim",
    "Dealer",
    "GameError",
    "NoSet",
    "Player",
    "Setup",
    "State",
    "TableAndDeck",
    "Triple",
]

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
    """What happened when a player showed three cards (see :meth:`~setwidgets.game.Game.claim`).

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
    """What happened when someone said "there is no SET" (see :meth:`~setwidgets.game.Game.no_set`).

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
class Call:
    """One player waiting in line after calling SET."""

    player: int
    called_at: float
    # Cards taken by earlier callers since this call, with who took them: a claim
    # of such cards is "too late", not a mistake, and costs nothing.
    taken: dict[Card, int] = field(default_factory=dict)


def _part(kind: str, **options: Any) -> Any:
    """A field of the game's records; ``kind`` tells :mod:`setwidgets.game.save` how to write and check it."""
    return field(metadata={"kind": kind}, **options)


@dataclass(frozen=True)
class Setup:
    """What is decided when a game starts and never changes."""

    variant: str = _part("variant")
    cards: tuple[Card, ...] = _part("deck")
    seed: int | None = _part("seed")
    table_size: int = _part("table_size")
    claim_seconds: float | None = _part("seconds")


@dataclass
class State:
    """Everything a move can change, declared once.

    A move's undo (:meth:`snapshot` and :meth:`restore`), ``Game.to_json`` and
    ``Game.from_json`` all go through these fields, so a new part of the state
    is added here and nowhere else (with its ``kind``; a new kind also needs
    its reader and writer in :mod:`setwidgets.game.save`).
    """

    deck: list[Card] = _part("cards")
    table: list[Card] = _part("cards")
    players: list[Player] = _part("players")
    rng: random.Random = _part("rng")
    over: bool = _part("flag", default=False)
    lost: bool = _part("flag", default=False)
    callers: list[Call] = _part("callers", default_factory=list)
    turn_start: float | None = _part("time", default=None)
    hint: Triple | None = _part("hint", default=None)
    hint_shown: int = _part("count", default=0)
    history: list[dict[str, Any]] = _part("history", default_factory=list)

    def snapshot(self) -> State:
        """A copy to roll a refused move back to, all but the shuffling generator.

        Copying the generator's state costs more than the rest of a move, and only one move
        draws from it (:meth:`send_back`), whose caller saves that state itself first; the
        snapshot's ``rng`` is None.
        """
        saved = object.__new__(State)  # every field is set here: no need for __init__'s defaults
        for name in _STATE_KEPT:
            setattr(saved, name, getattr(self, name))
        for name, copy in _STATE_COPIES:
            setattr(saved, name, copy(getattr(self, name)))
        return saved

    def restore(self, saved: State) -> None:
        """Put every field but the generator back as it was in ``saved``."""
        for name in _STATE_FIELDS:
            if name != "rng":
                setattr(self, name, getattr(saved, name))

    # -- how the table changes ----------------------------------------------------------

    def deal(self, count: int) -> list[Card]:
        """Lay out up to ``count`` cards from the deck at the end of the table."""
        dealt = self.deck[:count]
        del self.deck[:count]
        self.table.extend(dealt)
        return dealt

    def remove(self, positions: list[int], fill: int) -> tuple[list[Card], list[tuple[int, int, Card]]]:
        """Take the cards at ``positions`` off the table; deal up to ``fill`` into the gaps.

        Gaps that get no new card are filled with the last cards on the table,
        so the layout keeps its shape and only the end of it shrinks. Returns
        the cards dealt and the ``(from, to, card)`` of each card moved.
        """
        gaps = sorted(positions)
        count = min(fill, len(self.deck), len(gaps))
        new = self.deck[:count]
        del self.deck[:count]
        for p, card in zip(gaps, new):
            self.table[p] = card
        rest = gaps[count:]
        size = len(self.table) - len(rest)
        holes = [p for p in rest if p < size]
        tail = [q for q in range(size, len(self.table)) if q not in rest]
        moved = []
        for hole, q in zip(holes, tail):
            self.table[hole] = self.table[q]
            moved.append((q, hole, self.table[q]))
        del self.table[size:]
        return new, moved

    def send_back(self, count: int, deal: int) -> tuple[list[Card], list[Card]]:
        """``count`` random cards from the table back into the deck, reshuffled; ``deal`` into the gaps.

        The cards are chosen with ``rng.sample`` and the deck shuffled with
        ``rng.shuffle``. Returns the cards sent back and the cards dealt.
        """
        positions = sorted(self.rng.sample(range(len(self.table)), count))
        returned = [self.table[p] for p in positions]
        self.deck.extend(returned)
        self.rng.shuffle(self.deck)
        dealt, _ = self.remove(positions, deal)
        return returned, dealt


def _copied(value: Any) -> Any:
    """A copy deep enough that a move cannot change it: cards and events are never changed in place."""
    if isinstance(value, list):
        # Only players and callers change in place; a list of cards, SETs or events is copied shallow.
        if value and isinstance(value[0], (Player, Call)):
            return [_copied(item) for item in value]
        return list(value)
    if isinstance(value, Player):
        return Player(value.name, list(value.sets), value.penalties)
    if isinstance(value, Call):
        return Call(value.player, value.called_at, dict(value.taken))
    return value


def _same(value: Any) -> Any:
    return value


# How each kind of field is copied for a move's undo: every move takes a snapshot, so the copy
# is chosen once per field (by its kind), not found out value by value.
_COPY_BY_KIND: dict[str, Callable[[Any], Any]] = {
    "cards": list,
    "history": list,  # events are never changed in place
    "rng": lambda rng: None,  # see State.snapshot
    "flag": _same,
    "time": _same,
    "count": _same,
    "hint": _same,
}
_STATE_FIELDS = tuple(f.name for f in fields(State))
# The values a move replaces but never changes in place are kept as they are (no call to copy them).
_STATE_KEPT = tuple(f.name for f in fields(State) if _COPY_BY_KIND.get(f.metadata["kind"]) is _same)
_STATE_COPIES = tuple(
    (f.name, _COPY_BY_KIND.get(f.metadata["kind"], _copied))
    for f in fields(State)
    if f.name not in _STATE_KEPT
)


def _nothing(*args: Any, **data: Any) -> None:
    """Neither an event to record nor a generator to save (a dealer outside a game)."""


class TableAndDeck:
    """The table and the deck of a :class:`State`, as copies: what a game's view and a dealer show."""

    _state: State

    @property
    def table(self) -> list[Card]:
        """The cards face up, in layout order (a copy)."""
        return list(self._state.table)

    @property
    def deck(self) -> list[Card]:
        """The cards still to deal, next card first (a copy)."""
        return list(self._state.deck)


class Dealer(TableAndDeck):
    """What a variant may see of a game, and the moves it may make on its table.

    A game hands its variant one, over its own state: ``record`` adds an event to
    the game's history, and ``before_shuffle`` is told before the generator is
    first used in a move, so that a refused move can put it back. A dealer made
    on a :class:`State` of its own plays a variant's rule on any table and deck.
    """

    def __init__(
        self,
        state: State,
        table_size: int,
        record: Callable[..., None] = _nothing,
        before_shuffle: Callable[[], None] = _nothing,
    ) -> None:
        self._state = state
        self._record = record
        self._before_shuffle = before_shuffle
        self.table_size = table_size
        """How many cards lie on the table normally."""

    def deal(self, count: int) -> list[Card]:
        """Lay out up to ``count`` cards from the deck at the end of the table; returns them."""
        return self._state.deal(count)

    def send_back(self, count: int, deal: int) -> tuple[list[Card], list[Card]]:
        """``count`` random cards of the table back into the deck, reshuffled, and ``deal`` into the gaps.

        Returns the cards sent back and the cards dealt (see :meth:`State.send_back`).
        """
        self._before_shuffle()
        return self._state.send_back(count, deal)

    def record(self, kind: str, **data: Any) -> None:
        """Add an event of type ``kind`` to the game's history (plain data: cards as codes)."""
        self._record(kind, **data)
