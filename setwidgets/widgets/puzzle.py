"""PuzzleBoard: find every SET on one table of twelve cards, against the clock.

As in the puzzle mode of online SET sites, nothing is dealt and nothing is
replaced: the table stays as it is until all of its SETs are found. The board
shows how many SETs there are, which ones have been found (as small pictures
under the table), the misses and the time. Each board goes into a
:class:`~setwidgets.puzzles.PracticeRecord` (the session's, unless
given one), which shows the boards solved, the median time and the misses as
a table or a plot::

    from setwidgets.widgets import PuzzleBoard

    board = PuzzleBoard(seed=3)
    board                          # click three cards, or press their letters
    board.select(0); board.select(4); board.select(8)   # the same as three clicks
    board.status                   # 'A SET! 2 SETs still to find.' or why not
    board.record                   # the practice record, as a table
    board.record.plot()            # ... or as a plot

The rules live in :class:`~setwidgets.puzzles.Puzzle`, which knows
nothing of widgets; the board turns clicks into ``puzzle.claim(...)`` and
redraws from the puzzle.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from html import escape

from ipywidgets import Button, HBox, Layout

from setwidgets import _words, wording
from setwidgets._inputs import what
from setwidgets.cards import Card
from setwidgets.draw.svg import cards_svg
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.puzzles import Answer, PracticeRecord, Puzzle, session_record
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._keys import CLEAR_KEY, LETTERS, key_name
from setwidgets.widgets._scheduler import Loop, Scheduler
from setwidgets.widgets._tables import TableView
from setwidgets.widgets._view import check_position, check_width

__all__ = ["PracticeRecord", "Puzzle", "PuzzleBoard", "session_record"]


class PuzzleBoard(TableView):
    """Find all the SETs on a table of twelve cards; the board keeps the time and the misses.

    Parameters
    ----------
    puzzle:
        A :class:`Puzzle` to show; default: a new one dealt with ``seed`` and ``sets``.
    seed:
        A whole number for the first deal (the same seed, the same table); the
        "New board" button deals from seeds that follow from it.
    sets:
        Deal tables with exactly this many SETs (online puzzles use 6); default: any.
    record:
        The :class:`PracticeRecord` that collects the boards; default: the session's
        (:func:`session_record`), shared by every puzzle board of the notebook.
    theme:
        "classic", "colorblind", "printable" or a Theme.
    width:
        The largest width of the table in pixels.
    clock:
        Time in seconds (tests pass a fake one).
    loop:
        The event loop that runs the clock (default: the kernel's).

    Click three cards, or press their letters (top row ``q w e r``, middle
    ``a s d f``, bottom ``z x c v``); Escape clears the selection. What a
    program or a test can use: :meth:`select`, :meth:`click`, :meth:`press`,
    :meth:`clear`, :meth:`new_board`, :meth:`tick`; :attr:`puzzle`,
    :attr:`record`, :attr:`status`, :attr:`progress`, :attr:`timer`,
    :attr:`found`, :attr:`selected`, :attr:`letters`.
    """

    def __init__(
        self,
        puzzle: Puzzle | None = None,
        *,
        seed: int | None = None,
        sets: int | None = None,
        record: PracticeRecord | None = None,
        theme: str | Theme = "classic",
        width: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
    ) -> None:
        if puzzle is not None and not isinstance(puzzle, Puzzle):
            raise TypeError(
                f"PuzzleBoard() shows a Puzzle, as in PuzzleBoard(Puzzle(seed=1)); got {what(puzzle)}"
            )
        if puzzle is not None and (seed is not None or sets is not None):
            raise TypeError("give either a puzzle, or seed= and sets= for the board to deal one, not both")
        if record is not None and not isinstance(record, PracticeRecord):
            raise TypeError(f"record must be a PracticeRecord, or None for the session's; got {what(record)}")
        self.theme = get_theme(theme)
        width = check_width(width)
        self._clock = clock
        self.sets = sets
        if puzzle is None:
            puzzle = Puzzle(seed=seed, sets=sets, clock=clock)
        self.record = record if record is not None else session_record()
        self._seeds = random.Random(puzzle.seed if puzzle.seed is not None else 0)
        self._scheduler = Scheduler(
            lambda: None, self._timed_tick, self._clock_wanted, clock=clock, loop=loop
        )
        self._setup_canvas("setw-puzzle", width)
        self._progress_widget = self._line("setw-puzzle-progress")
        self._timer_widget = self._line("setw-puzzle-timer")
        self._status_widget = announce(self._line("setw-puzzle-status"))
        self._found_widget = self._line("setw-puzzle-found")
        self.buttons = {
            "new_board": Button(description="New board", tooltip="Deal a new puzzle"),
            "clear": Button(description="Clear", tooltip="Unselect the cards (Escape)"),
        }
        self._wire(self.buttons, {"new_board": self.new_board, "clear": self.clear})
        super().__init__(
            children=[
                self._info(self._progress_widget, self._timer_widget),
                self.picture_box,
                self._status_widget,
                HBox(list(self.buttons.values())),
                self._found_widget,
            ],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-puzzle")
        self._listen(lambda x, y: self.click(x, y), lambda key, *_: self.press(key))
        self._start(puzzle)

    def _start(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self._selected: list[Card] = []
        self._last: Answer | None = None
        self._recorded = False
        self._waiting = True  # the clock starts with the student's first click or key
        self._status_text = f"{welcome(puzzle)} {wording.waiting()}"
        self._scheduler.touch()
        self._refresh()

    # -- what anyone may look at -------------------------------------------------------------------

    @property
    def status(self) -> str:
        """The status line: what the last claim found, or what to do."""
        return self._status_text

    @property
    def progress(self) -> str:
        """``'SETs found: 2 of 5 · 1 miss'``."""
        return self.puzzle.progress()

    @property
    def timer(self) -> str:
        """``'Time 00:42'``: the time on this board (it stops when the board is solved)."""
        return f"Time {wording.clock_text(0.0 if self._waiting else self.puzzle.elapsed())}"

    def _on_begin(self) -> None:
        """The student is here: the puzzle's clock starts."""
        self.puzzle.start()

    @property
    def found(self) -> list[str]:
        """The SETs found so far, in the order found, each as three codes: ``'1RSO 2GTS 3PED'``."""
        return _codes(self.puzzle)

    @property
    def selected(self) -> list[int]:
        """Positions of the selected cards, in the order they were picked."""
        return [self.puzzle.cards.index(c) for c in self._selected]

    @property
    def letters(self) -> list[str | None]:
        """The keyboard letter of each card, by position (positions run down the columns)."""
        return LETTERS.letters(len(self.puzzle.cards))

    # -- input ---------------------------------------------------------------------------------------

    def press(self, key: str) -> bool:
        """A key press: a card's letter selects it, Escape clears. True when it did something."""
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'q'; got {what(key)}")
        self._begin()
        name = key_name(key)
        if name == CLEAR_KEY:
            self.clear()
            return True
        return self._press_card(name, len(self.puzzle.cards))

    def select(self, position: int) -> Answer | None:
        """Select or deselect the card at ``position`` (0 is the top-left card; positions run down).

        The third card sends the three to the puzzle as a claim; returns its Answer then.
        """
        card = self.puzzle.cards[check_position(position, self.puzzle.cards, "the top-left card")]
        self._begin()
        self._scheduler.touch()
        if self.puzzle.solved:
            self._status_text = solved_text(self.puzzle)
            self._refresh()
            return None
        self._last = None
        if card in self._selected:
            self._selected.remove(card)
        else:
            self._selected.append(card)
        answer = None
        if len(self._selected) == 3:
            chosen, self._selected = self._selected, []
            answer = self.puzzle.claim(chosen)
            self._last = answer
            self._status_text = answer.message
            if self.puzzle.solved:
                self._add_to_record()
                self._status_text += f" Practice so far: {self.record.summary()} Press New board for another."
        self._refresh()
        return answer

    def clear(self) -> None:
        """Unselect every card."""
        self._selected = []
        self._last = None
        self._refresh()

    def new_board(self, seed: int | None = None) -> Puzzle:
        """Deal a new puzzle (the next seed of the series, unless given); the old one goes into the record.

        A board that was not touched at all is not recorded.
        """
        old = self.puzzle
        if not self._recorded and (old.found or old.misses):
            self._add_to_record()
        if seed is None:
            seed = self._seeds.randrange(2**32)
        self._start(Puzzle(seed=seed, sets=self.sets, clock=self._clock))
        return self.puzzle

    def _add_to_record(self) -> None:
        self._recorded = True
        self.record.add(self.puzzle)

    # -- the clock --------------------------------------------------------------------------------

    def tick(self) -> None:
        """Update the time shown (the board does this twice a second while a browser shows it)."""
        timer = wording.html(self.timer)
        if self._timer_widget.value != timer:
            self._timer_widget.value = timer

    def _timed_tick(self) -> bool:
        self.tick()
        return False

    def _clock_wanted(self) -> bool:
        return not self.puzzle.solved and self.comm is not None

    def _client_ready(self) -> None:
        super()._client_ready()
        self._scheduler.start()
        self._scheduler.keep_ticking()

    # -- drawing ---------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        self._progress_widget.value = wording.html(self.progress, "b")
        self._status_widget.value = wording.html(self._status_text)
        self._found_widget.value = found_html(self.puzzle, self.theme)
        self.tick()
        self.redraw()
        self._scheduler.keep_ticking()

    def _shown(self) -> tuple[list[Card], dict[Card, str], list[Card]]:
        marks: dict[Card, str] = {}
        if self._last is not None:
            kind = {"found": "found", "again": "hint", "miss": "odd"}[self._last.kind]
            if kind == "odd":
                marks = {self._last.verdict.cards[f.odd_index]: "odd" for f in self._last.verdict.broken}
            else:
                marks = dict.fromkeys(self._last.cards, kind)
        return list(self.puzzle.cards), marks, self._selected

    def _slots(self) -> int:
        return len(self.puzzle.cards)

    def _static_text(self) -> list[str]:
        return [self.progress, self.status, *(f"found: {codes}" for codes in self.found)]

    def __repr__(self) -> str:
        return f"<PuzzleBoard: {self.progress}>"


def welcome(puzzle: Puzzle) -> str:
    """The first words on a new puzzle: how many SETs to find."""
    sets = len(puzzle.solutions)
    task = f"all {sets} SETs" if sets > 1 else "the one SET"
    return f"Find {task} among these {len(puzzle.cards)} cards: click three cards, or press their letters."


def solved_text(puzzle: Puzzle) -> str:
    """What a click on a solved board says."""
    seconds = _words.seconds(_words.whole_seconds(puzzle.elapsed()))
    return f"Solved in {seconds}. Press New board for another puzzle."


def found_html(puzzle: Puzzle, theme: Theme) -> str:
    """The SETs found so far, as small pictures with their codes (the "found" list)."""
    if not puzzle.found:
        return "<div><b>Found:</b> none yet</div>"
    items = "".join(
        f'<li class="setw-found-set" title="{escape(", ".join(c.name for c in triple))}">'
        f"{cards_svg(triple, theme=theme, width=150)} <code>{escape(codes)}</code></li>"
        for triple, codes in zip(puzzle.found, _codes(puzzle))
    )
    return (
        f"<div><b>Found:</b></div>"
        f'<ol style="display:flex;flex-wrap:wrap;gap:12px;list-style-position:inside;padding:0">{items}</ol>'
    )


def _codes(puzzle: Puzzle) -> list[str]:
    return [" ".join(c.code for c in triple) for triple in puzzle.found]
