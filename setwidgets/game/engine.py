"""The game of SET as a state machine: :class:`Game` and its moves.

The records a game keeps live in :mod:`setwidgets.game.state`, what anyone may
look at in :mod:`setwidgets.game.view`, the checks of what it is given in
:mod:`setwidgets.game.inputs`, each variant's rules in :mod:`setwidgets.game.variants`
and the saved text in :mod:`setwidgets.game.save`; this module plays the moves.
See :mod:`setwidgets.game` for a short game.

>>> g = Game(players=["Ana", "Ben"], seed=1, clock=lambda: 0.0)
>>> g.call("Ana")
>>> g.callers, g.caller
([0], 0)
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from setwidgets import _inputs, _words
from setwidgets._events import Callbacks
from setwidgets.cards import Card
from setwidgets.game import save
from setwidgets.game.inputs import (
    a_time,
    check_players_for,
    check_table_size,
    check_variant,
    codes,
    deck_cards,
    player_names,
    read_clock,
    three_cards,
)
from setwidgets.game.state import Call, Claim, Dealer, GameError, NoSet, Player, Setup, State, Triple
from setwidgets.game.variants import rules_of
from setwidgets.game.view import GameView
from setwidgets.rules import explain, find_sets, has_set

__all__ = ["Game"]


SEED_LIMIT = 2**128
"""A game's seed is below this in size: every seed a game takes can be saved and read back."""


