"""Standings: the competition's table of scores, live in a notebook or as static HTML.

:func:`standings_html` writes the standings as an HTML table (for a saved notebook, a
web page or a projector where no kernel runs). :class:`Standings` is the live view: a
thin widget over a :class:`~setwidgets.competition.Competition` that redraws the
table whenever a score is entered, from the widget's own form or from code::

    from setwidgets.competition import Competition
    from setwidgets.widgets.standings import Standings

    event = Competition("class.sqlite")
    board = Standings(event)
    board                                   # the table, a division picker, a score form
    event.record(1, 2, {4: 5, 9: 3, 13: 2}) # the table shows the new scores at once

Below the score form, the coordinator's other entries, each one call of the Competition:
a play-in's scores (:meth:`~setwidgets.competition.Competition.record_play_in`), a player
absent from the form's round (:meth:`~setwidgets.competition.Competition.absent`), a player who
withdraws (:meth:`~setwidgets.competition.Competition.withdraw`) and a late player
(:meth:`~setwidgets.competition.Competition.register_late`). Then the end of the competition:
the final's scores (:meth:`~setwidgets.competition.Competition.record_final`), a tie-breaker's
(:meth:`~setwidgets.competition.Competition.record_tiebreak`), the final played again
(:meth:`~setwidgets.competition.Competition.replay_final`), and a correction of any score
already entered: a round's, a play-in's, the final's or a tie-breaker's
(:meth:`~setwidgets.competition.Competition.correct` and its siblings), whose consequences
(tie-breakers dropped, finalists changed) are said as the history writes them. A refused entry
shows the Competition's own sentence and changes nothing.

The widget holds no scores of its own: every number comes from the Competition.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from ipywidgets import HTML, Button, Dropdown, HBox, IntText, Layout, Text, ToggleButtons, VBox

from setwidgets import _inputs
from setwidgets.competition.final import listed
from setwidgets.competition.store import DIVISIONS, NO_DIVISION, Competition, CompetitionError
from setwidgets.widgets._keyguard import announce, keep_keys

__all__ = ["CORRECTIONS", "Standings", "parse_score", "parse_scores", "standings_html"]

OVERALL = "Overall"

_STYLE = (
    "<style>.setw-standings-table{border-collapse:collapse;font-size:15px;margin:4px 0}"
    ".setw-standings-table th,.setw-standings-table td{border:1px solid #c9ced6;padding:3px 9px;"
    "text-align:right}.setw-standings-table td.name{text-align:left}"
    ".setw-standings-table th{background:#eef1f4}.setw-standings-table tr.top td{font-weight:bold}</style>"
)


CORRECTIONS = (
    ("a round's score", "round"),
    ("a play-in's", "play-in"),
    ("the final's", "final"),
    ("a tie-breaker's", "tie-breaker"),
)
"""The correction form's Stage menu: what the score to correct belongs to (label, stage)."""

CHOOSE = "choose\u2026"
"""The first item of a late player's Division menu when the competition has divisions: none is assumed."""


