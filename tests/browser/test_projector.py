"""The board to project (boards/projector.ipynb) in Voila, as the README's third Binder link opens it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import NotebookPage, Server, start_voila

pytestmark = pytest.mark.browser

PROJECTOR = Path(__file__).resolve().parents[2] / "boards" / "projector.ipynb"


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory, chromium: object) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("projector")
    notebook = folder / PROJECTOR.name
    shutil.copy(PROJECTOR, notebook)
    with start_voila(notebook, tmp_path_factory.mktemp("voila-work")) as server:
        yield server


def test_the_projector_shows_a_painted_board_for_two_teams_and_no_code(voila: Server, new_page) -> None:
    nb = NotebookPage(new_page(), voila)
    nb.visit()
    canvas = nb.canvas()
    nb.wait_painted(canvas)
    text = nb.page.locator("body").inner_text()
    assert "from setwidgets import Board" not in text, "Voila shows no code"
    assert "Team A" in text and "Team B" in text
    colours = nb.colors(canvas)
    assert len(colours) > 20, "the cards are drawn, not a blank canvas"
    nb.screenshot("projector-voila")
