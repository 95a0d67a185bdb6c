"""The round timer of a competition: start, pause, resume, reset, and the time left.

A :class:`RoundTimer` does the arithmetic of a round's clock and nothing else: it
draws nothing and needs no Jupyter, so it can be tested with a clock moved by
hand. The widget that projects it is :class:`setwidgets.widgets.Timer`.

The time left always comes from the clock it was given (the time now, minus the
moment the round started, minus the pauses), never from counting ticks: a tick
that comes late, or never, cannot make the timer wrong.

>>> t = [0.0]                                  # a clock the example moves by hand
>>> timer = RoundTimer(minutes=2, clock=lambda: t[0])
>>> timer.face(), timer.state
('02:00', 'ready')
>>> timer.start()
>>> t[0] = 30.5
>>> timer.face(), timer.left()
('01:30', 89.5)
>>> timer.pause()
>>> t[0] = 100.0                               # a pause holds the time
>>> timer.face(), timer.state
('01:30', 'paused')
>>> timer.resume()
>>> t[0] = 190.0
>>> timer.face(), timer.state
('00:00', 'over')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from setwidgets import _inputs

__all__ = ["LONGEST_MINUTES", "ROUND_MINUTES", "RoundTimer", "TimerError"]

LONGEST_MINUTES = 180
"""The longest round a timer takes, in minutes (three hours)."""
ROUND_MINUTES = 20
"""A round's length when none is given: the competition guide's rounds last about twenty minutes
(docs/rules.md). A class with less time chooses its own: ``RoundTimer(minutes=12)``."""


class TimerError(ValueError):
    """A timer asked to do what its state does not allow (pause a timer that is not running, say),
    or given a length of round it cannot take."""


def check_minutes(minutes: Any) -> float | int:
    """``minutes`` when it is the length of a round: a number above 0 and at most 180.

    Whole numbers stay whole (``5``), other numbers are floats (``0.5`` is thirty seconds).

    >>> check_minutes(5), check_minutes(2.5)
    (5, 2.5)
    >>> check_minutes(0)
    Traceback (most recent call last):
    setwidgets.competition.timer.TimerError: minutes must be a number above 0, like 5; got 0
    """
    number = _inputs.finite_number(minutes, "minutes", above=0, example="5", error=TimerError)
    if number > LONGEST_MINUTES:
        raise TimerError(
            f"minutes must be at most {LONGEST_MINUTES} (three hours), like 5; got {_inputs.short(minutes)}"
        )
    return int(minutes) if _inputs.is_whole(minutes) else number


class RoundTimer:
    """A countdown for one round of a competition, read from a clock.

    Parameters
    ----------
    minutes:
        How long the round lasts: a number above 0 and at most 180
        (``0.5`` is thirty seconds); :data:`ROUND_MINUTES` (20) unless told.
    clock:
        A function returning the time in seconds; tests pass a fake one.

    The timer is ``"ready"`` until :meth:`start`, then ``"running"``,
    ``"paused"`` (after :meth:`pause`, until :meth:`resume`) and ``"over"``
    once the time has run out; :meth:`reset` makes it ready again. A move its
    state does not allow (``pause()`` on a paused timer, say) raises
    :class:`TimerError` and changes nothing. :meth:`left` gives the seconds
    left, :meth:`face` the time as the clock shows it (``'04:59'``).
    """

    def __init__(
        self, minutes: float = ROUND_MINUTES, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.minutes = check_minutes(minutes)
        self._clock = _inputs.clock(clock, "clock")
        self._banked = 0.0  # seconds counted before the current run (the runs before each pause)
        self._since: float | None = None  # when the current run began; None while not running
        self._started = False

    # -- what anyone may look at ------------------------------------------------------------------

    @property
    def seconds(self) -> float:
        """The length of the round in seconds."""
        return self.minutes * 60

    @property
    def state(self) -> str:
        """``"ready"``, ``"running"``, ``"paused"`` or ``"over"``, by the clock now."""
        return self._state(self._now())

    def reading(self, now: float | None = None) -> tuple[str, str]:
        """The state and the face at one moment, ``now`` (default: the clock's time now): what a clock shows.

        >>> RoundTimer(minutes=1.5, clock=lambda: 0.0).reading()
        ('ready', '01:30')
        """
        when = self._time(now)
        return self._state(when), self.face(when)

    def left(self, now: float | None = None) -> float:
        """Seconds left in the round at time ``now`` (default: the clock's time now), never below 0."""
        return max(0.0, self.seconds - self._elapsed(self._time(now)))

    def face(self, now: float | None = None) -> str:
        """The time left as the clock shows it, minutes and seconds: ``'04:59'``.

        A second is shown until it has passed, as on a kitchen timer: 4.2 seconds
        left shows ``'00:05'``, and ``'00:00'`` means the round is over.
        """
        whole = math.ceil(self.left(now))
        return f"{whole // 60:02d}:{whole % 60:02d}"

    def next_change(self, now: float | None = None) -> float | None:
        """Seconds from ``now`` until :meth:`face` changes while the timer runs; None when it will not.

        A widget sleeps this long between redraws, so that it shows each second as it
        comes, and the end of the round at the moment it comes.
        """
        when = self._time(now)
        if self._state(when) != "running":
            return None
        left = self.left(when)
        # Down to the next whole second. Running means left > 0; ceil(left) - 1 is a whole number
        # below left and the subtraction is exact, so the step is in (0, 1].
        return left - (math.ceil(left) - 1)

    # -- moves ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the round's countdown (the timer must be ready: new, or reset)."""
        now = self._now()
        if self._state(now) != "ready":
            raise TimerError(self._refusal("start", self._state(now)))
        self._started, self._since = True, now

    def pause(self) -> None:
        """Stop the countdown for a while; :meth:`resume` goes on from the time left."""
        now = self._now()
        state = self._state(now)
        if state != "running":
            raise TimerError(self._refusal("pause", state))
        self._banked = self._elapsed(now)
        self._since = None

    def resume(self) -> None:
        """Go on counting down after :meth:`pause`."""
        now = self._now()
        state = self._state(now)
        if state != "paused":
            raise TimerError(self._refusal("resume", state))
        self._since = now

    def reset(self, minutes: float | None = None) -> None:
        """Set the timer back to the whole round, ready to start; ``minutes`` gives it a new length."""
        new = self.minutes if minutes is None else check_minutes(minutes)
        self.minutes, self._banked, self._since, self._started = new, 0.0, None, False

    # -- inside -----------------------------------------------------------------------------------

    def _now(self) -> float:
        return _inputs.read_clock(self._clock, "the timer's clock", error=TimerError)

    def _time(self, now: Any) -> float:
        if now is None:
            return self._now()
        return _inputs.finite_number(now, "now", example="12.5", error=TimerError)

    def _elapsed(self, now: float) -> float:
        # A clock that steps back, or a time asked about before the run began, counts no time.
        running = 0.0 if self._since is None else max(0.0, now - self._since)
        return self._banked + running

    def _state(self, now: float) -> str:
        if not self._started:
            return "ready"
        if self._elapsed(now) >= self.seconds:
            return "over"
        return "running" if self._since is not None else "paused"

    def _refusal(self, move: str, state: str) -> str:
        full = f"{math.ceil(self.seconds) // 60:02d}:{math.ceil(self.seconds) % 60:02d}"
        why = {
            "ready": "the timer has not started; start() it first",
            "running": "the timer is running already; pause() stops it for a while",
            "paused": "the timer is paused; resume() goes on",
            "over": "the round is over",
        }[state]
        return f"cannot {move}(): {why}, and reset() sets it back to {full}"

    def __repr__(self) -> str:
        return f"<RoundTimer: {self.face()} left of {_minutes_text(self.minutes)}, {self.state}>"


def _minutes_text(minutes: float) -> str:
    return f"{minutes:g} minute" + ("" if minutes == 1 else "s")
