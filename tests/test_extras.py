"""The optional parts: a missing extra is one sentence naming the command, and sim runs without numba.

Each case runs in a fresh Python where the modules of one extra cannot be imported (as after
``pip install setwidgets`` without that extra): ``sys.modules[name] = None`` makes Python refuse
them, as it refuses a module that is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from setwidgets._extras import EXTRAS


def run_without(modules: list[str], code: str) -> subprocess.CompletedProcess:
    blocked = "".join(f"sys.modules[{name!r}] = None\n" for name in modules)
    program = "import sys\n" + blocked + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)


# What each extra's absence stops, and how the user meets it.
PARTS = [
    ("sim", ["numpy"], "from setwidgets import sim", "setwidgets.sim needs numpy"),
    ("sim", ["numpy"], "import setwidgets; setwidgets.sim", "setwidgets.sim needs numpy"),
    ("widgets", ["ipywidgets"], "from setwidgets import Board", "setwidgets.widgets.Board needs ipywidgets"),
    ("widgets", ["ipycanvas"], "from setwidgets.widgets import PuzzleBoard", "widgets.PuzzleBoard needs ip"),
    (
        "print",
        ["reportlab"],
        "from setwidgets.printables import deck",
        "setwidgets.printables needs reportlab",
    ),
    (
        "sim",
        ["matplotlib", "matplotlib.pyplot"],
        "from setwidgets import sim; sim.play(5, seed=1, progress=False).plot()",
        "Tally.plot needs matplotlib",
    ),
]


@pytest.mark.parametrize(("extra", "modules", "code", "says"), PARTS, ids=[p[2][:40] for p in PARTS])
def test_a_missing_extra_is_one_sentence_that_names_the_command(extra, modules, code, says):
    result = run_without(modules, code)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("setwidgets._extras.MissingExtra: ") and says in last, result.stderr[-2000:]
    assert f"pip install 'setwidgets[{extra}]'" in last


def test_the_core_needs_no_extra():
    heavy = sorted({module for modules in EXTRAS.values() for module in modules})
    result = run_without(
        heavy,
        """
        from setwidgets import Game, Bot, full_deck, find_sets, third_card, caps, geometry
        from setwidgets.checks import check_is_set
        from setwidgets.competition import schedule
        game = Game(seed=1, players=["Ana"])
        while not game.over:
            found = find_sets(game.table)
            if found:
                game.claim(found[0], "Ana")
            else:
                game.no_set()
        rounds = len(schedule(12, 3, seed=1).rounds)
        print(len(game.history) > 20, caps.count_set_free(4, deck="mini"), rounds)
        """,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[0] == "True"


SIM_RUN = """
import json
import os
from setwidgets import sim
tables = sim.deal_tables(3000, 12, seed=5)
counts = sim.count_sets_many(tables).tolist()
out = {"compiled": sim.COMPILED, "tables": tables[:50].tolist(), "counts": counts}
for size in (3, 15, 21):
    dealt = sim.deal_tables(2000, size, seed=size)
    out[f"has {size}"] = sim.has_set_many(dealt).tolist()
    out[f"count {size}"] = sim.count_sets_many(dealt).tolist()
broken = sim.deal_tables(10, 12, seed=1)
broken[4, 3] = broken[4, 5]
try:
    sim.has_set_many(broken)
except ValueError as error:
    out["refused"] = str(error)
for variant in ("standard", "solitaire", "competition", "online"):
    tally = sim.play(200, variant=variant, seed=3, progress=False)
    out[variant] = repr(tally)
print(json.dumps(out))
"""


def test_sim_without_numba_runs_the_same_loops_with_the_same_results():
    plain = run_without(["numba"], SIM_RUN)
    assert plain.returncode == 0, plain.stderr[-3000:]
    compiled = subprocess.run([sys.executable, "-c", SIM_RUN], capture_output=True, text=True, timeout=300)
    assert compiled.returncode == 0, compiled.stderr[-3000:]
    plain_out, compiled_out = json.loads(plain.stdout), json.loads(compiled.stdout)
    assert (plain_out.pop("compiled"), compiled_out.pop("compiled")) == (False, True)
    assert plain_out == compiled_out


LESSONS = Path(__file__).resolve().parents[1] / "lessons"
SIM_LESSONS = sorted(path.name for path in LESSONS.glob("*.ipynb") if "sim." in path.read_text())


@pytest.mark.notebooks
@pytest.mark.parametrize("name", SIM_LESSONS)
def test_the_lessons_that_simulate_run_without_numba(name, tmp_path):
    """Where numba has no build, the lessons still run: sim's loops in numpy, sizes chosen for them."""
    import nbformat
    from nbclient import NotebookClient

    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['numba'] = None\n")
    nb = nbformat.read(LESSONS / name, as_version=4)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    probe = nbformat.v4.new_code_cell("from setwidgets import sim\nprint('compiled', sim.COMPILED)")
    nb.cells.append(probe)
    where = {"metadata": {"path": str(LESSONS)}}
    # Every output is in once the last cell has run: the kernel is killed then, not waited for.
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources=where, shutdown_kernel="immediate"
    )
    client.execute(env=env)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, errors[0]
    assert "compiled False" in nb.cells[-1].outputs[0]["text"]
