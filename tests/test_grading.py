"""The grading package on its own: the sandbox's limits and its fallback, the report's scan, the feedback.

The whole round trip through ``nbgrader autograde`` is in test_cheats.py; here a kernel runs
under :class:`SandboxedKernelManager` through nbclient, as nbgrader runs it, on a few cells.
"""

from __future__ import annotations

import logging
import socket
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook
from test_nbgrader import (
    ALL_SETS_BY_TRIPLES,
    COUNT_SETS_BY_TRIPLES,
    COUNT_SETS_FOREVER,
    EXERCISES,
    IS_SET,
    MOD3_BORROWS_THIRD_CARD,
    ODD_ONE_OUT_GIVES_THE_VALUE,
    THIRD_CARD,
)
from traitlets.config import Config

from setwidgets.grading.preprocessors import HideHiddenTests, defined_functions, watched_tests
from setwidgets.grading.report import code_reasons, findings, watch_reasons
from setwidgets.grading.sandbox import SandboxedKernelManager, SandboxMissing, bubblewrap_problem

needs_bubblewrap = pytest.mark.skipif(
    bubblewrap_problem() is not None, reason=f"no sandbox here: {bubblewrap_problem()}"
)


def run(cells: list[str], folder: Path, timeout: int = 60, **settings) -> list[str]:
    """Run the cells in a kernel of the sandbox's manager, working in ``folder``; each cell's text output."""
    nb = new_notebook(cells=[new_code_cell(source) for source in cells])
    config = Config()
    for name, value in settings.items():
        setattr(config.SandboxedKernelManager, name, value)
    client = NotebookClient(
        nb,
        config=config,
        kernel_manager_class=SandboxedKernelManager,
        timeout=timeout,
        interrupt_on_timeout=True,
        allow_errors=True,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute()  # and shuts the kernel down, as nbgrader does
    texts = []
    for cell in nb.cells:
        parts = [o.get("text", "") for o in cell.outputs if o.output_type == "stream"]
        parts += [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]
        texts.append("".join(parts).strip())
    return texts


@pytest.fixture
def course(tmp_path) -> Path:
    """A course folder with a source notebook and a gradebook, and a student's folder inside it."""
    course = tmp_path / "course"
    (course / "source" / "01_magic_rule").mkdir(parents=True)
    (course / "source" / "01_magic_rule" / "magic_rule.ipynb").write_text("the solutions")
    (course / "gradebook.db").write_text("the grades")
    work = course / "autograded" / "ana" / "01_magic_rule"
    work.mkdir(parents=True)
    (work / "magic_rule.ipynb").write_text("ana's notebook")
    return course


SURVIVOR = "27.1828"


@needs_bubblewrap
def test_the_sandbox_holds_its_limits(course):
    work = course / "autograded" / "ana" / "01_magic_rule"
    cells = [
        "print(open('magic_rule.ipynb').read())",
        "print(open('../../../source/01_magic_rule/magic_rule.ipynb').read())",
        f"print(open('{course}/gradebook.db', 'w'))",
        "open('mine.txt', 'w').write('written'); print(open('mine.txt').read())",
        "import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=2)",
        "x = bytearray(6 * 2**30)",
        f"import os\nif os.fork() == 0:\n    os.execvp('sleep', ['sleep', '{SURVIVOR}'])\nprint('forked')",
        "import os\nn = 0\ntry:\n    for _ in range(1000):\n        if os.fork() == 0:\n"
        "            import time; time.sleep(3); os._exit(0)\n        n += 1\nexcept OSError as error:\n"
        "    print('forks:', n, type(error).__name__)",
        "from resource import *\nprint(getrlimit(RLIMIT_CPU)[0], getrlimit(RLIMIT_AS)[0])",
    ]
    got = run(cells, work, hidden=[str(course)], memory=2 * 2**30, processes=256)
    assert got[0] == "ana's notebook"
    assert got[1].startswith("FileNotFoundError")
    assert got[2].startswith(("FileNotFoundError", "OSError", "PermissionError"))
    assert got[3] == "written" and not (work / "mine.txt").exists(), "the kernel writes to a copy"
    assert got[4].startswith(("OSError", "ConnectionRefusedError")), "no network"
    assert got[5].startswith("MemoryError")
    assert got[6] == "forked"
    assert got[7].startswith("forks:") and int(got[7].split()[1]) < 256
    assert got[8] == f"600 {2 * 2**30}"
    time.sleep(1)  # the sandbox's init ends its processes as it goes
    running = [p for p in Path("/proc").iterdir() if _command(p)[:2] == [b"sleep", SURVIVOR.encode()]]
    assert running == [], "a process the kernel forked outlived it"
    assert (course / "gradebook.db").read_text() == "the grades"


@needs_bubblewrap
def test_a_kernel_working_in_the_course_root_itself_gets_an_empty_writable_folder(course):
    """nbgrader validate runs a notebook in its own folder, which may be the course root."""
    (course / "exchange" / "inbound").mkdir(parents=True)
    cells = [
        "import os\nprint(sorted(os.listdir('.')))",
        "open('mine.txt', 'w').write('written'); print(open('mine.txt').read())",
        "print(sorted(os.listdir('exchange')))",
        "open('exchange/x', 'w')",
    ]
    got = run(cells, course, hidden=[str(course), str(course / "exchange")])
    assert got[0] == "['exchange']", "the course's files stay hidden; its exchange shows empty"
    assert got[1] == "written" and not (course / "mine.txt").exists()
    assert got[2] == "[]"
    assert got[3].startswith("OSError") and "Read-only" in got[3]


@needs_bubblewrap
def test_a_loop_that_never_ends_is_interrupted_and_the_kernel_goes_on(course):
    work = course / "autograded" / "ana" / "01_magic_rule"
    got = run(["while True:\n    pass", "print('after')"], work, timeout=3)
    assert got == ["KeyboardInterrupt:", "after"]


@needs_bubblewrap
def test_a_grading_kernel_starts_without_its_debugger_and_a_cell_may_still_import_it(course):
    """The debugger (debugpy) was a quarter of a grading kernel's start: it is not loaded, yet the
    name is not taken from the notebook."""
    work = course / "autograded" / "ana" / "01_magic_rule"
    cell = (
        "import sys, ipykernel.debugger\n"
        "print(ipykernel.debugger._is_debugpy_available, 'debugpy' in sys.modules)\n"
        "import debugpy\nprint(debugpy.__name__)"
    )
    assert run([cell], work) == ["False False\ndebugpy"]


def _command(process: Path) -> list[bytes]:
    try:
        return (process / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


def test_without_bubblewrap_no_kernel_starts_and_the_log_says_why_in_one_sentence(course, caplog):
    """Fail closed: where no sandbox can be made, nothing of the notebook runs."""
    work = course / "autograded" / "ana" / "01_magic_rule"
    with caplog.at_level(logging.ERROR), pytest.raises(SandboxMissing) as refused:
        run(["open('../../../gradebook.db', 'w').write('999')"], work, bwrap="no-such-bwrap")
    said = str(refused.value)
    assert said.startswith("Grading refuses to start a kernel without its sandbox")
    assert "'no-such-bwrap'" in said and "apt-get install bubblewrap" in said
    assert "c.SandboxedKernelManager.sandbox = False" in said
    assert said in caplog.text
    assert (course / "gradebook.db").read_text() == "the grades"
    assert "is not installed" in bubblewrap_problem("no-such-bwrap")


def test_the_sandbox_can_be_switched_off_by_the_teacher_and_the_log_says_so(course, caplog):
    work = course / "autograded" / "ana" / "01_magic_rule"
    with caplog.at_level(logging.WARNING):
        got = run(["print(open('../../../gradebook.db').read())"], work, sandbox=False, bwrap="no-such-bwrap")
    assert got == ["the grades"]
    assert "GRADING IS NOT SANDBOXED" in caplog.text and "graded without a sandbox" in caplog.text


def test_no_network_is_needed_between_grader_and_kernel():
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", 1), timeout=1)  # nothing listens there, sandbox or not


# -- the report ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXERCISES.glob("source/*/*.ipynb")), ids=lambda p: p.parent.name)
def test_the_source_solutions_raise_no_flag(path):
    nb = nbformat.read(path, as_version=4)
    assert findings(nb, path.parent.name, "solver", path.stem) == []


@pytest.mark.parametrize(
    "answer",
    [
        IS_SET,
        ODD_ONE_OUT_GIVES_THE_VALUE,
        THIRD_CARD,
        MOD3_BORROWS_THIRD_CARD,
        COUNT_SETS_BY_TRIPLES,
        COUNT_SETS_FOREVER,
        ALL_SETS_BY_TRIPLES,
    ],
)
def test_ordinary_answers_right_or_wrong_raise_no_flag(answer):
    assert code_reasons(answer) == []


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("get_ipython().input_transformers_post.append(lambda lines: ['pass'])", "changes how cells run"),
        ("ip = get_ipython()\nip.events.register('pre_run_cell', print)", "events"),
        ("import sys\nsys.modules['setwidgets'] = None", "sys.modules"),
        ("import builtins\nbuiltins.len = lambda x: 3", "builtins"),
        ("from setwidgets import is_set", "from setwidgets import is_set"),
        ("import setwidgets\ndef is_set(a, b, c):\n    return setwidgets.is_set(a, b, c)", ".is_set"),
        ("from setwidgets.rules import *", "import *"),
        ("_referee.untouched = lambda: None", "_referee"),
        ("print(open('../../../source/x.ipynb').read())", "open"),
        ("import subprocess\nsubprocess.run(['ls'])", "subprocess"),
        ("!cat ../../../gradebook.db", "shell"),
        ("exec(compile('x = 1', 'a', 'exec'))", "exec"),
        ("exit._ip.input_transformers_post.clear()", "_ip"),
        ("shell = vars(exit)['_ip']", "vars"),
        ("shell = exit.__dict__['_i' + 'p']", "__dict__"),
        ("is_set.__code__ = other.__code__", "__code__"),
    ],
)
def test_what_a_teacher_should_read_is_flagged_with_its_reason(code, words):
    reasons = " ".join(code_reasons(code))
    assert words in reasons, reasons


