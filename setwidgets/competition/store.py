"""The coordinator's scoreboard, kept in an SQLite file so that nothing is lost.

A :class:`Competition` is the paper the coordinator of the competition guide keeps
(lesson 15, running a class tournament, tells its format), written to an SQLite database
after every change: players and their numbers, the schedule, each game's scores
table by table, the final and its tie-breakers, and a history of every change.
Restart the kernel, close the laptop, open the same file again: everything is
there. SQLite comes with Python (:mod:`sqlite3`), needs no server and keeps each
change whole: a change either is in the file completely or not at all.

A score is the number of SETs a player kept minus their penalty points, as the
judge writes it on the score sheet. SETs and penalties are entered apart: one game
deals a deck of 81 cards, so the SETs kept at one table add up to at most 27 (penalties
do not count towards it). Standings add a player's preliminary scores;
the players who go on to the final are each division's champion (or the top 5
without divisions); when some players have a division and others none, those without
one form a group of their own, "no division", whose best goes on like a division's
champion (nobody is left out of the final for a box left empty on the entry card).
Players tied for such a place all go on, and the final and
as many tie-breaker games as needed decide the champion. The finalists and the
champion are worked out from the scores as they are now: if a preliminary score
corrected after the final changes who the finalists are, the final no longer
names a champion and :meth:`Competition.champion` says so.

Several notebooks may open the same file: one that shows the standings never blocks one that
records (SQLite's write-ahead log), and a writer kept waiting by another for more than a few
seconds (:data:`~setwidgets.competition.database.WAIT_SECONDS`) is told so and saves nothing.
While the file is open, recent changes are kept in a second file beside it
(``class.sqlite-wal``): close the competition before copying the file, and before putting a
copy back (a log left beside a file replaced since is refused, never replayed into it). A file
that holds no competition (empty, cut short, another program's database, a newer version's) is
refused with the reason, never taken for a new competition; a file of an earlier version is
upgraded after a copy of it is kept beside it (``class.sqlite.v1.bak``), and a file that cannot
be written opens read-only (see :mod:`setwidgets.competition.database`).

Bad input changes nothing and says what was wrong: a score entered twice (use
:meth:`Competition.correct` to change it), an unknown player, a player who did not
sit at that table, a negative number of SETs, more than 27 SETs at one table.

Example::

    >>> from setwidgets.competition import Competition
    >>> event = Competition(":memory:")
    >>> for number, name in enumerate(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"], 1):
    ...     event.register(number, name)
    >>> event.plan(rounds=3, seed=1).rounds[0]
    ((1, 2, 3), (4, 5, 6))
    >>> event.record(1, 1, {1: 5, 2: 3, 3: (4, 1)})
    >>> event.record(1, 1, {1: 5, 2: 3, 3: 4})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    setwidgets.competition.database.CompetitionError: round 1, table 1 already has scores; to change one, ...
    >>> [(row.number, row.total) for row in event.standings()][:3]
    [(1, 5), (2, 3), (3, 3)]
"""

from __future__ import annotations

import json
import numbers
import os
import random
import sqlite3
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from setwidgets import _inputs, _words
from setwidgets._events import Callbacks
from setwidgets.competition.attendance import NO_DIVISION, Attendance
from setwidgets.competition.database import (
    ClosedFile,
    CompetitionError,
    details_of,
    file_trouble,
    open_file,
    player_name,
    player_number,
    tables_of,
)
from setwidgets.competition.final import FinalStage, listed
from setwidgets.competition.playin import Qualifying
from setwidgets.competition.schedules import MOST_PLAYERS, Schedule, schedule

__all__ = ["DIVISIONS", "NO_DIVISION", "STAGES", "Competition", "CompetitionError", "Standing"]

DIVISIONS = ("A", "B", "C", "D")
"""The guide's divisions, for example A up to 10 years old, B 11-20, C 21-55, D over 55."""


STAGES = ("round", "playin", "final", "tiebreak")
"""The stages a score belongs to: a preliminary round, a play-in, the final, a game of the tiebreak."""

_PACKAGE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "")
"""The folder of the setwidgets package, whose lines a warning about the user's call skips."""

