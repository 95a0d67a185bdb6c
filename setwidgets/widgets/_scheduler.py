"""When a Board's computer player moves and its clock ticks: two timers on an asyncio event loop.

The Board says *what* happens (the computer's move, a tick of the clock); the
:class:`Scheduler` says *when*:

- nothing runs until :meth:`Scheduler.start` (a browser shows the board), and
  nothing ever runs while nbgrader executes the notebook or without an event
  loop, so a notebook run by nbclient or nbgrader stays the same each time;
- the computer's move waits the delay it is given; a new delay replaces the
  old one;
- the clock ticks every ``tick_seconds`` while the board wants it, and stops
  once nobody has touched the board for ``idle_seconds`` (an old output, a
  forgotten tab), unless a countdown is running; the next input starts it again.

The loop and the clock can be passed in, so a test moves time by hand.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from setwidgets import _inputs
from setwidgets._inputs import what
from setwidgets.widgets._view import nbgrader_running

__all__ = ["IDLE_SECONDS", "RETRY_SECONDS", "TICK_SECONDS", "Scheduler"]

TICK_SECONDS = 0.5
"""How often the clock on the board is updated."""
IDLE_SECONDS = 600.0
"""A board nobody touched for this long stops ticking."""
RETRY_SECONDS = 1.0
"""How long the computer waits before it tries again while someone else holds the call."""


class Loop(Protocol):
    """What the scheduler needs of an event loop (asyncio's loops have it)."""

    def call_later(self, delay: float, callback: Callable[[], Any]) -> Any: ...

    def is_closed(self) -> bool: ...


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (the kernel's), or None outside one."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Scheduler:
    """The two timers of a board: the computer's next move, and the clock's next tick.

    Parameters
    ----------
    move:
        Called when the computer's delay is over.
    tick:
        Called at each tick; returns True while a countdown runs (the clock
        then goes on even on an idle board).
    wanted:
        Whether the clock should tick at all (False once the game is over or
        the widget is closed).
    clock:
        Time in seconds, for the idle rule.
    loop:
        The event loop to run on (default: the one running now, if any).
    """

    def __init__(
        self,
        move: Callable[[], Any],
        tick: Callable[[], bool],
        wanted: Callable[[], bool],
        *,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
        tick_seconds: float = TICK_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        now = _inputs.read_clock(_inputs.clock(clock), "clock")
        if loop is not None and not (
            callable(getattr(loop, "call_later", None)) and callable(getattr(loop, "is_closed", None))
        ):
            raise TypeError(f"loop must be an asyncio event loop, or None for the kernel's; got {what(loop)}")
        self._move, self._tick, self._wanted = move, tick, wanted
        self._clock = clock
        self.loop = loop if loop is not None else running_loop()
        self._thread = threading.get_ident()  # the thread of the loop the widget was made on
        self.tick_seconds = tick_seconds
        self.idle_seconds = idle_seconds
        self.started = False
        self.last_input = now
        self._move_handle: Any = None
        self._tick_handle: Any = None

    @property
    def running(self) -> bool:
        """True when timers may run: started, on an open loop, and not inside nbgrader."""
        # No one races a board in a notebook run by nbclient or nbgrader, and its output stays the same.
        return self.started and self.loop is not None and not self.loop.is_closed() and not nbgrader_running()

    @property
    def idle(self) -> bool:
        """True when nobody has touched the board for ``idle_seconds``."""
        return self._clock() - self.last_input >= self.idle_seconds

    @property
    def move_pending(self) -> bool:
        """True while the computer's move waits for its delay."""
        return self._move_handle is not None

    @property
    def ticking(self) -> bool:
        """True while the next tick is scheduled."""
        return self._tick_handle is not None

    def start(self) -> None:
        """A browser shows the board: timers may run from now on."""
        self.started = True

    def touch(self) -> None:
        """Someone used the board: the idle time starts again."""
        self.last_input = self._clock()

    def on_loop(self, action: Callable[[], Any]) -> None:
        """Run ``action`` on this scheduler's event loop: at once when already there.

        JupyterLab may send a widget's clicks and keys to a subshell of the kernel (ipykernel 7),
        a thread with an event loop of its own. A timer set from there would wait until this
        loop wakes for some other reason, and two threads would change the widget at once.
        The thread is what tells: another loop may run in this very thread (a test's browser
        driver, say) without being a subshell.
        """
        loop = self.loop
        if loop is None or threading.get_ident() == self._thread or not hasattr(loop, "call_soon_threadsafe"):
            action()
        else:
            loop.call_soon_threadsafe(action)

    def move_in(self, delay: Callable[[], float] | None) -> None:
        """Make the computer's move after ``delay()`` seconds (None: no move), replacing any move planned.

        ``delay`` is asked only when the move can be scheduled, so a bot's random
        delays are not used up by a board that no browser shows.
        """
        self.on_loop(lambda: self._plan_move(delay))

    def _plan_move(self, delay: Callable[[], float] | None) -> None:
        self.cancel_move()
        if delay is not None and self.running:
            self._move_handle = self.loop.call_later(delay(), self._fire_move)

    def cancel_move(self) -> None:
        """Forget the computer's planned move."""
        if self._move_handle is not None:
            self._move_handle.cancel()
            self._move_handle = None

    def keep_ticking(self) -> None:
        """Schedule the next tick, unless one is scheduled or the clock is not wanted."""
        self.on_loop(self._plan_tick)

    def _plan_tick(self) -> None:
        if self._tick_handle is None and self.running and self._wanted():
            self._tick_handle = self.loop.call_later(self.tick_seconds, self._fire_tick)

    def stop(self) -> None:
        """Cancel both timers; nothing runs until :meth:`start` again."""
        self.cancel_move()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        self.started = False

    def _fire_move(self) -> None:
        self._move_handle = None
        self._move()

    def _fire_tick(self) -> None:
        self._tick_handle = None
        if not self._wanted():
            return
        counting_down = self._tick()
        if counting_down or not self.idle:
            self.keep_ticking()
