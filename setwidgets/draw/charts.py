"""Charts with words: a matplotlib figure shown as a picture that a screen reader can read.

JupyterLab, Notebook 7 and nbconvert show a figure that matplotlib hands to the notebook as an
``<img>`` with no ``alt``: a screen reader says "image" and nothing of what the chart shows.
:func:`chart` turns a figure into a :class:`Chart`, which a notebook shows as an HTML ``<img>``
whose ``alt`` is a sentence that says what the chart shows (the same picture also goes into the
output as a PNG, for exports that take no HTML, such as a PDF). The lessons end every cell that
draws a chart with it::

    fig, ax = plt.subplots()
    ax.bar(values, shares)
    chart(fig, f"Bar chart of the share of tables by SETs on them; the tallest bar is at {common}.")

The figure is closed, so matplotlib's own inline display does not show it a second time
without words.
"""

from __future__ import annotations

import base64
import io
import struct
from html import escape
from typing import Any

__all__ = ["Chart", "chart"]

SCALE = 2
"""The PNG holds this many pixels per CSS pixel shown: sharp on high-density screens."""


class Chart:
    """A finished chart: its PNG bytes (``png``), the words for it (``alt``), its size on the page.

    In a notebook it shows as ``<img alt="...">`` (``_repr_html_``); ``_repr_png_`` gives the
    same picture for front ends and exports that show no HTML.
    """

    def __init__(self, png: bytes, alt: str) -> None:
        if not isinstance(png, bytes) or not png.startswith(b"\x89PNG\r\n\x1a\n"):
            raise TypeError(f"Chart() takes the bytes of a PNG picture; got {type(png).__name__}")
        self.png = png
        self.alt = _words(alt, "Chart()")
        # A PNG's width and height are the two numbers after its IHDR chunk's name.
        width, height = struct.unpack(">II", png[16:24])
        self.width, self.height = round(width / SCALE), round(height / SCALE)

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png).decode("ascii")
        return (
            f'<img class="setw-chart" alt="{escape(self.alt, quote=True)}" width="{self.width}" '
            f'height="{self.height}" style="max-width:100%;height:auto" src="data:image/png;base64,{data}">'
        )

    def _repr_png_(self) -> bytes:
        return self.png

    def __repr__(self) -> str:
        return f"Chart({self.alt!r})"


def chart(figure: Any, alt: str) -> Chart:
    """Show a matplotlib figure with ``alt``, a sentence that says what it shows.

    ``figure`` is a matplotlib Figure, or one of its Axes (``tally.plot()`` returns one).
    ``alt`` is what a screen reader says instead of the picture: the kind of chart, what is
    counted, and what a reader sees in it (the tallest bar, a line, a gap). The figure is
    closed afterwards, so it is not shown a second time. Put ``chart(...)`` last in the cell.
    """
    fig = getattr(figure, "figure", None) if not hasattr(figure, "savefig") else figure
    if fig is None or not hasattr(fig, "savefig"):
        raise TypeError(
            f"chart() takes a matplotlib Figure or Axes to show; got {type(figure).__name__} "
            "(make one with fig, ax = plt.subplots())"
        )
    alt = _words(alt, "chart()")
    buffer = io.BytesIO()
    # The size matplotlib's inline display gives it (the figure's own dots per inch, cropped to
    # what is drawn), with SCALE times the pixels.
    fig.savefig(buffer, format="png", dpi=fig.dpi * SCALE, bbox_inches="tight")
    import matplotlib.pyplot as plt  # matplotlib is there: the figure came from it

    plt.close(fig)
    return Chart(buffer.getvalue(), alt)


def _words(alt: Any, where: str) -> str:
    if not isinstance(alt, str) or not alt.strip():
        raise ValueError(
            f"{where} needs alt, the words a screen reader says for the chart (what it shows); got {alt!r}"
        )
    return " ".join(alt.split())
