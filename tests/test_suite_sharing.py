"""The suite's shared work stays shared when pytest-xdist spreads the files over workers.

``course.py test`` runs the files with ``--dist loadfile``. A session's cache (the lessons'
runs in ``conftest.run_lesson``) lives in one worker: every file that reads it must be in one
work unit (``conftest.SAME_WORKER``), or the lessons run again in the other worker.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import conftest

TESTS = Path(__file__).resolve().parent


class _LoadfileConfig:
    """The options pytest-xdist's file scheduler reads: ``-n 2 --dist loadfile``."""

    def __init__(self) -> None:
        self.option = SimpleNamespace(loadscopereorder=True)

    def getvalue(self, name: str) -> object:
        return {"dist": "loadfile", "tx": ["2*popen"]}[name]


def test_every_file_that_runs_lessons_through_the_session_cache_is_in_one_work_unit():
    readers = sorted(
        path.name for path in TESTS.glob("test_*.py") if re.search(r"\brun_lesson\(", path.read_text())
    )
    assert "test_lessons.py" in readers  # the search finds the file that runs them all
    units = {conftest.SAME_WORKER.get(name) for name in readers}
    assert None not in units, f"not kept with test_lessons.py: {readers}"
    assert len(units) == 1, units


def test_the_scheduler_puts_the_grouped_files_in_one_work_unit_and_the_others_one_per_file():
    scheduler = conftest.pytest_xdist_make_scheduler(_LoadfileConfig(), None)
    scope = scheduler._split_scope
    assert scope("tests/test_lessons.py::test_x[a]") == scope("tests/test_lesson_claims.py::test_y")
    assert scope("tests/test_unit4_figures.py::test_z") == scope("tests/test_lessons.py::test_x")
    assert scope("tests/test_cards.py::test_a") == "tests/test_cards.py"
    assert scope("tests/test_cards.py::test_a") != scope("tests/test_words.py::test_b")


def test_a_spread_file_s_tests_are_work_units_of_their_own():
    scheduler = conftest.pytest_xdist_make_scheduler(_LoadfileConfig(), None)
    scope = scheduler._split_scope
    one, other = (f"tests/browser/test_course_notebooks.py::test_run[{name}]" for name in ("a", "b"))
    assert scope(one) == one
    assert scope(one) != scope(other)


def test_workers_take_the_files_that_start_servers_first_and_the_spread_files_last(monkeypatch):
    class Item:
        def __init__(self, path: str, *marks: str) -> None:
            self.path = TESTS / path
            self.marks = [SimpleNamespace(name=mark) for mark in marks]

        def iter_markers(self):
            return iter(self.marks)

    collected = [
        Item("test_cards.py"),
        Item("browser/test_course_notebooks.py", "browser"),
        Item("test_hub.py"),
        Item("test_hub.py", "hub"),
        Item("test_words.py"),
        Item("browser/test_board.py", "browser"),
    ]
    order = list(collected)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    conftest.pytest_collection_modifyitems(None, order)
    assert order == collected, "one process keeps the files' own order"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    conftest.pytest_collection_modifyitems(None, order)
    assert [collected.index(item) for item in order] == [2, 3, 5, 0, 4, 1]
    config = _LoadfileConfig()
    conftest.pytest_xdist_make_scheduler(config, None)
    assert config.option.loadscopereorder is False, "xdist would sort the units by their number of tests"


def test_other_ways_of_spreading_keep_pytest_xdist_s_own_scheduler():
    class Load(_LoadfileConfig):
        def getvalue(self, name: str) -> object:
            return "load" if name == "dist" else super().getvalue(name)

    assert conftest.pytest_xdist_make_scheduler(Load(), None) is None
