"""What the class game's two widgets share: a connection to a room, and its table redrawn from each view.

The classroom service pushes a room's new view to every connection the moment it changes, from
the connection's own thread; :class:`RoomView` hands each one to the widget's event loop (as the
Board's clock does, through :meth:`~setwidgets.widgets._scheduler.Scheduler.on_loop`), keeps the
newest, and redraws the shared table from it with the Board's card view. The
:class:`~setwidgets.widgets.ClassBoard` (a student) and the :class:`~setwidgets.widgets.ClassRoom`
(the teacher's projector) add their lines of text and their moves.
"""

from __future__ import annotations

import os
import threading
import urllib.parse
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from ipywidgets import Button, Dropdown, Layout

from setwidgets import _inputs, wording
from setwidgets.cards import Card, as_cards
from setwidgets.classroom import Desk, Seat
from setwidgets.classroom.client import Doorstep
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme
from setwidgets.widgets import _roomwords as words
from setwidgets.widgets._scheduler import Loop, Scheduler
from setwidgets.widgets._tables import TableView
from setwidgets.widgets.board import FLASH_SECONDS

__all__ = [
    "BIG",
    "LEFT",
    "REFUSED_STYLE",
    "STATE_STYLE",
    "RoomView",
    "room_code",
    "join_html",
    "keep_picked",
    "name_picker",
    "on_hub",
    "service_url",
    "standings_html",
    "teacher_buttons",
    "text_or_none",
]

TABLE_SIZE = {"full": 12, "mini": 9}
"""The room the table keeps for its cards, by deck, so that the picture does not jump."""
REFUSED_STYLE = "color:#b42318;font-weight:bold"
STATE_STYLE = {"paused": "color:#9a6700;font-weight:bold", "over": "color:#1a7f37;font-weight:bold"}
STATE_STYLE["ended"] = STATE_STYLE["over"]
LEFT = "This notebook left the room: the table shows the room as it was then."
BIG = "font-size:1.35em;line-height:1.4"
"""The projector's lines of text: read from the back of the room."""


