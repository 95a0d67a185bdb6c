"""Who is not there: absent players, players who withdraw, and players who come late.

:class:`Attendance` is the part of :class:`~setwidgets.competition.store.Competition` that keeps
the schedule fair when a class does not turn up as registered. The rules, stated once:

- **Absent for a round** (:meth:`Attendance.absent`): the player scores 0 in that round and
  their table plays without them; the others at that table enter their scores as usual.
- **Withdrawn** (:meth:`Attendance.withdraw`): the player keeps the scores already entered, is
  absent from every later round (0 each) and does not go on to the final; the standings still
  list them.
- **Late** (:meth:`Attendance.register_late`): after the schedule is made, a late player gets
  the next number. In a competition with divisions their division must be given (a division,
  or ``"no division"`` said outright: a player left without one by mistake would form a group
  of their own and go straight to the final). They play from the first round in which no score
  is entered yet and are absent (0) from the rounds already under way. Their tables are chosen
  together over the rounds left: first so that they meet nobody twice where that can be
  avoided, then at the smallest tables (a table one seat larger than the smallest is used only
  to avoid a repeat), then the lowest table numbers; never more than 5 at a table, the guide's
  largest.

- **Nobody plays alone.** An absence or a withdrawal that would leave one player alone at a
  table (two absent at a table of three, one leaving a table of two) moves that player to
  another table of the round that has not played yet and seats fewer than 5: where they meet
  the fewest players met before, then the smallest, then the lowest number. When no table can
  take them, they are marked absent in that round (0): one player alone would keep the whole
  deck's 27 SETs. Either way the history entry says so in a sentence (``"note"``), and the
  kept schedule (``Competition.schedule()``) leaves absent and withdrawn players off their
  rounds, so that sheets and slips printed again show where everyone plays now.

Absences are kept in the competition's file, in the history too, and refused like any other
change when they contradict what is there (a player absent from a round they already scored in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from setwidgets import _inputs
from setwidgets.competition.database import CompetitionError, player_number

NO_DIVISION = "no division"
"""The name of the group of players registered without a division when others have one."""

__all__ = ["NO_DIVISION", "REASONS", "Attendance"]

REASONS = ("absent", "withdrawn", "late")
"""Why a player has no game in a round: absent that round, withdrawn, or registered late."""

_LARGEST_TABLE = 5  # the guide's tables seat 2 to 5 players


class Attendance:
    """Absent, withdrawn and late players, as a :class:`~setwidgets.competition.store.Competition` keeps them.

    Mixed into Competition, whose players, seats, scores and file it uses.
    """

    def absences(self) -> dict[tuple[int, int], str]:
        """Every round a player has no game in: ``{(round, player): "absent" | "withdrawn" | "late"}``."""
        rows = self._db.execute("SELECT round, player, reason FROM absences ORDER BY round, player")
        return {(r, p): reason for r, p, reason in rows}

    def withdrawn(self) -> list[int]:
        """The players who withdrew: they keep their scores and do not go on to the final."""
        rows = self._db.execute(
            "SELECT DISTINCT player FROM absences WHERE reason = 'withdrawn' ORDER BY player"
        )
        return [p for (p,) in rows]

    def absent(self, round: int, player: int) -> None:
        """Mark ``player`` absent from ``round``: they score 0 there and their table plays without them."""
        round = self._a_round(round)
        player = self._a_player(player)
        self._refuse_scored(player, [round])
        self._mark("absent", player, [round])

    def withdraw(self, player: int) -> None:
        """Withdraw ``player`` from every round not yet scored for them (0 each; no final for them)."""
        player = self._a_player(player)
        if player in self.withdrawn():
            raise CompetitionError(f"player {player} has already withdrawn")
        absences = self.absences()
        scored = {r for (r, p) in self.scores("round") if p == player}
        played = [r for r in scored if (r, player) not in absences]
        # Rounds marked absent after their last game become withdrawn ones (a player left alone
        # at a table was marked absent for it, and may then leave for good).
        after = [
            r
            for r in range(max(played, default=0) + 1, self.rounds + 1)
            if absences.get((r, player)) == "absent"
        ]
        rounds = sorted({r for r in range(1, self.rounds + 1) if r not in scored} | set(after))
        if not rounds:
            raise CompetitionError(
                f"player {player} has played every round: there is nothing to withdraw from"
            )
        self._mark("withdrawn", player, rounds, already=after)

    def register_late(self, number: int, name: str, division: str | None = None) -> int:
        """Register a player who arrives after the schedule is made; returns the first round they play.

        ``number`` must be the next number (one more than the players so far), so that numbers
        stay without gaps. ``division`` is A to D; when the competition has divisions it must be
        given (``"no division"`` puts the player in a group of their own, said outright). See the
        module docstring for where they sit.
        """
        if not self.rounds:
            raise CompetitionError("the schedule is not made yet: register the player with register()")
        expected = len(self.players()) + 1
        checked = _inputs.whole_number(
            number, "number", minimum=1, example=str(expected), error=CompetitionError
        )
        if checked != expected:
            raise CompetitionError(f"a late player gets the next number, {expected}; got {checked}")
        # "no division" said outright is a choice; None left at its default is not, with divisions.
        alone = isinstance(division, str) and division.strip().lower() == NO_DIVISION
        name, division = self._a_name_and_division(name, None if alone else division)
        if division is None and not alone and self.divisions():
            raise CompetitionError(
                f"the competition has divisions ({', '.join(self.divisions())}): give the late player's "
                f"division, like register_late({expected}, {name!r}, 'A'), or "
                f"division='{NO_DIVISION}' to put them in a group of their own"
            )
        # A round is under way once a game of it has a score; absences entered ahead do not count.
        absences = self.absences()
        begun = {r for (r, p) in self.scores("round") if (r, p) not in absences}
        first = next((r for r in range(1, self.rounds + 1) if r not in begun), None)
        if first is None:
            raise CompetitionError("every round already has scores: a late player has no round left to play")
        tables = self._late_tables(first)
        seats = [
            ("INSERT INTO seats VALUES (?, ?, ?)", (r, table, checked))
            for r, table in enumerate(tables, first)
        ]
        missed = list(range(1, first))
        statements = [("INSERT INTO players VALUES (?, ?, ?)", (checked, name, division)), *seats]
        statements += self._absence_rows("late", checked, missed)
        details = {"number": checked, "name": name, "division": division, "first round": first}
        self._change("register late", details, statements)
        return first

    def _late_tables(self, first: int) -> list[int]:
        """The tables of a late player in rounds ``first`` on (see the module docstring).

        The late player meets only players already seated, so their repeats are the players
        found again at their later tables: the rounds are chosen together, by a search that
        stops a branch once it cannot beat the best seating found (the first one tried is the
        round-by-round best, so the search is short). Candidates in a round are its tables of
        the smallest size and one seat more, below 5.
        """
        rounds: list[list[tuple[int, frozenset[int]]]] = []
        for r in range(first, self.rounds + 1):
            seated: dict[int, set[int]] = {}
            for table, player in self._db.execute("SELECT tableno, player FROM seats WHERE round = ?", (r,)):
                seated.setdefault(table, set()).add(player)
            # Players absent or withdrawn that round are not met there.
            away = {p for (ar, p) in self.absences() if ar == r}
            smallest = min(len(players) for players in seated.values())
            if smallest >= _LARGEST_TABLE:
                raise CompetitionError(
                    f"every table of round {r} already seats {_LARGEST_TABLE} players, the guide's most"
                )
            rounds.append(
                [
                    (table, frozenset(players - away), len(players) - smallest)
                    for table, players in sorted(seated.items())
                    if len(players) <= smallest + 1 and len(players) < _LARGEST_TABLE
                ]
            )
        best: list = [None, None]  # (cost, tables)
        budget = [20000]  # nodes: the first (greedy) seating is kept if the search runs long

        def search(k: int, met: frozenset[int], cost: tuple[int, int], chosen: list[int]) -> None:
            if best[0] is not None and cost >= best[0]:
                return
            if k == len(rounds):
                best[0], best[1] = cost, list(chosen)
                return
            options = sorted(rounds[k], key=lambda option: (len(option[1] & met), option[2], option[0]))
            for table, players, larger in options:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
                again = len(players & met)
                search(k + 1, met | players, (cost[0] + again, cost[1] + larger), [*chosen, table])

        search(0, frozenset(), (0, 0), [])
        return best[1]

    # -- checks and rows shared by the three -----------------------------------------------------

    def _a_player(self, player: Any) -> int:
        if not self.rounds:
            raise CompetitionError("there is no schedule yet; call plan(rounds) first")

        player = player_number(player, "player")
        if self._player(player) is None:
            raise CompetitionError(f"there is no player {player}; the players are 1 to {len(self.players())}")
        return player

    def _refuse_scored(self, player: int, rounds: list[int]) -> None:
        absences = self.absences()
        for r in rounds:
            if (r, player) in absences:
                raise CompetitionError(
                    f"player {player} is already marked {absences[r, player]} in round {r}"
                )
            if (r, player) in self.scores("round"):
                raise CompetitionError(
                    f"player {player} already has a score in round {r}; "
                    f"to change it, use correct({r}, {player}, sets)"
                )

    def _absence_rows(self, reason: str, player: int, rounds: list[int]) -> list[tuple[str, tuple]]:
        rows = []
        for r in rounds:
            rows.append(("INSERT INTO absences VALUES (?, ?, ?)", (r, player, reason)))
            # An absent player's round counts 0: the standings and the final see a score like any other.
            rows.append(("INSERT INTO scores VALUES ('round', ?, ?, 0, 0)", (r, player)))
        return rows

    def _mark(self, reason: str, player: int, rounds: list[int], already: Sequence[int] = ()) -> None:
        """Mark ``player`` away (``reason``) in ``rounds``; ``already``: those of them marked absent."""
        fresh = [r for r in rounds if r not in already]
        moves = self._lone_moves(player, fresh)
        details: dict = {"player": player, "rounds": rounds}
        statements = self._absence_rows(reason, player, fresh)
        statements += [
            ("UPDATE absences SET reason = ? WHERE round = ? AND player = ?", (reason, r, player))
            for r in already
        ]
        if moves:
            # Written into the history in words too: the seating changed, and sheets printed
            # before show the old tables.
            details["moved"] = [list(move) for move in moves]
            details["note"] = lone_words(moves)
            for r, p, _, to in moves:
                if to is None:
                    statements += self._absence_rows("absent", p, [r])
                else:
                    statements.append(
                        ("UPDATE seats SET tableno = ? WHERE round = ? AND player = ?", (to, r, p))
                    )
        self._change(reason, details, statements)

    def _lone_moves(self, player: int, rounds: list[int]) -> list[tuple[int, int, int, int]]:
        """Who would be left alone at a table once ``player`` is away in ``rounds``, and where they go.

        One player alone plays no game and would keep all 27 SETs of the deck: they move to
        another table of that round that has not played yet and seats fewer than 5, the one
        where they meet the fewest players met in other rounds, then the smallest, then the
        lowest number. ``(round, player, from table, to table)`` for each; refused, with what to
        do, when no table can take them.
        """
        absences = self.absences()
        scored = self.scores("round")
        moves = []
        for r in rounds:
            seats = self._db.execute("SELECT tableno, player FROM seats WHERE round = ?", (r,)).fetchall()
            playing: dict[int, set[int]] = {}
            for t, p in seats:
                if p != player and (r, p) not in absences:
                    playing.setdefault(t, set()).add(p)
            table = next(t for t, p in seats if p == player)
            left = playing.get(table, set())
            if len(left) != 1:
                continue
            (alone,) = left
            played = {t for t, p in seats if (r, p) in scored and (r, p) not in absences}
            met = {
                q
                for other, t in self._db.execute(
                    "SELECT round, tableno FROM seats WHERE player = ? AND round != ?", (alone, r)
                )
                for (q,) in self._db.execute(
                    "SELECT player FROM seats WHERE round = ? AND tableno = ?", (other, t)
                )
            }
            options = [
                (len(others & met), len(others), t)
                for t, others in playing.items()
                if t != table and t not in played and 2 <= len(others) < _LARGEST_TABLE
            ]
            # No table can take them: they have no game that round, and are marked absent (0).
            moves.append((r, alone, table, min(options)[2] if options else None))
        return moves


def lone_words(moves: Sequence[tuple[int, int, int, int | None]]) -> str:
    """What happened to players who would have been left alone at a table, in a sentence."""
    parts = [
        f"round {r}: player {p} would have been alone at table {t}, so plays at table {to}"
        if to is not None
        else f"round {r}: player {p} would have been alone at table {t} and no table that has not "
        "played has room, so they are marked absent there (0)"
        for r, p, t, to in moves
    ]
    return "; ".join(parts) + " (print the score sheets and slips again)."
