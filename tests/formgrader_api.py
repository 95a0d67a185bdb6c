"""nbgrader's set-up steps run as the Formgrader runs them: in this process, through nbgrader's own
Python API (``nbgrader.apps.api.NbGraderAPI``, what the Formgrader's Generate and Release buttons
call), with the course's ``nbgrader_config.py``.

For the tests whose subject comes later (autograde, collect, the report, the feedback, the pages):
each start of the ``nbgrader`` command line costs about 5 CPU-seconds, half of it importing
nbgrader, which this process has already imported. The command line's own steps are tested as a
teacher types them in tests/test_nbgrader.py; what a test here proves about autograde, collect,
feedback or export still goes through the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from test_nbgrader import BIN


@contextmanager
def _as_the_teacher(environment: dict[str, str]) -> Iterator[None]:
    """The environment the command line gets from tests/test_nbgrader.nbgrader, for the call's length:
    the environment's commands on PATH (nbgrader runs ``alembic`` for a new gradebook), no
    NBGRADER_EXECUTION, and ``environment`` (read by nbgrader_config.py, as SETWIDGETS_EXCHANGE is)."""
    # patch.dict puts the whole environment back afterwards, the removed variable included.
    with mock.patch.dict(
        os.environ, {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **environment}
    ):
        os.environ.pop("NBGRADER_EXECUTION", None)
        yield


_ALEMBIC_HEAD: list[str] = []  # the installed nbgrader's gradebook schema version, once known


@contextmanager
def _schema_version_asked_once() -> Iterator[None]:
    """nbgrader starts ``alembic heads`` (a Python process of its own, about 2 CPU-seconds) for its
    schema's version each time it creates a gradebook. The answer is fixed by the installed nbgrader:
    this process reads it once, through alembic's own Python API from the same alembic.ini nbgrader
    writes (0.1 CPU-seconds), and gives nbgrader that answer after. With more than one head (where
    ``alembic heads``' first line would be nbgrader's answer) it asks nbgrader's own function."""
    import nbgrader.api
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import _temp_alembic_ini

    ask = nbgrader.api.get_alembic_version

    def version() -> str:
        if not _ALEMBIC_HEAD:
            # The same throw-away database URL as nbgrader's get_alembic_version gives alembic.
            with _temp_alembic_ini("sqlite:////tmp/gradebook.db") as alembic_ini:
                heads = ScriptDirectory.from_config(Config(alembic_ini)).get_heads()
            _ALEMBIC_HEAD.append(heads[0] if len(heads) == 1 else ask())
        return _ALEMBIC_HEAD[0]

    nbgrader.api.get_alembic_version = version
    try:
        yield
    finally:
        nbgrader.api.get_alembic_version = ask


def _api(course: Path) -> object:
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def _done(step: str, result: dict) -> str:
    assert result["success"], f"{step} failed:\n{result.get('log', '')}\n{result.get('error', '')}"
    return result.get("log", "")


def generate_assignment(course: Path, assignment: str, **environment: str) -> str:
    """``nbgrader generate_assignment ASSIGNMENT`` in ``course`` (``"*"``: every exercise in source/), as
    the Formgrader's Generate button runs it, without --force as on the command line; its log.
    Fails with the log if nbgrader reports a failure."""
    with _as_the_teacher(environment), _schema_version_asked_once():
        return _done("generate_assignment", _api(course).generate_assignment(assignment, force=False))


def release_assignment(course: Path, assignment: str, **environment: str) -> str:
    """``nbgrader release_assignment ASSIGNMENT`` in ``course``, as the Formgrader's Release button runs
    it (into the exchange the course's configuration names); its log. Fails with the log on failure."""
    with _as_the_teacher(environment), _schema_version_asked_once():
        return _done("release_assignment", _api(course).release_assignment(assignment))
