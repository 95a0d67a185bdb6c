"""Draw docs/board.png, the picture at the top of the README, with the package's own drawing code.

The board is ``Board(seed=1)``'s static picture (``Board.svg()``, the SVG a saved notebook shows),
turned into pixels by Debian's Chromium at twice the size, for sharp text on high-density screens.
Run from the repository after ``python3 course.py test`` (which installs playwright and Chromium):

    .venv/bin/python docs/board_png.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from setwidgets import Board

PNG = Path(__file__).resolve().parent / "board.png"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def main() -> None:
    svg = Board(seed=1).svg()
    page = f"<!DOCTYPE html><body style='margin:0;background:white'><div id=board>{svg}</div></body>"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            tab = browser.new_page(device_scale_factor=2)
            tab.set_content(page)
            tab.locator("#board svg").first.screenshot(path=str(PNG))
        finally:
            browser.close()
    print(f"wrote {PNG}")


if __name__ == "__main__":
    main()
