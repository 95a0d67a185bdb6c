"""The project's own promises: one set of dependencies, a README whose commands CI runs,
and a core that stays free of Jupyter."""

import ast
import doctest
import importlib
import importlib.util
import pkgutil
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _conda_dependencies() -> list[str]:
    names, in_deps = [], False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        stripped = line.strip()
        if line.startswith("dependencies:"):
            in_deps = True
        elif in_deps and re.match(r"^  - [^ ]", line) and stripped != "- pip:":
            names.append(stripped[2:])
    return names


def _course_requirements() -> list[str]:
    """What the course runs on: the package's dependencies, its ``course`` extra and the extras it takes."""
    project = _pyproject()["project"]
    optional = project["optional-dependencies"]
    found, todo = list(project["dependencies"]), ["course"]
    while todo:
        for requirement in optional[todo.pop()]:
            if requirement.startswith("setwidgets["):
                todo += requirement[len("setwidgets[") : -1].split(",")
            elif requirement not in found:
                found.append(requirement)
    return found


# conda-forge's names for the same packages: matplotlib-base is matplotlib without Qt, which a
# notebook never uses and which would double the size of Binder's image.
CONDA_NAMES = {"matplotlib": "matplotlib-base"}


def test_environment_yml_names_the_same_dependencies_as_pyproject():
    """Binder's environment is the course: dependencies + the course extra, nothing more or less."""
    from packaging.requirements import Requirement

    # Binder's machine: Linux on x86_64, Python 3.12 (a requirement for other machines, such as
    # numba's cap for Intel Macs, does not apply there).
    binder = {"platform_system": "Linux", "platform_machine": "x86_64", "python_version": "3.12"}
    runtime = {
        CONDA_NAMES.get(_name(r), _name(r)): r[len(_name(r)) :].split(";")[0].strip()
        for r in _course_requirements()
        if Requirement(r).marker is None or Requirement(r).marker.evaluate(binder)
    }
    conda = {_name(r): r for r in _conda_dependencies() if _name(r) not in {"python", "pip", "setuptools"}}
    assert set(conda) == set(runtime), (
        f"environment.yml and pyproject.toml disagree: only in environment.yml {set(conda) - set(runtime)}, "
        f"only in pyproject.toml {set(runtime) - set(conda)}"
    )
    for name, spec in runtime.items():
        assert conda[name].replace(" ", "").endswith(spec.replace(" ", "")), (
            f"{name}: pyproject.toml asks for '{spec}', environment.yml for '{conda[name]}'"
        )


SERVER_STACK = {"jupyterlab", "notebook", "nbgrader", "voila"}


def test_the_package_alone_needs_only_the_standard_library_and_tqdm():
    """``pip install setwidgets`` (no extra) is the core; widgets, sim, print and course are extras.

    Read from the installed metadata, which is what pip resolves from.
    """
    from importlib.metadata import requires

    def extra(name: str) -> set[str]:
        return {_name(r) for r in requires("setwidgets") if re.search(rf"extra == .{name}.", r)}

    assert {_name(r) for r in requires("setwidgets") if "extra ==" not in r} == {"tqdm"}
    assert extra("widgets") == {"ipywidgets", "ipycanvas", "anywidget", "matplotlib"}
    assert extra("sim") == {"numpy", "numba", "matplotlib"}
    assert extra("print") == {"reportlab", "uharfbuzz"}
    assert extra("classroom") == {"tornado", "sqlalchemy"}
    # nh3: the HTML sanitiser that makes a student's Markdown safe for the Formgrader (grading.sanitize).
    # jsonschema: a bound on a package the server stack brings anyway (an import 1.7 s slower above it).
    assert extra("course") == SERVER_STACK | {"setwidgets", "nh3", "jsonschema"}
    from setwidgets._extras import EXTRAS

    for name, modules in EXTRAS.items():
        assert set(modules) == extra(name), (
            f"setwidgets._extras names the modules of {name} as pyproject does"
        )


def test_the_test_extra_and_course_py_install_the_course_extra():
    optional = _pyproject()["project"]["optional-dependencies"]
    # The tests start a real hub (tests/test_hub.py), so the test extra takes the hub's, which
    # takes the course's, which takes every part of the package.
    assert "setwidgets[hub]" in optional["test"]
    assert "setwidgets[course]" in optional["hub"]
    assert "setwidgets[widgets,sim,print,classroom]" in optional["course"]
    spec = importlib.util.spec_from_file_location("course_py", ROOT / "course.py")
    course_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course_py)
    parts = {"widgets", "sim", "print", "classroom"}
    assert course_py._extras_within({"test"}) == {"test", "hub", "course"} | parts
    assert course_py._extras_within({"hub"}) == {"hub", "course"} | parts
    assert course_py._extras_within({"course"}) == {"course"} | parts


