"""Every command of the package, with the core alone: it works, or it says in one sentence what to install.

The commands are found, not listed: every ``__main__.py`` in ``setwidgets/`` and every module
with an ``if __name__ == "__main__":`` block (``python -m MODULE``), every console script of
pyproject.toml's ``[project.scripts]``, and the subcommands of each (the keys of a module's
``COMMANDS`` and the commands its usage text lists). Each runs in a Python that has only what
``pip install setwidgets`` brings: the standard library, setwidgets (this clone's) and the core's
dependencies (tqdm), linked into one folder that is the whole of ``sys.path`` beyond the standard
library (``python -S``: no site-packages). A command that needs an extra must refuse before it
reads its arguments (run bare and with ``--help``), in the one sentence of
:func:`setwidgets._extras.command_needs`, naming the smallest extra of pyproject.toml that holds
the missing module, and exit non-zero. A command that needs no extra is in :data:`CORE`, with
arguments it runs with: a new command is one or the other, or this test fails.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata as metadata
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import setwidgets

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "setwidgets"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

SENTENCE = re.compile(
    r"setwidgets: (?P<part>.+) needs (?P<module>[A-Za-z_]\w*), which is not installed: "
    r"pip install 'setwidgets\[(?P<extra>[a-z]+)\]' adds it\."
)


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    sides = [node.test.left, *node.test.comparators]
    names = {s.id for s in sides if isinstance(s, ast.Name)}
    texts = {s.value for s in sides if isinstance(s, ast.Constant)}
    return names == {"__name__"} and texts == {"__main__"}


def _subcommands(tree: ast.Module) -> list[str]:
    """The keys of a top-level ``COMMANDS = {...}`` and the commands the module's usage text lists."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMMANDS" for t in node.targets
        ):
            assert isinstance(node.value, ast.Dict), "COMMANDS is a dict literal, which this test reads"
            found |= {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
    usage = (ast.get_docstring(tree) or "").partition("\ncommands:\n")[2].partition("\n\n")[0]
    found |= set(re.findall(r"^  ([a-z][a-z-]*)\b", usage, re.MULTILINE))
    return sorted(found)


def _commands_of(module: str, run_as: list[str], label: str) -> list[tuple[str, list[str]]]:
    """(label, argv before the arguments) for the module's command, or for each of its subcommands."""
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = PACKAGE.parent / module.replace(".", "/") / "__main__.py"
    subcommands = _subcommands(ast.parse(path.read_text()))
    if not subcommands:
        return [(label, run_as)]
    return [(f"{label} {sub}", [*run_as, sub]) for sub in subcommands]


def entry_points() -> list[tuple[str, list[str]]]:
    """Every command of the package: a label as the user types it, and the Python arguments that run it."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if path.name == "__main__.py":
            module = ".".join(parts[:-1])
        elif any(_is_main_guard(node) for node in ast.parse(path.read_text()).body):
            module = ".".join(parts)
        else:
            continue
        found += _commands_of(module, ["-m", module], f"python -m {module}")
    for name, target in PYPROJECT["project"]["scripts"].items():
        module, _, attr = target.partition(":")
        # What pip's generated script does, with the script's name as argv[0].
        script = f"import sys; sys.argv[0] = {name!r}; from {module} import {attr}; sys.exit({attr}())"
        found += _commands_of(module, ["-c", script], name)
    return found


ENTRY_POINTS = entry_points()

CORE = {
    "python -m setwidgets lessons": (["course"], "notebooks copied into course"),
    "setwidgets lessons": (["course"], "notebooks copied into course"),
    "python -m setwidgets version": ([], setwidgets.__version__),
    "setwidgets version": ([], setwidgets.__version__),
    "python -m setwidgets help": ([], "usage: setwidgets COMMAND"),
    "setwidgets help": ([], "usage: setwidgets COMMAND"),
}
"""The commands that need no extra: the arguments they are run with, and what their output holds."""


# -- what pip install setwidgets brings, and what each extra brings --------------------------------


def _requirements(dist: str, extras: set[str]) -> list[Requirement]:
    if canonicalize_name(dist) == "setwidgets":  # this clone's pyproject.toml, not an older install's
        project = PYPROJECT["project"]
        lines = list(project["dependencies"])
        for extra in extras:
            lines += project["optional-dependencies"][extra]
        reqs = [Requirement(line) for line in lines]
    else:
        try:
            reqs = [Requirement(line) for line in metadata.requires(dist) or []]
        except metadata.PackageNotFoundError:
            return []  # not installed here (mutmut): the extra holds the name, not its dependencies
    return [
        r for r in reqs if r.marker is None or any(r.marker.evaluate({"extra": e}) for e in extras | {""})
    ]


def closure(dist: str, extras: set[str]) -> set[str]:
    """The distributions ``dist[extras]`` installs (those this environment can tell of), by canonical name."""
    seen: set[str] = set()
    todo = [(dist, extras)]
    while todo:
        name, wanted = todo.pop()
        key = (canonicalize_name(name), frozenset(wanted))
        if key in seen:
            continue
        seen.add(key)
        todo += [(r.name, set(r.extras)) for r in _requirements(name, wanted)]
    return {name for name, _ in seen} - {"setwidgets"}


# Reading every installed distribution's metadata takes seconds: once, and only when a test runs.
@functools.cache
def _installed_modules() -> dict[str, list[str]]:
    return metadata.packages_distributions()


def _top_modules() -> dict[str, set[str]]:
    """Each installed distribution's top-level modules, by the distribution's canonical name."""
    modules: dict[str, set[str]] = {}
    for module, dists in _installed_modules().items():
        for dist in dists:
            modules.setdefault(canonicalize_name(dist), set()).add(module)
    return modules


def _distributions_of(module: str) -> set[str]:
    return {canonicalize_name(d) for d in _installed_modules().get(module, [module])}


@functools.cache
def extra_closures() -> dict[str, set[str]]:
    """What each extra of pyproject.toml installs (beyond setwidgets itself)."""
    return {extra: closure("setwidgets", {extra}) for extra in PYPROJECT["project"]["optional-dependencies"]}


@pytest.fixture(scope="module")
def core_site(tmp_path_factory) -> Path:
    """What ``pip install setwidgets`` brings, in one folder: this clone's package and the core's needs."""
    site = tmp_path_factory.mktemp("core-site")
    (site / "setwidgets").symlink_to(PACKAGE, target_is_directory=True)
    for dist in closure("setwidgets", set()):
        files = metadata.distribution(dist).files or []
        for top in {f.parts[0] for f in files if f.parts[0] != ".."}:  # ".." is a script in bin/
            source = Path(metadata.distribution(dist).locate_file(top))
            if source.exists() and not (site / top).exists():
                (site / top).symlink_to(source)
    return site


def run_core(site: Path, argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python -S ARGV`` with ``site`` as the only folder beyond the standard library."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-S", *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_core_alone_is_what_the_commands_run_on(core_site, tmp_path):
    """The simulation is honest: the core imports from this clone; no module of any extra is found."""
    extras = set().union(*extra_closures().values()) - closure("setwidgets", set())
    tops = _top_modules()
    absent = sorted({m for d in extras for m in tops.get(d, ())} - set(sys.stdlib_module_names))
    assert {"nbgrader", "tornado", "numpy", "ipywidgets", "reportlab", "jupyterlab"} <= set(absent)
    probe = (
        "import importlib.util, json, setwidgets, tqdm\n"
        f"found = [m for m in {absent!r} if importlib.util.find_spec(m) is not None]\n"
        "print(json.dumps([setwidgets.__file__, found]))"
    )
    result = run_core(core_site, ["-c", probe], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    package, found = json.loads(result.stdout)
    assert Path(package).resolve() == PACKAGE / "__init__.py"
    assert found == [], f"modules of extras visible to the core alone: {found}"


def test_every_entry_point_is_found():
    """The finding itself: the commands this test knows of today are among those it finds."""
    labels = {label for label, _ in ENTRY_POINTS}
    assert {
        "setwidgets lab",
        "setwidgets lessons",
        "python -m setwidgets lab",
        "python -m setwidgets.classroom",
        "python -m setwidgets.grading.report",
        "python -m setwidgets.grading.insight",
        "python -m setwidgets.grading.insight.progress",
        "python -m setwidgets.site",
        "python -m setwidgets.mutation",
    } <= labels, sorted(labels)
    assert set(CORE) <= labels, "a command in CORE that no longer exists"


@pytest.mark.parametrize(("label", "argv"), ENTRY_POINTS, ids=[label for label, _ in ENTRY_POINTS])
def test_with_the_core_alone_each_command_works_or_names_its_extra(label, argv, core_site, tmp_path):
    if label in CORE:
        args, says = CORE[label]
        result = run_core(core_site, [*argv, *args], tmp_path)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-3000:]
        assert says in result.stdout
        return
    for args in ([], ["--help"]):
        result = run_core(core_site, [*argv, *args], tmp_path)
        out = result.stdout[-1500:] + result.stderr[-3000:]
        shown = f"{label} {' '.join(args)}: exit {result.returncode}\n{out}"
        assert result.returncode != 0 and result.stdout == "", shown
        said = SENTENCE.fullmatch(result.stderr.strip())
        assert said, f"not the one sentence naming the extra (or add the command to CORE): {shown}"
        assert said["part"] in (label, label.removeprefix("python -m ")), shown
        module, extra = said["module"], said["extra"]
        closures = extra_closures()
        holders = {e for e, dists in closures.items() if dists & _distributions_of(module)}
        assert extra in holders, f"{label}: pyproject.toml's [{extra}] does not bring {module} ({holders})"
        smallest = min(len(closures[e]) for e in holders)
        assert len(closures[extra]) == smallest, f"{label}: a smaller extra than [{extra}] brings {module}"


def test_command_needs_looks_up_top_level_names_and_stops_in_one_sentence(monkeypatch):
    from setwidgets import _extras

    assert _extras.command_needs("sim", "python -m here", "json") is None
    with pytest.raises(SystemExit) as stopped:
        _extras.command_needs("sim", "python -m here", "json", "no_such_module_here")
    assert stopped.value.code == (
        "setwidgets: python -m here needs no_such_module_here, which is not installed: "
        "pip install 'setwidgets[sim]' adds it."
    )
    with pytest.raises(ValueError, match="command_needs: name top-level modules, not 'numpy.linalg'"):
        _extras.command_needs("sim", "python -m here", "numpy.linalg")
    # With no module named, the extra's own list of setwidgets._extras.EXTRAS.
    monkeypatch.setitem(_extras.EXTRAS, "sim", ("json", "no_such_module_either"))
    with pytest.raises(SystemExit, match="needs no_such_module_either"):
        _extras.command_needs("sim", "python -m here")
