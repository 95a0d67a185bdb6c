"""The lessons as a read-only web site: static HTML with every output, no server needed.

``python3 course.py site`` (or ``python -m setwidgets.site LESSONS OUT``) runs each lesson top to
bottom in a fresh kernel, as a student would, and writes it as an HTML page into OUT with its
outputs: text, tables, charts, and each live widget as the static picture it carries for places
where no widget can run (an SVG of its board, with the lines under it). An ``index.html`` lists the
lessons. Open ``OUT/index.html`` in a browser; nothing else is needed, and nothing can be played:
to play, open the lessons in JupyterLab (Binder, or ``python3 course.py lab``).

Needs the course extra (nbclient, nbconvert and a kernel come with JupyterLab and nbgrader).
A lesson that fails stops the build with the lesson's name and the failing cell: a site with a
broken page is not built.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
import time
from pathlib import Path

from setwidgets import _extras

CELL_TIMEOUT = 600
"""Seconds one cell of a lesson may take (the slowest simulations take about a minute)."""

OFFLINE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""
"""nbconvert's lab page without the scripts it fetches from a CDN (RequireJS, MathJax, Mermaid).
The lessons write no TeX and no diagrams, their widgets are static pictures here, and a page read
offline (a school network, a USB stick) should ask nothing of the network."""

# A link from one lesson to another ("[01_the_cards](01_the_cards.ipynb)") leads to its page. Links
# that leave the folder (../exercises/...) stay as they are: from OUT beside lessons/ in a clone,
# they open the notebook file itself.
_LESSON_LINK = re.compile(r'href="(\d\d_[A-Za-z0-9_]+)\.ipynb(#[^"]*)?"')


def _title(notebook) -> str:
    """The lesson's title: the first Markdown heading of its first cell, or its file name."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            found = re.search(r"^#\s+(.+)$", cell.source, re.MULTILINE)
            if found:
                return found[1].strip()
    return ""


def lesson_links_to_pages(page: str) -> str:
    """``page`` with its links to other lessons' notebooks (``NN_name.ipynb``) pointing to their pages.

    >>> lesson_links_to_pages('<a href="01_the_cards.ipynb#Recap">x</a> <a href="../exercises/a.ipynb">y</a>')
    '<a href="01_the_cards.html#Recap">x</a> <a href="../exercises/a.ipynb">y</a>'
    """
    return _LESSON_LINK.sub(lambda m: f'href="{m[1]}.html{m[2] or ""}"', page)


def run_and_render(path: Path, timeout: int = CELL_TIMEOUT) -> tuple[str, str]:
    """Run the notebook at ``path`` in a fresh kernel from its folder; its title and its page as HTML.

    The widgets' state is not kept in the notebook, so that nbconvert shows each widget's static
    picture (its ``text/html`` output) rather than a live view that needs JavaScript from the
    network and a kernel.
    """
    nbformat = _extras.require("nbformat", "course", "setwidgets.site")
    nbclient = _extras.require("nbclient", "course", "setwidgets.site")
    nbconvert = _extras.require("nbconvert", "course", "setwidgets.site")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        raise SystemExit(f"setwidgets.site: {path.name} failed, so the site is not built:\n{error}") from None
    jinja2 = _extras.require("jinja2", "course", "setwidgets.site")
    offline = jinja2.DictLoader({"setwidgets_site.html.j2": OFFLINE_TEMPLATE})
    exporter = nbconvert.HTMLExporter(template_name="lab", extra_loaders=[offline])
    exporter.template_file = "setwidgets_site.html.j2"
    page, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": _title(notebook)}})
    return _title(notebook) or path.stem, lesson_links_to_pages(page)


INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>setwidgets: the lessons, to read</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.5; color: #1a1a1a; }}
img {{ max-width: 100%; height: auto; }}
li {{ margin: 0.3rem 0; }}
.note {{ color: #444; }}
</style>
</head>
<body>
<h1>setwidgets: the lessons, to read</h1>
{picture}
<p>A Jupyter course on the card game SET and the mathematics inside it. These pages are the
lessons with every output, as they look once run; the boards are pictures here, so nothing can
be played. To play and to write the exercises, open the course in JupyterLab (Binder, or
<code>python3 course.py lab</code> in a clone; the README says how).</p>
<ul>
{items}
</ul>
<p class="note">Built {built} by <code>python3 course.py site</code>, setwidgets {version}.</p>
</body>
</html>
"""


def build(lessons: Path, out: Path, only: list[str] | None = None, picture: Path | None = None) -> list[Path]:
    """Write every lesson of ``lessons`` (or those named in ``only``) as a page into ``out``, and an index.

    ``picture`` (a PNG) is copied beside the index and shown at its top. Returns the pages written.
    """
    import setwidgets

    paths = sorted(lessons.glob("*.ipynb"))
    if only:
        unknown = sorted(set(only) - {p.stem for p in paths} - {p.name for p in paths})
        if unknown:
            raise SystemExit(f"setwidgets.site: no lesson named {', '.join(unknown)} in {lessons}")
        paths = [p for p in paths if p.stem in only or p.name in only]
    if not paths:
        raise SystemExit(f"setwidgets.site: {lessons} holds no notebook to build a site from")
    out.mkdir(parents=True, exist_ok=True)
    written, items = [], []
    for path in paths:
        started = time.perf_counter()
        title, page = run_and_render(path)
        target = out / f"{path.stem}.html"
        target.write_text(page, encoding="utf-8")
        written.append(target)
        items.append(f'<li><a href="{target.name}">{html.escape(title)}</a></li>')
        print(f"setwidgets.site: {path.name} -> {target} ({time.perf_counter() - started:.0f} s)", flush=True)
    shown = ""
    if picture and picture.is_file():
        shutil.copyfile(picture, out / picture.name)
        alt = "A SET board: twelve cards on the table, as the course draws it."
        shown = f'<img src="{picture.name}" alt="{alt}">'
    index = INDEX.format(
        picture=shown,
        items="\n".join(items),
        built=time.strftime("%Y-%m-%d"),
        version=html.escape(setwidgets.__version__),
    )
    (out / "index.html").write_text(index, encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    # Before the arguments (even --help): with the core alone, one sentence naming the extra that
    # runs the lessons (nbclient, nbconvert, the python3 kernel), not a failure half-way.
    _extras.command_needs(
        "course", "python -m setwidgets.site", "nbformat", "nbclient", "nbconvert", "ipykernel"
    )
    parser = argparse.ArgumentParser(
        prog="python -m setwidgets.site", description="The lessons as static HTML pages with their outputs."
    )
    parser.add_argument("lessons", type=Path, help="the folder of the lessons' notebooks")
    parser.add_argument("out", type=Path, help="the folder to write the pages into")
    parser.add_argument(
        "--only", nargs="+", metavar="LESSON", help="only these lessons (e.g. 06_finding_sets_fast)"
    )
    parser.add_argument("--picture", type=Path, help="a PNG shown at the top of the index")
    args = parser.parse_args(argv)
    build(args.lessons, args.out, args.only, args.picture)
    print(f"setwidgets.site: open {args.out / 'index.html'} in a browser")
    return 0


if __name__ == "__main__":
    sys.exit(main())
