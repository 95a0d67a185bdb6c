"""docs/classroom.md states the limits the service keeps: each figure of its table is the code's."""

from __future__ import annotations

import re
from pathlib import Path

from setwidgets.classroom import door, limits
from setwidgets.game import MAX_PLAYERS

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "classroom.md"


def limit(what: str) -> str:
    """The 'limit' cell of the guide's row whose 'what' cell starts with ``what``."""
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \|$", GUIDE.read_text(encoding="utf-8"), re.M)
    found = [cell for name, cell in rows if name.startswith(what)]
    assert len(found) == 1, f"the guide's table has no single row for {what!r}"
    return found[0]


def test_the_guide_states_the_limits_the_service_keeps():
    assert limit("players in one room").startswith(f"{MAX_PLAYERS} ")
    assert limit("rooms in one service").startswith(f"{limits.MAX_ROOMS:,} ")
    assert limit("an ended room").startswith(f"deleted {limits.ENDED_KEEP_SECONDS / 3600:g} hours after")
    assert limit("waiting at a locked").startswith(f"{door.WAITING} names at once")
    assert (
        limit("a second code")
        == f"one join, within {door.CODE_SECONDS / 60:g} minutes; {door.WAITING} unused at once per room"
    )
    assert limit("a player's connections").startswith(f"{limits.SOCKETS_PER_PLAYER} at once")
    assert limit("the teacher's connections").startswith(f"{limits.SOCKETS_PER_TEACHER} at once")
    rate, burst = limits.RATE
    assert limit("a player's messages").startswith(f"{rate:g} a second on average, {burst} at once")
    assert f"{limits.STRIKES} more" in limit("a player's messages")
    assert f"waits {limits.COOL_DOWN:g} seconds" in limit("a player's messages")
    assert limit("a request's body").startswith(
        f"{limits.MAX_MESSAGE // 1024} KB, nested at most {limits.MAX_DEPTH} deep"
    )
    rate, burst = limits.CONTROL_RATE
    assert limit("a player's pings").startswith(f"{rate:g} a second on average, {burst} at once")
    assert limit("what a connection has not read").startswith(
        f"{limits.MAX_UNREAD // 1024} KB, besides the system's own buffer of {limits.SEND_BUFFER // 1024} KB"
    )
    rate, burst = limits.REQUEST_RATE
    assert limit("joins from one address").startswith(f"{rate:g} a second on average, {burst} at once")
    assert limit("a silent connection").startswith(f"closed after {limits.IDLE_SECONDS:g} seconds")
    assert limit("connections at once").startswith(f"{limits.MAX_CONNECTIONS:,} ")
