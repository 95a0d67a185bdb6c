"""nbgrader preprocessors of the course: grading that a cell cannot derail, feedback that keeps tests hidden.

- :class:`GradingExecute` replaces nbgrader's ``Execute`` in ``autograde``: its kernels run in
  the sandbox of :mod:`setwidgets.grading.sandbox`, and a cell that kills the kernel
  (``os._exit``, a crash, the CPU limit) or ignores the interrupt at the time limit fails on
  its own: the grader starts a fresh kernel, runs again the cells before it that ran
  normally, and goes on with the next cell. A cell stopped by the memory limit says so.
  Around each graded test cell that names a function of the student's, it asks the kernel
  (:mod:`setwidgets.grading.watch`) whether any of the student's code ran in that cell, and
  notes the answer in the cell's metadata for :mod:`setwidgets.grading.report`.
- :class:`HideHiddenTests` runs in ``generate_feedback``: each hidden test cell shows whether
  it passed and, when it failed, its error message, but not its code nor the traceback
  (which quotes the code).
"""

from __future__ import annotations

import ast
import copy
import json
import math
import re
import secrets
import time
from collections.abc import Iterable
from typing import Any

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import run_sync
from nbconvert.utils.base import NbConvertBase
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Bool, Integer, List, Unicode

from setwidgets.grading import route
from setwidgets.grading.judge import JUDGED, NoAnswer, TestFunction, Tests, Verdict, judge, load
from setwidgets.grading.sandbox import GIB, SandboxedKernelManager

WATCHED = "setwidgets"
"""The cell metadata key under which a watched test cell records ``student_code_ran`` and ``names``."""

SANDBOXED = "sandboxed"
"""The key, in a graded notebook's ``setwidgets`` metadata, saying whether its kernel ran in the sandbox."""

FAILED = "TestFailed"
"""The ``ename`` of the error a judged test cell gets when the grader finds the answers wrong."""

STOPPED = "GraderStoppedThisCell"
"""The ``ename`` of the error a cell gets when it killed the kernel or ignored the interrupt."""

OUT_OF_TIME = "NotebookOutOfTime"
"""The ``ename`` of the error each graded cell gets once its notebook has used up its grading time."""

_LATE = (
    "this notebook used up the {seconds:g} s of grading time a whole notebook gets, before this "
    "cell could run: it was not run and scores nothing. Make the cells before it faster."
)

_SPENT = "the notebook used up the {seconds:g} s of grading time it gets while your function ran"

_KILLED = (
    "this cell stopped the kernel that graded it ({why}). This cell scores nothing; the grader "
    "started a fresh kernel, ran the cells before it again and graded the rest of the notebook."
)