def _test_cell(ran: bool | None, error: bool = False) -> nbformat.NotebookNode:
    cell = new_code_cell("check(is_set)", metadata={"nbgrader": {"grade": True, "locked": True}})
    if ran is not None:
        cell.metadata["setwidgets"] = {"student_code_ran": ran, "names": ["is_set"]}
    if error:
        cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue="", traceback=[])]
    return cell


def test_a_test_that_passed_without_the_students_code_is_flagged():
    assert watch_reasons(_test_cell(False)) == [
        "passed without any of the student's code running (is_set never called)"
    ]
    assert watch_reasons(_test_cell(True)) == []
    assert watch_reasons(_test_cell(False, error=True)) == [], "a failed test scores nothing anyway"
    assert watch_reasons(_test_cell(None)) == [], "a cell the grader did not watch"


def test_the_watched_tests_are_those_that_name_a_function_the_answers_define():
    answers = ["def is_set(a, b, c):\n    raise NotImplementedError()", "LIMIT = 3\n%time x = 1"]
    functions = defined_functions(answers + ["def helper():\n    pass\n\n\nis_set = helper"])
    assert functions == {"is_set", "helper"}
    nb = new_notebook(
        cells=[
            new_code_cell(answers[0], metadata={"nbgrader": {"solution": True, "grade": False}}),
            _test_cell(None),
            new_code_cell("assert LIMIT == 3", metadata={"nbgrader": {"grade": True, "locked": True}}),
            new_code_cell("is_set(1, 2, 3)"),
        ]
    )
    assert watched_tests(nb, functions) == {1: ["is_set"]}


