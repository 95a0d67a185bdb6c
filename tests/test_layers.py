"""The package's architecture, checked: layers, forbidden imports, no circles, no private name used.

The contracts live in pyproject.toml (``[tool.importlinter]``) and import-linter checks them on
the import graph that grimp reads from the source, imports inside functions included. Each check
is also shown to fail: on a copy of the package with one bad import added, the same contracts
are broken and name it.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
CONTRACTS = {c["id"]: c for c in tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]}

# import-linter's Python API in a fresh interpreter: the package it analyses is the one found on
# sys.path from the working directory (the checkout, or a copy), not one this process imported.
LINT = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename=sys.argv[1], limit_to_contracts=tuple(sys.argv[2:]),"
    " no_cache=True, no_logo=True))\n"
)


def lint(cwd: Path, *contracts: str) -> subprocess.CompletedProcess:
    """Check pyproject.toml's contracts (all, or those named) on the package ``setwidgets`` in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-c", LINT, str(PYPROJECT), *contracts],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(cwd), "COLUMNS": "200", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_contract_holds(contract):
    result = lint(ROOT, contract)
    assert result.returncode == 0, f"{CONTRACTS[contract]['name']}:\n{result.stdout}{result.stderr}"
    assert f"{CONTRACTS[contract]['name']} KEPT" in result.stdout


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the package in ``tmp_path/setwidgets``, to break."""
    shutil.copytree(
        ROOT / "setwidgets", tmp_path / "setwidgets", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}\n")


@pytest.fixture(scope="module")
def checkout() -> str:
    """The contracts' report on the checkout itself."""
    return lint(ROOT).stdout


# (module, the line added to it, the contract it breaks, what the report then names)
BROKEN = {
    "the core imports Jupyter": (
        "cards.py",
        "import ipywidgets",
        "no-jupyter",
        "setwidgets.cards -> ipywidgets",
    ),
    "the core imports numpy": (
        "rules.py",
        "import numpy",
        "core-needs-no-extra",
        "setwidgets.rules -> numpy",
    ),
    "the core takes an extra by name": (
        "bot.py",
        "from setwidgets import _extras",
        "core-needs-no-extra",
        "setwidgets.bot -> setwidgets._extras",
    ),
    "the drawing imports a widget": (
        "draw/svg.py",
        "from setwidgets.widgets import board",
        "layers",
        "setwidgets.draw.svg -> setwidgets.widgets.board",
    ),
    "the rules import the bot": ("rules.py", "from setwidgets import bot", "no-circles", ".rules -> .bot"),
}


@pytest.mark.parametrize(("module", "line", "contract", "named"), BROKEN.values(), ids=BROKEN)
def test_a_forbidden_import_breaks_its_contract(copy, checkout, module, line, contract, named):
    """The same contracts, run on a copy with one bad import, fail and name that import."""
    add_line(copy / "setwidgets" / module, line)
    result = lint(copy, contract)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{CONTRACTS[contract]['name']} BROKEN" in result.stdout
    assert named in result.stdout.split("Broken contracts", 1)[1], result.stdout
    assert named not in checkout, "the checkout itself breaks the contract this way: the copy proves nothing"


# -- no circle between single modules ----------------------------------------------------------


