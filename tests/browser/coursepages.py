"""The course's own notebooks (lessons, release copies) in JupyterLab: run them, read them back.

:class:`CoursePage` wraps a :class:`~harness.NotebookPage` showing one of the
course's notebook files. It reads what the page holds in three ways:

- the notebook model of the page (``cells()``): execution counts and outputs as
  JupyterLab keeps them, with the error names of cells that raised;
- the page itself: the rendered outputs, the widgets and their canvases;
- the kernel (``kernel_widgets()``): the state of every card widget the notebook
  made, asked for in Python, so the page can be held to what the kernel shows.

Text is read with ``textContent``: JupyterLab renders cells away from the
viewport with ``content-visibility: auto``, and ``innerText`` of such a cell is
empty.
"""

from __future__ import annotations

import json
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from setwidgets.cards import Card
from setwidgets.draw.themes import get_theme

from .harness import HarnessError, NotebookPage, rgb, screenshot_path
from .painted import Still, assert_card_shown, assert_frames, inset

STDERR = "application/vnd.jupyter.stderr"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SVG = "image/svg+xml"

# The CSS class each card widget puts on its outermost element.
WIDGET_CLASSES = {
    "Board": "setw-board",
    "MagicRuleChecker": "setw-checker",
    "ThirdCardExplorer": "setw-explorer",
    "CardTable": "setw-table",
    "LinesExplorer": "setw-lines",
    "PlaneBuilder": "setw-plane",
}

# Run every cell in turn, as a student pressing Shift+Enter down the notebook: unlike Run All,
# this goes on after a cell raised (an exercise before the student's answers raises on purpose).
_JS_RUN_EACH = """async (ms) => {
    const app = window.jupyterapp, notebook = app.shell.currentWidget.content;
    const deadline = Date.now() + ms;
    for (let i = 0; i < notebook.widgets.length; i++) {
        notebook.activeCellIndex = i;
        notebook.deselectAll();
        const timer = new Promise(done => setTimeout(() => done(false), Math.max(0, deadline - Date.now())));
        const ran = app.commands.execute('notebook:run-cell').then(() => true);
        if (!(await Promise.race([ran, timer]))) return `cell ${i} had not finished after ${ms} ms`;
    }
    return null;
}"""
_JS_MODEL = "() => window.jupyterapp.shell.currentWidget.context.model.toJSON()"
# Run code in the notebook's kernel without touching the notebook (no cell, no execution count)
# and return what it printed, or its error.
_JS_KERNEL_RUN = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let out = '';
    future.onIOPub = msg => {
        const c = msg.content;
        if (msg.header.msg_type === 'stream') out += c.text;
        if (msg.header.msg_type === 'error') out += `${c.ename}: ${c.evalue}`;
    };
    await future.done;
    return out;
}"""
_JS_CODE_PROMPTS = (
    "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent)"
)

# Asked in the kernel: every card widget the notebook made, in the order it made them.
_KERNEL_WIDGETS = textwrap.dedent(
    """
    def _setw_report():
        import json
        from ipywidgets.widgets.widget import _instances
        from setwidgets.widgets import (
            Board, CardTable, LinesExplorer, MagicRuleChecker, PlaneBuilder, ThirdCardExplorer
        )

        kinds = (Board, CardTable, LinesExplorer, MagicRuleChecker, PlaneBuilder, ThirdCardExplorer)
        rows = []
        for widget in list(_instances.values()):
            if not isinstance(widget, kinds):
                continue
            row = {
                "kind": type(widget).__name__,
                "rects": [list(r) for r in widget.card_rects],
                "highlights": {str(p): h for p, h in widget.highlights.items()},
                "size": [widget.canvas.width, widget.canvas.height],
                "theme": widget.theme.name,
            }
            if isinstance(widget, Board):
                row["cards"] = [card.code for card in widget.game.table]
                row["texts"] = {"setw-status": widget.status, "setw-scores": widget.scores}
            elif isinstance(widget, CardTable):
                row["cards"] = [card.code for card in widget.cards]
                row["texts"] = {}
            elif isinstance(widget, (LinesExplorer, PlaneBuilder)):
                # A line is drawn across its cards: the cards off every line are read back,
                # and (in the same order) their rectangles and frames. The lines themselves
                # are read back in test_geometry.py.
                # The whole deck's cards are too small (a third of a card's size) to read back.
                cells, _, scale = widget._cells()
                on_lines = {card for line in widget.lines for card in line}
                off = [
                    p
                    for p, card in enumerate(cells)
                    if card is not None and card not in on_lines and scale >= 0.45
                ]
                row["cards"] = [cells[p].code for p in off]
                row["rects"] = [list(widget.card_rects[p]) for p in off]
                kept = widget.highlights
                row["highlights"] = {str(i): kept[p] for i, p in enumerate(off) if p in kept}
                row["texts"] = {}
            elif isinstance(widget, MagicRuleChecker):
                row["cards"] = [card.code for card in widget.cards]
                row["texts"] = {"setw-verdict": str(widget.verdict)}
            else:
                third = widget.third
                row["cards"] = [card.code for card in widget.cards] + ([third.code] if third else [])
                answer = f"The third card is {third.name}." if third else widget.text.splitlines()[0]
                row["texts"] = {"setw-third": answer}
            rows.append(row)
        print(json.dumps(rows))


    _setw_report()
    del _setw_report
    """
)


@dataclass
class KernelWidget:
    """What the kernel says one card widget shows."""

    kind: str
    cards: list[str]
    rects: list[list[float]]
    highlights: dict[int, str]
    size: list[int]
    theme: str
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def css(self) -> str:
        return WIDGET_CLASSES[self.kind]


@dataclass
class Outputs:
    """The outputs of one code cell, as the page's notebook model holds them."""

    index: int
    execution_count: int | None
    outputs: list[dict[str, Any]]
    source: str

    @property
    def errors(self) -> list[str]:
        """The names of the exceptions the cell raised, such as 'NotImplementedError'."""
        return [o["ename"] for o in self.outputs if o["output_type"] == "error"]

    @property
    def error_lines(self) -> list[str]:
        """Each error as 'Name: message', for failure messages."""
        return [f"{o['ename']}: {o['evalue']}" for o in self.outputs if o["output_type"] == "error"]

    @property
    def stderr(self) -> list[str]:
        """Text the cell wrote to stderr (warnings, for instance)."""
        return [
            "".join(o["text"]) for o in self.outputs if o["output_type"] == "stream" and o["name"] == "stderr"
        ]

    def count(self, mime: str, without: str | None = None) -> int:
        """How many outputs offer ``mime`` (and not ``without``)."""
        return sum(
            1
            for o in self.outputs
            if mime in o.get("data", {}) and (without is None or without not in o.get("data", {}))
        )


