"""The package as a grading kernel sees it: exactly what the exercise hands out, and nothing else.

An exercise hands its students some of the package (cards, the pictures, the instant checks, the
package's ``third_card`` where the exercise builds on it) and asks them to write the rest. Its
``hidden_tests.py`` says what it hands out, as dotted names::

    tests = Tests(hand_out=["setwidgets.Card", "setwidgets.full_deck", "setwidgets.draw.show",
                            "setwidgets.checks.check_is_set"])

While that exercise is graded, the sandbox (:class:`setwidgets.grading.sandbox.SandboxedKernelManager`)
shows the kernel, in place of the package's folder, a copy made by :func:`kernel_package`: every
module holds only the top-level definitions that the names handed out need, directly or through
others (read from the code: the names a kept definition uses, the modules it imports); a module
that nothing needs is not there at all. Whatever route a notebook takes to the package (a
function's ``__wrapped__`` or ``__globals__``, a module's table, ``importlib``, another module of
the package, a file on disk), what the exercise does not hand out is not in the kernel's files.
This is an allow-list: a name nobody listed, and nothing listed needs, is absent.

Two parts of the package have a stand-in while a notebook is graded (:data:`STAND_INS`): the
instant checks, which compare with the package's own answers, say in one sentence that they are
set aside (the graded tests say how the answers did); and the visible tests' referee, with
nothing to keep out of reach, only hands out the cards. The grader's own route into the kernel
(:mod:`setwidgets.grading.route`, with :mod:`~setwidgets.grading.compute` and
:mod:`~setwidgets.grading.watch`) is always there.
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "setwidgets"
ROOT = Path(__file__).resolve().parent.parent
"""The package's folder, whose modules the copy is made of."""

ALWAYS = ("setwidgets.grading.route", "setwidgets.grading.compute", "setwidgets.grading.watch")
"""Modules every grading kernel has whole: the grader's route and what answers on it."""

STAND_INS = {
    "setwidgets.checks": ROOT / "grading" / "stand_ins" / "checks.py",
    "setwidgets.grading.referee": ROOT / "grading" / "stand_ins" / "referee.py",
}
"""Modules whose source, in a grading kernel, is another file: the checks and the referee set aside."""


def _module_path(module: str) -> Path | None:
    """The source file of a module of the package, or None when there is no such module."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return None
    parts = module.split(".")[1:]
    folder = ROOT.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py"
    file = ROOT.joinpath(*parts[:-1], parts[-1] + ".py") if parts else None
    return file if file is not None and file.is_file() else None


def _is_package(module: str) -> bool:
    path = _module_path(module)
    return path is not None and path.name == "__init__.py"


def _bound(node: ast.stmt) -> set[str]:
    """The names a top-level statement binds in its module."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and inner is not node:
            if _is_top_level_in(node, inner):
                names.add(inner.name)
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            names.add(inner.id)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            names |= {_alias_name(alias, inner) for alias in inner.names}
    return names


def _is_top_level_in(statement: ast.stmt, inner: ast.AST) -> bool:
    """Whether ``inner`` is defined at the module level of a compound statement (an if or a try)."""
    bodies = [statement]
    while bodies:
        node = bodies.pop()
        for child in ast.iter_child_nodes(node):
            if child is inner:
                return True
            if isinstance(child, (ast.If, ast.Try, ast.With, ast.ExceptHandler)):
                bodies.append(child)
    return False


def _alias_name(alias: ast.alias, node: ast.Import | ast.ImportFrom) -> str:
    if alias.asname:
        return alias.asname
    return alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, relative ones resolved against ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@dataclass
class _Source:
    """One module of the copy: its statements, and which of them the copy keeps."""

    name: str
    tree: ast.Module
    kept: set[int] = field(default_factory=set)
    aliases: dict[int, set[str]] = field(default_factory=dict)  # import statements: the aliases kept
    bindings: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def read(cls, name: str) -> _Source | None:
        path = STAND_INS.get(name) or _module_path(name)
        if path is None:
            return None
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        source = cls(name, tree)
        for index, node in enumerate(tree.body):
            for bound in _bound(node):
                source.bindings.setdefault(bound, []).append(index)
            if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                source.kept.add(index)  # the docstring
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                source.kept.add(index)
        return source