def circles(graph: grimp.ImportGraph) -> list[str]:
    """Each group of modules that import one another round circles, named by one circle through it.

    acyclic_siblings compares siblings only; this also finds a package whose own module imports
    it back, and it reads imports inside functions as grimp does.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's strongly connected components, without recursion
        work: list[tuple[str, Iterator[str]]] = []

        def enter(module: str) -> None:
            index[module] = low[module] = len(index)
            stack.append(module)
            on_stack.add(module)
            work.append((module, iter(sorted(graph.find_modules_directly_imported_by(module)))))

        enter(start)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    enter(other)
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    found = []
    for group in sorted(groups):
        first = group[0]
        second = min(m for m in graph.find_modules_directly_imported_by(first) if m in group)
        chain = (first, *graph.find_shortest_chain(importer=second, imported=first))
        others = ", ".join(sorted(set(group) - set(chain)))
        found.append(" -> ".join(chain) + (f" (and {others} in circles with them)" if others else ""))
    return found


def test_no_module_imports_itself_round_a_circle():
    graph = grimp.build_graph("setwidgets", cache_dir=None)
    assert circles(graph) == [], "circles of imports: " + "; ".join(circles(graph))


def test_circles_are_found_and_named():
    graph = grimp.ImportGraph()
    imports = [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.f"), ("p.f", "p.b"), ("p.e", "p.a")]
    for importer, imported in [*imports, ("p", "p.d"), ("p.d", "p")]:
        graph.add_import(importer=importer, imported=imported)
    assert circles(graph) == ["p -> p.d -> p", "p.a -> p.b -> p.c -> p.a (and p.f in circles with them)"]


# -- no module uses a private name of another ----------------------------------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _in_scope(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a scope's body, without the bodies of the functions and classes it defines."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo += [*node.decorator_list, *getattr(node, "bases", ())]
            if not isinstance(node, ast.ClassDef):
                todo += [d for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None]
        elif isinstance(node, ast.Lambda):
            todo += node.args.defaults
        else:
            todo += ast.iter_child_nodes(node)


class _PrivateNames:
    """The private names of other setwidgets modules that one module imports or reads."""

    def __init__(self, path: Path, root: Path, modules: set[str]) -> None:
        self.where = path.relative_to(root)
        self.module = _module_name(path, root)
        self.package = self.module if path.name == "__init__.py" else self.module.rpartition(".")[0]
        self.modules = modules
        self.uses: list[tuple[int, int, str]] = []
        self.scope(ast.parse(path.read_text(), str(path)).body, {}, ())
        self.found = [f"{self.where}:{line}: {use}" for line, _, use in sorted(self.uses)]

    def source(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = self.package
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{node.module}" if node.module else package

    def report(self, node: ast.AST, use: str, module: str) -> None:
        self.uses.append((node.lineno, node.col_offset, f"{use} (a private name of {module})"))

    def private_of_another(self, module: str, name: str) -> bool:
        return (
            module in self.modules
            and module != self.module
            and _private(name)
            and f"{module}.{name}" not in self.modules  # a private module imported as a module is fine
        )

    def scope(self, body: list[ast.stmt], outer: dict[str, str], arguments: tuple[str, ...]) -> None:
        """Check one scope: ``outer`` maps the names seen from outside it to the modules they are."""
        imported: dict[str, str] = {}
        bound = set(arguments)
        nested: list[ast.AST] = []
        for node in _in_scope(body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        imported[alias.asname] = alias.name
                    else:
                        imported[alias.name.split(".")[0]] = alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                source = self.source(node)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    if self.private_of_another(source, alias.name):
                        self.report(node, f"from {source} import {alias.name}", source)
                    if f"{source}.{alias.name}" in self.modules:
                        imported[alias.asname or alias.name] = f"{source}.{alias.name}"
                    else:
                        bound.add(alias.asname or alias.name)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound.add(node.name)
                nested.append(node)
            elif isinstance(node, ast.Lambda):
                nested.append(node)
            elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
                bound.add(node.name)
        # A name also bound otherwise in this scope may not be the module: it is not followed.
        names = {n: m for n, m in outer.items() if n not in bound and n not in imported}
        names |= {n: m for n, m in imported.items() if n not in bound}
        for node in _in_scope(body):
            if isinstance(node, ast.Attribute):
                self.attribute(node, names)
        for node in nested:
            if isinstance(node, ast.ClassDef):
                self.scope(node.body, names, ())
                continue
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            arguments = tuple(a.arg for a in every if a is not None)
            # A method sees the module's names, not its class's: close enough for imports.
            self.scope(node.body if isinstance(node.body, list) else [ast.Expr(node.body)], names, arguments)

    def attribute(self, node: ast.Attribute, names: dict[str, str]) -> None:
        """``module._name`` or ``package.module._name``, read from a name bound to a setwidgets module."""
        chain: list[str] = []
        value: ast.AST = node
        while isinstance(value, ast.Attribute):
            chain.insert(0, value.attr)
            value = value.value
        if not isinstance(value, ast.Name) or value.id not in names:
            return
        module = names[value.id]
        for position, attr in enumerate(chain):
            if f"{module}.{attr}" in self.modules:
                module = f"{module}.{attr}"
                continue
            # Only the outermost attribute of a chain reports, once.
            if position == len(chain) - 1 and self.private_of_another(module, attr):
                self.report(node, ".".join([value.id, *chain]), module)
            return


def private_names_used(root: Path) -> list[str]:
    """``file:line: use (a private name of module)`` for each use, in the package found in ``root``."""
    files = sorted((root / "setwidgets").rglob("*.py"))
    modules = {_module_name(f, root) for f in files}
    return [use for f in files for use in _PrivateNames(f, root, modules).found]


def test_no_module_uses_a_private_name_of_another():
    """A name that starts with _ is its module's own: another module asks for a public one.

    Private modules (``setwidgets._inputs``) imported as modules are fine, and so are dunder names.
    """
    found = private_names_used(ROOT)
    assert found == [], "private names used from another module:\n" + "\n".join(found)


def test_private_names_used_from_another_module_are_found(tmp_path):
    package = tmp_path / "setwidgets"
    (package / "game").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "_inputs.py").write_text("def check(x):\n    return x\n\n\ndef _policy():\n    pass\n")
    (package / "game" / "__init__.py").write_text("from setwidgets.game.engine import Game, _deal\n")
    (package / "game" / "engine.py").write_text(
        "class Game:\n    _cards = ()\n\n\ndef _deal(game):\n    return game._cards\n"
    )
    (package / "bot.py").write_text(
        "import setwidgets.game.engine\n"
        "from setwidgets import _inputs, game\n"
        "from setwidgets._inputs import check, _policy\n"
        "from .game import _deal as deal\n"
        "\n"
        "def play(game):\n"  # a Game here, not the module: its attributes are its own business
        "    return game._cards, _inputs.check(game), game.__class__\n"
        "\n"
        "def peek():\n"
        "    from setwidgets.game import engine\n"
        "    return engine._deal, game._deal, setwidgets.game.engine._deal, _inputs._policy\n"
    )
    assert private_names_used(tmp_path) == [
        "setwidgets/bot.py:3: from setwidgets._inputs import _policy (a private name of setwidgets._inputs)",
        "setwidgets/bot.py:4: from setwidgets.game import _deal (a private name of setwidgets.game)",
        "setwidgets/bot.py:11: engine._deal (a private name of setwidgets.game.engine)",
        "setwidgets/bot.py:11: game._deal (a private name of setwidgets.game)",
        "setwidgets/bot.py:11: setwidgets.game.engine._deal (a private name of setwidgets.game.engine)",
        "setwidgets/bot.py:11: _inputs._policy (a private name of setwidgets._inputs)",
        "setwidgets/game/__init__.py:1: from setwidgets.game.engine import _deal"
        " (a private name of setwidgets.game.engine)",
    ]


def test_no_module_is_longer_than_a_newcomer_reads_at_once():
    longest = 600
    long_ones = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "setwidgets").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > longest
    }
    assert not long_ones, f"modules over {longest} lines: split them along a seam: {long_ones}"