SETS_PER_GAME = 27
"""A game deals the 81 cards of a deck, three to a SET: the SETs kept at one table add up to at most 27."""


MOST_PENALTIES = 81
"""The most penalty points one player gets in one game: one for each card of the deck."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank (ties share it), player, the round scores and their total.

    ``scores`` has one entry per preliminary round, None while it is not yet entered.
    """

    rank: int
    number: int
    name: str
    division: str | None
    scores: tuple[int | None, ...]
    total: int
    adjusted: float
    """The total with each game's score scaled to a table of three (see :meth:`Competition.standings`)."""


class Competition(Qualifying, FinalStage, Attendance):
    """A SET competition kept in the SQLite file ``path`` (``":memory:"`` keeps it in memory only).

    Opening an existing file continues the competition saved in it.
    """

    def __init__(self, path: str | Path = "competition.sqlite") -> None:
        if path != ":memory:":
            path = _inputs.file_path(path, "path", example="'class.sqlite'", error=CompetitionError)
        self.path = str(path)
        self._watchers = Callbacks("watch", example="def refresh(): ...")
        self._db = open_file(self.path)

    def watch(self, callback: Callable[[], object], remove: bool = False) -> None:
        """Call ``callback()`` after every change made through this object (a standings view uses it).

        The change is saved before the callbacks hear of it: one that raises is reported as a
        RuntimeWarning and cannot undo the change. ``remove=True`` stops calling ``callback``.
        """
        self._watchers.add(callback, remove)

    def close(self) -> None:
        """Close the file (everything is already saved); using the competition after it is refused."""
        self._db.close()
        self._db = ClosedFile(self.path)

    def __enter__(self) -> Competition:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"Competition({self.path!r}: {_words.count(len(self.players()), 'player')}, "
            f"{_words.count(self.rounds, 'round')})"
        )

    # -- changes, each kept whole and written down ---------------------------------------------

    def _change(self, action: str, details: dict, statements: Sequence[tuple[str, tuple]]) -> None:
        at = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self._db:  # one transaction: all of it is saved, or (on any error) none of it
                for sql, args in statements:
                    self._db.execute(sql, args)
                self._db.execute(
                    "INSERT INTO history (at, action, details) VALUES (?, ?, ?)",
                    (at, action, json.dumps(details, sort_keys=True)),
                )
        except sqlite3.IntegrityError:
            raise CompetitionError(
                "another notebook or program saved a change to the same scores at the same moment; "
                "nothing was saved from here: look at the standings and enter what is still missing"
            ) from None
        except sqlite3.Error as error:
            raise CompetitionError(f"nothing was saved: {file_trouble(error)}") from None
        # The change is saved: a watcher that fails is reported, and cannot undo or half-do it
        # (a view's bug must not make a saved score look unsaved). The warning names the line
        # that asked for the change, however many of the package's calls led from it to here:
        # level 1 is fire() itself, 2 this function, each step out of the package one more.
        frame, level = sys._getframe(), 2
        while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
            frame, level = frame.f_back, level + 1
        self._watchers.fire(done="the change was saved", stacklevel=level)

    def history(self) -> list[tuple[int, str, str, dict]]:
        """Every change so far, oldest first: ``(id, time, action, details)``."""
        rows = self._db.execute("SELECT id, at, action, details FROM history ORDER BY id").fetchall()
        return [(i, at, action, details_of(self.path, i, details)) for i, at, action, details in rows]

    # -- players -------------------------------------------------------------------------------

    def register(self, number: int, name: str, division: str | None = None) -> None:
        """Register a player with their number (from 1), name and optional division (A, B, C or D).

        >>> event = Competition(":memory:")
        >>> event.register(1, "Ada", "E")
        Traceback (most recent call last):
        setwidgets.competition.database.CompetitionError: division must be one of A, B, C, D or None; got 'E'
        """
        number = _inputs.whole_number(number, "number", minimum=1, example="7", error=CompetitionError)
        if number > MOST_PLAYERS:
            raise CompetitionError(
                f"number must be at most {MOST_PLAYERS}, the most players a schedule seats; got {number}"
            )
        name, division = self._a_name_and_division(name, division)
        if self._player(number) is not None:
            raise CompetitionError(f"player {number} is already registered ({self._player(number)[0]})")
        if self.rounds:
            raise CompetitionError(
                "the schedule is made; a player who comes now is registered with register_late(number, name)"
            )
        self._change(
            "register",
            {"number": number, "name": name, "division": division},
            [("INSERT INTO players VALUES (?, ?, ?)", (number, name, division))],
        )

    @staticmethod
    def _a_name_and_division(name: Any, division: Any) -> tuple[str, str | None]:
        """A player's name and division (A to D, or None), checked."""
        name = player_name(name, "name")
        if division is None:
            return name, None
        if not isinstance(division, str):
            raise TypeError(
                f"division must be one of {', '.join(DIVISIONS)} or None; got {_inputs.what(division)}"
            )
        if division.strip().upper() not in DIVISIONS:
            raise CompetitionError(
                f"division must be one of {', '.join(DIVISIONS)} or None; got {_inputs.short(division)}"
            )
        return name, division.strip().upper()

    def _player(self, number: int) -> tuple[str, str | None] | None:
        return self._db.execute("SELECT name, division FROM players WHERE number = ?", (number,)).fetchone()

    def players(self) -> dict[int, tuple[str, str | None]]:
        """Every player: ``{number: (name, division)}``."""
        rows = self._db.execute("SELECT number, name, division FROM players ORDER BY number")
        return {number: (name, division) for number, name, division in rows}

    def divisions(self) -> list[str]:
        """The divisions that have players, in order (empty without divisions)."""
        return sorted({d for _, d in self.players().values() if d})

    # -- the schedule --------------------------------------------------------------------------

    def plan(
        self,
        rounds: int = 4,
        *,
        table_size: int = 3,
        tables: int | None = None,
        seed: int | random.Random = 0,
    ) -> Schedule:
        """Make and keep the schedule of the preliminary rounds (see :func:`.schedules.schedule`).

        Every option of :func:`.schedules.schedule` is passed on: ``table_size`` (players at a
        table where possible), ``tables`` (how many the room has) and ``seed``.
        """
        numbers_ = sorted(self.players())
        if numbers_ != list(range(1, len(numbers_) + 1)) or len(numbers_) < 3:
            raise CompetitionError(
                f"players must be numbered 1, 2, 3, ... without gaps, at least 3; registered: {numbers_}"
            )
        if self.rounds:
            raise CompetitionError(
                "the schedule is already made; it stays the same for the whole competition"
            )
        if not isinstance(seed, random.Random):
            # The seed goes into the history, which must read back (a 5,000-digit number does not).
            seed = _inputs.whole_number(seed, "seed", example="1", error=CompetitionError)
            if abs(seed) >= 2**128:
                raise CompetitionError(
                    f"plan() takes a seed below 2**128 (39 digits); got {_inputs.short(seed)}"
                )
        plan = schedule(len(numbers_), rounds, table_size=table_size, tables=tables, seed=seed)
        statements = [
            ("INSERT INTO seats VALUES (?, ?, ?)", (r, t, p))
            for r, game in enumerate(plan.rounds, 1)
            for t, table in enumerate(game, 1)
            for p in table
        ]
        statements.append(("INSERT INTO settings VALUES ('tables', ?)", (str(plan.tables),)))
        # A generator of the caller's own is not written (its state is no seed): the seats are kept.
        details = {
            "rounds": len(plan.rounds),
            "seed": plan.seed,
            "tables": plan.tables,
            "table_size": table_size,
        }
        self._change("plan", details, statements)
        return plan

    @property
    def rounds(self) -> int:
        """How many preliminary rounds the schedule has (0 before :meth:`plan`)."""
        return self._db.execute("SELECT COALESCE(MAX(round), 0) FROM seats").fetchone()[0]

    def schedule(self) -> Schedule:
        """The kept schedule, as it is played: players absent from a round (or withdrawn) are not
        at its tables, and a table whose players are all away is empty (its number stays)."""
        if not self.rounds:
            raise CompetitionError("there is no schedule yet; call plan(rounds) first")
        rows = self._db.execute("SELECT round, tableno, player FROM seats ORDER BY round, tableno, player")
        games: dict[int, dict[int, list[int]]] = {}
        away = self.absences()
        for r, t, p in rows:
            # Players absent or withdrawn from a round are not at its tables: sheets and slips
            # printed now leave them out (their slip says "no game" there).
            table = games.setdefault(r, {}).setdefault(t, [])
            if (r, p) not in away:
                table.append(p)
        tables = tables_of(
            self.path, self._db.execute("SELECT value FROM settings WHERE key = 'tables'").fetchone()
        )
        rounds = tuple(tuple(tuple(game[t]) for t in sorted(game)) for _, game in sorted(games.items()))
        return Schedule(len(self.players()), rounds, tables, method="kept")

    def table(self, round: int, table: int) -> tuple[int, ...]:
        """The players at one table of one preliminary round."""
        round, table = self._round_and_table(round, table)
        rows = self._db.execute(
            "SELECT player FROM seats WHERE round = ? AND tableno = ? ORDER BY player", (round, table)
        )
        return tuple(p for (p,) in rows)

    def _a_round(self, round: Any) -> int:
        """A preliminary round's number, checked against the schedule."""
        rounds = self.rounds
        if not rounds:
            raise CompetitionError("there is no schedule yet; call plan(rounds) first")
        round = _inputs.whole_number(round, "round", minimum=1, example="2", error=CompetitionError)
        if round > rounds:
            raise CompetitionError(
                f"the competition has {_words.count(rounds, 'preliminary round')}; got round {round}"
            )
        return round

    def _round_and_table(self, round: Any, table: Any) -> tuple[int, int]:
        round = self._a_round(round)
        table = _inputs.whole_number(table, "table", minimum=1, example="3", error=CompetitionError)
        count = self._db.execute("SELECT MAX(tableno) FROM seats WHERE round = ?", (round,)).fetchone()[0]
        if table > count:
            raise CompetitionError(f"round {round} has {_words.count(count, 'table')}; got table {table}")
        return round, table

    # -- scores --------------------------------------------------------------------------------

    @staticmethod
    def _score(player: int, entry: Any) -> tuple[int, int]:
        """(sets, penalties) from ``sets`` or ``(sets, penalties)``, checked."""
        if isinstance(entry, tuple) and len(entry) == 2:
            sets, penalties = entry
        elif isinstance(entry, numbers.Integral) and not isinstance(entry, bool):
            sets, penalties = entry, 0
        else:
            raise TypeError(
                f"player {player}'s score must be a number of SETs like 5, or (SETs, penalties) like (5, 1); "
                f"got {_inputs.what(entry)}"
            )
        sets = _inputs.whole_number(sets, f"player {player}'s SETs", example="5", error=CompetitionError)
        penalties = _inputs.whole_number(
            penalties, f"player {player}'s penalties", example="1", error=CompetitionError
        )
        if sets < 0 or penalties < 0:
            raise CompetitionError(
                f"player {player}: SETs and penalty points are counted from 0; "
                f"got {_inputs.short(sets)} SETs and {_inputs.short(penalties)} penalties"
            )
        if sets > 27:
            raise CompetitionError(f"player {player}: a deck holds only 27 SETs; got {_inputs.short(sets)}")
        if penalties > MOST_PENALTIES:
            # Bounded where it enters: a number past SQLite's integers, or one that makes the
            # standings show -4.6e18, is a typing slip, never a game's penalties.
            raise CompetitionError(
                f"player {player}: at most {MOST_PENALTIES} penalty points in one game; "
                f"got {_inputs.short(penalties)}"
            )
        return int(sets), int(penalties)

    def _scores_of(
        self, scores: Any, allowed: Sequence[int], where: str, away: Mapping[int, str] | None = None
    ) -> dict[int, tuple[int, int]]:
        """Scores checked: every player in ``allowed`` and nobody else (``away``: absent, by reason)."""
        away = away or {}
        if not isinstance(scores, Mapping):
            raise TypeError(
                f"scores must be a dict like {{4: 5, 9: (3, 1)}} (player: SETs); got {_inputs.what(scores)}"
            )
        checked = {}
        for player, entry in scores.items():
            number = player_number(player, "a player's number")
            if self._player(number) is None:
                raise CompetitionError(
                    f"there is no player {number}; the players are 1 to {len(self.players())}"
                )
            if number in away:
                raise CompetitionError(
                    f"player {number} is marked {away[number]} at {where}, so has no score there"
                )
            if number not in allowed:
                raise CompetitionError(
                    f"player {number} did not play at {where}; the players there are {listed(allowed)}"
                )
            checked[number] = self._score(number, entry)
        self._check_table_sets(where, {p: sets for p, (sets, _) in checked.items()})
        missing = [p for p in allowed if p not in checked]
        if missing:
            raise CompetitionError(
                f"{where}: give a score for every player there; missing: {listed(missing)}"
            )
        return checked

    def record(self, round: int, table: int, scores: Mapping[int, Any]) -> None:
        """Enter the scores of one table: ``{player: SETs}`` or ``{player: (SETs, penalties)}``.

        Every player seated there, and nobody else, gets a score. One game deals 81 cards, so
        the SETs at one table add up to at most 27 (penalties are apart and not counted in it).
        """
        round, table = self._round_and_table(round, table)
        where = f"round {round}, table {table}"
        seated = self.table(round, table)
        absences = self.absences()
        away = {p: absences[round, p] for p in seated if (round, p) in absences}
        playing = [p for p in seated if p not in away]
        if not playing:
            raise CompetitionError(
                f"{where}: nobody plays there (its players are absent or seated elsewhere), "
                "so it has no scores to enter"
            )
        if len(playing) == 1:
            # One player alone plays no game, and would keep the whole deck's 27 SETs.
            raise CompetitionError(
                f"{where}: only player {playing[0]} plays there, and one player alone plays no game; "
                f"they would keep the whole deck: mark them absent with absent({round}, {playing[0]})"
            )
        checked = self._scores_of(scores, playing, where, away)
        if self._db.execute(
            "SELECT 1 FROM scores WHERE stage = 'round' AND round = ? "
            f"AND player IN ({','.join('?' * len(playing))})",
            (round, *playing),
        ).fetchone():
            raise CompetitionError(
                f"{where} already has scores; to change one, use correct({round}, player, sets, penalties)"
            )
        self._save_scores("record", "round", round, checked, {"table": table})

    def _save_scores(self, action: str, stage: str, round: int, checked: dict, extra: dict) -> None:
        statements = [
            ("INSERT INTO scores VALUES (?, ?, ?, ?, ?)", (stage, round, p, sets, pen))
            for p, (sets, pen) in checked.items()
        ]
        details = {
            "stage": stage,
            "round": round,
            **extra,
            "scores": {str(p): list(s) for p, s in checked.items()},
        }
        self._change(action, details, statements)

    def correct(self, round: int, player: int, sets: int, penalties: int = 0) -> str | None:
        """Change one preliminary score already entered; the old and new scores go into the history.

        The new SETs must keep the table's total within the 27 SETs of one game. When the
        correction changes who goes on to the final (in any division: a finished play-in may
        no longer count), the sentence saying so is returned and written into the history
        entry (``"note"``); otherwise None.
        """
        round = self._a_round(round)
        player = player_number(player, "player")
        new = self._score(player, (sets, penalties))
        old = self._db.execute(
            "SELECT sets, penalties FROM scores WHERE stage = 'round' AND round = ? AND player = ?",
            (round, player),
        ).fetchone()
        if old is None:
            raise CompetitionError(
                f"player {player} has no score in round {round} to correct; enter it with record()"
            )
        if (round, player) in self.absences():
            raise CompetitionError(
                f"player {player} is marked {self.absences()[round, player]} in round {round}, "
                "so has no score to correct"
            )
        table = self._db.execute(
            "SELECT tableno FROM seats WHERE round = ? AND player = ?", (round, player)
        ).fetchone()[0]
        others = self._db.execute(
            "SELECT scores.player, scores.sets FROM scores JOIN seats ON seats.round = scores.round "
            "AND seats.player = scores.player WHERE scores.stage = 'round' AND scores.round = ? "
            "AND seats.tableno = ? AND scores.player != ?",
            (round, table, player),
        ).fetchall()
        self._check_table_sets(f"round {round}, table {table}", {**dict(others), player: new[0]})
        statements = [
            (
                "UPDATE scores SET sets = ?, penalties = ? "
                "WHERE stage = 'round' AND round = ? AND player = ?",
                (*new, round, player),
            )
        ]
        details = {"round": round, "player": player, "old": list(old), "new": list(new)}
        # A score in one division can change another's finalists (ties that now fit at the
        # final's table make a finished play-in moot): said in the history, and returned.
        note = self._effect_on_final(statements)
        if note:
            details["note"] = note
        self._change("correct", details, statements)
        return note

    def scores(self, stage: str = "round") -> dict[tuple[int, int], int]:
        """Every score of a stage ("round", "final", "tiebreak"): ``{(round, player): SETs - penalties}``."""
        stage = _inputs.one_of(stage, STAGES, "stage", error=CompetitionError)
        rows = self._db.execute(
            "SELECT round, player, sets - penalties FROM scores WHERE stage = ?", (stage,)
        )
        return {(r, p): s for r, p, s in rows}

    # -- standings and the final ---------------------------------------------------------------

    def standings(self, division: str | None = None) -> list[Standing]:
        """The standings after the rounds entered so far, best first by total; ties share a rank.

        A game shares out about the same number of SETs at any table, so a player at a table of
        two keeps more of them than at a table of three, and at a table of four fewer. Each
        row's ``adjusted`` total scales every game's score to a table of three (score times the
        players at that table, divided by 3): a fairer comparison where tables differ in size.
        The rank and the finalists follow the raw total, as the guide's score sheets add it.

        ``division`` keeps only that division's players (None: everyone). When some players
        have a division and others none, ``NO_DIVISION`` ("no division") keeps those without one.
        """
        groups = self.groups()
        if division is not None and division not in groups:
            raise CompetitionError(
                f"division must be one of {', '.join(groups) or 'none'}; got {_inputs.short(division)}"
            )
        scores = self.scores()
        sizes = {
            (r, p): n
            for r, p, n in self._db.execute(
                # The players who played at each player's table: absent ones took no SETs there.
                "SELECT seats.round, seats.player, COUNT(*) FROM seats JOIN seats AS other "
                "ON other.round = seats.round AND other.tableno = seats.tableno "
                "WHERE NOT EXISTS (SELECT 1 FROM absences WHERE absences.round = other.round "
                "AND absences.player = other.player) GROUP BY seats.round, seats.player"
            )
        }
        rows = []
        for number, (name, div) in self.players().items():
            if division is not None and (div or NO_DIVISION) != division:
                continue
            own = tuple(scores.get((r, number)) for r in range(1, self.rounds + 1))
            adjusted = sum(s * sizes.get((r, number), 3) / 3 for r, s in enumerate(own, 1) if s is not None)
            rows.append((number, name, div, own, sum(s for s in own if s is not None), round(adjusted, 1)))
        rows.sort(key=lambda row: (-row[4], row[0]))
        out, rank = [], 0
        for i, row in enumerate(rows):
            if i == 0 or row[4] != rows[i - 1][4]:
                rank = i + 1
            out.append(Standing(rank, *row))
        return out

    def groups(self) -> list[str]:
        """The groups the standings and the final are divided into, in order (empty without divisions).

        The divisions that have players, then ``NO_DIVISION`` ("no division") when some players
        have a division and others none: those form a group of their own (see the module
        docstring). Each name is one that :meth:`standings` takes.
        """
        groups = self.divisions()
        if groups and any(d is None for _, d in self.players().values()):
            groups.append(NO_DIVISION)
        return groups

    def complete(self) -> bool:
        """True when every preliminary score is entered."""
        return bool(self.rounds) and len(self.scores()) == self.rounds * len(self.players())

    @staticmethod
    def _check_table_sets(where: str, sets: Mapping[int, int]) -> None:
        """Refuse a table whose SETs add up to more than one game can give (27: 81 cards, 3 to a SET)."""
        total = sum(sets.values())
        if total > SETS_PER_GAME:
            each = ", ".join(f"{p}: {n}" for p, n in sorted(sets.items()))
            raise CompetitionError(
                f"{where}: one game gives at most {SETS_PER_GAME} SETs at a table (81 cards, 3 to a SET), "
                f"so the players' SETs there add up to at most {SETS_PER_GAME}; got {total} ({each}); "
                "penalties are not counted in it"
            )
