"""What the class game's widgets say: sentences made from a room's view, as pure functions.

The room service sends every player and the projector the same view of the room (plain data,
see :meth:`setwidgets.classroom.rooms.Room.view`), plus what only that player is told (``"you"``).
Each function here turns part of it into words; none keeps state or touches a widget, so each is
tested without ipywidgets or a service.

>>> view = {"status": "open", "callers": ["Ana", "Ben"], "time_left": 3.2, "scores_shown": True,
...         "players": [{"name": "Ana", "team": "", "present": True, "score": 2, "sets": 2, "penalties": 0},
...                     {"name": "Ben", "team": "", "present": True, "score": 1, "sets": 1, "penalties": 0}],
...         "teams": {}, "sets_found": 3}
>>> callers(view, 3.2)
'Ana is picking (4 s left); then Ben.'
>>> place(2)
'You are second to call: you pick after the one before you.'
>>> scoreboard(view)
'Ana 2 · Ben 1'
"""

from __future__ import annotations

import ipaddress
import math
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from setwidgets import _words
from setwidgets.wording import variant_rule

__all__ = [
    "TEACHER_BUTTONS",
    "WAITING_AT_DOOR",
    "address",
    "delete_again",
    "callers",
    "door",
    "door_room",
    "place",
    "players",
    "room_status",
    "rules",
    "scoreboard",
    "sentence",
    "standings",
    "waiting",
    "winners",
    "your_score",
]

TEACHER_BUTTONS: dict[str, tuple[str, str]] = {
    "pause": ("Pause", "Stop the play, or let it go on"),
    "new_game": ("New game", "Deal a new game to everyone in the room"),
    "end": ("End", "End the room: nothing more is played in it"),
    "scores": ("Hide scores", "Show the scoreboard, or only the SETs found"),
    "lock": ("Lock", "Let nobody new join by the room's code (late players then wait for you)"),
    "second_code": ("Second code", "A code that lets one late player into the locked room"),
    "delete": ("Delete room", "Delete the room and everything in it (click twice)"),
    "remove": ("Remove", "Take the player picked out of the room"),
    "let_in": ("Let in", "Let the player picked in the waiting list join the room"),
    "refuse": ("Refuse", "Tell the player picked in the waiting list that they do not join"),
}
"""The projector's buttons: what each says, and its tooltip (the Lock button says Unlock when locked;
Pause says Resume when paused; Hide scores says Show scores when hidden)."""


def sentence(text: Any) -> str:
    """A message of the service as a sentence: a capital first, a full stop last.

    >>> sentence("the teacher paused the game; wait until it goes on")
    'The teacher paused the game; wait until it goes on.'
    """
    text = str(text or "").strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def place(line: int | None) -> str:
    """A player's place in the line of callers, said to them ('' when they have not called).

    >>> place(1)
    'Your call: pick three cards!'
    >>> place(None)
    ''
    """
    if not line:
        return ""
    if line == 1:
        return "Your call: pick three cards!"
    return f"You are {_words.ordinal(line)} to call: you pick after the one before you."


def callers(view: Mapping[str, Any], left: float | None) -> str:
    """Who is picking, with the seconds left (``left``), and who waits in line.

    >>> callers({"callers": []}, None)
    'Nobody has called SET.'
    >>> callers({"callers": ["Cleo"]}, None)
    'Cleo is picking.'
    """
    names = list(view.get("callers") or [])
    if not names:
        return "Nobody has called SET."
    first = f"{names[0]} is picking"
    if left is not None:
        first += f" ({max(0, math.ceil(left))} s left)"
    if len(names) == 1:
        return first + "."
    return f"{first}; then {_words.and_list(names[1:])}."


