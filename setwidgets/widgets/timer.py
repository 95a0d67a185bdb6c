"""Timer: a round timer to project during a SET competition.

Big minutes and seconds, a Start / Pause / Resume button, a Reset button, and at
the end of the round a red flash (and a short beep where the browser allows sound)::

    from setwidgets.widgets import Timer

    timer = Timer()            # a round of 20 minutes, the guide's; Timer(minutes=12) for less
    timer                      # press Start, or click the clock and press the space bar

The space bar starts, pauses and resumes while the clock holds the keyboard (after a
click on it or on a button); no key reaches JupyterLab then. The arithmetic is a
:class:`~setwidgets.competition.timer.RoundTimer` (``timer.timer``), which reads the
time from its clock: a redraw that comes late never makes the time shown wrong.

>>> timer = Timer(minutes=1, clock=lambda: 0.0)
>>> timer.text, timer.state
('01:00', 'ready')
"""

from __future__ import annotations

import base64
import io
import math
import struct
import time
import wave
from collections.abc import Callable
from functools import cache
from html import escape
from typing import Any

from ipycanvas import Canvas, hold_canvas
from ipywidgets import HTML, Button, HBox, Layout, VBox

from setwidgets._inputs import what
from setwidgets.competition.timer import ROUND_MINUTES, RoundTimer, TimerError
from setwidgets.widgets._keyguard import keep_keys
from setwidgets.widgets._keys import key_name
from setwidgets.widgets._scheduler import Loop, Scheduler
from setwidgets.widgets._view import KEYS_STYLE, WIDGET_VIEW, nbgrader_running, show_live

__all__ = ["Timer", "beep_wav"]

WIDTH, HEIGHT = 800, 300
"""The canvas in canvas pixels; the page stretches it to the notebook's width, keeping its shape."""
INK, PAUSED, HURRY, FLASH, PAPER = "#111111", "#7a7f87", "#c2410c", "#d0021b", "#ffffff"
"""Digits, digits of a paused clock, the last ten seconds, the end's red, the background."""
HURRY_SECONDS = 10
FLASHES = 4
"""How many times the clock flashes red and white at the end; it then stays red."""
FLASH_MS = 300
WORDS = {"ready": "Press Start", "running": "", "paused": "Paused", "over": "Time!"}
BUTTON = {"ready": "Start", "running": "Pause", "paused": "Resume", "over": "Start"}
_HIDDEN = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"


@cache
def beep_wav() -> bytes:
    """Three short beeps (880 Hz) as a small WAV file: the sound of the end of a round."""
    rate, samples = 8000, bytearray()
    for beep in range(3):
        for i in range(int(rate * 0.18)):
            fade = min(1.0, i / 80, (rate * 0.18 - i) / 80)  # no click at either edge
            samples.append(128 + int(90 * fade * math.sin(2 * math.pi * 880 * i / rate)))
        if beep < 2:
            samples.extend(struct.pack("B", 128) * int(rate * 0.12))
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(1)
        file.setframerate(rate)
        file.writeframes(bytes(samples))
    return out.getvalue()


