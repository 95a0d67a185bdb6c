"""The final and its tie-breakers: their scores, their corrections, and the champion.

:class:`FinalStage` is the part of :class:`~setwidgets.competition.store.Competition` that
runs the end of a competition, in the guide's order: the finalists (worked out by the
Competition from the preliminary rounds) play the final at one table; when players tie for
the best score, they play tie-breaker games until one is ahead.

Every score of the final and of a tie-breaker can be corrected (:meth:`FinalStage.correct_final`,
:meth:`FinalStage.correct_tiebreak`); the old and new scores go into the history. A correction
that changes who is tied drops the tie-breakers that no longer apply (they are kept in the
history), so that the right players play the next one. When a preliminary or play-in score
corrected after the final changes who the finalists are, the final names no champion until it is
played again (:meth:`FinalStage.replay_final`). The champion is always worked out from the scores
as they are now, never kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from setwidgets import _inputs, _words
from setwidgets.competition.database import CompetitionError, player_number

__all__ = ["FinalStage", "best", "listed"]


def best(totals: Mapping[int, int]) -> list[int]:
    """The players with the highest score, in order.

    >>> best({4: 7, 9: 7, 2: 5})
    [4, 9]
    """
    top = max(totals.values())
    return sorted(p for p, s in totals.items() if s == top)


def listed(players: Sequence[int]) -> str:
    """Players' numbers in words: '4', '4 and 9', '2, 4 and 9'."""
    return _words.and_list([str(p) for p in players])


def _deciding(final: Mapping[int, int], breaks: Mapping[tuple[int, int], int]) -> tuple[list[int], int]:
    """Who is still tied after the tie-breakers that apply, and how many games apply.

    A tie-breaker applies when exactly the players tied before it played it; later games were
    played by players who are no longer the ones tied (a score corrected since).
    """
    tied, game = best(final), 1
    while len(tied) > 1:
        played = sorted(p for g, p in breaks if g == game)
        if played != tied:
            break
        tied = best({p: breaks[game, p] for p in tied})
        game += 1
    return tied, game - 1