def standings_html(competition: Competition, division: str | None = None) -> str:
    """The standings as an HTML table: rank, number, name, division, each round's score, total.

    Where tables differ in size, an "Adjusted" column shows each total scaled to tables of three
    (see :meth:`~setwidgets.competition.Competition.standings`).

    >>> from setwidgets.competition import Competition
    >>> event = Competition(":memory:")
    >>> for n in range(1, 4):
    ...     event.register(n, f"P{n}")
    >>> "<td class=\\"name\\">P1</td>" in standings_html(event)
    True
    """
    if not isinstance(competition, Competition):
        raise TypeError(f"competition must be a Competition; got {_inputs.what(competition)}")
    rows = competition.standings(division)
    rounds = competition.rounds
    # Where tables differ in size, the total scaled to tables of three is shown beside the raw one.
    uneven = any(row.adjusted != row.total for row in rows)
    head = ["Rank", "No.", "Name", "Div."] + [f"Game {r}" for r in range(1, rounds + 1)] + ["Total"]
    head += ["Adjusted"] if uneven else []
    out = [_STYLE, '<table class="setw-standings-table">']
    if division == NO_DIVISION:
        title = "Players without a division"
    else:
        title = f"Division {division}" if division else "All players"
    out.append(f"<caption style='text-align:left;font-weight:bold'>{escape(title)}</caption>")
    out.append("<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
    for row in rows:
        scores = "".join(f"<td>{'' if s is None else s}</td>" for s in row.scores)
        top = ' class="top"' if row.rank == 1 and row.total > 0 else ""
        out.append(
            f'<tr{top}><td>{row.rank}</td><td>{row.number}</td><td class="name">{escape(row.name)}</td>'
            f"<td>{escape(row.division or '')}</td>{scores}<td>{row.total}</td>"
            + (f"<td>{row.adjusted:g}</td>" if uneven else "")
            + "</tr>"
        )
    out.append("</table>")
    return "".join(out)


def parse_scores(text: str) -> dict[int, tuple[int, int]]:
    """Scores typed as ``"4: 5, 9: 3 1, 13: 2"`` (player: SETs, or SETs and penalties).

    >>> parse_scores("4: 5, 9: 3 1, 13: 2")
    {4: (5, 0), 9: (3, 1), 13: (2, 0)}
    """
    if not isinstance(text, str):
        raise TypeError(f"scores must be text like '4: 5, 9: 3 1'; got {_inputs.what(text)}")
    scores = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        match = re.fullmatch(r"(\d+)\s*:\s*(-?\d+)(?:\s+(-?\d+))?", part)
        if not match:
            raise CompetitionError(
                f"write each score as 'player: SETs' or 'player: SETs penalties', like '9: 3 1'; "
                f"got {_inputs.short(part)}"
            )
        player, sets, penalties = match.groups()
        if int(player) in scores:
            twice = f"player {int(player)} is written twice in {_inputs.short(text)}"
            raise CompetitionError(f"{twice}; give each player's score once")
        scores[int(player)] = (int(sets), int(penalties or 0))
    return scores


def parse_score(text: str) -> tuple[int, int]:
    """One score typed as ``"5"`` (SETs) or ``"5 1"`` (SETs and penalties), for a correction.

    >>> parse_score("5 1"), parse_score(" 3 ")
    ((5, 1), (3, 0))
    """
    if not isinstance(text, str):
        raise TypeError(f"a score must be text like '5' or '5 1'; got {_inputs.what(text)}")
    match = re.fullmatch(r"\s*(-?\d+)(?:\s+(-?\d+))?\s*", text)
    if not match:
        raise CompetitionError(
            f"write the new score as 'SETs' or 'SETs penalties', like '5' or '5 1'; got {_inputs.short(text)}"
        )
    return int(match.group(1)), int(match.group(2) or 0)


def _score_words(score: list[int]) -> str:
    sets, penalties = score
    words = f"{sets} SET{'' if sets == 1 else 's'}"
    return words + (f" less {penalties} penalt{'y' if penalties == 1 else 'ies'}" if penalties else "")


class Standings(VBox):
    """The live standings of a :class:`~setwidgets.competition.Competition`, with the coordinator's forms.

    Pick "Overall" or a division above the table; when some players have a division and
    others none, "no division" shows those without one (they form a group of their own, whose
    best goes on to the final: see :meth:`~setwidgets.competition.Competition.groups`).
    Below it, enter one table's scores: the round, the table, and ``player: SETs`` (or
    ``player: SETs penalties``) for each player, separated by commas, then press "Enter
    scores". The rows below enter a play-in's scores (the players it names), mark a player
    absent from the round in the score form or withdraw them, and register a late player
    under the next number. The last rows enter the final's and a tie-breaker's scores (the
    players who play them are named beside them), clear the final to play it again, and
    correct one score: pick what it belongs to in the Stage menu, give the round or game
    (the final has one), the player and the new score (``5`` or ``5 1``). A mistake is
    explained under the forms and changes nothing.
    """

    def __init__(self, competition: Competition) -> None:
        if not isinstance(competition, Competition):
            raise TypeError(f"competition must be a Competition; got {_inputs.what(competition)}")
        self.competition = competition
        self.division = ToggleButtons(
            options=[OVERALL, *competition.groups()], value=OVERALL, description="Division"
        )
        self.table = HTML(layout=Layout(overflow="auto"))
        self.round = IntText(value=1, description="Round", layout=Layout(width="130px"))
        self.table_number = IntText(value=1, description="Table", layout=Layout(width="130px"))
        self.scores = Text(
            placeholder="4: 5, 9: 3 1, 13: 2", description="Scores", layout=Layout(width="320px")
        )
        self.enter = Button(description="Enter scores", button_style="primary")
        # The play-in: who plays it (from the Competition) and its scores.
        self.play_in_players = HTML()
        self.play_in_scores = Text(
            placeholder="5: 3, 6: 2", description="Play-in", layout=Layout(width="320px")
        )
        self.enter_play_in = Button(description="Enter play-in")
        # Attendance: the player, absent from the score form's round, or withdrawn from the rest.
        self.player = IntText(value=1, description="Player", layout=Layout(width="130px"))
        self.mark_absent = Button(description="Absent this round")
        self.withdraw_player = Button(description="Withdraw")
        # A late player: the next number is theirs.
        self.late_name = Text(placeholder="name", description="Late player", layout=Layout(width="260px"))
        # With divisions, the menu starts at "choose": a late player left at a default would
        # form a group of one and go straight to the final (see register_late).
        options = self._late_options()
        self.late_division = Dropdown(
            options=options, value=options[0], description="Division", layout=Layout(width="210px")
        )
        self.register_late_player = Button(description="Register late")
        # The end: the final, its tie-breakers, and a correction of any score already entered.
        self.final_scores = Text(
            placeholder="3: 9, 7: 8, 12: 6", description="Final", layout=Layout(width="320px")
        )
        self.enter_final = Button(description="Enter final")
        self.final_players = HTML()
        self.tiebreak_scores = Text(
            placeholder="3: 4, 7: 2", description="Tie-breaker", layout=Layout(width="320px")
        )
        self.enter_tiebreak = Button(description="Enter tie-breaker")
        self.replay = Button(description="Play the final again")
        self.stage = Dropdown(
            options=CORRECTIONS, value="round", description="Correct", layout=Layout(width="250px")
        )
        self.game = IntText(value=1, description="Round/game", layout=Layout(width="160px"))
        self.correct_player = IntText(value=1, description="Player", layout=Layout(width="130px"))
        self.correct_score = Text(
            placeholder="5 or 5 1", description="New score", layout=Layout(width="200px")
        )
        self.correct_button = Button(description="Correct score")
        self.message = HTML()
        # After a click on a division or a button, the keyboard goes back to a text field: typed
        # there, digits are scores; typed on a button, they would reach JupyterLab ("1" makes a
        # cell a heading).
        self.division.observe(self._division_picked, names="value")
        self.enter.on_click(lambda _: (self.submit(), self.scores.focus()))
        self.enter_play_in.on_click(lambda _: (self.submit_play_in(), self.play_in_scores.focus()))
        self.mark_absent.on_click(lambda _: (self.absent(), self.scores.focus()))
        self.withdraw_player.on_click(lambda _: (self.withdraw(), self.scores.focus()))
        self.register_late_player.on_click(lambda _: (self.register_late(), self.late_name.focus()))
        self.enter_final.on_click(lambda _: (self.submit_final(), self.final_scores.focus()))
        self.enter_tiebreak.on_click(lambda _: (self.submit_tiebreak(), self.tiebreak_scores.focus()))
        self.replay.on_click(lambda _: (self.replay_final(), self.final_scores.focus()))
        self.correct_button.on_click(lambda _: (self.correct(), self.correct_score.focus()))
        self._redrawing = False
        self.scores.add_class("setw-standings-scores")
        form = HBox([self.round, self.table_number, self.scores, self.enter])
        play_in = HBox([self.play_in_scores, self.enter_play_in, self.play_in_players])
        attendance = HBox([self.player, self.mark_absent, self.withdraw_player])
        late = HBox([self.late_name, self.late_division, self.register_late_player])
        final = HBox([self.final_scores, self.enter_final, self.final_players])
        tiebreak = HBox([self.tiebreak_scores, self.enter_tiebreak, self.replay])
        correction = HBox(
            [self.stage, self.game, self.correct_player, self.correct_score, self.correct_button]
        )
        rows = [form, play_in, attendance, late, final, tiebreak, correction]
        super().__init__([self.division, self.table, *rows, self.message])
        self.add_class("setw-standings")
        keep_keys(self)  # digits typed in the forms are scores, never JupyterLab's heading keys
        self.table.add_class("setw-standings-view")
        self.message.add_class("setw-standings-message")
        announce(self.message)  # an entry's answer: accepted, or why not
        competition.watch(self.refresh)
        self.refresh()

    def close(self) -> None:
        """Stop following the competition's changes, and close the widget."""
        competition = getattr(self, "competition", None)
        if competition is not None:
            competition.watch(self.refresh, remove=True)
        super().close()

    def _late_options(self) -> tuple[str, ...]:
        """The Division menu of a late player: "choose" first when the competition has divisions."""
        if self.competition.divisions():
            return (CHOOSE, *DIVISIONS, NO_DIVISION)
        return (NO_DIVISION, *DIVISIONS)

    def refresh(self) -> None:
        """Draw the table, the divisions and who plays the play-in again from the Competition."""
        late = self._late_options()
        if late != self.late_division.options:  # the first division came with a late player
            self.late_division.options = late
            self.late_division.value = late[0]
        # The competition's own groups: its divisions, and "no division" when some players have none.
        divisions = (OVERALL, *self.competition.groups())
        if divisions != self.division.options:  # a late player brought a new division
            shown = self.division.value if self.division.value in divisions else OVERALL
            self._redrawing = True
            try:
                self.division.options, self.division.value = divisions, shown
            finally:
                self._redrawing = False
        division = None if self.division.value == OVERALL else self.division.value
        self.table.value = standings_html(self.competition, division)
        try:
            players = self.competition.play_in()
        except CompetitionError as error:  # the preliminary rounds are not all entered yet
            words = f"no play-in yet: {error}"
        else:
            words = f"players {listed(players)} play it" if players else "no play-in is needed"
        self.play_in_players.value = f"<span style='color:#555'>{escape(words, quote=False)}</span>"
        self.final_players.value = f"<span style='color:#555'>{escape(self._end(), quote=False)}</span>"

    def _end(self) -> str:
        """Who plays the final, who must play a tie-breaker, or who is champion, in a few words."""
        try:
            if not self.competition.scores("final"):
                return f"players {listed(self.competition.finalists())} play the final"
            champion = self.competition.champion()
            tied = self.competition.still_tied()
        except CompetitionError as error:  # rounds still to enter, a play-in first, a final to replay
            return f"no final yet: {error}"
        if champion is not None:
            return f"the champion is player {champion} ({self.competition.players()[champion][0]})"
        return f"players {listed(tied)} are tied: they play a tie-breaker"

    def _division_picked(self, _change: object) -> None:
        if not self._redrawing:
            self.refresh()
            self.scores.focus()

    def _attempt(self, call: Callable[[], object], done: Callable[[object], str]) -> bool:
        """Make one call of the Competition; show its refusal, or ``done(answer)``, under the forms."""
        try:
            answer = call()
        except (CompetitionError, TypeError) as error:
            self.message.value = f"<span style='color:#b3261e'>{escape(str(error), quote=False)}</span>"
            return False
        self.message.value = f"<span style='color:#1a7f37'>{escape(done(answer), quote=False)}</span>"
        return True

    def submit(self) -> bool:
        """Enter the form's scores; True when they were accepted (the form then moves to the next table)."""
        round, table = self.round.value, self.table_number.value
        if not self._attempt(
            lambda: self.competition.record(round, table, parse_scores(self.scores.value)),
            lambda _: f"Round {round}, table {table}: scores entered.",
        ):
            return False
        self.scores.value = ""
        self.table_number.value += 1
        return True

    def submit_play_in(self) -> bool:
        """Enter the play-in's scores from its field; True when they were accepted."""
        if not self._attempt(
            lambda: self.competition.record_play_in(parse_scores(self.play_in_scores.value)),
            lambda _: "Play-in: scores entered.",
        ):
            return False
        self.play_in_scores.value = ""
        return True

    def absent(self) -> bool:
        """Mark the Player field's player absent from the score form's round; True when accepted."""
        round, player = self.round.value, self.player.value
        return self._attempt(
            lambda: self.competition.absent(round, player),
            lambda _: (
                f"Player {player} is absent in round {round}: 0 there; their table plays without them."
                + self._note()
            ),
        )

    def withdraw(self) -> bool:
        """Withdraw the Player field's player from every round not yet scored; True when accepted."""
        player = self.player.value
        return self._attempt(
            lambda: self.competition.withdraw(player),
            lambda _: f"Player {player} has withdrawn: 0 in the rounds left, and no final." + self._note(),
        )

    def submit_final(self) -> bool:
        """Enter the final's scores from its field; True when they were accepted."""
        if not self._attempt(
            lambda: self.competition.record_final(parse_scores(self.final_scores.value)),
            lambda _: "Final: scores entered. " + self._end()[0].upper() + self._end()[1:] + ".",
        ):
            return False
        self.final_scores.value = ""
        return True

    def submit_tiebreak(self) -> bool:
        """Enter a tie-breaker's scores from its field; True when they were accepted."""
        if not self._attempt(
            lambda: self.competition.record_tiebreak(parse_scores(self.tiebreak_scores.value)),
            lambda _: "Tie-breaker: scores entered. " + self._end()[0].upper() + self._end()[1:] + ".",
        ):
            return False
        self.tiebreak_scores.value = ""
        return True

    def replay_final(self) -> bool:
        """Clear the final and its tie-breakers to play it again (the history keeps them); True when done."""
        return self._attempt(
            self.competition.replay_final,
            lambda _: "The final's scores are cleared (the history keeps them): " + self._end() + ".",
        )

    def correct(self) -> bool:
        """Correct one score as the correction row says; True when accepted (the row's score is then cleared).

        The message gives the old and the new score and what the correction changed beyond it:
        tie-breakers or play-ins dropped, or a change of finalists, as the history writes them.
        """
        stage, game, player = self.stage.value, self.game.value, self.correct_player.value
        calls = {
            "round": lambda s, p: self.competition.correct(game, player, s, p),
            "play-in": lambda s, p: self.competition.correct_play_in(game, player, s, p),
            "final": lambda s, p: self.competition.correct_final(player, s, p),
            "tie-breaker": lambda s, p: self.competition.correct_tiebreak(game, player, s, p),
        }
        where = {"round": f"Round {game}", "play-in": f"Play-in {game}", "final": "The final"}
        where = where.get(stage, f"Tie-breaker {game}")

        def done(_: object) -> str:
            entry = self.competition.history()[-1][3]
            said = (
                f"{where}, player {player}: {_score_words(entry['new'])} (was {_score_words(entry['old'])})."
            )
            dropped = sorted({int(key.split(":")[0]) for key in entry.get("dropped", {})})
            if dropped:
                game = "Play-in" if stage == "play-in" else "Tie-breaker"
                one = len(dropped) == 1
                said += f" {game}{'' if one else 's'} {listed(dropped)} no longer "
                said += f"appl{'ies' if one else 'y'}: dropped (the history keeps them)."
            return said + self._note()

        if not self._attempt(lambda: calls[stage](*parse_score(self.correct_score.value)), done):
            return False
        self.correct_score.value = ""
        return True

    def _note(self) -> str:
        """The last change's side effects, as its history says them (a player moved, say), or ''."""
        note = self.competition.history()[-1][3].get("note")
        return f" {note[0].upper()}{note[1:]}" if note else ""

    def register_late(self) -> bool:
        """Register the Late player field's name under the next number; True when accepted.

        The message gives the player's slip: where they play from their first round on.
        """
        number = len(self.competition.players()) + 1
        name, division = self.late_name.value, self.late_division.value
        if division == CHOOSE:
            self.message.value = (
                "<span style='color:#b3261e'>register_late: choose the late player's division in the "
                f"Division menu ({', '.join(self.competition.divisions())}, or {NO_DIVISION} for a "
                "group of their own); nothing was saved</span>"
            )
            return False
        alone = division == NO_DIVISION and bool(self.competition.divisions())
        division = NO_DIVISION if alone else None if division == NO_DIVISION else division

        def done(first: object) -> str:
            said = (
                f"{self.competition.players()[number][0]} is player {number}, playing from round "
                f"{first}. {self.competition.schedule().slip(number)}"
            )
            if alone:
                # Said outright: without a division they are ranked in the "no division" group.
                said += (
                    f" Without a division they are ranked in the group '{NO_DIVISION}', whose best "
                    "goes on to the final."
                )
            return said

        if not self._attempt(lambda: self.competition.register_late(number, name, division), done):
            return False
        self.late_name.value = ""
        self.late_division.value = self.late_division.options[0]
        return True