def test_binder_installs_this_package_on_a_python_numba_and_numpy_both_support():
    text = (ROOT / "environment.yml").read_text()
    assert "python=3.12" in text
    post_build = (ROOT / "postBuild").read_text()
    assert "pip install --no-deps -e ." in post_build, "postBuild must pip-install the package itself"
    assert "conda-forge" in text


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
    return [line.split("#")[0].strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one():
    commands = _readme_commands()
    assert commands == ["python3 course.py lab", "python3 course.py test"], commands
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 course.py test" in ci


def _forbidden_contracts() -> dict[str, dict]:
    """pyproject.toml's forbidden contracts (tests/test_layers.py checks them on the import graph)."""
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    return {c["id"]: c for c in contracts if c["type"] == "forbidden"}


@pytest.mark.parametrize("contract", _forbidden_contracts())
def test_importing_the_modules_of_a_forbidden_contract_loads_none_of_its_packages(contract):
    """What the import graph cannot show, at run time: a package imported by its name (numpy
    through setwidgets._extras) or by a dependency. Every module of the contract is imported, with
    its own modules, and a missing one fails the test.
    """
    spec = _forbidden_contracts()[contract]
    forbidden = {m for m in spec["forbidden_modules"] if not m.startswith("setwidgets")}
    # A fresh interpreter, so modules imported by other tests cannot hide an import.
    code = (
        "import importlib, pkgutil, sys\n"
        f"for name in {spec['source_modules']!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    for info in pkgutil.walk_packages(getattr(module, '__path__', []), name + '.'):\n"
        "        importlib.import_module(info.name)\n"
        f"print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(forbidden)!r})))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    out = result.stdout.strip()
    assert out == "", f"{spec['name']}, yet importing {', '.join(spec['source_modules'])} loaded {out}"


PUBLIC = ["Card", "full_deck", "mini_deck", "is_set", "explain", "third_card", "find_sets", "Game"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_are_importable_from_the_package(name):
    import setwidgets

    assert getattr(setwidgets, name).__doc__, f"setwidgets.{name} needs a docstring a student can read"


def _package_modules(path: Path = ROOT / "setwidgets", name: str = "setwidgets") -> Iterator[str]:
    """Every module of the package, found in its folders: a new module is tested with no list to update."""
    yield name
    for info in pkgutil.iter_modules([str(path)]):
        if info.ispkg:
            yield from _package_modules(path / info.name, f"{name}.{info.name}")
        else:
            yield f"{name}.{info.name}"


def _doctests(module: ModuleType) -> list[doctest.DocTest]:
    """The examples doctest finds, and those of the docstrings under assignments, which it does not.

    ``THIRD: bytes = ...`` followed by a docstring documents THIRD; doctest sees no object there.
    """
    tests = doctest.DocTestFinder().find(module)
    parser = doctest.DocTestParser()

    def attributes(body: list[ast.stmt], prefix: str) -> None:
        for before, node in zip(body, body[1:]):
            if (
                isinstance(before, ast.Assign | ast.AnnAssign)
                and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                target = before.targets[0] if isinstance(before, ast.Assign) else before.target
                name = f"{prefix}.{ast.unparse(target)}"
                text, where = node.value.value, node.lineno - 1
                test = parser.get_doctest(text, dict(vars(module)), name, module.__file__, where)
                if test.examples:
                    tests.append(test)
        for node in body:
            if isinstance(node, ast.ClassDef):
                attributes(node.body, f"{prefix}.{node.name}")

    attributes(ast.parse(Path(module.__file__).read_text()).body, module.__name__)
    return tests


# The one place where the docstring examples run (no other test runs them again): every module of
# the package, those that need Jupyter or numpy too.
@pytest.mark.parametrize("name", list(_package_modules()))
def test_the_examples_in_the_docstrings_run_as_shown(name):
    """The ``>>>`` examples a student reads with help() give the output printed beside them."""
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in _doctests(module):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} examples of {name} print something else (above)"
    tree = ast.parse(Path(module.__file__).read_text())
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    shown = sum(len(doctest.DocTestParser().get_examples(string)) for string in strings)
    assert runner.tries == shown, (
        f"{name} shows {shown} examples and {runner.tries} of them run: doctest does not find the others "
        "(in a nested function, say)"
    )


def _readme_python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)


@pytest.mark.parametrize("index", range(len(_readme_python_blocks())))
def test_the_readme_examples_run_and_print_what_their_comments_say(index):
    block = _readme_python_blocks()[index]
    # A comment after print(...) states what it prints; the example must keep its word.
    promised = [line.split("# ", 1)[1].strip() for line in block.splitlines() if "print(" in line]
    result = subprocess.run(
        [sys.executable, "-c", block], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == promised


def test_widgets_come_from_the_package_on_demand_only():
    """``from setwidgets import Board`` works, while the core alone loads no widget module.

    The widgets are those of ``setwidgets.widgets.WIDGETS``, their one list, which reading
    loads no Jupyter module either.
    """
    code = (
        "import sys, setwidgets\n"
        "from setwidgets import *\n"
        "from setwidgets.widgets import WIDGETS\n"
        "assert set(WIDGETS) <= set(dir(setwidgets)) and not set(WIDGETS) & set(setwidgets.__all__)\n"
        "assert 'ipywidgets' not in sys.modules, 'the core or the list of widgets loaded ipywidgets'\n"
        "import setwidgets.widgets as w\n"
        "for name in WIDGETS:\n"
        "    assert getattr(setwidgets, name) is getattr(w, name) and name in w.__all__, name\n"
        "from setwidgets import Board, MagicRuleChecker\n"
        "from setwidgets.widgets import Board as B\n"
        "assert Board is B and 'ipywidgets' in sys.modules\n"
        "try:\n"
        "    setwidgets.Nonsense\n"
        "except AttributeError as e:\n"
        "    assert 'Nonsense' in str(e)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