class FinalStage:
    """The final and its tie-breakers, as a :class:`~setwidgets.competition.store.Competition` keeps them.

    Mixed into Competition, whose scores, finalists and file it uses.
    """

    def record_final(self, scores: Mapping[int, Any]) -> None:
        """Enter the final's scores (every finalist's, at one table: at most 27 SETs in all)."""
        if self.scores("final"):
            raise CompetitionError(
                "the final already has scores; to change one, use correct_final(player, sets, penalties)"
            )
        checked = self._scores_of(scores, self.finalists(), "the final")
        self._save_scores("final", "final", 1, checked, {})

    def correct_final(self, player: int, sets: int, penalties: int = 0) -> None:
        """Change one finalist's score in the final; the old and new scores go into the history.

        Tie-breakers that no longer apply (the correction changed who was tied) are dropped,
        and kept in the history.
        """
        if not self.scores("final"):
            raise CompetitionError("the final has no scores yet; enter them with record_final(scores)")
        self._correct("final", 1, player, sets, penalties, "the final")

    def correct_tiebreak(self, game: int, player: int, sets: int, penalties: int = 0) -> None:
        """Change one player's score in tie-breaker ``game`` (from 1); the history keeps both scores.

        Later tie-breakers that no longer apply are dropped, and kept in the history.
        """
        games = len({g for g, _ in self.scores("tiebreak")})
        game = _inputs.whole_number(game, "game", minimum=1, example="1", error=CompetitionError)
        if game > games:
            raise CompetitionError(
                f"there {_words.agree(games, 'is', 'are')} {_words.count(games, 'tie-breaker')} "
                f"so far; got game {game}"
            )
        self._correct("tiebreak", game, player, sets, penalties, f"tie-breaker {game}")

    def replay_final(self) -> None:
        """Clear the final and its tie-breakers, to play the final again (the history keeps them).

        For when a preliminary or play-in score corrected after the final changed who the
        finalists are.
        """
        final, breaks = self.scores("final"), self.scores("tiebreak")
        if not final:
            raise CompetitionError("the final has no scores yet: there is nothing to play again")
        details = {
            "final": {str(p): s for (_, p), s in sorted(final.items())},
            "tiebreaks": {f"{g}:{p}": s for (g, p), s in sorted(breaks.items())},
        }
        self._change(
            "replay final", details, [("DELETE FROM scores WHERE stage IN ('final', 'tiebreak')", ())]
        )

    def _correct(
        self, stage: str, game: int, player: Any, sets: Any, penalties: Any, where: str
    ) -> str | None:

        player = player_number(player, "player")
        new = self._score(player, (sets, penalties))
        rows = self._db.execute(
            "SELECT player, sets, penalties FROM scores WHERE stage = ? AND round = ?", (stage, game)
        ).fetchall()
        table = {p: (s, pen) for p, s, pen in rows}
        if player not in table:
            raise CompetitionError(
                f"player {player} did not play {where}; the players there are {listed(sorted(table))}"
            )
        self._check_table_sets(where, {**{p: s for p, (s, _) in table.items()}, player: new[0]})
        score = new[0] - new[1]
        if stage == "playin":
            # The play-ins' own rules (competition/playin.py) say which later ones become moot.
            dropping, stale = "playin", self._moot_play_ins(game, player, score)
            games = self.scores("playin")
        else:
            final = {p: s for (_, p), s in self.scores("final").items()}
            games = self.scores("tiebreak")
            if stage == "final":
                final[player] = score
            else:
                games[game, player] = score
            # A tie-breaker or a final score to correct means the final has scores.
            _, applying = _deciding(final, games)
            dropping, stale = "tiebreak", sorted({g for g, _ in games if g > applying})
        details = {
            "stage": stage,
            "round": game,
            "player": player,
            "old": list(table[player]),
            "new": list(new),
            "dropped": {f"{g}:{p}": s for (g, p), s in sorted(games.items()) if g in stale},
        }
        statements = [
            (
                "UPDATE scores SET sets = ?, penalties = ? WHERE stage = ? AND round = ? AND player = ?",
                (*new, stage, game, player),
            )
        ]
        statements += [("DELETE FROM scores WHERE stage = ? AND round = ?", (dropping, g)) for g in stale]
        action = "correct play-in" if stage == "playin" else f"correct {stage}"
        note = self._effect_on_final(statements) if stage == "playin" else None
        if note:
            details["note"] = note  # its consequences for the final, said in the history
        self._change(action, details, statements)
        return note

    def _final(self) -> dict[int, int]:
        """The final's scores ``{player: score}``, checked against the finalists as they are now.

        Refused when a preliminary or play-in score corrected after the final changed who the
        finalists are: the final then no longer decides between the right players.
        """
        final = {p: s for (_, p), s in self.scores("final").items()}
        if not final:
            return final
        played, now = sorted(final), self.finalists()
        if played != now:
            gone = [p for p in played if p not in now]
            new = [p for p in now if p not in played]
            why = []
            for group, words in (
                (gone, ", who played it, no longer {} on"),
                (new, " now {} on but did not play it"),
            ):
                if group:
                    one = len(group) == 1
                    who = f"{'player' if one else 'players'} {listed(group)}"
                    why.append(who + words.format("goes" if one else "go"))
            raise CompetitionError(
                f"the final was played by {listed(played)}, but a score corrected since then "
                f"makes the finalists {listed(now)} ({'; '.join(why)}), so the final names no champion; "
                "play it again with replay_final() and record_final(scores), or, if that correction was "
                "a mistake, put the score back with correct(round, player, sets, penalties) "
                "(a play-in's: correct_play_in(game, player, sets, penalties))"
            )
        return final

    def still_tied(self) -> list[int]:
        """The players who must play the next tie-breaker (empty when there is a champion or no final yet).

        Refused, like :meth:`champion`, when the final's players are no longer the finalists.
        """
        final = self._final()
        if not final:
            return []
        tied, _ = _deciding(final, self.scores("tiebreak"))
        return tied if len(tied) > 1 else []

    def record_tiebreak(self, scores: Mapping[int, Any]) -> None:
        """Enter a tie-breaker game between the players :meth:`still_tied` names."""
        tied = self.still_tied()
        if not tied:
            raise CompetitionError("nobody is tied: there is no tie-breaker to play")
        _, applying = _deciding(self._final(), self.scores("tiebreak"))
        game = applying + 1
        checked = self._scores_of(scores, tied, f"tie-breaker {game}")
        self._save_scores("tiebreak", "tiebreak", game, checked, {})

    def champion(self) -> int | None:
        """The champion's number, once the final (and any tie-breakers) decided; otherwise None.

        Worked out afresh from the scores at every call. When a preliminary or play-in score
        corrected after the final changed who the finalists are, the final's players are no
        longer the finalists: that is refused with a sentence naming them, never answered with a
        player who is no longer a finalist.
        """
        final = self._final()
        if not final:
            return None
        tied, _ = _deciding(final, self.scores("tiebreak"))
        return tied[0] if len(tied) == 1 else None