class CoursePage:
    """A course notebook open in JupyterLab; see the module docstring."""

    def __init__(self, nb: NotebookPage) -> None:
        self.nb = nb
        self.page = nb.page

    # -- running ---------------------------------------------------------------------------------

    def run_each_cell(self, timeout: float = 180.0) -> None:
        """Run the cells one after another, going on past errors, and wait until all have run."""
        problem = self.page.evaluate(_JS_RUN_EACH, timeout * 1000)
        if problem:
            raise HarnessError(f"running the cells one by one: {problem}; prompts: {self.nb.prompts()}")
        self.wait_all_ran(timeout)

    def wait_all_ran(self, timeout: float = 180.0) -> None:
        """Wait until every code cell shows an execution count and the kernel is idle."""
        done = "p => p.length > 0 && p.every(t => /\\[\\d+\\]/.test(t))"
        try:
            self.page.wait_for_function(f"() => ({done})(({_JS_CODE_PROMPTS})())", timeout=timeout * 1000)
        except Exception:
            raise HarnessError(f"not every cell ran; prompts: {self.nb.prompts()}") from None
        self.nb.wait_kernel_idle(timeout)

    # -- the notebook model ------------------------------------------------------------------------

    def model(self) -> dict[str, Any]:
        """The notebook as the page holds it now (nbformat JSON, outputs included)."""
        return self.page.evaluate(_JS_MODEL)

    def code_cells(self) -> list[Outputs]:
        """The code cells with their outputs; ``index`` counts all cells, markdown ones too."""
        return [
            Outputs(i, cell.get("execution_count"), cell.get("outputs", []), _text(cell.get("source", "")))
            for i, cell in enumerate(self.model()["cells"])
            if cell["cell_type"] == "code"
        ]

    # -- the page ----------------------------------------------------------------------------------

    def rendered(self, mime: str) -> Any:
        """A locator for the rendered outputs of this MIME type."""
        return self.page.locator(f".jp-OutputArea-output[data-mime-type='{mime}']")

    def pictures(self) -> list[tuple[bool, int, int]]:
        """For each rendered SVG output: whether its image loaded, and its natural width and height.

        setwidgets gives its SVG pictures an HTML twin (an ``<img class="setw-picture">`` with alt
        text), which JupyterLab shows in the SVG's place: those count as the SVG output they stand for.
        """
        shown = self.page.locator(
            f".jp-OutputArea-output[data-mime-type='{SVG}'], "
            ".jp-OutputArea-output[data-mime-type='text/html']:has(img.setw-picture)"
        )
        return [
            tuple(p)
            for p in shown.evaluate_all(
                """els => els.map(el => {
                    const img = el.querySelector('img');
                    return img ? [img.complete, img.naturalWidth, img.naturalHeight] : [false, 0, 0];
                })"""
            )
        ]

    def page_text(self) -> str:
        """The notebook's text, cells away from the viewport included."""
        return self.page.locator(".jp-Notebook").first.evaluate("el => el.textContent")

    def widget(self, kind_css: str, nth: int) -> Any:
        return self.page.locator(f"div.{kind_css}").nth(nth)

    def widget_text(self, kind_css: str, nth: int, part_css: str) -> str:
        """The text of one part (status line, verdict, ...) of the ``nth`` widget of a kind."""
        return (
            self.widget(kind_css, nth).locator(f".{part_css}").first.evaluate("el => el.textContent.trim()")
        )

    def widget_canvas(self, kind_css: str, nth: int) -> Any:
        # The widget's own canvas: a checker may hold a card table's canvas above its own.
        canvas = self.widget(kind_css, nth).locator(f"canvas.{kind_css}-canvas").first
        canvas.wait_for(state="attached", timeout=60_000)
        return canvas

    # -- the kernel ------------------------------------------------------------------------------

    def kernel_run(self, code: str) -> str:
        """Run ``code`` in the notebook's kernel, outside the notebook; return what it printed."""
        return self.page.evaluate(_JS_KERNEL_RUN, code)

    def kernel_widgets(self) -> list[KernelWidget]:
        """Every card widget the notebook made (see WIDGET_CLASSES), oldest first."""
        out = self.kernel_run(_KERNEL_WIDGETS)
        try:
            rows = json.loads(out)
        except json.JSONDecodeError:
            raise HarnessError(f"the kernel did not list its widgets:\n{out}") from None
        for row in rows:
            row["highlights"] = {int(p): h for p, h in row["highlights"].items()}
        return [KernelWidget(**row) for row in rows]

    # -- widgets against the kernel -----------------------------------------------------------------

    def assert_widget_shown(self, widget: KernelWidget, nth: int) -> None:
        """Fail unless the ``nth`` widget of its kind shows the kernel's cards, frames and text."""
        theme = get_theme(widget.theme)
        canvas = self.widget_canvas(widget.css, nth)
        where = f"{widget.kind} {nth + 1}"
        assert self.nb.canvas_size(canvas) == tuple(round(v) for v in widget.size), (
            f"{where}: the canvas is {self.nb.canvas_size(canvas)} pixels; the kernel drew {widget.size}"
        )
        shown = Still(self.nb, canvas)  # every card and frame below is read from this one reading
        assert len(widget.rects) == len(widget.cards), f"{where}: {widget}"
        for position, (code, rect) in enumerate(zip(widget.cards, widget.rects)):
            label = f"{where}, card {position + 1}"
            highlight = widget.highlights.get(position)
            # A framed card is tinted; the others show the theme's card color.
            paper = theme.highlights[highlight][1] if highlight else theme.card
            x, y, w, h = inset(rect, 6)
            share = shown.count_color(canvas, paper, (x, y, w, h)) / (int(w) * int(h))
            assert share > 0.3, f"{label}: only {share:.0%} of it has the card's color {paper}"
            assert_card_shown(
                shown,
                canvas,
                rect,
                Card.parse(code),
                theme,
                where=label,
                highlight=highlight,
            )
        assert_frames(shown, canvas, widget.rects, widget.highlights, theme)
        for part, expected in widget.texts.items():
            text = self.widget_text(widget.css, nth, part)
            assert text == expected, f"{where}: .{part} shows {text!r}; the kernel says {expected!r}"

    def wait_painted(self, widget: KernelWidget, nth: int, timeout: float = 60.0) -> int:
        """Wait until the ``nth`` widget of its kind has paint on its canvas; fail if it stays blank."""
        canvas = self.widget_canvas(widget.css, nth)
        background = rgb(get_theme(widget.theme).table) if widget.kind == "Board" else (255, 255, 255)
        try:
            return self.nb.wait_painted(canvas, min_pixels=5000, background=background, timeout=timeout)
        except Exception as error:  # Playwright's TimeoutError
            ink = self.nb.ink(canvas, background=background)
            raise AssertionError(
                f"{widget.kind} {nth + 1}: its canvas stayed (nearly) blank for {timeout} s, "
                f"{ink} pixels painted: {type(error).__name__}"
            ) from None

    def check_widgets(self, attempts: int = 4, pause: float = 2.0) -> list[KernelWidget]:
        """Hold every card widget of the page to the kernel's state; return the kernel's widgets.

        A board with a bot changes on its own (and flashes a taken SET before dealing): a
        check that fails is tried again with fresh state from the kernel, a few times.
        """
        widgets = self.kernel_widgets()
        # div: a static picture's table background is an SVG <rect class="setw-table">, not a CardTable.
        seen = {css: self.page.locator(f"div.{css}").count() for css in WIDGET_CLASSES.values()}
        made = {css: sum(w.css == css for w in widgets) for css in WIDGET_CLASSES.values()}
        assert seen == made, f"widgets on the page {seen}; widgets the kernel made {made}"
        for index, widget in enumerate(widgets):
            self.wait_painted(widget, sum(w.css == widget.css for w in widgets[:index]))
        for index in range(len(widgets)):
            self._retry(lambda i=index: self._check_one(i), attempts, pause)
        return widgets

    def _check_one(self, index: int) -> None:
        widgets = self.kernel_widgets()
        widget = widgets[index]
        nth = sum(w.css == widget.css for w in widgets[:index])
        self.assert_widget_shown(widget, nth)

    @staticmethod
    def _retry(check: Callable[[], None], attempts: int, pause: float) -> None:
        for attempt in range(attempts):
            try:
                check()
                return
            except AssertionError:
                if attempt == attempts - 1:
                    raise
                time.sleep(pause)

    # -- pictures ----------------------------------------------------------------------------------

    def screenshot_whole(self, name: str, limit: int = 16_000) -> Path:
        """A screenshot of the whole notebook: the page is made as tall as the notebook for it."""
        page = self.page
        size = page.viewport_size
        scroller = page.locator(".jp-NotebookPanel .jp-WindowedPanel-outer").first
        extra, height = scroller.evaluate("el => [window.innerHeight - el.clientHeight, el.scrollHeight]")
        page.set_viewport_size({"width": size["width"], "height": min(limit, height + extra)})
        try:
            page.wait_for_timeout(500)
            scroller.evaluate("el => el.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            # Below the last cell JupyterLab leaves room to scroll past the end: leave it out.
            bottom = page.locator(".jp-Notebook .jp-Cell").last.evaluate(
                "el => el.getBoundingClientRect().bottom"
            )
            clip = {
                "x": 0,
                "y": 0,
                "width": size["width"],
                "height": min(page.viewport_size["height"], bottom + 16),
            }
            path = screenshot_path(name)
            page.screenshot(path=str(path), clip=clip)
        finally:
            page.set_viewport_size(size)
        return path

    def screenshot_widget_cells(self, prefix: str) -> list[str]:
        """A screenshot of each cell showing a card widget (code and output); returns the names."""
        names = []
        cells = self.page.locator(".jp-Notebook .jp-CodeCell").filter(
            has=self.page.locator(", ".join(f"div.{css}" for css in WIDGET_CLASSES.values()))
        )
        for i in range(cells.count()):
            cell = cells.nth(i)
            cell.scroll_into_view_if_needed()
            self.page.wait_for_timeout(200)
            name = f"{prefix}-widget{i + 1}"
            cell.screenshot(path=str(screenshot_path(name)))
            names.append(name)
        return names


def _text(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)