# -- the feedback -----------------------------------------------------------------------------------

HIDDEN = (
    "# Hidden tests (3 points)\n### BEGIN HIDDEN TESTS\n"
    "assert secret() == 42, 'secret should be 42'\n### END HIDDEN TESTS"
)


def _feedback(enabled: bool, error: bool) -> nbformat.NotebookNode:
    cell = new_code_cell(HIDDEN)
    if error:
        cell.outputs = [
            nbformat.v4.new_output(
                "error",
                ename="AssertionError",
                evalue="secret should be 42",
                traceback=["----> 1 assert secret() == 42", "AssertionError: secret should be 42"],
            )
        ]
    nb = new_notebook(cells=[cell])
    HideHiddenTests(enabled=enabled).preprocess(nb, {})
    return nb.cells[0]


def test_the_feedback_shows_a_hidden_test_verdict_and_message_not_its_code():
    failed = _feedback(True, error=True)
    assert "secret()" not in failed.source and "The hidden tests failed" in failed.source
    assert failed.source.startswith("# Hidden tests (3 points)")
    assert failed.outputs[0].traceback == ["AssertionError: secret should be 42"]
    passed = _feedback(True, error=False)
    assert "secret()" not in passed.source and "The hidden tests passed." in passed.source


def test_switched_off_the_feedback_shows_the_hidden_tests_as_nbgrader_does():
    cell = _feedback(False, error=True)
    assert cell.source == HIDDEN and "----> 1 assert secret() == 42" in cell.outputs[0].traceback


