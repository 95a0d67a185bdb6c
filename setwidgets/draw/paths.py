"""Paths: outlines as plain data, and the few sums a painter needs on them.

A *path* is a tuple of commands, each a tuple whose first item says what it is:

- ``("M", x, y)``: move to a point (start a new outline);
- ``("L", x, y)``: straight line to a point;
- ``("C", x1, y1, x2, y2, x, y)``: cubic Bezier curve with two control points;
- ``("Z",)``: close the outline.

These four are enough for every shape (a circle is four curves) and both SVG and
the canvas API have exactly these commands. Nothing here knows about cards:
:mod:`setwidgets.draw.shapes` builds the symbols and the cards from these paths.

>>> square = polygon_path([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])
>>> bounds(square), point_in_polygon(1.0, 1.0, flatten(square)[0])
((0.0, 0.0, 4.0, 4.0), True)
>>> stripes(square, spacing=2.0)
((0.0, 1.0, 4.0, 1.0), (0.0, 3.0, 4.0, 3.0))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

__all__ = [
    "STRIPE_SPACING",
    "Command",
    "Path",
    "bounds",
    "circle_path",
    "flatten",
    "hexagon_path",
    "moved",
    "point_in_polygon",
    "polygon_path",
    "rounded_rect",
    "stripes",
    "transformed",
]

Command = tuple
Path = tuple[Command, ...]

STRIPE_SPACING = 5.0
"""The space between two stripes of a striped symbol, in card units."""

KAPPA = 0.5522847498
"""A quarter circle of radius r is a cubic curve whose control arms are ``KAPPA * r`` long."""


def transformed(path: Iterable[Command], fx: Callable[[float, float], tuple[float, float]]) -> Path:
    """Apply a point function ``fx(x, y) -> (x, y)`` to every point of a path."""
    out = []
    for command in path:
        op, numbers = command[0], command[1:]
        points = [fx(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
        out.append((op, *(round(v, 3) for point in points for v in point)))
    return tuple(out)


def moved(path: Iterable[Command], dx: float, dy: float) -> Path:
    """The path moved ``dx`` to the right and ``dy`` down."""
    return transformed(path, lambda x, y: (x + dx, y + dy))


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Path:
    """A rectangle with rounded corners of radius ``r``, as a path."""
    r = min(r, w / 2, h / 2)
    k = r * KAPPA
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
        ("L", x + w, y + h - r),
        ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
        ("L", x + r, y + h),
        ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
        ("L", x, y + r),
        ("C", x, y + r - k, x + r - k, y, x + r, y),
        ("Z",),
    )


def circle_path(cx: float, cy: float, r: float) -> Path:
    """A circle of radius ``r`` around (cx, cy): four curves."""
    k = r * KAPPA
    return (
        ("M", cx, cy - r),
        ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ("Z",),
    )


def polygon_path(points: Sequence[tuple[float, float]]) -> Path:
    """The closed outline through ``points``, in order."""
    first, *rest = points
    return (("M", *first), *(("L", *p) for p in rest), ("Z",))


def hexagon_path(cx: float, cy: float, r: float) -> Path:
    """A regular hexagon whose corners lie ``r`` from (cx, cy), the first one to the right."""
    return polygon_path(
        [(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)]
    )


def _cubic(p0, p1, p2, p3, t: float) -> tuple[float, float]:
    u = 1 - t
    return (
        u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
        u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    )


def flatten(path: Path, steps: int = 16) -> list[list[tuple[float, float]]]:
    """The path as polygons (one list of points per outline); each curve becomes ``steps`` lines."""
    polygons: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    for command in path:
        op = command[0]
        if op == "M":
            if current:
                polygons.append(current)
            current = [(command[1], command[2])]
        elif op == "L":
            current.append((command[1], command[2]))
        elif op == "C":
            p0 = current[-1]
            p1, p2, p3 = (command[1], command[2]), (command[3], command[4]), (command[5], command[6])
            current.extend(_cubic(p0, p1, p2, p3, i / steps) for i in range(1, steps + 1))
        elif op == "Z":
            if current and current[0] != current[-1]:
                current.append(current[0])
        else:
            raise ValueError(f"unknown path command {op!r}; expected 'M', 'L', 'C' or 'Z'")
    if current:
        polygons.append(current)
    return polygons


def bounds(path: Path) -> tuple[float, float, float, float]:
    """The smallest box ``(x0, y0, x1, y1)`` holding the drawn outline (not the control points)."""
    points = [p for polygon in flatten(path, 32) for p in polygon]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def point_in_polygon(x: float, y: float, polygon: Sequence[tuple[float, float]]) -> bool:
    """True when (x, y) lies inside the closed polygon (even-odd rule)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def stripes(path: Path, spacing: float = STRIPE_SPACING) -> tuple[tuple[float, float, float, float], ...]:
    """Horizontal stripes across a shape, already cut to its outline.

    Each stripe is a segment ``(x1, y, x2, y)`` that lies inside the shape, so a
    painter needs no clipping: draw the segments, then the outline on top.
    """
    polygons = flatten(path, 24)
    _, y0, _, y1 = bounds(path)
    count = int((y1 - y0) / spacing)
    start = y0 + ((y1 - y0) - (count - 1) * spacing) / 2
    segments = []
    for i in range(count):
        y = start + i * spacing
        crossings = []
        for polygon in polygons:
            for (xa, ya), (xb, yb) in zip(polygon, [*polygon[1:], polygon[0]]):
                if (ya > y) != (yb > y):
                    crossings.append(xa + (y - ya) * (xb - xa) / (yb - ya))
        crossings.sort()
        for xa, xb in zip(crossings[::2], crossings[1::2]):
            segments.append((round(xa, 3), round(y, 3), round(xb, 3), round(y, 3)))
    return tuple(segments)
