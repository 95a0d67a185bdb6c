"""The package's own answers, absent from the grading kernel: module files without the functions asked for.

An exercise that asks for an algorithm (``is_set``, ``third_card``...) would be pointless if the
graded notebook could call the package's own. Its ``hidden_tests.py`` names them::

    tests = Tests(hide=["setwidgets.rules.is_set", "setwidgets.rules.explain"])

and while that exercise is graded, the sandbox (:class:`setwidgets.grading.sandbox.SandboxedKernelManager`)
shows the kernel, in place of each module file concerned, a copy in which those functions' code is
gone: each one raises :class:`~setwidgets.checks.runner.ReferenceHidden` when called (the checks
catch it and say so). This is not a guard the notebook could switch off: the code is not in the
kernel's file system at all, and reloading the module reads the same copy. Everything else of the
module works as before.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable
from pathlib import Path

# The home of the error a hidden function raises, where the checks catch it.
_RAISED_FROM = "setwidgets.checks.runner"
MESSAGE = "{name} is not available while this exercise is graded: the exercise asks you to write it yourself"


def _split(dotted: str) -> tuple[str, str]:
    """A dotted name as (module, name in it): the longest prefix that is a module, and the rest."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            continue
        if found is not None:
            return module, ".".join(parts[cut:])
    raise ValueError(f"{dotted!r} is not a dotted name such as 'setwidgets.rules.is_set'")


def _module_and_names(names: Iterable[str]) -> dict[str, list[str]]:
    by_module: dict[str, list[str]] = {}
    for dotted in names:
        module, name = _split(dotted)
        by_module.setdefault(module, []).append(name)
    return by_module


def without(source: str, names: Iterable[str], module: str) -> str:
    """``source`` with the body of each function in ``names`` replaced by a raise.

    A name is a top-level function (``is_set``) or a method of a top-level class
    (``Game.__init__``). Each keeps its name, signature and docstring. A name that is no such
    function is an error (a typo would otherwise hide nothing).
    """
    tree = ast.parse(source)
    wanted = set(names)
    found = set()

    def hide(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                hide(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and prefix + node.name in wanted:
                name = prefix + node.name
                found.add(name)
                docstring = ast.get_docstring(node, clean=False)
                message = MESSAGE.format(name=f"{module}.{name}")
                raising = ast.parse(
                    f"from {_RAISED_FROM} import ReferenceHidden\nraise ReferenceHidden({message!r})"
                ).body
                node.body = ([ast.Expr(ast.Constant(docstring))] if docstring else []) + raising
                node.decorator_list = [d for d in node.decorator_list if not _is_overload(d)]

    hide(tree.body, "")
    missing = wanted - found
    if missing:
        raise ValueError(f"{module} has no function {', '.join(sorted(missing))}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _is_overload(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "overload"


def overlays(names: Iterable[str]) -> dict[Path, str]:
    """For each module concerned, the path of its file and the source the grading kernel sees instead."""
    result = {}
    for module, functions in _module_and_names(names).items():
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            raise ValueError(
                f"{module} is not a module of Python source that can be shown without its functions"
            )
        path = Path(spec.origin).resolve()
        result[path] = without(path.read_text(encoding="utf-8"), functions, module)
    return result
