"""What every card widget shares: a canvas painted from a scene, and a static twin.

A widget subclasses :class:`CardsView`, builds its other controls, and says
what to draw by returning a :class:`~setwidgets.draw.shapes.Scene` from
``_scene()``. This base class then

- keeps an ipycanvas ``Canvas`` in step with the scene (one batched message
  per redraw), and redraws when a browser connects (``on_client_ready``), so
  the cards are there after a page reload and in Voila;
- keeps a static SVG copy of the picture in an HTML widget until a browser
  has said it can draw (a notebook exported with its widget state, or a
  front end without ipycanvas, still shows the cards);
- adds that static picture to the widget's display data (``text/html`` and
  ``image/svg+xml`` next to the live widget view), so a saved notebook, its
  HTML export, GitHub's preview and nbgrader's feedback show the cards where
  no widget can run.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ipycanvas import Canvas, hold_canvas
from ipywidgets import HTML, Checkbox, Layout, VBox

from setwidgets._inputs import short, what, whole_number
from setwidgets.draw import shapes
from setwidgets.draw.canvas import paint_scene
from setwidgets.draw.svg import framed, scene_svg
from setwidgets.draw.themes import get_theme
from setwidgets.widgets._keyguard import GUARDED, keep_keys

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MIN_WIDTH, MAX_WIDTH = 100, 10_000
"""The ``width=`` a card widget takes, in pixels: narrower cards cannot be read, wider ones fit no screen."""


def nbgrader_running() -> bool:
    """True while nbgrader executes the notebook (autograde, validate, feedback)."""
    return bool(os.environ.get("NBGRADER_EXECUTION"))


@dataclass(frozen=True)
class Lettering:
    """Which letter (a key on the keyboard) names which card position.

    ``rows`` holds one string of letters per row of cards; positions run down
    the columns, so with three rows positions 0, 1, 2 take the first letter of
    each row, 3, 4, 5 the second, and so on. With one row, the letters simply
    follow the positions. A position beyond the letters has none (None).

    >>> Lettering(("abc",)).letters(4)
    ['a', 'b', 'c', None]
    >>> Lettering(("qw", "as")).letters(4)
    ['q', 'a', 'w', 's']
    """

    rows: tuple[str, ...]

    def letter(self, position: int) -> str | None:
        """The letter of a position (0 is the first card), or None when the letters run out."""
        position = whole_number(position, "position", minimum=0, example="0")
        row, column = position % len(self.rows), position // len(self.rows)
        letters = self.rows[row]
        return letters[column] if column < len(letters) else None

    def letters(self, count: int) -> list[str | None]:
        """The letters of positions 0 to ``count - 1``, in order."""
        return [self.letter(p) for p in range(count)]

    def position(self, key: str, count: int) -> int | None:
        """The position among ``count`` cards whose letter is ``key`` (either case), or None."""
        name = key.lower()
        return next((p for p in range(count) if self.letter(p) == name), None)


def show_live(canvas: Any, picture: Any) -> None:
    """A browser can draw ``canvas`` now: show it, and drop its static twin ``picture`` (it would go stale).

    Draw commands sent before this browser listened are lost (Voila runs the notebook first),
    and with them ipycanvas's "switch to this canvas" command, which it sends only when the
    target canvas changes: the last target is forgotten, so the next drawing names this canvas.
    """
    canvas.layout.display = None
    picture.layout.display = "none"
    picture.value = ""
    canvas._canvas_manager._current_canvas = None


def check_position(position: Any, cards: Sequence[object], first: str) -> int:
    """``position`` as an int naming one of ``cards`` (a whole number from 0), or a clear error.

    ``first`` says where position 0 is, for the message: "the top-left card".
    """
    number = whole_number(position, "position", example=f"0 ({first})")
    if not 0 <= number < len(cards):
        raise ValueError(
            f"position must be a whole number from 0 to {len(cards) - 1} (a card on the table); "
            f"got {short(number)}"
        )
    return number


def check_width(width: Any) -> int | None:
    """The ``width=`` of a card widget: None (as wide as the cards need) or whole pixels, 100 to 10000."""
    if width is None:
        return None
    name = "width (the largest width in pixels)"
    number = whole_number(width, name, minimum=MIN_WIDTH, example="600")
    if number > MAX_WIDTH:
        raise ValueError(f"{name} must be at most {MAX_WIDTH}; got {short(number)}")
    return number


def check_coordinates(x: Any, y: Any) -> tuple[float, float]:
    """A click's canvas pixel (x, y): two numbers (ints, floats, numpy's too), or a TypeError."""
    for value in (x, y):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"click() takes canvas coordinates, two numbers like click(120, 80); got {what(value)}"
            )
    return x, y


_HIDDEN = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"


def card_names(scene: shapes.Scene) -> list[str]:
    """The cards of a scene in words, with their letters and frames:
    ``['Q: one red solid oval (framed as a hint)', 'A: two green open diamonds', ...]``."""
    # The frames too: a hint, a pick or a miss's odd card is shown only by its frame, and the
    # status line ("the framed card is part of a SET") leaves the reader to find it here.
    return [
        framed(f"{p.letter.upper()}: {p.card.name}" if p.letter else p.card.name, p.highlight)
        for p in scene.cards
    ]


def _names_html(scene: shapes.Scene) -> str:
    items = "".join(f"<li>{escape(name)}</li>" for name in card_names(scene))
    return f'<ul style="{_HIDDEN}" aria-label="cards">{items}</ul>'


KEYS_STYLE = (
    "<style>.setw-keys canvas:focus{outline:3px solid #2f6fd0;outline-offset:-3px}"
    ".setw-keyhint{font-size:12px;color:#666}"
    ".setw-keys:focus-within .setw-clickhint{visibility:hidden}</style>"
)
"""A widget with keys rings its cards while they hold the keyboard, and says how to give it otherwise
(that sentence hides while they hold it; how the cards are lettered stays, it is needed then)."""
KEYS_HINT = "Click the cards to use the keys."
LETTERS_HINT = "A card's letter, drawn on it, picks it: a, b, c... in reading order."
"""How a widget's cards are lettered, said under them (the boards say it their own way)."""
COLORBLIND = "Color-blind colors"
"""The switch under every widget's cards that draws them in the color-blind theme."""
KEY_CLASSES = ("setw-keys", GUARDED)
"""The classes of a live widget's keyboard, which its static copy leaves out."""