def test_the_feedback_page_wraps_long_output_lines_after_the_page_styles():
    """A failed test's message is one long line: it wraps instead of running off the page."""
    from setwidgets.grading.preprocessors import WrapFeedbackLines

    # What CSSHTMLHeaderPreprocessor, the step before, leaves: the page's own styles.
    resources = {"inlining": {"css": ["body { margin: 0 }"]}}
    _, resources = WrapFeedbackLines().preprocess(new_notebook(cells=[new_code_cell("1")]), resources)
    assert resources["inlining"]["css"][0] == "body { margin: 0 }", "the page's own styles are kept"
    assert "white-space: pre-wrap" in resources["inlining"]["css"][-1]


def test_the_course_generates_feedback_with_hidden_tests_hidden_and_lines_wrapped():
    from nbgrader.apps.baseapp import NbGrader

    from setwidgets.grading.preprocessors import WrapFeedbackLines

    app = NbGrader()
    app.config_file_paths.append(str(Path(__file__).resolve().parents[1] / "exercises"))
    app.load_config_file()
    steps = app.config.GenerateFeedback.preprocessors
    assert steps.index(HideHiddenTests) < steps.index(WrapFeedbackLines) == len(steps) - 1


def test_a_python_under_tmp_is_shown_again_inside_the_sandbox(tmp_path, monkeypatch):
    """The sandbox's /tmp is its own: a course cloned into /tmp keeps its .venv and package visible."""
    from setwidgets.grading import mounts

    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    monkeypatch.setattr(mounts.sys, "prefix", str(venv))
    needed = mounts.needed_from_tmp([str(venv / "bin" / "python"), "-m", "ipykernel_launcher"])
    assert str(venv) in needed and str(venv / "bin") in needed
    assert all(Path(folder).resolve().is_relative_to(Path("/tmp").resolve()) for folder in needed)
    outside = mounts.needed_from_tmp(["/usr/bin/python3"])
    assert "/usr/bin" not in outside


def test_timing_magics_around_honest_code_raise_no_flag_and_the_code_they_time_is_scanned():
    from setwidgets.grading.report import code_reasons

    assert code_reasons("%%time\ndef is_set(a, b, c):\n    return len({a, b, c}) == 3") == []
    assert code_reasons("%timeit -n 3 -r2 sorted([3, 1, 2])") == []
    assert code_reasons("%time import subprocess") == ["reaches files, processes or the system (subprocess)"]
    assert code_reasons("%%bash\nls") == ["runs shell or magic lines (%%bash)"]


def test_the_kernels_compiled_modules_are_those_of_the_files_beside_them_and_checked_against_them(tmp_path):
    """The kernel's package is read-only, so the grader writes each module's compiled copy: one made
    from that very file, which Python checks against the file's hash (PEP 552) before it uses it."""
    import importlib.util
    import marshal

    from setwidgets.grading.kernel_start import write_compiled

    source = "def handed_out():\n    return 'the copy'\n"
    for folder in ("first", "second"):  # the second kernel's copy comes from the first one's
        file = tmp_path / folder / "cards.py"
        file.parent.mkdir()
        file.write_text(source, encoding="utf-8")
        write_compiled(file, "cards.py", source)
        data = Path(importlib.util.cache_from_source(str(file))).read_bytes()
        assert int.from_bytes(data[4:8], "little") == 0b11  # hash-based, and checked on import
        assert data[8:16] == importlib.util.source_hash(source.encode())
        names: dict = {}
        exec(marshal.loads(data[16:]), names)
        assert names["handed_out"]() == "the copy"
    changed = tmp_path / "second" / "cards.py"
    changed.write_text(source.replace("the copy", "the file"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("cards_changed", changed)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.handed_out() == "the file"