class Timer(VBox):
    """A round timer for the projector: minutes and seconds left, shown large.

    Parameters
    ----------
    minutes:
        How long the round lasts: a number above 0 and at most 180 (``0.5`` is
        thirty seconds).
    clock:
        A function returning the time in seconds; tests pass a fake one.
    loop:
        The event loop that redraws the clock (default: the kernel's).

    Press Start; the same button then pauses and resumes. Reset sets the clock
    back to the whole round. At zero the clock flashes red and beeps (if the
    browser allows sound). The space bar does what the big button does while
    the clock holds the keyboard. What a program or a test can use:
    :meth:`start`, :meth:`pause`, :meth:`resume`, :meth:`reset`, :meth:`toggle`,
    :meth:`press`, :meth:`tick`; :attr:`timer`, :attr:`text`, :attr:`state`.
    A move the timer's state does not allow raises
    :class:`~setwidgets.competition.timer.TimerError` and changes nothing.
    """

    def __init__(
        self,
        minutes: float = ROUND_MINUTES,
        *,
        clock: Callable[[], float] = time.monotonic,
        loop: Loop | None = None,
    ) -> None:
        self.timer = RoundTimer(minutes, clock=clock)
        # The scheduler's one-shot timer wakes the clock when its face changes (see _step); the
        # periodic tick is not wanted: its half-second steps would show each second late.
        self._scheduler = Scheduler(self._step, lambda: False, lambda: False, clock=clock, loop=loop)
        self._shown: tuple[str, str] | None = None
        self.canvas = Canvas(width=WIDTH, height=HEIGHT)
        self.canvas.layout = Layout(width="100%", height="auto", display="none")
        self.canvas.add_class("setw-timer-canvas")
        # Until a browser draws, and in a saved notebook, the time is shown as text.
        self._picture = HTML(layout=Layout(width="100%"))
        # The time in words for screen readers, which get no pixels from a canvas.
        self._words = HTML()
        self._words.add_class("setw-timer-words")
        self._sound = HTML()
        self._sound.add_class("setw-timer-sound")
        self.buttons = {
            "main": Button(description="Start", button_style="primary", tooltip="Space bar"),
            "reset": Button(description="Reset", tooltip="Back to the whole round"),
        }
        for name, button in self.buttons.items():
            button.add_class(f"setw-timer-{name}")
            button.layout = Layout(width="140px", height="44px")
        self.buttons["main"].on_click(self._keys_back(self.toggle))
        self.buttons["reset"].on_click(self._keys_back(self.reset))
        hint = HTML(f'{KEYS_STYLE}<span class="setw-clickhint">Click the clock to use the space bar.</span>')
        hint.add_class("setw-keyhint")
        super().__init__(
            [self.canvas, self._picture, HBox(list(self.buttons.values())), hint, self._words, self._sound],
            layout=Layout(width="100%"),
        )
        self.add_class("setw-timer")
        self.add_class("setw-keys")
        keep_keys(self)
        self.canvas.on_key_down(lambda key, *_: self._by_the_clock(lambda: self.press(key)))
        self.canvas.on_client_ready(self._client_ready)
        self._live = False
        self._refresh()

    # -- what anyone may look at ---------------------------------------------------------------

    @property
    def text(self) -> str:
        """The time left as the clock shows it: ``'04:59'``."""
        return self.timer.face()

    @property
    def state(self) -> str:
        """``"ready"``, ``"running"``, ``"paused"`` or ``"over"``."""
        return self.timer.state

    # -- moves ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the round."""
        self.timer.start()
        self._scheduler.start()  # a click or a call: someone is there, the clock may run
        self._refresh()

    def pause(self) -> None:
        """Hold the time left until :meth:`resume`."""
        self.timer.pause()
        self._refresh()

    def resume(self) -> None:
        """Go on counting down."""
        self.timer.resume()
        self._scheduler.start()
        self._refresh()

    def reset(self, minutes: float | None = None) -> None:
        """Back to the whole round, ready to start; ``minutes`` gives the round a new length."""
        self.timer.reset(minutes)
        self._sound.value = ""
        self._refresh()

    def toggle(self) -> str:
        """What the big button does: start, pause or resume, by the state; returns the new state.

        At the end of a round it starts the next one, of the same length.
        """
        moves = {"ready": self.start, "running": self.pause, "paused": self.resume}
        state = self.timer.state
        if state == "over":
            self.reset()
            state = "ready"
        moves[state]()
        return self.timer.state

    def press(self, key: str) -> bool:
        """A key pressed on the clock: the space bar does what the big button does. True if it did."""
        if not isinstance(key, str):
            raise TypeError(f"press() takes a key such as ' ' (the space bar); got {what(key)}")
        if key_name(key) != " ":
            return False
        self.toggle()
        return True

    def tick(self) -> None:
        """Redraw the clock if its face has changed (the widget does this itself while it runs)."""
        self._refresh()

    # -- inside --------------------------------------------------------------------------------

    def _keys_back(self, move: Callable[[], Any]) -> Callable[[Any], None]:
        # A clicked button keeps the focus, and a key typed next would reach JupyterLab: the
        # clock takes the keyboard back, and takes every key it gets.
        def moved() -> None:
            try:
                move()
            except TimerError as error:  # a click that crossed the end of the round: say why
                self._words.value = escape(str(error))
            finally:
                self.canvas.focus()

        return lambda _button: self._by_the_clock(moved)

    def _by_the_clock(self, move: Callable[[], Any]) -> None:
        """Make ``move`` on the event loop that runs the clock (see ``Scheduler.on_loop``)."""
        self._scheduler.on_loop(move)

    def _step(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        """Show the time now; schedule the next redraw for when the face next changes."""
        state, face = self.timer.reading()
        shown, self._shown = self._shown, (state, face)
        main = self.buttons["main"]
        main.description = BUTTON[state]
        main.button_style = "" if state == "running" else "primary"
        self._words.value = f'<div style="{_HIDDEN}" aria-label="time left">{face} {WORDS[state]}</div>'
        # The end flashes and beeps once, when it comes; a page shown again after it is only red.
        ending = state == "over" and shown is not None and shown[0] != "over"
        if (state, face) != shown:
            self._paint(state, face, flash=ending)
        if ending:
            self._ring()
        if state == "running" and self.comm is not None:
            # Should the round end between this reading and the next, the next step comes at once.
            self._scheduler.move_in(lambda: self.timer.next_change() or 0.0)
        else:
            self._scheduler.cancel_move()

    def _paint(self, state: str, face: str, flash: bool) -> None:
        if not self._live:
            colour = FLASH if state == "over" else INK
            self._picture.value = (
                f'<div style="font:bold 96px sans-serif;color:{colour};text-align:center">{face}</div>'
                f'<div style="text-align:center">{WORDS[state]}</div>'
            )
        with hold_canvas():
            if flash:
                # The browser plays the flash from one message: Python does not wait.
                for _ in range(FLASHES):
                    self._face(face, PAPER, FLASH, WORDS[state])
                    self.canvas.sleep(FLASH_MS)
                    self._face(face, FLASH, PAPER, WORDS[state])
                    self.canvas.sleep(FLASH_MS)
            if state == "over":
                self._face(face, FLASH, PAPER, WORDS[state])
            else:
                self._face(face, PAPER, self._ink(state, face), WORDS[state])

    def _ink(self, state: str, face: str) -> str:
        if state == "paused":
            return PAUSED
        hurry = state == "running" and face <= f"00:{HURRY_SECONDS:02d}"
        return HURRY if hurry else INK

    def _face(self, face: str, paper: str, ink: str, words: str) -> None:
        canvas = self.canvas
        canvas.fill_style = paper
        canvas.fill_rect(0, 0, WIDTH, HEIGHT)
        canvas.fill_style = ink
        canvas.text_align, canvas.text_baseline = "center", "middle"
        canvas.font = "bold 200px sans-serif"
        canvas.fill_text(face, WIDTH / 2, HEIGHT * 0.44)
        canvas.font = "bold 40px sans-serif"
        canvas.fill_text(words, WIDTH / 2, HEIGHT * 0.87)

    def _ring(self) -> None:
        # A new <audio autoplay> at each end: the browser plays it if the page may make sound
        # (after a click on it, as on Start); where it may not, the flash says it alone.
        data = base64.b64encode(beep_wav()).decode()
        self._sound.value = f'<audio autoplay src="data:audio/wav;base64,{data}"></audio>'

    def _client_ready(self) -> None:
        # A browser can draw now (again after a reload): the canvas replaces the text twin.
        self._live = True
        show_live(self.canvas, self._picture)
        self._shown = None
        self._refresh()

    def close(self) -> None:
        """Stop the clock, and close the widget."""
        scheduler = getattr(self, "_scheduler", None)
        if scheduler is not None:
            scheduler.stop()
        super().close()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # a closed widget shows nothing
            return None
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        state, face = self.timer.reading()
        data["text/html"] = (
            f'<div class="setw-timer setw-static" style="font:bold 96px sans-serif">{face}</div>'
        )
        data["text/plain"] = f"Timer: {face} {WORDS[state]}".rstrip()
        if nbgrader_running():
            data.pop(WIDGET_VIEW, None)  # feedback would pick an empty live view over the time
        return bundle

    def __repr__(self) -> str:
        return f"<Timer: {self.text} {self.state}>"
