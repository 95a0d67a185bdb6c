"""The package as a grading kernel sees it: what the exercise hands out, and nothing else of it.

Each exercise's ``hidden_tests.py`` says what it hands out (``Tests(hand_out=...)``);
:func:`setwidgets.grading.handout.kernel_package` makes the package's files from that alone, and
the sandbox shows them in place of the package's folder. Here: the copies of every exercise, then
a real sandboxed kernel of exercise 1 tried by the routes of issue 33's cheats.
"""

from __future__ import annotations

import ast
import re

import pytest
from test_grading import needs_bubblewrap, run
from test_nbgrader import EXERCISES

from setwidgets.grading.handout import kernel_package
from setwidgets.grading.judge import load

ASSIGNMENTS = sorted(
    path.name for path in (EXERCISES / "source").iterdir() if (path / "hidden_tests.py").is_file()
)


def _package(assignment: str) -> dict[str, str]:
    tests = load(EXERCISES / "source" / assignment)
    assert tests.hand_out is not None, f"{assignment} says nothing of what it hands out"
    return kernel_package(tests.hand_out, tests.hide)


def _defined(files: dict[str, str]) -> dict[str, set[str]]:
    """The top-level names each module of the copy defines (functions, classes, assignments)."""
    found = {}
    for path, source in files.items():
        module = "setwidgets." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        names = set()
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
        found[module.removesuffix(".")] = names
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_exercise_hands_out_a_package_that_compiles_and_lacks_what_it_asks_for(assignment):
    files = _package(assignment)
    for path, source in files.items():
        compile(source, path, "exec")
    defined = _defined(files)
    tests = load(EXERCISES / "source" / assignment)
    for dotted in tests.hide:
        module, _, name = dotted.rpartition(".")
        if name == "__init__":
            continue  # a method: its class may be there, with the method's code gone (grading.hide)
        # Absent, or present with its code replaced by a raise.
        if name in defined.get(module, set()):
            assert (
                "ReferenceHidden" in files[next(p for p in files if module.endswith(p.removesuffix(".py")))]
            )
    # Whatever the exercise asks, no grading kernel has the package's search for SETs.
    assert "find_sets" not in defined.get("setwidgets.rules", set())


def test_exercise_1_hands_out_no_rule_at_all():
    files = _package("01_magic_rule")
    assert "rules.py" not in files and "game/__init__.py" not in files and "sim/__init__.py" not in files
    for source in files.values():
        assert not re.search(r"\bdef (is_set|explain|third_card|_third_index)\b", source)
        assert "THIRD" not in source
    # The checks and the referee are their stand-ins: nothing in them compares with an answer.
    assert "set aside while this notebook is graded" in files["checks/__init__.py"]
    assert "class Referee" in files["grading/referee.py"] and "rules" not in files["grading/referee.py"]


def test_a_name_that_is_not_in_the_package_is_refused_with_a_sentence():
    with pytest.raises(
        ValueError, match=r"'setwidgets\.rulez\.is_set' is not a name of a module of setwidgets"
    ):
        kernel_package(["setwidgets.rulez.is_set"])
    with pytest.raises(ValueError, match=r"setwidgets\.cards has no Kard"):
        kernel_package(["setwidgets.cards.Kard"])


EXERCISE_1 = load(EXERCISES / "source" / "01_magic_rule")


@needs_bubblewrap
def test_in_exercise_1_s_kernel_every_route_to_the_rules_finds_nothing(tmp_path):
    """Issue 33's routes: a computed name, a module's globals, importlib, another module, the files."""
    import setwidgets

    package = setwidgets.__path__[0]
    cells = [
        "from setwidgets import FEATURES, VALUES, Card, full_deck, mini_deck\n"
        "from setwidgets.checks import check_is_set\nfrom setwidgets.draw import show\n"
        "from setwidgets.grading.referee import Referee\nprint(Card.parse('1RSO').name, len(full_deck()))",
        "import setwidgets.rules",
        "print(getattr(check_is_set, '__wrap' + 'ped__', None), sorted(k for k in check_is_set.__globals__ "
        "if not k.startswith('__')))",
        "import importlib\nfor name in ('setwidgets.sim', 'setwidgets.game', 'setwidgets.geometry', "
        "'setwidgets.widgets', 'setwidgets.grading.judge'):\n"
        "    try:\n        importlib.import_module(name)\n    except ImportError as error:\n"
        "        print(type(error).__name__)",
        f"import os\nprint(sorted(os.listdir({package!r})))",
        f"print(open({package + '/rules.py'!r}).read())",
        "import setwidgets\nprint(hasattr(setwidgets, 'is_set'), hasattr(setwidgets, 'third_card'))",
        "def f(a, b, c):\n    return True\nprint(check_is_set(f).passed)",
        "r = Referee()\nwith r.guard('is_set', ['setwidgets.rules']):\n"
        "    print(r.Card.parse('2GTS'), len(r.deck))",
        "print(show([Card.parse('1RSO')]).__class__.__name__)",
    ]
    got = run(
        cells, tmp_path, hand_out=list(EXERCISE_1.hand_out), hide_functions=list(EXERCISE_1.hide), timeout=60
    )
    assert got[0] == "one red solid oval 81"
    assert got[1].startswith("ModuleNotFoundError: No module named 'setwidgets.rules'")
    assert got[2] == "None ['CheckResult', 'SET_ASIDE', '_set_aside', 'runner']"
    assert got[3] == "\n".join(["ModuleNotFoundError"] * 5)
    assert "rules.py" not in got[4] and "cards.py" in got[4]
    assert got[5].startswith("FileNotFoundError")
    assert got[6] == "False False"
    assert got[7].startswith("check_is_set is set aside while this notebook is graded") and got[7].endswith(
        "False"
    )
    assert got[8] == "2GTS 81"
    assert got[9] == "CardRow"


@needs_bubblewrap
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_each_source_notebook_runs_without_an_error_in_its_grading_kernel(assignment, tmp_path, monkeypatch):
    """What the exercise hands out is enough for its own cells: the teacher's solutions, the demos,
    the visible tests that run in the kernel (the judged ones and the hidden ones are the grader's)."""
    import json

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # as nbgrader runs them: no live widgets
    tests = load(EXERCISES / "source" / assignment)
    nb = json.loads(next((EXERCISES / "source" / assignment).glob("*.ipynb")).read_text())
    cells = [
        "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == "code" and c["metadata"].get("nbgrader", {}).get("grade_id") not in tests
        and "try_here" not in "".join(c["source"])
    ]  # fmt: skip
    outputs = run(
        cells, tmp_path, hand_out=list(tests.hand_out), hide_functions=list(tests.hide), timeout=120
    )
    failed = [(cells[i][:60], text[-300:]) for i, text in enumerate(outputs) if "Error" in text]
    assert failed == []


def test_exercise_3_hands_out_no_simulation_engine_and_no_search_for_sets():
    """Issue 33: sim.kernels.first_set_at answered first_set; exercise 3's kernel has no sim at all."""
    files = _package("03_finding_sets")
    assert not any(path.startswith(("sim/", "caps", "geometry/", "game/")) for path in files)
    assert not re.search(
        r"\bdef (first_set|find_sets|has_set|count_sets|first_set_at)\b", "".join(files.values())
    )
    assert re.search(r"\bdef third_card\b", files["rules.py"]), (
        "exercise 3 builds on the package's third_card"
    )