class _Closure:
    """What the names handed out need, module by module (see the module's help)."""

    def __init__(self) -> None:
        self.sources: dict[str, _Source] = {}
        self.whole: set[str] = set()
        self.done: set[tuple[str, str | None]] = set()
        self.queue: list[tuple[str, str | None]] = []

    def source(self, module: str) -> _Source | None:
        if module not in self.sources:
            found = _Source.read(module)
            if found is None:
                return None
            self.sources[module] = found
            if "." in module:  # importing a module runs its packages first
                self.need(module.rpartition(".")[0], None)
        return self.sources[module]

    def need(self, module: str, name: str | None) -> None:
        """Keep ``name`` of ``module`` (None: the module itself, with nothing more; "*": all of it)."""
        if (module, name) not in self.done:
            self.done.add((module, name))
            self.queue.append((module, name))

    def run(self) -> None:
        more = True
        while more:
            while self.queue:
                module, name = self.queue.pop()
                source = self.source(module)
                if source is None:
                    raise ValueError(f"{module} is not a module of {PACKAGE}, yet {name} of it is needed")
                if name == "*":
                    for index in range(len(source.tree.body)):
                        self.keep(source, index, None)
                elif name is not None:
                    self.keep_name(source, name)
            more = any([self.keep_statements_that_use_kept_names(s) for s in list(self.sources.values())])

    def keep_name(self, source: _Source, name: str) -> None:
        # A module that makes its names on demand (PEP 562) hands them out through __getattr__.
        indices = source.bindings.get(name) or source.bindings.get("__getattr__")
        if indices:
            for index in indices:
                self.keep(source, index, name)
            return
        submodule = f"{source.name}.{name}"
        if _module_path(submodule) is not None or submodule in STAND_INS:
            self.need(submodule, None)
            return
        raise ValueError(
            f"{source.name} has no {name}, yet the exercise hands it out or something kept uses it"
        )

    def keep(self, source: _Source, index: int, name: str | None) -> None:
        node = source.tree.body[index]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            wanted = source.aliases.setdefault(index, set())
            names = {_alias_name(alias, node) for alias in node.names}
            new = (names if name is None else {name}) - wanted
            if not new:
                return
            wanted |= new
            source.kept.add(index)
            for alias in node.names:
                if _alias_name(alias, node) in new:
                    self.follow_import(source.name, node, alias, None)
            return
        if index in source.kept:
            return
        source.kept.add(index)
        self.uses(source, node)

    def follow_import(
        self, module: str, node: ast.Import | ast.ImportFrom, alias: ast.alias, attrs: set[str] | None
    ) -> None:
        """Need what an import brings: a name of a module of the package, or a whole module of it."""
        if isinstance(node, ast.Import):
            if alias.name.split(".")[0] != PACKAGE:
                return
            # "import setwidgets.x" (as y): the module, all of it unless only some attributes are used.
            self.need_module(alias.name, attrs if alias.asname else None)
            return
        base = _absolute(module, node)
        if base.split(".")[0] != PACKAGE:
            return
        submodule = f"{base}.{alias.name}"
        if (_module_path(submodule) is not None or submodule in STAND_INS) and not self._binds(
            base, alias.name
        ):
            self.need_module(submodule, attrs)
        else:
            self.need(base, alias.name)

    def _binds(self, module: str, name: str) -> bool:
        """Whether ``module`` binds ``name`` to something of its own, not by importing its submodule."""
        source = self.source(module)
        if source is None:
            return False
        for index in source.bindings.get(name, ()):
            node = source.tree.body[index]
            if not (isinstance(node, ast.ImportFrom) and _absolute(module, node) == module):
                return True
        return False

    def need_module(self, module: str, attrs: set[str] | None) -> None:
        """A module used as an object: the attributes used of it, or all of it when used otherwise."""
        if attrs is None:
            self.need(module, "*")
        else:
            self.need(module, None)
            for attr in attrs:
                self.need(module, attr)

    def uses(self, source: _Source, node: ast.AST) -> None:
        """Need what a kept statement uses: names of its module, and what it imports inside."""
        attributes: dict[str, set[str] | None] = {}
        nodes = list(ast.walk(node))  # walked once: the build spends most of its time walking
        for inner in nodes:
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
                used = attributes.setdefault(inner.value.id, set())
                if used is not None:
                    used.add(inner.attr)
        bare = set()
        for inner in nodes:
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                bare.add(inner.id)
            elif isinstance(inner, (ast.Import, ast.ImportFrom)) and inner is not node:
                for alias in inner.names:
                    self.follow_import(source.name, inner, alias, None)
        # A name used only as "name.attribute" needs, of a module, only those attributes.
        used_bare = _used_bare(nodes)
        only_attributes = {name for name in bare if name in attributes and name not in used_bare}
        for name in bare:
            for index in source.bindings.get(name, ()):
                statement = source.tree.body[index]
                if isinstance(statement, (ast.Import, ast.ImportFrom)) and name in only_attributes:
                    alias = next(a for a in statement.names if _alias_name(a, statement) == name)
                    wanted = source.aliases.setdefault(index, set())
                    if name not in wanted:
                        wanted.add(name)
                        source.kept.add(index)
                    self.follow_import(source.name, statement, alias, attributes[name])
                else:
                    self.keep(source, index, name)

    def keep_statements_that_use_kept_names(self, source: _Source) -> bool:
        """Keep statements that bind no name but act on what is kept (``Card.painter = card_svg``);
        True when one more was kept."""
        kept_names = {
            name for name, indices in source.bindings.items() if any(i in source.kept for i in indices)
        }
        more = False
        for index, node in enumerate(source.tree.body):
            if index in source.kept or _bound(node):
                continue
            if {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & kept_names:
                source.kept.add(index)
                self.uses(source, node)
                more = True
        return more


def _used_bare(nodes: list[ast.AST]) -> set[str]:
    """The names that ``nodes`` (all of a statement's) use otherwise than as ``name.attribute``
    (found for all the names at once: a walk per name was half of the hand-out's build)."""
    before_a_dot = {inner.value for inner in nodes if isinstance(inner, ast.Attribute)}
    return {
        inner.id
        for inner in nodes
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load) and inner not in before_a_dot
    }