class GradingExecute(Execute):
    """nbgrader's Execute, with sandboxed kernels, a fresh kernel after a cell that stops one, and a
    watch on each graded test cell: did any of the student's code run in it?"""

    watch_calls = Bool(
        True, help="Note, for each graded test cell, whether any of the student's code ran in it."
    ).tag(config=True)

    output_bytes = Integer(
        2 * 2**20, help="The most bytes of output a cell keeps; what comes after is left out, with a note."
    ).tag(config=True)

    notebook_seconds = Integer(
        300,
        help="The most seconds a whole notebook may take to grade. Past it, the cells left are not run, "
        "and each graded cell among them scores nothing, with the reason. 0: no such bound.",
    ).tag(config=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self._output_sizes: dict[int, int] = {}

    def output(self, outs: list, msg: dict, display_id: str | None, cell_index: int) -> Any:
        """Keep a cell's output up to ``output_bytes``; one line then says the rest was left out.

        A notebook that prints hundreds of megabytes would otherwise be stored, exported and shown
        whole (a 200 MB line made a 210 MB notebook and a grader of 1.1 GB).
        """
        size = len(json.dumps(msg.get("content", {}), default=str))
        used = self._output_sizes.get(cell_index, 0)
        self._output_sizes[cell_index] = used + size
        if used + size <= self.output_bytes:
            return super().output(outs, msg, display_id, cell_index)
        if used <= self.output_bytes:
            note = f"[the rest of this cell's output was left out: more than {self.output_bytes:,} bytes]\n"
            outs.append(NotebookNode(output_type="stream", name="stdout", text=note))
        return None

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        self._deadline = time.monotonic() + self.notebook_seconds if self.notebook_seconds else math.inf
        self._ran: list[int] = []  # cells that ran to their end, in order: what a fresh kernel needs
        self._watched: dict[int, list[str]] = {}
        self._judged = self._judged_tests(resources)
        self._written = defined_functions(
            c.source for c in nb.cells if c.cell_type == "code" and not locked(c)
        )
        if self.watch_calls:
            functions = defined_functions(_solution_sources(nb) + _release_sources(resources))
            self._watched = {
                index: names
                for index, names in watched_tests(nb, functions).items()
                if _nbgrader(nb.cells[index]).get("grade_id") not in self._judged
            }
            self._student = [c.source for c in nb.cells if c.cell_type == "code" and not locked(c)]
        self._sandboxed = False
        self._verdicts: dict[str, Verdict] = {}
        nb, resources = super().preprocess(nb, resources, km)
        self._keep_cases(resources)
        # Written by the grader after every cell ran: whatever the student put there is replaced.
        nb.metadata[WATCHED] = {SANDBOXED: self._sandboxed}
        return nb, resources

    def create_kernel_manager(self) -> Any:
        """The kernel manager, told which of the package's functions this assignment hides."""
        manager = super().create_kernel_manager()
        self._sandboxed = isinstance(manager, SandboxedKernelManager) and manager.sandboxed
        if isinstance(manager, SandboxedKernelManager):
            manager.hide_functions = list(self._judged.hide)
            if self._judged.hand_out is not None or self._judged:
                # Judged tests without a hand-out get the grader's route and the cards only: fail closed.
                manager.hand_out = list(self._judged.hand_out or ["setwidgets.cards.Card"])
        return manager

    def _judged_tests(self, resources: Any) -> Tests:
        """The judged tests of this assignment (``hidden_tests.py`` beside its source notebook)."""
        assignment = (resources or {}).get("nbgrader", {}).get("assignment")
        if not assignment:
            return Tests()
        from nbgrader.coursedir import CourseDirectory

        coursedir = CourseDirectory(config=self.config)
        return load(coursedir.format_path(coursedir.source_directory, ".", assignment))

    def _get_timeout(self, cell: NotebookNode | None) -> int | None:
        """A cell's time limit: the usual one, or what is left of the notebook's, if that is less."""
        timeout = super()._get_timeout(cell)
        left = self._deadline - time.monotonic()
        if left == math.inf:
            return timeout
        return max(1, min(timeout or math.inf, math.ceil(left)))

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        if cell.cell_type != "code":
            return super().preprocess_cell(cell, resources, index)
        meta = _nbgrader(cell)
        if time.monotonic() >= self._deadline:
            self._late(cell)
            return cell, self.resources
        if meta.get("grade") and not meta.get("solution") and meta.get("grade_id") in self._judged:
            self._judge_cell(cell, self._judged[meta["grade_id"]])
            return cell, self.resources
        token = self._start_watch(cell) if index in self._watched else None
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._stopped(cell, self._why_dead())
        except CellTimeoutError:
            self._stopped(cell, f"it went on after {self.timeout} s and ignored the interrupt")
        except GARBLED:
            self._stopped(cell, _GARBLED_WHY)
        else:
            # Interrupted at the time limit, but did it stop? A cell that swallows
            # KeyboardInterrupt keeps the kernel busy: check before trusting it again.
            if self._timed_out(cell) and not self._answers():
                self._stopped(cell, f"it went on after {self.timeout} s and ignored the interrupt")
                return cell, self.resources
            self._ran.append(index)
            self._explain_memory(cell)
            if index in self._watched:
                # No watch (the kernel did not answer the first request) is no evidence of a call.
                ran = token is not None and self._finish_watch(token)
                cell.metadata[WATCHED] = {"student_code_ran": ran, "names": self._watched[index]}
        return cell, self.resources

    def _judge_cell(self, cell: NotebookNode, test: TestFunction) -> None:
        """Judge a test cell from outside the kernel: the kernel only computes the answers."""
        called: set[str] = set()

        def ask(request: str) -> str:
            called.add(json.loads(request)["function"])
            return self._ask(request)

        verdict = judge(test, ask)
        self._verdicts[_nbgrader(cell)["grade_id"]] = verdict
        if verdict.passed:
            cell.outputs = [NotebookNode(output_type="stream", name="stdout", text=verdict.message + "\n")]
        else:
            cell.outputs = [_error(FAILED, verdict.message)]
        # The answer must come from a function the student wrote: a name bound to the package's
        # own function, say, is not. Read from the notebook's code, outside the kernel.
        foreign = sorted(called - self._written)
        cell.metadata[WATCHED] = {
            "student_code_ran": not foreign,
            "names": foreign or sorted(called),
            JUDGED: {"passed": verdict.passed, "seed": verdict.seed, "flags": verdict.flags},
        }

    def _keep_cases(self, resources: Any) -> None:
        """The judged tests' failed cases, for the teacher's class insight, beside the gradebook
        (:mod:`setwidgets.grading.insight_cases`); never in the notebook, which the feedback shows."""
        info = (resources or {}).get("nbgrader", {})
        if not self._verdicts or not {"student", "assignment", "notebook"} <= set(info):
            return
        from nbgrader.coursedir import CourseDirectory

        from setwidgets.grading import insight_cases as cases

        root = CourseDirectory(config=self.config).root
        try:
            cases.write(root, info["student"], info["assignment"], info["notebook"], self._verdicts)
        except (OSError, ValueError) as error:  # the grades stand without the teacher's insight
            self.log.warning("The failed cases of this notebook were not kept: %s", error)

    def _ask(self, request: str) -> str:
        """The kernel's reply to a request of :func:`setwidgets.grading.compute.call`, or NoAnswer."""
        try:
            reply = self._route("call", request)
        except DeadKernelError:
            why = self._why_dead()
            self._restart(why)
            raise NoAnswer(f"your code stopped the kernel: {why}") from None
        except GARBLED:
            self._restart(_GARBLED_WHY)
            raise NoAnswer(f"your code stopped the kernel: {_GARBLED_WHY}") from None
        if reply is None:
            if not self._answers():
                self._restart(f"it went on after {self.timeout} s and ignored the interrupt")
            if time.monotonic() >= self._deadline:
                raise NoAnswer(_SPENT.format(seconds=self.notebook_seconds))
            raise NoAnswer(f"your function did not finish within {self.timeout} s")
        text = _reply_text(reply)
        if text is None:
            raise NoAnswer("the kernel's answer is not readable")
        return text

    def _route(self, ask: str, *args: Any) -> dict | None:
        """The kernel's reply to one of the grader's questions, on the grader's own route
        (:mod:`setwidgets.grading.route`), or None when none came in time."""
        assert self.kc is not None
        message = self.kc.session.msg(route.REQUEST, {"ask": ask, "args": list(args)})
        self.kc.shell_channel.send(message)
        return run_sync(self.async_wait_for_reply)(message["header"]["msg_id"])

    def _start_watch(self, cell: NotebookNode) -> str | None:
        """Ask the kernel to watch the next cell for calls of the student's code; the watch's token."""
        token = secrets.token_hex(8)
        return token if self._watch_answer("start", token, cell.source, self._student) == token else None

    def _finish_watch(self, token: str) -> bool:
        """Whether the student's code ran in the watched cell: only a clear yes counts."""
        return self._watch_answer("finish", token) is True

    def _watch_answer(self, ask: str, *args: Any) -> Any:
        """The watch's answer, read as JSON, or None (an error, no answer, an unreadable one)."""
        try:
            text = _reply_text(self._route(ask, *args))
        except (CellTimeoutError, DeadKernelError, TimeoutError, RuntimeError, *GARBLED):
            return None
        try:
            return None if text is None else json.loads(text)
        except (ValueError, RecursionError):
            return None

    def _timed_out(self, cell: NotebookNode) -> bool:
        return any(o.get("ename") == self.error_on_timeout.get("ename") for o in cell.get("outputs", []))

    def _answers(self) -> bool:
        """Whether the kernel answers a trivial request within a few seconds."""
        probe = NotebookNode(cell_type="code", source="pass", metadata={}, outputs=[])
        saved = self.timeout
        try:
            self.timeout = 5
            self.execute_cell(probe, -1, store_history=False)
        except (CellTimeoutError, DeadKernelError, *GARBLED):
            return False
        finally:
            self.timeout = saved
        return not self._timed_out(probe)

    def _why_dead(self) -> str:
        """Why the kernel died, in words for the student: the memory of its processes, or else."""
        manager = self.km
        if isinstance(manager, SandboxedKernelManager) and manager.out_of_memory():
            total = f"{manager.memory_total / GIB:g} GiB"
            return f"its processes together used more than the {total} of memory a notebook gets"
        return "it ended the kernel's process, or used up its CPU time"

    def _late(self, cell: NotebookNode) -> None:
        """A cell left unrun at the notebook's time limit; a graded one scores nothing, and says why."""
        cell.outputs = []
        if _nbgrader(cell).get("grade"):
            message = _LATE.format(seconds=self.notebook_seconds)
            cell.outputs = [_error(OUT_OF_TIME, message)]

    def _stopped(self, cell: NotebookNode, why: str) -> None:
        cell.outputs = [
            o for o in cell.get("outputs", []) if o.get("ename") != self.error_on_timeout.get("ename")
        ]
        cell.outputs.append(_error(STOPPED, _KILLED.format(why=why)))
        self._restart(why)

    def _restart(self, why: str) -> None:
        """A fresh kernel, with the cells that ran normally so far run again in it."""
        self.log.warning("A cell stopped the grading kernel (%s); restarting it", why)
        run_sync(self._fresh_kernel)()
        if time.monotonic() >= self._deadline:
            return  # no cell runs any more: the cells before need not run again
        for index in self._ran:
            again = copy.deepcopy(self.nb.cells[index])
            try:
                self.execute_cell(again, index, store_history=False)
            except (CellTimeoutError, DeadKernelError, *GARBLED):
                self.log.warning("Cell %d could not run again in the fresh kernel", index)

    async def _fresh_kernel(self) -> None:
        assert self.km is not None
        if self.kc is not None:
            self.kc.stop_channels()
        await self.km.restart_kernel(now=True)
        self.kc = self.km.client()
        self.kc.start_channels()
        await self.kc.wait_for_ready(timeout=self.startup_timeout)

    def _explain_memory(self, cell: NotebookNode) -> None:
        manager = self.km
        if not isinstance(manager, SandboxedKernelManager) or not manager.sandboxed:
            return
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and output.get("ename") == "MemoryError":
                limit = f"{manager.memory / GIB:g} GiB"
                note = f"the grader gives a notebook {limit} of memory, and this cell asked for more."
                output.evalue = f"{output.evalue} ({note})" if output.evalue else note
                output.traceback = [*output.traceback, f"MemoryError: {note}"]


GARBLED = (ValueError,)
"""What jupyter_client raises on a message it cannot read (a bad signature): processes the notebook
forked write on the kernel's channels too, and the kernel can no longer be trusted."""
_GARBLED_WHY = "processes it started wrote on the kernel's channels, and its messages could not be read"


def _error(name: str, message: str) -> NotebookNode:
    """An error output, which nbgrader reads as a failed graded cell, and the student as why."""
    return NotebookNode(output_type="error", ename=name, evalue=message, traceback=[f"{name}: {message}"])


def _reply_text(reply: Any) -> str | None:
    """The text of the kernel's reply on the grader's route, when it is one and within bounds; else None.

    The bound comes first: a text longer than :data:`setwidgets.grading.route.MAX_REPLY` is refused
    before anything parses it.
    """
    content = reply.get("content") if isinstance(reply, dict) else None
    if not isinstance(content, dict) or content.get("status") != "ok":
        return None
    text = content.get("reply")
    if not isinstance(text, str) or len(text) > route.MAX_REPLY:
        return None
    return text


def _nbgrader(cell: NotebookNode) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def locked(cell: NotebookNode) -> bool:
    """Whether a cell is the teacher's, locked: a student's own mark of ``locked`` does not count.

    nbgrader ignores ``locked`` on an answer cell, and drops the grade id of a cell the gradebook
    does not know; a cell marked locked that is an answer cell, or has no grade id, is the student's.
    """
    meta = _nbgrader(cell)
    return bool(meta.get("locked")) and not meta.get("solution") and bool(meta.get("grade_id"))


def _solution_sources(nb: NotebookNode) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code" and _nbgrader(c).get("solution")]


def _release_sources(resources: Any) -> list[str]:
    """The answer cells as released (from the gradebook), which name the functions asked for."""
    info = (resources or {}).get("nbgrader", {})
    if not {"db_url", "assignment", "notebook"} <= set(info):
        return []
    from nbgrader.api import Gradebook, MissingEntry

    try:
        with Gradebook(info["db_url"]) as gradebook:
            notebook = gradebook.find_notebook(info["notebook"], info["assignment"])
            answers = {cell.name for cell in notebook.solution_cells}
            return [c.source for c in notebook.source_cells if c.name in answers and c.cell_type == "code"]
    except MissingEntry:
        return []


def defined_functions(sources: Iterable[str]) -> set[str]:
    """The names of the functions these cells define with ``def`` at their top level."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, RecursionError, MemoryError):
            # Code nested deeper than the parser goes fails in the kernel too; its "def" lines still say
            # which names the student meant to write, and grading goes on.
            names |= set(re.findall(r"^(?:async\s+)?def\s+(\w+)", source, re.MULTILINE))
            continue
        names |= {
            node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
    return names


def watched_tests(nb: NotebookNode, functions: set[str]) -> dict[int, list[str]]:
    """The graded test cells that name one of ``functions``, by index, with the names they use."""
    watched = {}
    for index, cell in enumerate(nb.cells):
        meta = _nbgrader(cell)
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        used = sorted(name for name in functions if re.search(rf"\b{re.escape(name)}\b", cell.source))
        if used:
            watched[index] = used
    return watched


class FeedbackStep(NbGraderPreprocessor):
    """A step of generate_feedback."""

    # The HTML exporter configures this on every step it runs; declared configurable here, as in
    # nbgrader's GetGrades, so that each feedback log does not warn that it is not recognised.
    display_data_priority = List(NbConvertBase.display_data_priority.default_value).tag(config=True)


class HideHiddenTests(FeedbackStep):
    """In the feedback, each hidden test shows whether it passed and its message, not its code."""

    enabled = Bool(True, help="Hide the code of hidden tests in the feedback.").tag(config=True)
    begin = Unicode("### BEGIN HIDDEN TESTS").tag(config=True)
    end = Unicode("### END HIDDEN TESTS").tag(config=True)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        if not self.enabled or cell.cell_type != "code" or self.begin not in cell.source:
            return cell, resources
        head, _, rest = cell.source.partition(self.begin)
        _, _, tail = rest.partition(self.end)
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        verdict = (
            "# The hidden tests failed: see the message below." if errors else "# The hidden tests passed."
        )
        cell.source = f"{head.rstrip()}\n{verdict}\n{tail.strip()}".strip()
        for output in errors:
            # The traceback quotes the test's code; the name and message of the error are enough.
            message = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
            output.traceback = [message]
        return cell, resources


class WrapFeedbackLines(FeedbackStep):
    """In the feedback, long lines of output wrap instead of running off the page.

    A failed test's message is one long line ("... Your function returned True."); nbconvert's
    page would show its end only to a student who scrolls sideways. Run it after
    ``CSSHTMLHeaderPreprocessor``, which sets the page's styles.
    """

    css = Unicode(
        ".output_area pre, .output_subarea pre, div.output_text pre { white-space: pre-wrap; "
        "overflow-wrap: anywhere; }",
        help="The style added to the feedback page.",
    ).tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any) -> tuple[NotebookNode, Any]:
        resources.setdefault("inlining", {}).setdefault("css", []).append(self.css)
        return nb, resources
