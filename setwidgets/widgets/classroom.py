"""ClassBoard and ClassRoom: a live class game, one table shared by every student's notebook.

The teacher projects a :class:`ClassRoom`; it opens a room of the classroom service and shows
its join code. Each student types the code into a :class:`ClassBoard` in their own notebook::

    from setwidgets.widgets import ClassRoom, ClassBoard

    room = ClassRoom(variant="standard")      # the teacher's projector: note the code it shows
    ClassBoard("BCDFG", name="Ada")           # a student's notebook, with the code on the board

Both are views of the room the service holds: the service sends the room's new view to every
notebook the moment it changes (no polling), and the widgets redraw from it. They hold no
rules of their own: a student's clicks and keys become the moves of a
:class:`~setwidgets.classroom.Seat` (call, claim, no SET), the teacher's buttons those of a
:class:`~setwidgets.classroom.Desk`, and each widget shows the service's answer, a refusal too.

Keys on a ClassBoard are the Board's: the card letters (top row ``q w e r t y u``, middle
``a s d f g h j``, bottom ``z x c v b n m``), space calls SET, Escape clears the selection.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ipywidgets import HTML, Button, Dropdown, HBox, Layout

from setwidgets import _inputs, _words, wording
from setwidgets.cards import Card
from setwidgets.classroom import ClassroomError, Desk, Seat
from setwidgets.classroom.client import Doorstep, network_url
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.game import MAX_NAME
from setwidgets.widgets import _keys
from setwidgets.widgets import _roomwords as words
from setwidgets.widgets._keyguard import announce
from setwidgets.widgets._keys import CALL_KEY, CLEAR_KEY
from setwidgets.widgets._roomview import (
    BIG,
    REFUSED_STYLE,
    STATE_STYLE,
    RoomView,
    door_html,
    join_html,
    keep_picked,
    name_picker,
    on_hub,
    room_code,
    service_url,
    standings_html,
    teacher_buttons,
    text_or_none,
)
from setwidgets.widgets._scheduler import Loop
from setwidgets.widgets._view import check_position, check_width

__all__ = ["SETTINGS", "ClassBoard", "ClassRoom"]

SETTINGS: tuple[str, ...] = ("variant", "deck", "claim_seconds", "scores_shown", "seed")
"""What a new room may be opened with (see :class:`~setwidgets.classroom.rooms.Room`)."""


class ClassBoard(RoomView):
    """A student's seat at the class's shared table: click three cards that form a SET.

    Parameters
    ----------
    room:
        The room's join code, the letters the teacher's projector shows, like ``"BCDFG"``.
    name:
        The name the class sees, like ``"Ada"`` (on the hub, your hub name: leave it out).
    url:
        The classroom service's address; by default the one the hub or ``course.py classroom``
        gives (see :func:`setwidgets.classroom.client.service_url`).
    team:
        A team to count your SETs for, when the teacher plays in teams.
    theme, width:
        As for the :class:`~setwidgets.widgets.Board`.

    Press SET! (or the space bar) to call, then pick three cards before your time runs out;
    when others called first, the line above the buttons says your place ("you are second to
    call"). A room the teacher locked puts you on their waiting list: the board says so and
    waits (:attr:`door` is ``"waiting"``), then shows the table once the teacher lets you in, or
    says that they did not (``"refused"``). What a program or a test can use: :meth:`select`,
    :meth:`click`, :meth:`press`, :meth:`call`, :meth:`claim`, :meth:`no_set`, :meth:`leave`;
    :attr:`seat`, :attr:`door`, :attr:`view`, :attr:`table`, :attr:`selected`, :attr:`status`,
    :attr:`place`, :attr:`your_score`, :attr:`scores`, :attr:`taken_out`, :attr:`connected`.
    """

    _css = "setw-classboard"

    def __init__(
        self,
        room: str,
        name: str | None = None,
        url: str | None = None,
        *,
        team: str = "",
        theme: str | Theme = "classic",
        width: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
    ) -> None:
        code = room_code(room)
        if name is not None:
            name = _inputs.display_name(name, "name", longest=MAX_NAME)
        team = "" if team in ("", None) else _inputs.display_name(team, "team", longest=MAX_NAME)
        url = service_url(url)
        theme, width, clock = get_theme(theme), check_width(width), _inputs.clock(clock)
        # Every input is checked before the seat is taken, and the seat before any widget is made:
        # a refused board leaves no seat and no widget behind. A locked room's door seats it later.
        door = Doorstep(code, name=name, team=team, url=url)
        self.seat: Seat | None = None
        self._selected: list[Card] = []
        self._setup_room(theme, width, clock, loop)
        self._room_widget = self._line("setw-class-room")
        self._you_widget = self._line("setw-class-you")
        self._deck_widget = self._line("setw-deck")
        self._rules_widget = self._line("setw-rules")
        self._state_widget = self._line("setw-class-state")
        self._callers_widget = self._line("setw-class-callers")
        self._place_widget = self._line("setw-class-place")
        self._status_widget = announce(self._line("setw-status"))
        self._scores_widget = self._line("setw-scores")
        buttons = {
            "call": Button(description="SET!", tooltip="Call SET (space bar), then pick three cards"),
            "no_set": Button(description="No SET here", tooltip="Say that the table holds no SET"),
        }
        buttons["call"].button_style = "primary"
        moves = {"call": lambda: self._by_loop(self.call), "no_set": lambda: self._by_loop(self.no_set)}
        self.buttons = self._wire(buttons, moves)
        super().__init__(
            children=[
                self._info(self._room_widget, self._you_widget, self._deck_widget),
                self._rules_widget,
                self._state_widget,
                self.picture_box,
                self._callers_widget,
                self._place_widget,
                self._status_widget,
                HBox(list(self.buttons.values())),
                self._scores_widget,
            ],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-classboard")
        self._listen(
            lambda x, y: self._by_loop(lambda: self.click(x, y)),
            lambda key, shift=False, ctrl=False, meta=False: self._by_loop(
                lambda: None if ctrl or meta else self.press(key)
            ),
        )
        if door.seat is None:
            self._wait_at_door(door)
        else:
            self._seated(door.seat)

    def _seated(self, seat: Seat) -> None:
        self.seat = seat
        self._connect(seat)
        self._message = words.sentence(seat.welcome)
        self._update_text()

    # -- what a student sees ---------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The name this notebook plays as (asked for, while it waits at a locked room's door)."""
        return self.seat.name if self.seat is not None else self._door.name or ""

    @property
    def door(self) -> str:
        """At a locked room's door: ``"waiting"`` for the teacher, ``"refused"`` by them, ``"stopped"``
        waiting (:meth:`leave`, or no answer for long); ``"in"`` once seated."""
        return self._door.state if self._door is not None else "in"

    @property
    def selected(self) -> list[int]:
        """Table positions of the selected cards, in the order they were picked."""
        table = self.table
        return [table.index(c) for c in self._selected if c in table]

    @property
    def place(self) -> str:
        """Your place in the line of callers, in words ('' when you have not called, or have left).

        After :meth:`leave` the room goes on without this notebook: "Your call" would contradict
        the line that says it left.
        """
        if not self.connected:
            return ""
        return words.place((self._view.get("you") or {}).get("line"))

    @property
    def your_score(self) -> str:
        """Your own score (or, when the teacher hides scores, your SETs)."""
        return words.your_score(self._view.get("you") or {}, self._view.get("scores_shown", True))

    @property
    def taken_out(self) -> bool:
        """True when the teacher took you out of the room (you then send nothing more)."""
        name = (self._view.get("you") or {}).get("name")
        return any(
            p.get("name") == name and not p.get("present", True) for p in self._view.get("players", ())
        )

    @property
    def letters(self) -> list[str | None]:
        """The keyboard letter of each card on the table, by position."""
        return _keys.LETTERS.letters(len(self.table))

    # -- moves ----------------------------------------------------------------------------------

    def call(self) -> dict[str, Any]:
        """Call "SET!": you join the line of callers. Returns the service's answer."""
        return self._play("call")

    def claim(self, cards: list[Card | str]) -> dict[str, Any]:
        """Show three cards (Card objects or codes such as ``"1RSO"``). Returns the service's answer."""
        codes = [c.code if isinstance(c, Card) else c for c in cards]
        with self._lock:
            self._selected = []
        return self._play("claim", codes)

    def no_set(self) -> dict[str, Any]:
        """Say that the table holds no SET. Returns the service's answer."""
        return self._play("no_set")

    def select(self, position: int) -> dict[str, Any] | None:
        """Select or deselect the card at a table position (0 is the top-left card).

        The third selected card sends the three to the service as your claim; returns its answer
        then, else None. After :meth:`leave` nothing is selected: the board no longer plays.
        """
        if not self.connected:
            return None
        with self._lock:
            table = self.table
            card = table[check_position(position, table, "the top-left card")]
            if card in self._selected:
                self._selected.remove(card)
            else:
                self._selected.append(card)
            if len(self._selected) < 3:
                self.redraw()
                return None
            chosen = list(self._selected)
        return self.claim(chosen)

    def press(self, key: str) -> bool:
        """A key press: a card's letter, space (call SET) or Escape. True when the key did something."""
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as 'q' or ' '; got {_inputs.what(key)}")
        name = _keys.key_name(key)
        if name == CALL_KEY:
            self.call()
            return True
        if name == CLEAR_KEY:
            with self._lock:
                self._selected = []
                self.redraw()
            return True
        return self._press_card(name, len(self.table))

    # -- inside ---------------------------------------------------------------------------------

    def _selection(self) -> list[Card]:
        return self._selected

    def _forget_gone(self) -> None:
        table = self.table
        self._selected = [c for c in self._selected if c in table]

    def _update_text(self) -> None:
        if self.seat is None:  # at a locked room's door: what it says, and no move yet
            self._room_widget.value = wording.html(words.door_room(self.code, self.name), "b")
            self._state_widget.value = door_html(self._door)
            for button in self.buttons.values():
                button.disabled = True
            return
        view = self._view
        name = (view.get("you") or {}).get("name", "")
        self._room_widget.value = wording.html(f"Room {self.code} · you play as {name}", "b")
        self._you_widget.value = wording.html(self.your_score, "b")
        self._deck_widget.value = f"Deck: {_words.count(view.get('deck_left', 0), 'card')}"
        rules = wording.html(words.rules(view), "small", wording.RULES_STYLE)
        if self._rules_widget.value != rules:
            self._rules_widget.value = rules
        out = self.taken_out
        self._state_widget.value = (
            wording.html("The teacher took you out of this room.", "span", REFUSED_STYLE)
            if out
            else self._state_html()
        )
        self._callers_widget.value = wording.html(self.callers)
        self._place_widget.value = wording.html(self.place, "b", "color:#0b5cad")
        self._status_widget.value = self._message_html()
        self._scores_widget.value = wording.html(self.scores)
        playing = view.get("status") in ("open", "paused") and self.connected and not out
        for button in self.buttons.values():
            button.disabled = not playing

    def _static_text(self) -> list[str]:
        return [
            f"Room {self._view.get('code', '')}: {words.room_status(self._view)}",
            self.your_score,
            self.scores,
            self.status,
        ]

    def __repr__(self) -> str:
        return f"<ClassBoard: room {self._view.get('code', '?')}, {len(self.table)} cards, {self.your_score}>"


class ClassRoom(RoomView):
    """The teacher's projector for a class game: the join code, the players, the table, the line
    of callers, the scores (or, in classroom mode, only the SETs found), and the buttons that run
    the room.

    Parameters
    ----------
    room:
        None to open a new room with ``settings``; or the code of a room opened before.
    url, token:
        The classroom service's address and the teacher's token; by default those that
        ``course.py classroom`` (or the hub) gives.
    theme, width:
        As for the :class:`~setwidgets.widgets.Board`; the table is drawn large, for a projector.
    settings:
        A new room's ``variant`` ("standard", "online" or "competition"), ``deck``,
        ``claim_seconds``, ``scores_shown`` (False for the classroom mode) and ``seed``.

    The buttons pause and resume the game, deal a new game, end the room, and show or hide the
    scores; a player picked in the list beside them is taken out with "Remove" (or from code:
    ``room.remove("Ben")``). Below: "Lock" (then "Unlock") keeps new players out; those who ask
    to join a locked room wait in the second list, let in with "Let in" or turned away with
    "Refuse"; "Second code" gives a code that lets one late player in; "Delete room" deletes the
    room on a second click. When the service listens on a network address (not this machine's
    own 127.0.0.1), the address students on other computers need is shown under the join code.
    What a program or a test can use: :meth:`pause`, :meth:`resume`, :meth:`new_game`,
    :meth:`end`, :meth:`show_scores`, :meth:`remove`, :meth:`lock`, :meth:`unlock`,
    :meth:`let_in`, :meth:`refuse`, :meth:`second_code`, :meth:`delete`, :meth:`leave`;
    :attr:`desk`, :attr:`code`, :attr:`view`, :attr:`players`, :attr:`waiting`, :attr:`picker`,
    :attr:`waiting_picker`, :attr:`standings`, :attr:`status`, :attr:`scores`, :attr:`connected`.
    """

    _css = "setw-classroom"
    _table_scale = 1.25

    def __init__(
        self,
        room: str | None = None,
        url: str | None = None,
        token: str | None = None,
        *,
        theme: str | Theme = "classic",
        width: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
        **settings: Any,
    ) -> None:
        code = None if room is None else room_code(room)
        url = service_url(url)
        token = text_or_none(token, "token", "the teacher's token that course.py classroom printed")
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise TypeError(
                f"ClassRoom() has no setting {_inputs.short(unknown[0])}; a new room takes "
                f"{', '.join(SETTINGS)}"
            )
        if code is not None and settings:
            raise TypeError(
                f"{', '.join(sorted(settings))}= open a new room; room={_inputs.short(room)} is open "
                "already. Use ClassRoom(room=...) or ClassRoom(variant=..., ...), not both"
            )
        theme, width, clock = get_theme(theme), check_width(width), _inputs.clock(clock)
        if code is None:
            self.desk = Desk.open(token=token, url=url, **settings)
        else:
            self.desk = Desk(code, token=token, url=url)
        self._setup_room(theme, width, clock, loop)
        self._join_widget = HTML()
        self._join_widget.add_class("setw-class-join")
        self._players_widget = self._line("setw-class-players")
        self._state_widget = self._line("setw-class-state")
        self._rules_widget = self._line("setw-rules")
        self._callers_widget = self._line("setw-class-callers")
        self._status_widget = announce(self._line("setw-status"))
        self._scores_widget = self._line("setw-scores")
        self._standings_widget = HTML()
        self._standings_widget.add_class("setw-class-standings")
        self._door_widget = self._line("setw-class-door")
        buttons = {n: Button(description=d, tooltip=t) for n, (d, t) in words.TEACHER_BUTTONS.items()}
        moves = {
            "pause": self._pause_or_resume,
            "new_game": self.new_game,
            "end": self.end,
            "scores": lambda: self.show_scores(not self._view.get("scores_shown", True)),
            "lock": lambda: self.unlock() if self._view.get("locked") else self.lock(),
            "second_code": self.second_code,
            "delete": self._delete_clicked,
            "remove": lambda: self._picked(self.picker, self.remove, "Pick a player to take out first."),
            "let_in": lambda: self._picked(self.waiting_picker, self.let_in, "Pick a name waiting first."),
            "refuse": lambda: self._picked(self.waiting_picker, self.refuse, "Pick a name waiting first."),
        }
        # Taking a player out, or answering one waiting at the door: a name picked, then a button.
        self.picker, self.waiting_picker = name_picker("Player"), name_picker("Waiting")
        self._delete_armed = False  # Delete room deletes on a second click only
        self.buttons = self._wire(buttons, {n: (lambda m=m: self._by_loop(m)) for n, m in moves.items()})
        for button in self.buttons.values():
            button.layout = Layout(width="140px", height="40px")
        super().__init__(
            children=[
                self._join_widget,
                self._players_widget,
                self._info(self._state_widget, self._scores_widget),
                # Above the table: the end of a game shows its standings without a scroll.
                self._standings_widget,
                self._rules_widget,
                self.picture_box,
                self._callers_widget,
                self._status_widget,
                HBox(
                    [
                        HBox([self.buttons[n] for n in ("pause", "new_game", "end", "scores")]),
                        HBox([self.picker, self.buttons["remove"]]),
                    ],
                    layout=Layout(justify_content="space-between", width="100%", flex_flow="row wrap"),
                ),
                self._door_widget,
                HBox(
                    [
                        HBox([self.buttons[n] for n in ("lock", "second_code", "delete")]),
                        HBox([self.waiting_picker, self.buttons["let_in"], self.buttons["refuse"]]),
                    ],
                    layout=Layout(justify_content="space-between", width="100%", flex_flow="row wrap"),
                ),
            ],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-classroom")
        self._connect(self.desk)

    # -- what the projector shows ---------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        """The names of the players in the room, in the order they joined (not those taken out)."""
        return [p["name"] for p in self._view.get("players", ()) if p.get("present", True)]

    @property
    def standings(self) -> list[tuple[int, str, int, int, int]]:
        """``(place, name, score, SETs, penalties)``, best first (empty while scores are hidden)."""
        return words.standings(self._view)

    # -- the teacher's moves --------------------------------------------------------------------

    def pause(self) -> dict[str, Any]:
        """Stop the play (a caller holding the call may still show their cards)."""
        return self._answer(self.desk.pause())

    def resume(self) -> dict[str, Any]:
        """Let the play go on."""
        return self._answer(self.desk.resume())

    def new_game(self) -> dict[str, Any]:
        """Deal a new game to everyone in the room."""
        return self._answer(self.desk.new_game())

    def end(self) -> dict[str, Any]:
        """End the room: nothing more is played in it."""
        return self._answer(self.desk.end())

    def show_scores(self, shown: bool = True) -> dict[str, Any]:
        """Show the scoreboard (True), or only "a SET was found" and the teams' SETs (False)."""
        shown = _inputs.true_or_false(shown, "shown")
        return self._answer(self.desk.scores(shown))

    def remove(self, name: str) -> dict[str, Any]:
        """Take ``name`` out of the room."""
        return self._answer(self.desk.remove(name))

    def lock(self) -> dict[str, Any]:
        """Let nobody new join by the room's code: late players wait for :meth:`let_in`."""
        return self._answer(self.desk.lock())

    def unlock(self) -> dict[str, Any]:
        """Let new players join by the room's code again."""
        return self._answer(self.desk.unlock())

    @property
    def waiting(self) -> list[str]:
        """The names waiting at the locked room's door, in the order they came."""
        return list(self._view.get("you", {}).get("waiting", []))

    def let_in(self, name: str) -> dict[str, Any]:
        """Let ``name``, waiting at the door, join the room."""
        return self._answer(self.desk.let_in(name))

    def refuse(self, name: str) -> dict[str, Any]:
        """Tell ``name``, waiting at the door, that they do not join."""
        return self._answer(self.desk.refuse(name))

    def second_code(self) -> dict[str, Any]:
        """A code for one late player to join the locked room with (shown in the message line)."""
        return self._answer(self.desk.second_code())

    def delete(self) -> dict[str, Any]:
        """Delete the room: every notebook in it is told, and this widget stops following it."""
        try:
            answer = self.desk.delete()
        except ClassroomError as refused:
            return self._answer({"ok": False, "message": str(refused)})
        self.leave()
        return self._answer(answer)

    def _delete_clicked(self) -> dict[str, Any] | None:
        """The Delete room button: the first click asks for a second, which deletes."""
        if self._delete_armed:
            return self.delete()
        with self._lock:
            self._delete_armed = True
            self._message, self._refused = words.delete_again(self._connection.code), True
            self._update_text()
        return None

    def _picked(self, picker: Dropdown, move: Callable[[str], dict[str, Any]], first: str) -> Any:
        """A button acting on the name picked (nothing is sent while none is)."""
        if not picker.value:
            with self._lock:
                self._message, self._refused = first, True
                self._update_text()
            return None
        return move(picker.value)

    def _answer(self, reply: Any) -> dict[str, Any]:
        self._delete_armed = False  # any other move disarms Delete room
        return super()._answer(reply)

    def _pause_or_resume(self) -> dict[str, Any]:
        return self.resume() if self._view.get("status") == "paused" else self.pause()

    # -- inside ---------------------------------------------------------------------------------

    def _update_text(self) -> None:
        view, code = self._view, self._connection.code
        ended = view.get("status") == "ended"
        url = network_url(self._connection.url) or self._connection.url
        address = "" if ended else words.address(url, on_hub=on_hub())
        self._join_widget.value = join_html(code, ended, address)
        self._players_widget.value = wording.html(words.players(view), "span", "font-size:1.2em")
        self._state_widget.value = self._state_html()
        rules = wording.html(words.rules(view), "small", wording.RULES_STYLE)
        if self._rules_widget.value != rules:
            self._rules_widget.value = rules
        self._callers_widget.value = wording.html(self.callers, "span", BIG)
        style = f"{BIG};{REFUSED_STYLE}" if self._refused else BIG
        self._status_widget.value = wording.html(self._message, "span", style)
        self._scores_widget.value = wording.html(self.scores, "b", BIG)
        self._standings_widget.value = standings_html(view)
        status, locked = view.get("status"), bool(view.get("locked"))
        teacher_buttons(self.buttons, view, self._delete_armed)
        self._door_widget.value = wording.html(words.waiting(self.waiting, locked), "span", BIG)
        self._update_picker(status)
        if not self.connected:
            for button in self.buttons.values():
                button.disabled = True
            self.picker.disabled = self.waiting_picker.disabled = True

    def _update_picker(self, status: Any) -> None:
        """The players one may take out: those in the room now; the name picked stays while it is."""
        names = tuple(self.players)
        keep_picked(self.picker, names)
        self.picker.disabled = self.buttons["remove"].disabled = status == "ended" or not names
        waiting = tuple(self.waiting)
        keep_picked(self.waiting_picker, waiting)
        self.waiting_picker.disabled = status == "ended" or not waiting
        for name in ("let_in", "refuse"):
            self.buttons[name].disabled = self.waiting_picker.disabled

    def _state_html(self) -> str:
        # The standings under it name the winners: the state line says only how the room stands.
        # Large, as the projector's other lines: the class sees from afar that the game is paused.
        said = words.room_status(self._view)
        return wording.html(
            said, "span", ";".join(filter(None, [BIG, STATE_STYLE.get(self._view.get("status", ""))]))
        )

    def _static_text(self) -> list[str]:
        return [
            f"Room {self._view.get('code', '')}: {words.room_status(self._view)}",
            words.players(self._view),
            self.scores,
            self.status,
        ]

    def __repr__(self) -> str:
        return f"<ClassRoom: room {self._view.get('code', '?')}, {words.players(self._view)}>"
