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

The widget holds no scores of its own: every number comes from the Competition.
"""

from __future__ import annotations

import re
from html import escape

from ipywidgets import HTML, Button, HBox, IntText, Layout, Text, ToggleButtons, VBox

from setwidgets import _inputs
from setwidgets.competition.store import Competition, CompetitionError

__all__ = ["Standings", "parse_scores", "standings_html"]

OVERALL = "Overall"

_STYLE = (
    "<style>.setw-standings-table{border-collapse:collapse;font-size:15px;margin:4px 0}"
    ".setw-standings-table th,.setw-standings-table td{border:1px solid #c9ced6;padding:3px 9px;"
    "text-align:right}.setw-standings-table td.name{text-align:left}"
    ".setw-standings-table th{background:#eef1f4}.setw-standings-table tr.top td{font-weight:bold}</style>"
)


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


class Standings(VBox):
    """The live standings of a :class:`~setwidgets.competition.Competition`, with a score form.

    Pick "Overall" or a division above the table. Below it, enter one table's scores:
    the round, the table, and ``player: SETs`` (or ``player: SETs penalties``) for each
    player, separated by commas, then press "Enter scores". A mistake is explained under
    the form and changes nothing.
    """

    def __init__(self, competition: Competition) -> None:
        if not isinstance(competition, Competition):
            raise TypeError(f"competition must be a Competition; got {_inputs.what(competition)}")
        self.competition = competition
        self.division = ToggleButtons(options=[OVERALL, *competition.divisions()], value=OVERALL)
        self.table = HTML(layout=Layout(overflow="auto"))
        self.round = IntText(value=1, description="Round", layout=Layout(width="130px"))
        self.table_number = IntText(value=1, description="Table", layout=Layout(width="130px"))
        self.scores = Text(
            placeholder="4: 5, 9: 3 1, 13: 2", description="Scores", layout=Layout(width="320px")
        )
        self.enter = Button(description="Enter scores", button_style="primary")
        self.message = HTML()
        # After a click on a division or on Enter, the keyboard goes back to the scores: typed
        # there, digits are scores; typed on a button, they would reach JupyterLab ("1" makes a
        # cell a heading).
        self.division.observe(lambda _: (self.refresh(), self.scores.focus()), names="value")
        self.enter.on_click(lambda _: (self.submit(), self.scores.focus()))
        form = HBox([self.round, self.table_number, self.scores, self.enter])
        super().__init__([self.division, self.table, form, self.message])
        self.add_class("setw-standings")
        self.table.add_class("setw-standings-view")
        self.message.add_class("setw-standings-message")
        competition.watch(self.refresh)
        self.refresh()

    def close(self) -> None:
        """Stop following the competition's changes, and close the widget."""
        competition = getattr(self, "competition", None)
        if competition is not None:
            competition.watch(self.refresh, remove=True)
        super().close()

    def refresh(self) -> None:
        """Draw the table again from the Competition."""
        division = None if self.division.value == OVERALL else self.division.value
        self.table.value = standings_html(self.competition, division)

    def submit(self) -> bool:
        """Enter the form's scores; True when they were accepted (the form then moves to the next table)."""
        try:
            self.competition.record(
                self.round.value, self.table_number.value, parse_scores(self.scores.value)
            )
        except (CompetitionError, TypeError) as error:
            self.message.value = f"<span style='color:#b3261e'>{escape(str(error), quote=False)}</span>"
            return False
        self.message.value = (
            f"<span style='color:#1a7f37'>Round {self.round.value}, table {self.table_number.value}: "
            "scores entered.</span>"
        )
        self.scores.value = ""
        self.table_number.value += 1
        return True