def _written(source: _Source) -> str:
    body = []
    for index, node in enumerate(source.tree.body):
        if index not in source.kept:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)) and index in source.aliases:
            wanted = source.aliases[index]
            node = copy.copy(node)
            node.names = [alias for alias in node.names if _alias_name(alias, node) in wanted]
        body.append(node)
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))) + "\n"


def kernel_package(hand_out: Iterable[str], hide: Iterable[str] = ()) -> dict[str, str]:
    """The package's files as a grading kernel sees them: path in the package's folder -> source.

    ``hand_out`` are dotted names of what the exercise hands out (``"setwidgets.Card"``, or a whole
    module, ``"setwidgets.sim"``); ``hide`` names functions among them whose code the kernel must
    not have all the same (:func:`setwidgets.grading.hide.without`). A name that is no such thing
    is an error: a typo would otherwise hand out nothing, or everything.
    """
    # autograde starts a kernel per notebook, with the same hand-out: the copy is made once.
    return dict(_kernel_package(tuple(hand_out), tuple(hide)))


@functools.cache
def _kernel_package(hand_out: tuple[str, ...], hide: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    from setwidgets.grading.hide import without

    closure = _Closure()
    closure.need(PACKAGE, None)
    for module in ALWAYS:
        closure.need(module, "*")
    for dotted in hand_out:
        module, name = _split(dotted)
        closure.need(module, name)
    closure.run()
    hidden: dict[str, list[str]] = {}
    for dotted in hide:
        module, name = dotted.rsplit(".", 1) if "." in dotted else (dotted, "")
        while module and _module_path(module) is None:  # a method: Class.method
            module, _, outer = module.rpartition(".")
            name = f"{outer}.{name}"
        hidden.setdefault(module, []).append(name)
    files = {}
    for module, source in closure.sources.items():
        text = _written(source)
        present = [
            n
            for n in hidden.get(module, [])
            if n.split(".")[0] in source.bindings
            and any(i in source.kept for i in source.bindings[n.split(".")[0]])
        ]
        if present:
            text = without(text, present, module)
        parts = module.split(".")[1:]
        relative = "/".join([*parts, "__init__.py"]) if _is_package(module) else "/".join(parts) + ".py"
        files[relative] = text
    return tuple(files.items())


def _split(dotted: str) -> tuple[str, str]:
    """A dotted name handed out, as (module, name in it); a whole module is (module, "*")."""
    if _module_path(dotted) is not None:
        return dotted, "*"
    module, _, name = dotted.rpartition(".")
    if not module or (_module_path(module) is None and module not in STAND_INS):
        raise ValueError(
            f"{dotted!r} is not a name of a module of {PACKAGE}, such as 'setwidgets.cards.Card'"
        )
    return module, name