class CardsView(VBox):
    """A VBox whose cards are drawn on ``self.canvas``; see the module docstring.

    Subclasses call ``self._setup_canvas(theme, width)`` early in ``__init__``,
    put ``self.picture_box`` (canvas plus static twin) among their children and
    implement ``_scene()``; ``_static_text()`` may add lines under the picture.
    """

    canvas: Canvas
    _live: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep_keys(self)  # every control the widget draws keeps its keys (see _keyguard)

    def _setup_canvas(self, css_class: str, width: int | None) -> None:
        self._max_width = check_width(width)
        self._live = False
        self.canvas = Canvas(width=300, height=150)
        self.canvas.add_class(f"{css_class}-canvas")
        # Until a browser says it can draw, the static twin stands in for the canvas.
        self.canvas.layout = Layout(width="100%", height="auto", display="none")
        self._picture = HTML(layout=Layout(width="100%"))
        self._picture.add_class("setw-picture")
        # The names of the cards, for screen readers: the canvas itself is only pixels. (A
        # tooltip on the canvas would do for a mouse, but ipycanvas 0.14 cannot show one.)
        self._names = HTML()
        self._names.add_class("setw-names")
        # Red and green are hard to tell apart for one boy in twelve: every widget offers the
        # color-blind theme (vermillion, blue, black; setwidgets.draw.themes) at one click.
        self.colorblind = Checkbox(value=False, description=COLORBLIND, indent=False)
        self.colorblind.add_class("setw-colorblind")
        self.colorblind.observe(self._colorblind_switched, names="value")
        self._theme_before: Any = None
        self.picture_box = VBox(
            [self.canvas, self._picture, self._names, self.colorblind], layout=Layout(width="100%")
        )
        self.canvas.on_client_ready(self._client_ready)
        self._last_scene: shapes.Scene | None = None

    def _listen(self, click: Callable[..., Any], key: Callable[..., Any]) -> None:
        """Clicks on the cards go to ``click(x, y)``, keys to ``key(key, shift, ctrl, meta)``.

        The canvas takes every key it gets (none reaches JupyterLab's command mode, where ``r``
        would turn a cell into a raw cell); a ring shows while it holds the keyboard, and a line
        under the cards says how to give it the keys when it does not.
        """
        self.canvas.on_mouse_down(click)
        self.canvas.on_key_down(key)
        self.add_class("setw-keys")
        hint = HTML(f'{KEYS_STYLE}<span class="setw-clickhint">{KEYS_HINT}</span> {self._letters_hint}')
        hint.add_class("setw-keyhint")
        self.picture_box.children = (*self.picture_box.children, hint)

    def _keys_back(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        """``handler`` for a control of this widget (a button, a box, a menu), which then gives the
        keyboard back to the cards: a clicked button keeps the focus, and the letters typed next
        would reach JupyterLab."""

        def handle(*args: Any) -> Any:
            try:
                return handler(*args)
            finally:
                self.canvas.focus()

        return handle

    _letters_hint = LETTERS_HINT

    def _colorblind_switched(self, change: dict[str, Any]) -> None:
        """The switch draws the cards in the color-blind theme, or back in the theme they had."""
        if change["new"]:
            self._theme_before = self.theme
            self.theme = get_theme("colorblind")
        elif self._theme_before is not None:
            self.theme = self._theme_before
        self.redraw()
        if "setw-keys" in self._dom_classes:
            self.canvas.focus()  # the cards take the keys again, as after any control

    # -- what subclasses provide ----------------------------------------------------------------

    def _scene(self) -> shapes.Scene:  # pragma: no cover - every widget defines it
        raise NotImplementedError

    def _static_text(self) -> list[str]:
        """Lines of plain text to show under the static picture."""
        return []

    # -- drawing --------------------------------------------------------------------------------

    @property
    def card_rects(self) -> list[tuple[float, float, float, float]]:
        """Where each card is drawn: ``(x, y, w, h)`` in canvas pixels, one per position."""
        return [tuple(r) for r in self._current_scene().rects]  # type: ignore[misc]

    def position_at(self, x: float, y: float) -> int | None:
        """The position of the card drawn at canvas pixel (x, y), or None between cards."""
        x, y = check_coordinates(x, y)
        for position, (rx, ry, rw, rh) in enumerate(self.card_rects):
            if rx <= x <= rx + rw and ry <= y <= ry + rh:
                return position
        return None

    @property
    def card_names(self) -> list[str]:
        """The cards drawn, in words, with their letters (what a screen reader hears)."""
        return card_names(self._current_scene())

    @property
    def highlights(self) -> dict[int, str]:
        """The framed cards: position -> "selected", "hint", "odd" (odd card out) or "found"."""
        return {p.position: p.highlight for p in self._current_scene().cards if p.highlight}

    def _current_scene(self) -> shapes.Scene:
        if self._last_scene is None:
            self._last_scene = self._scene()
        return self._last_scene

    def redraw(self, before: shapes.Scene | None = None, pause: float = 0.0) -> None:
        """Paint the current scene on the canvas (and refresh the static twin).

        ``before`` is painted first and shown for ``pause`` seconds (the
        browser waits, not Python): that is how a taken SET flashes before the
        new cards appear. All of it goes to the browser as one message.
        """
        scene = self._scene()
        self._last_scene = scene
        width, height = math.ceil(scene.width), math.ceil(scene.height)
        if before is not None:
            width, height = max(width, math.ceil(before.width)), max(height, math.ceil(before.height))
        with hold_canvas():
            if (self.canvas.width, self.canvas.height) != (width, height):
                self.canvas.width, self.canvas.height = width, height
            if before is not None and pause > 0:
                paint_scene(self.canvas, before, batch=False)
                self.canvas.sleep(int(pause * 1000))
            paint_scene(self.canvas, scene, batch=False)
        shown = width if self._max_width is None else round(self._max_width * width / self._natural_width())
        self.canvas.layout.max_width = f"{shown}px"
        self._picture.layout.max_width = f"{shown}px"
        self._names.value = _names_html(scene)
        if not self._live:
            self._picture.value = scene_svg(scene, width=None).replace(
                "<svg ", '<svg style="max-width:100%;height:auto" ', 1
            )

    def _natural_width(self) -> float:
        """The canvas width the ``width`` option refers to (subclasses may fix it to a base layout)."""
        return self._current_scene().width

    def _client_ready(self) -> None:
        self._live = True
        show_live(self.canvas, self._picture)
        self.redraw()

    # -- static pictures ------------------------------------------------------------------------

    def svg(self) -> str:
        """The current picture as a standalone SVG (what the canvas shows, minus animation)."""
        return scene_svg(self._scene())

    def static_html(self) -> str:
        """The current picture and text as an HTML fragment (for saved notebooks and feedback)."""
        lines = "".join(f"<div>{escape(line)}</div>" for line in self._static_text())
        svg = self.svg().replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
        # A static copy takes no keys: it keeps the widget's own class, not the keyboard's.
        classes = " ".join(c for c in self._dom_classes if c.startswith("setw-") and c not in KEY_CLASSES)
        return f'<div class="{classes} setw-static">{svg}{lines}</div>'

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # a closed widget shows nothing
            return None
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/html"] = self.static_html()
        data["image/svg+xml"] = self.svg()
        data["text/plain"] = "\n".join([type(self).__name__ + ":", *self._static_text()])
        if nbgrader_running():
            # nbgrader keeps the widget state, so exported feedback would pick the widget
            # view (which needs a CDN and draws an empty canvas) over the picture.
            data.pop(WIDGET_VIEW, None)
        return bundle
