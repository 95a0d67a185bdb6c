"""A grading kernel's environment and start-up path: an allow-list, and no module of the submission first."""

from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

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
    assert nb.cells[1].outputs[0]["text"] == "next cell\n"
