"""The kernel's side of a question the grader asks: did any of the student's own code run in this test?

While autograding, :class:`setwidgets.grading.preprocessors.GradingExecute` calls :func:`start`
just before a graded test cell that names one of the student's functions, and :func:`finish`
just after it. Both questions come on the grader's own route (:mod:`setwidgets.grading.route`),
not through the notebook's namespace: they leave no trace in the notebook, its history or its
execution count, no input transformer sees them, and no name the notebook defines answers them.

:func:`start` installs a trace function (``sys.settrace``) that waits for a call of code the
student wrote (code compiled from one of the student's cells) made from the test cell's code,
directly or through other functions. The first such call is all it needs: it notes the call and
removes itself, so a test costs a trace call per Python call only until the student's code
first runs. :func:`finish` removes the trace function, if it is still there, and answers.

Only a positive answer counts. A notebook that removes or replaces the trace function, or
breaks the silent requests, leaves no answer, and the grader takes that as "not called".
A test cell that passed without any of the student's code running is flagged for the teacher
(:mod:`setwidgets.grading.report`).

This module runs in the student's kernel: it imports only the standard library and IPython.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

_watch: dict[str, Any] = {}
_files: dict[str, str] = {}


def _file_of(source: str) -> str:
    """The file name under which this kernel compiles a cell with this source."""
    if source not in _files:
        from IPython import get_ipython

        _files[source] = get_ipython().compile.get_code_name(source, source, 0)
    return _files[source]


def start(token: str, test: str, student: Iterable[str]) -> str:
    """Watch the next cell, whose source is ``test``, for calls of code from the ``student`` cells."""
    files = frozenset(_file_of(source) for source in student)
    test_file = _file_of(test)
    state = {"token": token, "called": False}

    def trace(frame: Any, event: str, arg: Any) -> None:
        # Called for each new Python frame; returns None, so no line of any frame is traced.
        try:
            if frame.f_code.co_filename not in files:
                return None
            caller = frame.f_back
            while caller is not None:
                if caller.f_code.co_filename == test_file:
                    state["called"] = True
                    sys.settrace(None)
                    return None
                caller = caller.f_back
        except Exception:  # the watch must never disturb the test it watches
            pass
        return None

    _watch.clear()
    _watch.update(state=state, trace=trace)
    sys.settrace(trace)
    return token


def finish(token: str) -> bool | None:
    """Stop watching; True when the student's code ran in the watched cell, else False or None."""
    trace = _watch.get("trace")
    if sys.gettrace() is trace:
        sys.settrace(None)
    state = _watch.get("state") or {}
    _watch.clear()
    if state.get("token") != token:
        return None
    return state["called"] is True
