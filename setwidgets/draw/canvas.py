"""Paint cards on an ipycanvas ``Canvas``: the live twin of :mod:`setwidgets.draw.svg`.

The painter reads the same geometry as the SVG pictures (paths, stripes,
labels in card units), moves and scales each card into place with the
canvas transform, and sends everything inside ``hold_canvas()``, so a whole
table reaches the browser as one message.

:class:`CommandRecorder` is a stand-in canvas that writes down the calls it
receives instead of drawing; tests use it, and it shows what a redraw costs.

Example (in a notebook)::

    from ipycanvas import Canvas
    from setwidgets.draw import shapes
    from setwidgets.draw.canvas import paint_scene

    layout = shapes.scene(["1RSO", "2GTS", "3POD"], scale=0.8)
    canvas = Canvas(width=int(layout.width), height=int(layout.height))
    paint_scene(canvas, layout)
    canvas
"""

from __future__ import annotations

import contextlib
from typing import Any

from setwidgets.draw import shapes

__all__ = ["CommandRecorder", "paint_scene"]

_ALIGN = {"start": "left", "middle": "center", "end": "right"}


def _r(value: float) -> float:
    # Two decimals are far below a pixel and keep the message to the browser short.
    return round(value, 2)


def _trace(canvas: Any, path: shapes.Path) -> None:
    canvas.begin_path()
    for command in path:
        op = command[0]
        if op == "M":
            canvas.move_to(_r(command[1]), _r(command[2]))
        elif op == "L":
            canvas.line_to(_r(command[1]), _r(command[2]))
        elif op == "C":
            canvas.bezier_curve_to(*(_r(v) for v in command[1:]))
        elif op == "Z":
            canvas.close_path()
        else:
            raise ValueError(f"unknown path command {op!r}")


def _paint_item(canvas: Any, item: shapes.Item) -> None:
    if isinstance(item, shapes.Shape):
        _trace(canvas, item.path)
        if item.fill is not None:
            canvas.fill_style = item.fill
            canvas.fill()
        if item.stroke is not None and item.line_width > 0:
            canvas.stroke_style = item.stroke
            canvas.line_width = item.line_width
            canvas.stroke()
    elif isinstance(item, shapes.Lines):
        canvas.begin_path()
        for x1, y1, x2, y2 in item.segments:
            canvas.move_to(_r(x1), _r(y1))
            canvas.line_to(_r(x2), _r(y2))
        canvas.stroke_style = item.stroke
        canvas.line_width = item.line_width
        canvas.stroke()
    elif isinstance(item, shapes.Label):
        canvas.font = f"{item.weight} {_r(item.size)}px {shapes.FONT}"
        canvas.text_align = _ALIGN[item.anchor]
        canvas.text_baseline = "alphabetic"
        canvas.fill_style = item.fill
        canvas.fill_text(item.text, _r(item.x), _r(item.y))
    else:
        raise TypeError(f"cannot paint {item!r}")


def _hold(canvas: Any):
    """Batch the commands for a real ipycanvas Canvas; a stand-in needs no batching."""
    try:
        from ipycanvas import Canvas, hold_canvas
    except ImportError:  # pragma: no cover - ipycanvas is a dependency; a recorder works without it
        return contextlib.nullcontext()
    return hold_canvas() if isinstance(canvas, Canvas) else contextlib.nullcontext()


def paint_scene(canvas: Any, scene: shapes.Scene, *, clear: bool = True, batch: bool = True) -> None:
    """Paint a :class:`~setwidgets.draw.shapes.Scene` on a canvas, in one batch.

    ``canvas`` is an ipycanvas ``Canvas`` (or anything with the same methods,
    such as :class:`CommandRecorder`). Scene units are canvas pixels.
    ``batch=False`` is for a caller that already holds the canvas to send
    several paints as one message (ipycanvas sends the batch when any
    ``hold_canvas()`` ends, even one inside another).
    """
    with _hold(canvas) if batch else contextlib.nullcontext():
        if clear:
            canvas.clear()
        if scene.background:
            canvas.fill_style = scene.background
            canvas.fill_rect(0, 0, _r(scene.width), _r(scene.height))
        canvas.line_join = "round"
        for placed in scene.cards:
            canvas.save()
            canvas.translate(_r(placed.x), _r(placed.y))
            if placed.scale != 1:
                canvas.scale(placed.scale)
            for item in scene.items(placed):
                _paint_item(canvas, item)
            canvas.restore()


class CommandRecorder:
    """A stand-in canvas that records calls and attribute settings instead of drawing.

    ``recorder.commands`` is a list of ``(name, args)``; setting an attribute
    records ``("set " + name, (value,))``. Handy to test painters without a browser::

        >>> from setwidgets.draw import shapes
        >>> rec = CommandRecorder()
        >>> paint_scene(rec, shapes.scene(["1RSO"]))
        >>> rec.count("fill_text")
        0
    """

    def __init__(self, width: int = 700, height: int = 500) -> None:
        object.__setattr__(self, "commands", [])
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def record(*args):
            self.commands.append((name, args))

        return record

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("width", "height"):
            object.__setattr__(self, name, value)
            return
        self.commands.append(("set " + name, (value,)))

    def count(self, name: str) -> int:
        """How many times a method was called (or, as "set x", an attribute set)."""
        return sum(1 for n, _ in self.commands if n == name)

    def calls(self, name: str) -> list[tuple]:
        """The arguments of every call of one method."""
        return [args for n, args in self.commands if n == name]
