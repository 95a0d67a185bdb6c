"""A grading kernel's environment and start-up path: an allow-list, and no module of the submission first."""

from __future__ import annotations

import os
import time

import nbformat
import pytest
from nbclient import NotebookClient
from traitlets.config import Config

from setwidgets.grading.sandbox import SandboxedKernelManager, bubblewrap_problem

pytestmark = pytest.mark.skipif(bubblewrap_problem() is not None, reason="the sandbox needs bubblewrap")


def run_sandboxed(cells: list[str], folder) -> nbformat.NotebookNode:
    """A notebook of these cells, run in a sandboxed kernel working in ``folder``."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    client = NotebookClient(
        nb,
        timeout=60,
        kernel_name="python3",
        kernel_manager_class=SandboxedKernelManager,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute(env=dict(os.environ))
    return nb


CELLS = [
    "import os, sys\nprint(sorted(os.environ))",
    "print(os.environ.get('JUPYTERHUB_API_TOKEN'), os.environ.get('NBGRADER_EXECUTION'))",
    "import helpers\nprint(helpers.ANSWER)",
    "import json\nprint(json.dumps([1]))",
]


def test_the_grader_s_secrets_stay_out_and_files_beside_the_notebook_shadow_nothing_at_start(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "secret123")
    monkeypatch.setenv("SECRET_X", "hush")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    (tmp_path / "helpers.py").write_text("ANSWER = 42\n")
    # A module the kernel imports while it starts, planted beside the notebook: it must not run.
    for name in ("json", "traitlets", "zmq"):
        (tmp_path / f"{name}.py").write_text("raise SystemExit('planted module ran')\n")
    nb = run_sandboxed(CELLS, tmp_path)
    printed = ["".join(o.get("text", "") for o in cell.outputs).strip() for cell in nb.cells]
    assert "JUPYTERHUB_API_TOKEN" not in printed[0] and "SECRET_X" not in printed[0]
    assert printed[1] == "None autograde", "NBGRADER_EXECUTION is the one variable of the grader's passed on"
    assert printed[2] == "42", "a helper module beside the notebook is still imported by the answers"
    assert printed[3] == "[1]", "the standard library's json, not the planted one"


def test_the_kernel_s_tmp_is_sized_so_that_filling_it_fails_inside(tmp_path):
    code = (
        "try:\n"
        "    with open('/tmp/big', 'wb') as f:\n"
        "        for _ in range(400):\n"
        "            f.write(b'x' * 2**20)\n"
        "    print('wrote 400 MiB')\n"
        "except OSError as error:\n"
        "    print('refused:', error.strerror)"
    )
    nb = run_sandboxed([code], tmp_path)
    assert nb.cells[0].outputs[0]["text"].strip() == "refused: No space left on device"


def test_a_cell_s_output_is_kept_up_to_its_limit_and_the_rest_left_out_with_a_note(tmp_path):
    from setwidgets.grading.preprocessors import GradingExecute

    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("for _ in range(50):\n    print('x' * 100_000)"),
            nbformat.v4.new_code_cell("print('next cell')"),
        ]
    )
    step = GradingExecute(timeout=60, kernel_name="python3", output_bytes=1_000_000, watch_calls=False)
    step.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    first = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert len(first) < 1_200_000 and first.endswith("left out: more than 1,000,000 bytes]\n")
    # print() may reach the notebook as two outputs, its text and its newline (a loaded machine).
    assert "".join(o.get("text", "") for o in nb.cells[1].outputs) == "next cell\n"


def test_the_working_folder_holds_the_submission_s_files_and_is_sized_so_that_filling_it_fails_inside(
    tmp_path,
):
    (tmp_path / "data.txt").write_text("mine")
    code = (
        "print(open('data.txt').read())\n"
        "try:\n"
        "    with open('big', 'wb') as f:\n"
        "        for _ in range(400):\n"
        "            f.write(b'x' * 2**20)\n"
        "    print('wrote 400 MiB')\n"
        "except OSError as error:\n"
        "    print('refused:', error.strerror)"
    )
    nb = run_sandboxed([code], tmp_path)
    # The kernel may send the two lines as two outputs (the first before the slow writes).
    printed = "".join(output.get("text", "") for output in nb.cells[0].outputs)
    assert printed.split("\n")[:2] == ["mine", "refused: No space left on device"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.txt"], "what the kernel writes stays inside"


as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the grader makes a memory cgroup as root only")
FORKS = """
import os, signal, time

children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        held = b"x" * (200 * 2**20)  # each child alone is far below the limit of one process
        time.sleep(4)
        os._exit(0)
    children.append(pid)
killed = [os.waitpid(pid, 0)[1] for pid in children]
print(sum(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL for status in killed))
"""


@as_root
def test_the_memory_of_all_the_kernel_s_processes_together_is_bounded(tmp_path):
    config = Config()
    config.SandboxedKernelManager.memory_total = 512 * 2**20
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FORKS)])
    NotebookClient(
        nb,
        timeout=60,
        kernel_name="python3",
        kernel_manager_class=SandboxedKernelManager,
        config=config,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    killed = int(nb.cells[0].outputs[0]["text"])
    assert 1 <= killed < 4, "children past 512 MiB together are killed, the kernel goes on"


@as_root
def test_a_kernel_killed_for_its_memory_says_so_and_the_next_cells_run_in_a_fresh_one(tmp_path):
    from setwidgets.grading.preprocessors import STOPPED, GradingExecute

    config = Config()
    config.SandboxedKernelManager.memory_total = 512 * 2**20
    cells = ["x = 1", "big = b'x' * (700 * 2**20)", "print(x)"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    step = GradingExecute(timeout=60, kernel_name="python3", watch_calls=False, config=config)
    step.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    (error,) = nb.cells[1].outputs
    assert error.ename == STOPPED
    assert "its processes together used more than the 0.5 GiB of memory a notebook gets" in error.evalue
    assert nb.cells[2].outputs[0]["text"] == "1\n"


def test_past_the_notebook_s_time_the_cells_left_are_not_run_and_graded_ones_score_nothing(tmp_path):
    from setwidgets.grading.preprocessors import OUT_OF_TIME, GradingExecute

    graded = {"nbgrader": {"grade": True, "solution": False, "grade_id": "test_late", "points": 1}}
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("import time\ntime.sleep(2)\nprint('first')"),
            nbformat.v4.new_code_cell("time.sleep(20)"),
            nbformat.v4.new_code_cell("print('late test')", metadata=graded),
            nbformat.v4.new_code_cell("print('late cell')"),
        ]
    )
    step = GradingExecute(timeout=30, notebook_seconds=4, kernel_name="python3", watch_calls=False)
    started = time.monotonic()
    step.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    assert time.monotonic() - started < 20, "the sleeping cell was cut at the notebook's time"
    assert nb.cells[0].outputs[0]["text"] == "first\n"
    (late,) = nb.cells[2].outputs
    assert late.ename == OUT_OF_TIME and "used up the 4 s of grading time" in late.evalue
    assert nb.cells[3].outputs == []