def address(url: str, on_hub: bool = False) -> str:
    """The service's address, as students on other computers need it; '' when they need none.

    A service on this machine alone (a loopback address such as 127.0.0.1 or localhost) is found
    by the notebooks of this machine through the classroom folder, and on the hub every student's
    server is given the address: neither needs it on the projector.

    >>> address("http://192.168.1.20:8765/"), address("http://127.0.0.1:8765/")
    ('http://192.168.1.20:8765/', '')
    >>> address("http://localhost:8765/"), address("https://class.example.org/", on_hub=True)
    ('', '')
    """
    if on_hub:
        return ""
    host = (urllib.parse.urlsplit(url).hostname or "").rstrip(".").casefold()
    if not host or host == "localhost" or host.endswith(".localhost"):
        return ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return url  # a name of the machine on the network, like teacher-pc.local
    return "" if ip.is_loopback or ip.is_unspecified else url


def room_status(view: Mapping[str, Any]) -> str:
    """The room's state in words: waiting, playing, paused, over or ended.

    >>> room_status({"status": "paused", "code": "BCDFG", "game": 1})
    'Paused by the teacher.'
    """
    status, number = view.get("status"), view.get("game", 0)
    return {
        "waiting": "Waiting for the first player.",
        "open": f"Game {number} is on.",
        "paused": "Paused by the teacher.",
        "over": f"Game {number} is over.",
        "ended": "The teacher ended this room.",
    }.get(status, "")


def rules(view: Mapping[str, Any]) -> str:
    """The room's rules on one line: the variant and what it does, the deck, the time to pick.

    >>> rules({"variant": "standard", "deck": "mini", "claim_seconds": 5})[:52]
    'Rules: standard, mini deck. No turns; when nobody se'
    """
    seconds = view.get("claim_seconds")
    pick = "no time limit to pick" if seconds is None else f"{_words.seconds(seconds)} to pick three cards"
    variant = view.get("variant", "standard")
    return (
        f"Rules: {variant}, {view.get('deck', 'full')} deck. {variant_rule(variant)} "
        f"After a call, {pick}; callers are served in the order they called."
    )


def your_score(you: Mapping[str, Any], scores_shown: bool) -> str:
    """A student's own result: their score and SETs, or their SETs alone when scores are hidden.

    >>> your_score({"score": 1, "sets": 2}, True), your_score({"score": 1, "sets": 2}, False)
    ('Your score: 1 (2 SETs)', 'Your SETs: 2')
    """
    sets = you.get("sets", 0)
    if not scores_shown:
        return f"Your SETs: {sets}"
    return f"Your score: {you.get('score', 0)} ({_words.count(sets, 'SET')})"


def players(view: Mapping[str, Any]) -> str:
    """Who joined, in the order they came (those taken out are left out).

    >>> players({"players": [{"name": "Ana", "present": True}, {"name": "Ben", "present": False}]})
    '1 player: Ana'
    >>> players({"players": []})
    'No player yet.'
    """
    present = [p["name"] for p in view.get("players", ()) if p.get("present", True)]
    if not present:
        return "No player yet."
    return f"{_words.count(len(present), 'player')}: {', '.join(present)}"


def scoreboard(view: Mapping[str, Any]) -> str:
    """The score line for everyone: each player's score, or, when scores are hidden, the SETs
    found and each team's SETs.

    >>> scoreboard({"scores_shown": False, "sets_found": 5, "teams": {"Red": 3, "Blue": 2}, "players": []})
    '5 SETs found · Red 3 · Blue 2'
    """
    if not view.get("scores_shown", True):
        teams = [f"{team} {count}" for team, count in (view.get("teams") or {}).items()]
        return " · ".join([_words.count(view.get("sets_found", 0), "SET") + " found", *teams])
    parts = []
    for p in view.get("players", ()):
        if not p.get("present", True) or "score" not in p:
            continue
        text = f"{p['name']} {p['score']}"
        if p.get("penalties"):
            text += f" ({_words.count(p['sets'], 'SET')}, {_words.count(p['penalties'], 'penalty')})"
        parts.append(text)
    return " · ".join(parts)


