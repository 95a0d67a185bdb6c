"""Card pictures: one geometry, two painters.

- :mod:`setwidgets.draw.shapes`: symbols, stripes, cards and layouts as plain data;
- :mod:`setwidgets.draw.paths`: the outlines they are made of, and the sums on them;
- :mod:`setwidgets.draw.svg`: static SVG pictures (notebooks, files, feedback);
- :mod:`setwidgets.draw.canvas`: the same pictures on a live ipycanvas Canvas;
- :mod:`setwidgets.draw.themes`: how the features look ("classic", "colorblind", "printable");
- :mod:`setwidgets.draw.charts`: a matplotlib chart shown with the words that say what it shows.

The SVG side needs nothing but Python; only :mod:`setwidgets.draw.canvas`
touches ipycanvas, and only when a canvas is handed to it.
"""

from setwidgets.draw.charts import Chart, chart
from setwidgets.draw.svg import CardRow, card_svg, cards_html, cards_svg, show
from setwidgets.draw.themes import THEMES, Theme, get_theme

__all__ = [
    "THEMES",
    "CardRow",
    "Chart",
    "Theme",
    "card_svg",
    "cards_html",
    "cards_svg",
    "chart",
    "get_theme",
    "show",
]
