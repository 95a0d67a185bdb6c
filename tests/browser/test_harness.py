"""The harness itself: a plain ipycanvas notebook proves that pixels and clicks line up.

If these fail, the widget tests beside them cannot be trusted either way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import harness
from .harness import HarnessError, percentile, python_cells
from .painted import Still

PLAIN_CANVAS = python_cells(
    """
    import ipywidgets as widgets
    from ipycanvas import Canvas

    # Drawn at half the size it is shown at, so clicks must be scaled to hit the right pixel.
    canvas = Canvas(width=300, height=200, layout=widgets.Layout(width="600px"))
    clicks = widgets.HTML("no click yet")
    clicks.add_class("probe-clicks")

    def draw():
        canvas.fill_style = "white"
        canvas.fill_rect(0, 0, 300, 200)
        canvas.fill_style = "#ff0000"
        canvas.fill_rect(50, 50, 100, 60)

    def mouse_down(x, y):
        clicks.value = f"clicked {x:.1f},{y:.1f}"
        if 50 <= x < 150 and 50 <= y < 110:
            canvas.fill_style = "#0000ff"
            canvas.fill_rect(50, 50, 100, 60)

    canvas.on_client_ready(draw)
    canvas.on_mouse_down(mouse_down)
    widgets.VBox([canvas, clicks])
    """
)


def test_missing_chromium_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(harness, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(HarnessError, match="apt-get install -y chromium-headless-shell"):
        harness.require_chromium()


def test_percentile() -> None:
    assert percentile([3, 1, 2], 50) == 2
    assert percentile(range(1, 101), 95) == pytest.approx(95.05)
    with pytest.raises(ValueError, match="at least one value"):
        percentile([], 50)


@pytest.mark.browser
def test_plain_canvas_pixels_and_clicks(notebook_page) -> None:
    nb = notebook_page("plain_canvas.ipynb", PLAIN_CANVAS)
    canvas = nb.canvas(".jp-OutputArea canvas")
    assert nb.canvas_size(canvas) == (300, 200)
    box = canvas.bounding_box()
    assert box["width"] == pytest.approx(600, abs=1), "the canvas should be stretched to twice its size"

    # The red rectangle is exactly 100 x 60 canvas pixels; nothing else is painted.
    assert nb.wait_painted(canvas, min_pixels=6000) == 6000
    assert nb.pixel(canvas, 50, 50) == (255, 0, 0, 255)
    assert nb.pixel(canvas, 49, 50) == (255, 255, 255, 255)
    assert nb.colors(canvas, (50, 50, 100, 60)) == {(255, 0, 0): 6000}
    nb.screenshot("harness-plain-canvas-drawn")

    # A click outside the rectangle reaches the kernel with the pixel centre's coordinates.
    before = nb.digest(canvas)
    nb.click_canvas(canvas, 20, 30)
    assert clicked_pixel(nb.wait_text(".probe-clicks", "clicked")) == (20, 30)
    assert nb.digest(canvas) == before

    # The last pixel inside the rectangle; the page's stopwatch sees the blue arrive.
    elapsed = nb.time_to_change(canvas, lambda: nb.click_canvas(canvas, 149, 109), (50, 50, 100, 60))
    assert 0 < elapsed < 15_000
    assert nb.digest(canvas) != before
    assert clicked_pixel(nb.text(".probe-clicks")) == (149, 109)
    assert nb.colors(canvas, (50, 50, 100, 60)) == {(0, 0, 255): 6000}
    nb.screenshot("harness-plain-canvas-clicked")

    # The pixels read once (painted.Still) answer as the page does: the same rectangles, rounded
    # the same way, transparent beyond the canvas's edges.
    still = Still(nb, canvas)
    for rect in (None, (50, 50, 100, 60), (40.7, 45.2, 30.9, 20.5), (-5.5, -3, 20, 10), (290, 190, 20, 0.5)):
        assert still.colors(canvas, rect) == nb.colors(canvas, rect), rect
        for color in ("#0000ff", "#ffffff"):
            assert still.count_color(canvas, color, rect) == nb.count_color(canvas, color, rect), rect
        for near in (True, False):
            want = nb.color_mask(canvas, "#fff", rect, tolerance=30, near=near)
            assert still.color_mask(canvas, "#fff", rect, tolerance=30, near=near) == want, rect


def clicked_pixel(text: str) -> tuple[int, int]:
    """The canvas pixel a 'clicked x,y' line reports (the kernel gets fractional positions)."""
    x, y = text.removeprefix("clicked ").split(",")
    return int(float(x)), int(float(y))


def test_a_cell_that_raises_out_of_view_is_reported_at_once(notebook_page) -> None:
    """Run All stops at the error; the harness must say so, not wait for cells that never run."""
    cells = [f"print('line {i}\\n' * 20)" for i in range(30)] + ["1 / 0", "print('never')"]
    # A harness that waited for the cells that never run would end in Playwright's TimeoutError
    # after its 60 s, not in this HarnessError: no clock is needed to tell them apart.
    with pytest.raises(HarnessError, match="ZeroDivisionError"):
        notebook_page("raises_late.ipynb", cells)