def standings(view: Mapping[str, Any]) -> list[tuple[int, str, int, int, int]]:
    """The final standings: ``(place, name, score, SETs, penalties)``, best first; a tie shares a place.

    Empty when scores are hidden: the projector shows what the class sees (the teacher's own
    view holds the scores, for a look from code: ``room.desk.view["players"]``).

    >>> standings({"players": [{"name": "Ana", "score": 1, "sets": 1, "penalties": 0},
    ...                        {"name": "Ben", "score": 3, "sets": 3, "penalties": 0},
    ...                        {"name": "Cleo", "score": 1, "sets": 2, "penalties": 1}]})
    [(1, 'Ben', 3, 3, 0), (2, 'Ana', 1, 1, 0), (2, 'Cleo', 1, 2, 1)]
    """
    if not view.get("scores_shown", True):
        return []
    scored = [p for p in view.get("players", ()) if "score" in p]
    ordered = sorted(scored, key=lambda p: (-p["score"], p["name"].casefold()))
    rows: list[tuple[int, str, int, int, int]] = []
    for index, p in enumerate(ordered):
        rank = rows[-1][0] if rows and rows[-1][2] == p["score"] else index + 1
        rows.append((rank, p["name"], p["score"], p.get("sets", 0), p.get("penalties", 0)))
    return rows


def winners(rows: Sequence[tuple[int, str, int, int, int]]) -> str:
    """'Ben wins with 3 points.' or 'Ana and Ben tie with 2 points.' ('' without scores).

    >>> winners([(1, 'Ben', 3, 3, 0), (2, 'Ana', 1, 1, 0)])
    'Ben wins with 3 points.'
    """
    first = [name for rank, name, *_ in rows if rank == 1]
    if not first:
        return ""
    verb = "wins" if len(first) == 1 else "tie"
    return f"{_words.and_list(first)} {verb} with {_words.count(rows[0][2], 'point')}."


def waiting(names: Sequence[str], locked: bool) -> str:
    """Who waits at the locked room's door for the teacher's answer ('' when nobody does).

    >>> waiting(["Ben", "Cleo"], True)
    'Locked. Waiting to be let in: Ben, Cleo.'
    >>> waiting([], True), waiting([], False)
    ('Locked: nobody new joins by the code.', '')
    """
    if names:
        return f"{'Locked. ' if locked else ''}Waiting to be let in: {', '.join(names)}."
    return "Locked: nobody new joins by the code." if locked else ""


def delete_again(code: str) -> str:
    """What the first click of Delete room says: a room is deleted by a second click only.

    >>> delete_again("BCDFG")[:40]
    'Click Delete room again to delete room B'
    """
    return (
        f"Click Delete room again to delete room {code} for good: its game, its players and their "
        "seats are gone. Any other button keeps it."
    )


WAITING_AT_DOOR = (
    "The room is locked: you are on the teacher's waiting list. "
    "You will be seated when the teacher lets you in."
)
"""What a student's board says while it waits at a locked room's door."""


def door(state: str, message: str = "", lost: bool = False) -> str:
    """What a student's board says before it is seated in a locked room (the door's ``state``,
    see :class:`setwidgets.classroom.client.Doorstep`): waiting, refused (``message`` is the
    service's why) or stopped waiting.

    >>> door("waiting") == WAITING_AT_DOOR
    True
    >>> door("refused", "the teacher did not let you into room BCDFG")
    'The teacher did not let you into room BCDFG. If you think that is a mistake, ask your teacher.'
    >>> door("stopped")
    'This board stopped waiting for the teacher. Run the cell again to ask once more.'
    """
    if state == "refused":
        return f"{sentence(message)} If you think that is a mistake, ask your teacher."
    if state == "stopped":
        return "This board stopped waiting for the teacher. Run the cell again to ask once more."
    if lost:  # the service restarts, say: the place on the list is asked for again when it is back
        return f"{WAITING_AT_DOOR} The classroom service does not answer just now; this board keeps asking."
    return WAITING_AT_DOOR


def door_room(code: str, name: str | None) -> str:
    """The board's first line while it waits at room ``code``'s door.

    >>> door_room("BCDFG", "Ben"), door_room("BCDFG", None)
    ('Room BCDFG · waiting to join as Ben', 'Room BCDFG · waiting to join')
    """
    return f"Room {code} · waiting to join" + (f" as {name}" if name else "")
