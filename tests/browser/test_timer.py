"""The round timer in a real JupyterLab: it counts down, a pause holds it, and it flashes red at zero.

The notebook shows ``Timer(minutes=0.15)``, a nine-second round (long enough to pause it before
its end on a loaded machine, short enough that the test waits little). The test presses Start
as a teacher would, sees the seconds go by (in the page's words for screen readers and
in the canvas's pixels), pauses and sees the time held, resumes with the space bar
(which must not reach JupyterLab), and waits for the end: the canvas turns red, says
"Time!", and an ``<audio>`` element beeps (this browser allows sound after a click on the page).
"""

from __future__ import annotations

import pytest

from setwidgets.widgets.timer import FLASH, HEIGHT, WIDTH

from .harness import python_cells

pytestmark = pytest.mark.browser

ROOT = ".setw-timer"
WORDS = f"{ROOT} .setw-timer-words"


def cells_now(nb) -> list[str]:
    """The notebook's cells as the page shows them: a key that reached JupyterLab changes them."""
    return nb.page.evaluate(
        "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(c => c.className + "
        "(c.querySelector('.jp-InputArea-editor')?.textContent ?? ''))"
    )


def test_the_timer_counts_down_holds_a_pause_and_flashes_red_at_the_end(notebook_page) -> None:
    nb = notebook_page(
        "timer.ipynb",
        python_cells(
            """
            from setwidgets.widgets import Timer

            timer = Timer(minutes=0.15)
            timer
            """
        ),
    )
    canvas = nb.canvas(f"{ROOT} canvas")
    nb.wait_painted(canvas, min_pixels=2_000)
    assert nb.canvas_size(canvas) == (WIDTH, HEIGHT)
    ready = nb.wait_text(WORDS, "00:09")
    assert "Press Start" in ready
    nb.screenshot("timer-01-ready", selector=ROOT)

    nb.click_button("Start", within=ROOT)
    nb.wait_text(WORDS, "00:08", timeout=20)
    before = nb.digest(canvas)
    nb.wait_changed(canvas, before, timeout=5)  # the next second, in pixels

    nb.click_button("Pause", within=ROOT)
    held = nb.wait_text(WORDS, "Paused")
    nb.button("Resume", within=ROOT).wait_for()
    pixels = nb.digest(canvas)
    nb.page.wait_for_timeout(2_500)
    assert nb.text(WORDS) == held and nb.digest(canvas) == pixels, "a pause holds the time"
    seconds = int(held.split()[0].split(":")[1])
    assert 1 <= seconds <= 8, held
    nb.screenshot("timer-02-paused", selector=ROOT)

    # The Pause button gave the keyboard back to the clock: the space bar resumes, and no key
    # reaches JupyterLab.
    cells = cells_now(nb)
    assert nb.page.locator(f"{ROOT} canvas:focus").count() == 1
    nb.page.keyboard.press(" ")
    nb.wait_text(WORDS, f"00:{seconds - 1:02d}", timeout=10)
    assert cells_now(nb) == cells

    red = WIDTH * HEIGHT // 2
    nb.wait_color(canvas, FLASH, min_pixels=red, timeout=30)
    assert "00:00" in nb.wait_text(WORDS, "Time!")
    audio = nb.page.locator(f"{ROOT} .setw-timer-sound audio")
    assert audio.count() == 1
    # The beep decodes, and this browser plays it: the page was clicked (Start), so it may.
    assert audio.evaluate("a => a.src.startsWith('data:audio/wav;base64,') && a.error === null")
    nb.page.wait_for_function(
        "a => a.readyState > 0 && a.duration > 0.5 && (a.currentTime > 0 || a.ended)",
        arg=audio.element_handle(),
    )
    nb.page.wait_for_timeout(3_000)  # the flash is over: the clock stays red
    assert nb.count_color(canvas, FLASH) >= red
    assert nb.button("Start", within=ROOT).is_visible()
    nb.screenshot("timer-03-time-up", selector=ROOT)
