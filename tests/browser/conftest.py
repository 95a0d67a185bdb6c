"""Fixtures for the browser tests: one JupyterLab and one Chromium for the whole session.

A test asks for ``notebook_page`` and calls it with a file name and the cells'
source; it gets a :class:`~harness.NotebookPage` whose cells have all run::

    def test_something(notebook_page):
        nb = notebook_page("demo.ipynb", ["from ipycanvas import Canvas", "Canvas()"])
        nb.wait_painted(nb.canvas())

Each call writes a new notebook into the server's folder and opens it on a page of
its own, so every test has its own kernel and its own page: the test's first notebook
in a JupyterLab page kept loaded between tests (``lab_tabs``; the previous test's
tabs closed, its kernels shut down), the others in fresh pages of the test's browser
context. When a test fails, a screenshot of its page is saved as
``test-artifacts/FAILED-<test>.png``, and the page kept is closed, not reused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from .harness import (
    HarnessError,
    LabTabs,
    NotebookPage,
    Server,
    node_failed,
    save_failure_shot,
    screenshot_path,
    start_lab,
    write_notebook,
)

VIEWPORT = {"width": 1280, "height": 1000}


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder JupyterLab serves; tests write their notebooks here."""
    return tmp_path_factory.mktemp("lab-root")


@pytest.fixture(scope="session")
def lab(lab_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """JupyterLab from .venv on a free loopback port, stopped (with its kernels) at the end."""
    problem = None
    try:
        server = start_lab(lab_root, tmp_path_factory.mktemp("lab-work"))
    except HarnessError as error:
        problem = str(error)
    if problem:
        pytest.fail(problem, pytrace=False)
    with server:
        yield server


@pytest.fixture(scope="session")
def lab_tabs(chromium: object, lab: Server) -> Iterator[LabTabs]:
    """A JupyterLab page kept loaded between tests (see :class:`harness.LabTabs`)."""
    tabs = LabTabs(chromium, lab, VIEWPORT)
    yield tabs
    tabs.close()


@pytest.fixture
def new_page(chromium: object, request: pytest.FixtureRequest) -> Iterator[Callable[[], object]]:
    """Make pages in a browser context of this test's own; closes them afterwards.

    On failure the last page made is saved as test-artifacts/FAILED-<test>.png.
    """
    failed_shot = screenshot_path(f"FAILED-{request.node.name}")
    failed_shot.unlink(missing_ok=True)  # a picture of an earlier failure would mislead
    context = chromium.new_context(viewport=VIEWPORT)
    pages: list[object] = []

    def make() -> object:
        page = context.new_page()
        page.set_default_timeout(30_000)
        pages.append(page)
        return page

    make.screenshot_taken = False  # notebook_page saves it when its own page was the last
    yield make
    if pages and node_failed(request.node) and not make.screenshot_taken:
        save_failure_shot(pages[-1], failed_shot)
    context.close()


@pytest.fixture
def lab_notebook(
    lab: Server, lab_tabs: LabTabs, request: pytest.FixtureRequest
) -> Iterator[Callable[..., NotebookPage]]:
    """Open a notebook already in the server's folder, as it is (nothing run): ``lab_notebook(name)``.

    It opens in ``lab_tabs``' page (JupyterLab already loaded) and goes back to it after the
    test, the kernels the test started shut down; a page the test failed on is saved as
    test-artifacts/FAILED-<test>.png and closed.
    """
    failed_shot = screenshot_path(f"FAILED-{request.node.name}")
    failed_shot.unlink(missing_ok=True)  # a picture of an earlier failure would mislead
    taken: list[NotebookPage] = []

    def open_it(name: str, timeout: float = 60.0) -> NotebookPage:
        taken.append(lab_tabs.open(name, timeout))
        return taken[-1]

    yield open_it
    failed = node_failed(request.node)
    if failed and taken:
        save_failure_shot(taken[-1].page, failed_shot)
    for nb in taken:
        lab_tabs.give_back(nb, reuse=not failed)
    lab.shutdown_kernels()


@pytest.fixture
def notebook_page(
    lab: Server,
    lab_root: Path,
    lab_tabs: LabTabs,
    new_page: Callable[[], object],
    request: pytest.FixtureRequest,
) -> Iterator[Callable]:
    """Open a notebook written from ``cells`` in JupyterLab and run all its cells.

    Call it as ``notebook_page(name, cells)``; the kernels this test started are
    shut down when it ends, so they do not slow the next test down. The first
    notebook opens in ``lab_tabs``' page (JupyterLab already loaded), the next ones
    in pages of their own.
    """
    kept: list[NotebookPage] = []
    opened: list[NotebookPage] = []

    def open_notebook(name: str, cells: Sequence[str]) -> NotebookPage:
        write_notebook(lab_root / name, cells)
        if kept:
            nb = NotebookPage(new_page(), lab)
            nb.open(name)
        else:
            nb = lab_tabs.open(name)
            kept.append(nb)
        opened.append(nb)
        nb.run_all()
        return nb

    yield open_notebook
    failed = node_failed(request.node)
    if kept:
        if failed and opened[-1] is kept[0]:
            save_failure_shot(kept[0].page, screenshot_path(f"FAILED-{request.node.name}"))
            new_page.screenshot_taken = True
        lab_tabs.give_back(kept[0], reuse=not failed)
    lab.shutdown_kernels()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Remember each phase's report on the test item, so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