def standings_html(view: Mapping[str, Any]) -> str:
    """The projector's final standings, once the game is over (or the room ended); '' before."""
    if view.get("status") not in ("over", "ended") or not view.get("game"):
        return ""
    rows = words.standings(view)
    if not rows:
        then = (
            "The scores stayed hidden." if view.get("status") == "ended" else "Show scores for the standings."
        )
        return wording.html(f"{words.scoreboard(view)}. {then}", "div", BIG)
    cell = "padding:2px 14px;text-align:left"
    head = "".join(f'<th style="{cell}">{h}</th>' for h in ("Place", "Player", "Score", "SETs", "Penalties"))
    # A player the teacher took out keeps the points scored before, and is marked so.
    out = {p.get("name") for p in view.get("players", ()) if not p.get("present", True)}
    body = "".join(
        "<tr>"
        + "".join(
            f'<td style="{cell}">{escape(str(v))}{" (taken out)" if i == 1 and v in out else ""}</td>'
            for i, v in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    winner = escape(words.winners(rows))
    return (
        f'<div style="{BIG}"><b>Final standings.</b> {winner}'
        f'<table style="border-collapse:collapse;margin-top:4px"><tr>{head}</tr>{body}</table></div>'
    )


def join_html(code: str, ended: bool, address: str) -> str:
    """The projector's join code, large, with how to join (and the service's address when one is needed)."""
    return (
        '<div style="display:flex;align-items:baseline;gap:24px;flex-wrap:wrap">'
        f'<span style="font-size:1.6em">{"Room" if ended else "Join room"}</span>'
        f'<span style="font:bold 4em monospace;letter-spacing:0.12em">{escape(code)}</span>'
        + (
            '<span style="font-size:1.2em">(ended: nobody joins it any more)</span>'
            if ended
            else f'<code style="font-size:1.1em">ClassBoard("{escape(code)}", name="your name")</code>'
        )
        + "</div>"
        + (
            '<div class="setw-class-address" style="font-size:1.35em">On another computer, add '
            f'<code style="font-size:1.1em;font-weight:bold">url="{escape(address)}"</code></div>'
            if address
            else ""
        )
    )


def name_picker(label: str) -> Dropdown:
    """A list of names to pick one from, for the buttons beside it (a player, or one waiting)."""
    picker = Dropdown(
        options=[],
        value=None,
        description=label,
        layout=Layout(width="240px", height="40px", margin="0 8px 0 0"),
    )
    picker.add_class("setw-class-picker" if label == "Player" else f"setw-class-{label.lower()}-picker")
    picker.style.description_width = "60px"
    return picker


def keep_picked(picker: Dropdown, names: tuple[str, ...]) -> None:
    """The picker lists ``names``; the name picked stays picked while it is among them."""
    if tuple(picker.options) != names:
        picked = picker.value
        picker.options = names
        picker.value = picked if picked in names else None


def teacher_buttons(buttons: Mapping[str, Button], view: Mapping[str, Any], delete_armed: bool) -> None:
    """What the projector's buttons say, and which may be clicked, for the room as ``view`` shows it
    (the Remove, Let in and Refuse buttons go with their pickers: ``ClassRoom._update_picker``)."""
    status, locked = view.get("status"), bool(view.get("locked"))
    buttons["pause"].description = "Resume" if status == "paused" else "Pause"
    buttons["pause"].button_style = "warning" if status == "paused" else ""
    buttons["pause"].disabled = status not in ("open", "paused")
    for name in ("new_game", "end", "scores", "lock", "second_code"):
        buttons[name].disabled = status == "ended"
    buttons["scores"].description = "Hide scores" if view.get("scores_shown", True) else "Show scores"
    buttons["lock"].description = "Unlock" if locked else "Lock"
    buttons["lock"].button_style = "warning" if locked else ""
    buttons["delete"].button_style = "danger" if delete_armed else ""


def on_hub() -> bool:
    """True in a notebook on the hub, where every student's server is given the service's address."""
    return "SETWIDGETS_CLASSROOM_URL" in os.environ and "JUPYTERHUB_API_TOKEN" in os.environ


def door_html(door: Doorstep) -> str:
    """A student's board at a locked room's door: waiting (calm), or the teacher's no (in red)."""
    style = REFUSED_STYLE if door.state == "refused" else STATE_STYLE["paused"]
    return wording.html(words.door(door.state, door.message, door.lost), "span", style)


def room_code(room: Any) -> str:
    """The join code: the letters on the board, like 'BCDFG' (either case)."""
    if not isinstance(room, str):
        raise TypeError(f"room is the join code on the board, letters like 'BCDFG'; got {_inputs.what(room)}")
    code = room.strip()
    if not code.isascii() or not code.isalpha() or len(code) > 16:
        raise ValueError(
            f"room is the join code on the board, letters like 'BCDFG'; got {_inputs.short(room)}"
        )
    return code.upper()


def service_url(url: Any) -> str | None:
    """The service's address, or None to find it as :mod:`setwidgets.classroom.client` says."""
    if url is None:
        return None
    example = "url='http://127.0.0.1:8765/'"
    if not isinstance(url, str):
        raise TypeError(f"url is the classroom service's address, like {example}; got {_inputs.what(url)}")
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise ValueError(f"url must start with http:// or https://, like {example}; got {_inputs.short(url)}")
    return url


def text_or_none(value: Any, name: str, example: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be text like {example}, or None; got {_inputs.what(value)}")
    return value


class RoomView(TableView):
    """What both widgets share: a connection to a room, and a table redrawn on each of its views."""

    _connection: Seat | Desk
    _door: Doorstep | None = None  # a student's board at a locked room's door, until it is seated
    _left = False  # leave() was called

    def _setup_room(
        self, theme: Theme, width: int | None, clock: Callable[[], float], loop: Loop | None
    ) -> None:
        self.theme = theme
        self._clock = clock
        self._scheduler = Scheduler(lambda: None, self._tick, self._ticking, clock=clock, loop=loop)
        self._waiting = False  # the room's clock is the service's: nothing here waits for a first click
        self._lock = threading.RLock()
        self._view: dict[str, Any] = {}
        self._received = self._clock()
        self._event_version = -1
        self._message, self._refused = "", False
        self._marks: dict[Card, str] = {}
        self._setup_canvas(self._css, width)

    def _connect(self, connection: Seat | Desk) -> None:
        """Listen to the room (last, once the widget is built), and show its view as it is now."""
        self._connection = connection
        connection.on_view(self._pushed)
        self._listening = True
        self._show(connection.view)

    def _wait_at_door(self, door: Doorstep) -> None:
        """Not seated yet (the room is locked): no table, the door's words, until the teacher answers.

        The door asks again in a thread of its own; each change of its answer comes to the
        widget's event loop, as a pushed view does.
        """
        self._door = door
        self.picture_box.layout.display = "none"
        self._update_text()
        door.wait(lambda _door: self._by_loop(self._door_answered))

    def _door_answered(self) -> None:
        with self._lock:
            if self._left or self._door is None:
                return
            if self._door.state == "in":
                self.picture_box.layout.display = None
                self._seated(self._door.seat)
            else:
                self._update_text()

    def _seated(self, seat: Seat) -> None:  # pragma: no cover - a student's board defines it
        raise NotImplementedError

    def _by_loop(self, move: Callable[[], Any]) -> None:
        """Make ``move`` on the widget's own event loop (see ``Scheduler.on_loop``): a click that
        JupyterLab sends through a subshell's thread, or a view pushed by the connection's thread,
        changes the widget where everything else does."""
        self._scheduler.on_loop(move)

    # -- what anyone may look at ----------------------------------------------------------------

    @property
    def view(self) -> dict[str, Any]:
        """The room's view as last shown (the service's own data, see :meth:`Room.view`)."""
        return dict(self._view)

    @property
    def code(self) -> str:
        """The room's join code."""
        connection = getattr(self, "_connection", None)
        return connection.code if connection is not None else self._door.code

    @property
    def table(self) -> list[Card]:
        """The cards on the shared table, by position (0 is the top-left card)."""
        return as_cards(self._view.get("table", []))

    @property
    def status(self) -> str:
        """The message line: the room's last event, or the answer to this notebook's last move."""
        return self._message

    @property
    def scores(self) -> str:
        """Everyone's scores, or the SETs found and each team's when the teacher hides the scores."""
        return words.scoreboard(self._view)

    @property
    def callers(self) -> str:
        """Who is picking and who waits to call, in words."""
        return words.callers(self._view, self._time_left())

    @property
    def card_rects(self) -> list[tuple[float, float, float, float]]:
        """Where each card on the table is drawn: ``(x, y, w, h)`` in canvas pixels, by position."""
        return super().card_rects[: len(self._view.get("table", []))]

    # -- the room's views -----------------------------------------------------------------------

    def _pushed(self, view: dict[str, Any]) -> None:
        # The connection's thread: the widget changes on its own event loop only.
        self._by_loop(lambda: self._show(view))

    def _show(self, view: dict[str, Any]) -> None:
        with self._lock:
            if not view or view.get("version", 0) < self._view.get("version", -1):
                return  # an older view, overtaken by one shown already
            before_table, shown = self.table, self._view.get("version", -1)
            self._view, self._received = view, self._clock()
            last = view.get("last") or {}
            flash = None
            if last.get("version", 0) > shown and self._flash_wanted(before_table, last):
                # A SET taken since the view shown last (by anyone, this notebook too): framed on the
                # old table for a moment, then the new cards.
                flash = self._scene(before_table, dict.fromkeys(as_cards(last["cards"]), "found"), ())
            if last and last.get("version", 0) > self._event_version:
                self._event_version = last.get("version", 0)
                self._message, self._refused = words.sentence(last.get("message")), False
            self._forget_gone()
            self._refresh(flash)

    def _flash_wanted(self, before: list[Card], last: Mapping[str, Any]) -> bool:
        cards = last.get("cards") or []
        if last.get("type") != "claim" or not last.get("ok") or len(cards) != 3:
            return False
        return all(c in before for c in as_cards(cards))

    def _forget_gone(self) -> None:
        """What the widget marked on cards that left the table is forgotten."""

    def _play(self, move: str, *args: Any) -> dict[str, Any]:
        """Send a move of the connection (``"call"``, say) and show the answer; none before a seat."""
        door = self._door
        if getattr(self, "_connection", None) is None and door is not None:
            return {"ok": False, "message": words.door(door.state, door.message, door.lost)}
        return self._answer(getattr(self._connection, move)(*args))

    def _answer(self, reply: Mapping[str, Any]) -> dict[str, Any]:
        """Show the service's answer to a move of this notebook; return it."""
        with self._lock:
            self._message = words.sentence(reply.get("message"))
            self._refused = not reply.get("ok")
            # The room's view of this very move came before the answer: it must not cover it.
            last = (self._connection.view or {}).get("last") or {}
            self._event_version = max(self._event_version, last.get("version", -1))
            self._refresh(None)
        return dict(reply)

    def _refresh(self, flash: shapes.Scene | None) -> None:
        self._update_text()
        self.redraw(before=flash, pause=FLASH_SECONDS if flash is not None else 0.0)
        self._scheduler.keep_ticking()

    def _message_html(self) -> str:
        return wording.html(self._message, "span", REFUSED_STYLE if self._refused else "")

    def _state_html(self) -> str:
        status = self._view.get("status", "")
        said = words.room_status(self._view)
        if status in ("over", "ended") and self._view.get("game"):
            said = " ".join(filter(None, [said, words.winners(words.standings(self._view))]))
        return wording.html(said, "span", STATE_STYLE.get(status, ""))

    # -- the countdown of the caller who picks --------------------------------------------------

    def _time_left(self) -> float | None:
        left = self._view.get("time_left")
        if not self.connected:
            return None  # the room goes on without this widget: its clock is no longer known here
        if left is None or self._view.get("status") != "open":
            return left
        return max(0.0, left - (self._clock() - self._received))

    def _tick(self) -> bool:
        with self._lock:
            self._update_text()
        return bool(self._view.get("callers"))

    def _ticking(self) -> bool:
        return self.comm is not None and self.connected and bool(self._view.get("callers"))

    # -- drawing --------------------------------------------------------------------------------

    def _slots(self) -> int:
        return max(len(self._view.get("table", [])), TABLE_SIZE.get(self._view.get("deck"), 12))

    def _shown(self) -> tuple[list[Card], dict[Card, str], list[Card]]:
        return self.table, self._marks, self._selection()

    def _selection(self) -> list[Card]:
        return []

    def _client_ready(self) -> None:
        super()._client_ready()
        self._scheduler.start()
        self._scheduler.keep_ticking()

    @property
    def connected(self) -> bool:
        """True while the widget follows the room (until :meth:`leave` or :meth:`close`)."""
        return getattr(self, "_listening", False)

    def leave(self) -> None:
        """Stop following the room: the connection closes, the widget stays as the room was last.

        A student's seat stays theirs: ``ClassBoard`` with the same code and name takes it again.
        """
        self._left = True
        door = self._door
        if door is not None and door.state != "in":
            door.stop()  # waiting at a locked room's door: it asks no more
            with self._lock:
                self._update_text()
        elif door is not None and getattr(self, "_connection", None) is None:
            door.seat.close()  # let in just as the board left: nobody plays the seat
        connection = getattr(self, "_connection", None)
        if connection is not None and self.connected:
            self._listening = False
            connection.on_view(self._pushed, remove=True)
            connection.close()
            self._scheduler.stop()
            with self._lock:
                self._message, self._refused = LEFT, False
                self._update_text()

    def close(self) -> None:
        """Leave the room (see :meth:`leave`) and close the widget."""
        self.leave()
        super().close()

    def _update_text(self) -> None:  # pragma: no cover - each widget defines it
        raise NotImplementedError
