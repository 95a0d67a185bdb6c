"""How long does a click on the board take to show, in a real browser?

A Board(Game(seed=3)) runs in JupyterLab in Debian's Chromium. Timed inside the
page, from the mouse going down to the first changed pixels on the canvas:

- a click on a card: the click travels to the kernel, the Board selects the
  card and sends the whole table again as one batch of canvas commands;
- "New game": a new deal and a full redraw of the table.

The baseline, in the same page and the same run, is a bare ipycanvas canvas
that fills one rectangle when clicked: the round trip browser -> kernel ->
browser with almost no drawing. The ratio Board / baseline is the cost of the
Board's own work (game logic, scene, drawing), whatever the machine's speed.

Run it with ``python benchmarks/bench_browser.py`` (or ``python3 course.py bench``);
``--clicks`` and ``--redraws`` set how many times each is timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser.harness import (  # noqa: E402 - the harness lives with the browser tests
    HarnessError,
    NotebookPage,
    launch_chromium,
    percentile,
    python_cells,
    start_lab,
    write_notebook,
)

SEED = 3
WARM_UP = 3
CELLS = python_cells(
    f"""
    from setwidgets import Game
    from setwidgets.widgets import Board

    board = Board(Game(seed={SEED}))
    board
    """,
    """
    from ipycanvas import Canvas

    # The baseline: one rectangle, filled in another color at each click.
    baseline = Canvas(width=200, height=100)
    baseline.add_class("baseline")
    COLORS = ["#e0201b", "#0f9a3c"]
    clicks = 0

    def paint():
        baseline.fill_style = COLORS[clicks % 2]
        baseline.fill_rect(0, 0, 200, 100)

    def clicked(x, y):
        global clicks
        clicks += 1
        paint()

    baseline.on_client_ready(paint)
    baseline.on_mouse_down(clicked)
    baseline
    """,
    """
    print(board.card_rects[0])
    """,
)


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name:<34} median {statistics.median(times):7.1f} ms   95th pct {percentile(times, 95):7.1f} ms"
        f"   min {min(times):7.1f}   max {max(times):7.1f}   (n={len(times)})"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="timed clicks on a card (and on the baseline)")
    parser.add_argument("--redraws", type=int, default=10, help="timed New game redraws")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp:
        root, work = Path(tmp, "root"), Path(tmp, "work")
        root.mkdir()
        work.mkdir()
        write_notebook(root / "bench.ipynb", CELLS)
        try:
            lab_server = start_lab(root, work)
        except HarnessError as error:
            print(error, file=sys.stderr)
            return 1
        with lab_server as lab, sync_playwright() as playwright:
            try:
                browser = launch_chromium(playwright)
            except HarnessError as error:
                print(error, file=sys.stderr)
                return 1
            nb = NotebookPage(browser.new_page(viewport={"width": 1280, "height": 1000}), lab)
            nb.open("bench.ipynb")
            nb.run_all()
            board = nb.canvas(".setw-board canvas")
            baseline = nb.canvas("canvas.baseline")
            nb.wait_painted(board, min_pixels=10_000)
            nb.wait_painted(baseline, min_pixels=10_000)
            card = tuple(float(v) for v in nb.cell_output(2).strip("()\n ").split(","))

            def click_card() -> None:
                nb.click_rect_centre(board, card)

            def click_baseline() -> None:
                nb.click_canvas(baseline, 100, 50)

            new_game = nb.button("New game", within=".setw-board")

            # Each click on the same card selects it, the next one deselects it: the pixels
            # change every time and three cards are never selected, so no claim is made.
            card_times, baseline_times, redraw_times = [], [], []
            for i in range(WARM_UP + args.clicks):
                card_ms = nb.time_to_change(board, click_card, card)
                base_ms = nb.time_to_change(baseline, click_baseline)
                if i >= WARM_UP:
                    card_times.append(card_ms)
                    baseline_times.append(base_ms)
            if len(card_times) % 2:  # leave the card deselected before the new games
                nb.time_to_change(board, click_card, card)
            # A thin strip across the middle row of cards: a new deal changes it, and polling it
            # is cheap (the whole canvas would take the page milliseconds per look).
            width, height = nb.canvas_size(board)
            strip = (0, height // 2 - 2, width, 4)
            for i in range(WARM_UP + args.redraws):
                ms = nb.time_to_change(board, new_game.click, strip, trigger=new_game, event="click")
                if i >= WARM_UP:
                    redraw_times.append(ms)
            browser.close()

    print("Browser: Debian Chromium (headless), JupyterLab, one kernel; times from input to changed pixels")
    print(summary("baseline canvas click (round trip)", baseline_times))
    print(summary("Board: click on a card", card_times))
    print(summary("Board: New game (full redraw)", redraw_times))
    base = statistics.median(baseline_times)
    print(f"ratio card click / baseline (medians): {statistics.median(card_times) / base:.2f}")
    print(f"ratio New game / baseline (medians):   {statistics.median(redraw_times) / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
