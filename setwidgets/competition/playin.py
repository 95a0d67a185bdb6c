"""Who goes on to the final, kept to one table: ties for the last places, and the play-in that settles them.

:class:`Qualifying` is the part of :class:`~setwidgets.competition.store.Competition` that names
the finalists. The rules, stated once:

- Each division's best player goes on (players registered without a division, when others have
  one, form a group of their own, "no division"); without divisions, the best five go on.
  Players who withdrew do not (see :mod:`setwidgets.competition.attendance`).
- Players tied for a group's last place all go on, and the final decides between them, as long
  as the final then seats at most five players (:data:`LARGEST_FINAL`), the guide's largest
  table.
- When the ties would seat more than five, each group whose tied players outnumber its places
  left plays a *play-in*: one game between exactly those players (:meth:`Qualifying.play_in`
  names them, :meth:`Qualifying.record_play_in` enters it). The best of it take the places; a
  tie at the play-in's cut is settled by another play-in between the players still tied.

Every play-in score can be corrected (:meth:`Qualifying.correct_play_in`); the old and new
scores go into the history. A correction that settles a tie the play-in left (or leaves one it
had settled) drops the later play-ins it makes moot, and the history keeps them.

Everything is worked out from the scores as they are now, never kept: a preliminary or play-in
score corrected later can change who is tied, and a play-in played by players who are no longer
the tied ones no longer counts. When such a correction comes after the final and changes who
the finalists are, the final names no champion until it is played again (see
:mod:`setwidgets.competition.final`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.competition.database import CompetitionError
from setwidgets.competition.final import listed

__all__ = ["LARGEST_FINAL", "TOP_WITHOUT_DIVISIONS", "Qualifying"]

LARGEST_FINAL = 5
"""The most players at the final's one table: the guide's tables seat 2 to 5."""

TOP_WITHOUT_DIVISIONS = 5
"""Without divisions, this many players go on to the final."""


def _cut(ranked: list[tuple[int, int]], places: int) -> tuple[list[int], list[int], int]:
    """(sure, tied, places left for the tied) when ``places`` go on from ``ranked``.

    ``ranked`` holds (player, score), best first.
    """
    if len(ranked) <= places:
        return [p for p, _ in ranked], [], 0
    cut = ranked[places - 1][1]
    sure = [p for p, s in ranked if s > cut]
    tied = [p for p, s in ranked if s == cut]
    return sure, tied, places - len(sure)


class Qualifying:
    """The finalists and the play-ins, as a :class:`~setwidgets.competition.store.Competition` keeps them.

    Mixed into Competition, whose standings, scores and file it uses.
    """

    def finalists(self) -> list[int]:
        """Who goes on to the final, by the rules of :mod:`setwidgets.competition.playin`.

        Refused, with the players named, while a play-in that decides the last places is still
        to be played.
        """
        going, pending, _ = self._qualify()
        if pending:
            group, players, places = pending[0]
            raise CompetitionError(
                f"ties would seat more than {LARGEST_FINAL} players at the final: players {listed(players)}"
                f"{group} are tied for {_words.count(places, 'place')}, so they play a play-in first; "
                "enter it with record_play_in(scores)"
            )
        return going

    def play_in(self) -> list[int]:
        """The players who must play the next play-in (empty when none is needed)."""
        _, pending, _ = self._qualify()
        return pending[0][1] if pending else []

    def record_play_in(self, scores: Mapping[int, Any]) -> None:
        """Enter a play-in game between the players :meth:`play_in` names."""
        players = self.play_in()
        if not players:
            raise CompetitionError("no play-in is needed: the finalists fit at one table")
        # After the last game ever entered: a correction may have dropped games in between.
        game = max((g for g, _ in self.scores("playin")), default=0) + 1
        checked = self._scores_of(scores, players, f"play-in {game}")
        self._save_scores("play-in", "playin", game, checked, {})

    def correct_play_in(self, game: int, player: int, sets: int, penalties: int = 0) -> str | None:
        """Change one player's score in play-in ``game`` (from 1); the history keeps both scores.

        Later play-ins that the correction makes moot (their players are no longer the tied
        ones) are dropped, and kept in the history. The new SETs must keep the game's total
        within 27. When the correction changes who goes on to the final, the sentence saying so
        is returned and written into the history entry (``"note"``); otherwise None.
        """
        games = sorted({g for g, _ in self.scores("playin")})
        if not games:
            raise CompetitionError("no play-in has scores yet; enter one with record_play_in(scores)")
        game = _inputs.whole_number(game, "game", minimum=1, example="1", error=CompetitionError)
        if game not in games:
            raise CompetitionError(
                f"the play-ins entered are {_words.and_list([str(g) for g in games])}; got game {game}"
            )
        return self._correct("playin", game, player, sets, penalties, f"play-in {game}")

    def _effect_on_final(self, statements: list[tuple[str, tuple]]) -> str | None:
        """What a correction (its SQL ``statements``) does to the final's players, in a sentence.

        None when it changes nothing there (or the finalists are not known yet). The statements
        are tried inside a savepoint that is always rolled back: nothing is saved here.
        """

        def state() -> tuple[set[int], list[int], set[int]] | None:
            try:
                going, pending, counted = self._qualify()
            except CompetitionError:  # the preliminary rounds are not all entered yet
                return None
            return set(going), pending[0][1] if pending else [], counted

        before = state()
        if before is None:
            return None
        self._db.execute("SAVEPOINT effect")
        try:
            for sql, args in statements:
                self._db.execute(sql, args)
            after = state()
        finally:
            self._db.execute("ROLLBACK TO effect")
            self._db.execute("RELEASE effect")
        if after is None or after == before:
            return None
        parts = []
        came, went = sorted(after[0] - before[0]), sorted(before[0] - after[0])
        if came:
            parts.append(f"{_who(came)} now {_words.agree(len(came), 'goes', 'go')} on to the final")
        if went:
            parts.append(f"{_who(went)} no longer {_words.agree(len(went), 'goes', 'go')} on")
        moot = sorted(before[2] - after[2])
        if moot:
            games = _words.and_list([str(g) for g in moot])
            parts.append(
                f"{_words.agree(len(moot), 'play-in', 'play-ins')} {games} no longer "
                f"{_words.agree(len(moot), 'counts', 'count')} "
                f"(the ties {_words.agree(len(moot), 'it', 'they')} settled are now different, or fit at "
                "the final's table)"
            )
        if after[1] and after[1] != before[1]:
            parts.append(f"{_who(after[1])} must play a play-in first")
        if (came or went) and self.scores("final"):
            parts.append(
                "the final already played names no champion until it is played again (replay_final())"
            )
        return "; ".join(parts) + "." if parts else None

    def _moot_play_ins(self, game: int, player: int, score: int) -> list[int]:
        """The play-ins after ``game`` that count now and would no longer count with ``score``."""
        games = self.scores("playin")
        counted = self._qualify()[2]
        counted_after = self._qualify({**games, (game, player): score})[2]
        return sorted(g for g in counted - counted_after if g > game)

    def _qualify(
        self, games: Mapping[tuple[int, int], int] | None = None
    ) -> tuple[list[int], list[tuple[str, list[int], int]], set[int]]:
        """(the finalists, the play-ins still to play, the numbers of the play-ins that count).

        A play-in still to play is (group's words, players, places). ``games``: the play-ins'
        scores ``{(game, player): score}`` (None: as they are entered).
        """
        if not self.complete():
            raise CompetitionError("the finalists are known once every preliminary score is entered")
        out = self.withdrawn()
        groups = self.groups()
        seats = [
            (f" of {_group_words(g)}", [r for r in self.standings(g) if r.number not in out], 1)
            for g in groups
        ]
        if not groups:
            seats = [("", [r for r in self.standings() if r.number not in out], TOP_WITHOUT_DIVISIONS)]
        if not any(rows for _, rows, _ in seats):
            raise CompetitionError("every player has withdrawn: nobody goes on to the final")
        cuts = [(words, *_cut([(r.number, r.total) for r in rows], places)) for words, rows, places in seats]
        if sum(len(sure) + len(tied) for _, sure, tied, _ in cuts) <= LARGEST_FINAL:
            return sorted(p for _, sure, tied, _ in cuts for p in sure + tied), [], set()
        games = self.scores("playin") if games is None else games
        going, pending, counted = [], [], set()
        for words, sure, tied, places in cuts:
            going += sure
            played = sorted({g for g, _ in games})
            while len(tied) > places:
                # The next play-in between exactly these players, after the ones already counted.
                game = next((g for g in played if _players_of(games, g) == tied), None)
                if game is None:
                    pending.append((words, tied, places))
                    break
                counted.add(game)
                played = [g for g in played if g > game]
                ranked = sorted(((p, games[game, p]) for p in tied), key=lambda ps: -ps[1])
                more, tied, places = _cut(ranked, places)
                going += more
            else:
                going += tied
        return sorted(going), pending, counted


def _who(players: list[int]) -> str:
    return f"{'player' if len(players) == 1 else 'players'} {listed(players)}"


def _players_of(games: Mapping[tuple[int, int], int], game: int) -> list[int]:
    return sorted(p for g, p in games if g == game)


def _group_words(group: str) -> str:
    return group if group == "no division" else f"division {group}"
