"""What anyone may look at in a game of SET: the base of :class:`~setwidgets.game.Game`.

The table, the deck, the players and their scores, the line of callers and the
history, all as copies: a game changes only through its moves (see
:mod:`setwidgets.game.engine`).

>>> from setwidgets import Game
>>> g = Game(players=["Ana", "Ben"], seed=1, clock=lambda: 0.0)
>>> g.table_size, len(g.deck), g.scores
(12, 69, {'Ana': 0, 'Ben': 0})
"""

from __future__ import annotations

import json
from typing import Any

from setwidgets import _inputs
from setwidgets.cards import Card
from setwidgets.game.state import GameError, Player, Setup, State, TableAndDeck, Triple
from setwidgets.rules import find_sets

__all__ = ["GameView"]


class GameView(TableAndDeck):
    """The parts of a game anyone may look at; :class:`~setwidgets.game.Game` adds the moves.

    It reads the game's two records, the setup fixed at the start and the state
    that moves change (:mod:`setwidgets.game.state`), and hands out copies.
    """

    _setup: Setup
    _state: State

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

        >>> from setwidgets import Game
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

    def __repr__(self) -> str:
        s = self._state
        scores = ", ".join(f"{p.name} {p.score}" for p in s.players)
        state = ", over" if s.over else ""
        return (
            f"<Game {self._setup.variant}: {len(s.table)} on the table, {len(s.deck)} in the deck; "
            f"{scores}{state}>"
        )