class Game(GameView):
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
        ``"standard"``, ``"solitaire"``, ``"online"`` or ``"competition"``
        (or a variant added as in :mod:`setwidgets.game.variants`).
    seed:
        A whole number for a reproducible shuffle, a ``random.Random`` to use
        (and advance), or None for a fresh random seed (then ``g.seed`` tells it).
    table_size:
        How many cards lie on the table normally: by default the variant's
        (12, or 9 for a deck of 27 cards or fewer). A positive multiple of 3.
    claim_seconds:
        How long a caller has to show three cards (a finite number of
        seconds); None for no limit.
    clock:
        A function returning the time in seconds; tests pass a fake one.

    What anyone may look at (:attr:`table`, :attr:`deck`, :attr:`players`,
    :attr:`scores`, :attr:`history`, ...) comes from
    :class:`~setwidgets.game.view.GameView`. The main moves are :meth:`call`,
    :meth:`claim`, :meth:`no_set`, :meth:`expire` and :meth:`hint`. A move
    that the rules forbid, or input that does not make sense, raises
    :class:`GameError` (or TypeError for the wrong kind of object) and leaves
    the game unchanged.
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
        name = check_variant(variant)
        cards = deck_cards(deck)
        names = player_names(players)
        check_players_for(name, names)
        rules = rules_of(name)
        size = rules.usual_table_size(len(cards)) if table_size is None else check_table_size(table_size)
        seconds = _inputs.seconds(claim_seconds, "claim_seconds", error=GameError)
        _inputs.clock(clock)
        rng, seed_used = _inputs.rng_and_seed(seed)
        if seed_used is not None and abs(seed_used) >= SEED_LIMIT:
            # Bounded where it enters: a seed of 5,000 digits was taken, then its save failed
            # (Python turns at most 4,300 digits into text).
            raise GameError(
                f"seed must be a whole number below 2**128 (39 digits), a random.Random or None; "
                f"got a number of about {int(abs(seed_used).bit_length() * 0.30103) + 1:,} digits"
            )

        shuffled = list(cards)
        rng.shuffle(shuffled)
        self._adopt(
            Setup(name, tuple(cards), seed_used, size, seconds),
            State(deck=shuffled, table=[], players=[Player(n) for n in names], rng=rng),
            clock,
        )
        dealt = self._state.deal(size)
        self._record("start", variant=name, players=names, seed=seed_used, table=[c.code for c in dealt])
        self._settle()
        self._pending = []

    def _adopt(self, setup: Setup, state: State, clock: Callable[[], float]) -> None:
        """Take on a setup and a state: for a new game, and for one loaded from a save."""
        self._setup = setup
        self._in_deck = frozenset(setup.cards)  # a claim's cards are looked up here, not in a list
        self._state = state
        self._rules = rules_of(setup.variant)
        # What the variant may do to the table: the moves of the state, recorded in this game's
        # history, the generator saved before a move first shuffles with it.
        self._dealer = Dealer(state, setup.table_size, self._record, self._keep_generator)
        self._clock = clock
        self._latest = -math.inf  # the latest time the game holds (see _now)
        self._ahead = 0.0  # how far expire(now) moved the game's time ahead of its clock
        self._changes = Callbacks("on_change", "one event dict", example="def redraw(event): ...")
        self._pending: list[dict[str, Any]] = []
        # The generator's state before the current move first drew from it (see State.snapshot).
        self._rng_before: tuple[Any, ...] | None = None

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
        self._changes.add(callback, remove)

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
            s.callers.append(Call(index, now))
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
            chosen = three_cards(cards, self._in_deck)
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
                s.callers.append(Call(index, now))
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
                    f"Too late: {codes(missing)} {_words.agree(len(missing), 'was', 'were')} taken by "
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
        clock. A ``now`` ahead of the game's time moves its clock on by the
        difference, for good: the game's later moves and its save count from
        that time as the clock goes on, so that a save loads as a game that plays alike.
        :meth:`call`, :meth:`claim` and :meth:`no_set` do this first on their
        own; a widget may also call it from a timer.
        """
        with self._move():
            when = self._now(now)
            if when > self._now():
                # The clock itself moves on, not just one moment: a game whose time stood still
                # until its clock caught up would run slower than the copy its save loads as.
                self._ahead = when - read_clock(self._clock)
                self._latest = when
            return self._expire(when)

    def no_set(self, player: int | str | None = None) -> NoSet:
        """Say "there is no SET on the table" (``player`` None: everyone agrees).

        If the table has a SET, nothing changes and ``ok`` is False. Otherwise
        the variant's rule decides what happens to the table (each variant's
        class in :mod:`setwidgets.game.variants` says); the returned
        :class:`NoSet` tells what was dealt, sent back, or whether the game ended.
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
            outcome = self._rules.no_set(self._dealer)
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

    def join(self, name: str) -> int:
        """Seat a new player, who comes in late, with no SETs and no penalties; returns the seat.

        A class game lets students join a game already under way. The name is
        checked as the names given to :class:`Game` are (it must differ from
        every player's name, whatever the case), the game must not be over,
        and the variant must seat more players (solitaire is for one).

        >>> from setwidgets import Game
        >>> g = Game(players=["Ana"], seed=1, clock=lambda: 0.0)
        >>> g.join("Ben"), [p.name for p in g.players]
        (1, ['Ana', 'Ben'])
        """
        with self._move():
            s = self._state
            self._require_playing("join")
            names = player_names([*(p.name for p in s.players), name])
            check_players_for(self._setup.variant, names)
            s.players.append(Player(names[-1]))
            self._record("join", name=names[-1])
            return len(s.players) - 1

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
        caller keeps the seconds left after loading. (See :mod:`setwidgets.game.save`.)
        """
        if self._state.callers:
            return save.dumps(self._setup, self._state, self._now())
        # Read as its copy reads its clock when loaded; not needed to save, so a failing clock is no bar.
        with contextlib.suppress(GameError, TypeError):
            self._now()
        return save.dumps(self._setup, self._state)

    @classmethod
    def from_json(cls, text: str | bytes, clock: Callable[[], float] = time.monotonic) -> Game:
        """Rebuild a game saved with :meth:`to_json`; ``clock`` as for :class:`Game`.

        The save is checked as strictly as a move: anything that is not a
        game the rules could have reached, or that its own history does not
        tell (the SETs, penalties, table, callers and end of the game),
        raises :class:`GameError` saying what is wrong, and no game is made.
        The new game deals, shuffles and hints exactly as the saved one would
        have. Observers (:meth:`on_change`) are not saved:
        register them again. A random.Random passed in as ``seed`` is not
        shared any more; the new game has its own generator in the same state.
        """
        setup, state = save.loads(text, clock)
        game = cls.__new__(cls)
        game._adopt(setup, state, clock)
        game._check_settled()
        # Loaded, it reads its clock, as the game saved did (to_json): a clock stepping back next
        # takes neither back before that moment (a copy had 5.125 s left, the original 5.0).
        game._now()
        return game

    # -- the machinery ----------------------------------------------------------

    def _move(self) -> _Move:
        """Run one move: undo everything if it raises, tell the observers if it succeeds."""
        return _Move(self)

    def _record(self, kind: str, **data: Any) -> None:
        event = {"type": kind, "time": self._now(), **data}
        self._state.history.append(event)
        self._pending.append(event)

    def _now(self, now: float | None = None) -> float:
        """``now``, checked, or the game's time: its clock, but never before a time it already holds."""
        if now is not None:
            return a_time(now, "now")
        # The game's time is its clock's, moved on by what expire() was told (_ahead). A clock that
        # steps back moves it on too: the game's time goes on from the latest moment it holds, as a
        # copy loaded from its save does, instead of standing still until the clock caught up
        # (its callers' seconds frozen meanwhile). Never before a moment it holds: its save would
        # hold the future.
        reading = read_clock(self._clock)
        if reading + self._ahead < self._latest:
            self._ahead = self._latest - reading
        self._latest = max(reading + self._ahead, self._latest)
        return self._latest

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
        # The variant says how many are replaced from the deck (up to the usual table size).
        fill = self._rules.refill(len(s.table) - 3, self._setup.table_size)
        old = [s.table[p] for p in positions]
        _, moved = s.remove(positions, fill)
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

    def _settle(self) -> None:
        """After the table changed: drop a hint that left it; end the game, or let the variant deal."""
        s = self._state
        if s.hint is not None and not set(s.hint) <= set(s.table):
            s.hint, s.hint_shown = None, 0
        # The one end of every game: the table and the deck together can no longer make a SET.
        if not has_set(s.table) and not has_set(s.table + s.deck):
            self._end()
        else:
            self._rules.after_deal(self._dealer)

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

    def _keep_generator(self) -> None:
        """Before a move first shuffles: keep the generator's state, to undo a move that fails after."""
        if self._rng_before is None:
            self._rng_before = self._state.rng.getstate()

    def _check_settled(self) -> None:
        """A game is saved between moves: the rules that follow a deal have nothing left to do."""
        state = self._state
        if state.over:
            return
        saved, generator = state.snapshot(), state.rng.getstate()
        self._settle()
        ended, dealt = state.over, len(state.table) - len(saved.table)
        state.restore(saved)
        state.rng.setstate(generator)
        self._pending = []
        if ended:
            raise save.damaged("no SET can be made from the cards left, so the game should be over")
        if dealt:
            raise save.damaged(
                f"by the {self.variant} rules more cards would be dealt now; a save is made between moves"
            )


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
        if not game._changes:
            return False  # nobody listens: no copies to make
        for event in events:
            # Each event is told as a copy, so that a callback cannot change the game's history.
            game._changes.fire(
                json.loads(json.dumps(event)),
                done=f"the {event['type']} was made",
                stacklevel=4,  # the code that made the move (fire, this exit and the move come first)
            )
        return False
