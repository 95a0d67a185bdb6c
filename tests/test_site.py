"""The read-only site (``python3 course.py site``, setwidgets.site): lessons as static HTML.

The tests build the site of two small notebooks (two kernels, a few seconds) rather than of the
lessons, whose run the notebook tests already pay for; a lesson's page was built and looked at
in Chromium when the site was written (issue 38's report).
"""

from __future__ import annotations

import re

import nbformat
import pytest

from setwidgets import site

pytestmark = pytest.mark.notebooks


def notebook(path, *cells) -> None:
    nb = nbformat.v4.new_notebook()
    for kind, source in cells:
        maker = nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell
        nb.cells.append(maker(source))
    nbformat.write(nb, path)


def test_links_between_lessons_lead_to_their_pages_and_other_links_stay():
    page = (
        '<a href="01_the_cards.ipynb">a</a> <a href="02_the_magic_rule.ipynb#Recap">b</a> '
        '<a href="../exercises/release/01_magic_rule/magic_rule.ipynb">c</a> <a href="https://x.org/y.ipynb">d</a>'
    )
    assert site.lesson_links_to_pages(page) == (
        '<a href="01_the_cards.html">a</a> <a href="02_the_magic_rule.html#Recap">b</a> '
        '<a href="../exercises/release/01_magic_rule/magic_rule.ipynb">c</a> <a href="https://x.org/y.ipynb">d</a>'
    )


def test_the_site_shows_outputs_and_each_board_as_its_static_picture_with_no_server(tmp_path):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    notebook(
        lessons / "00_first.ipynb",
        ("md", "# The first lesson\n\nThen [the second](01_second.ipynb)."),
        ("code", "from setwidgets import Board\nprint(6 * 7)\nBoard(seed=1)"),
    )
    notebook(lessons / "01_second.ipynb", ("md", "# The second lesson"), ("code", "1 + 1"))
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")

    written = site.build(lessons, tmp_path / "out", picture=picture)

    assert [p.name for p in written] == ["00_first.html", "01_second.html"]
    first = (tmp_path / "out" / "00_first.html").read_text()
    assert "42" in first, "the outputs are on the page"
    # The board is its static picture (an SVG with the widget's class), not a live view that
    # would need a kernel and JavaScript from the network.
    assert "setw-static" in first and "<svg" in first
    assert "application/vnd.jupyter.widget-view+json" not in first
    assert 'href="01_second.html"' in first and "01_second.ipynb" not in first
    # Nothing is fetched: every src of the page, and every href of a link element (a style
    # sheet, an icon), is data: or a file beside it; only the reader's own clicks may leave.
    loads = re.findall(r'\ssrc="([^"]*)"', first) + re.findall(r'<link\b[^>]*\shref="([^"]*)"', first)
    remote = [url for url in loads if re.match(r"[a-z][a-z0-9+.-]*:|//", url) and not url.startswith("data:")]
    assert remote == [], "the page fetches from the network"
    index = (tmp_path / "out" / "index.html").read_text()
    assert '<a href="00_first.html">The first lesson</a>' in index
    assert '<a href="01_second.html">The second lesson</a>' in index
    assert '<img src="board.png"' in index and (tmp_path / "out" / "board.png").is_file()


def test_a_lesson_that_fails_stops_the_build_naming_it(tmp_path):
    notebook(tmp_path / "00_broken.ipynb", ("md", "# Broken"), ("code", "1 / 0"))
    with pytest.raises(
        SystemExit, match=r"(?s)00_broken\.ipynb failed, so the site is not built.*ZeroDivisionError"
    ):
        site.build(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out" / "index.html").exists()


def test_only_names_lessons_that_exist(tmp_path):
    notebook(tmp_path / "00_a.ipynb", ("md", "# A"))
    with pytest.raises(SystemExit, match="no lesson named 07_nowhere"):
        site.build(tmp_path, tmp_path / "out", only=["07_nowhere"])
