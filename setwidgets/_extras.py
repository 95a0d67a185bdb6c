"""The optional parts of setwidgets and the one sentence that says how to install a missing one.

``pip install setwidgets`` is the core alone (cards, rules, the game, the checks, the
geometry, caps' exact counts, the competition). The heavier parts are extras::

    pip install 'setwidgets[widgets]'   # the live boards: ipywidgets, ipycanvas, anywidget, matplotlib
    pip install 'setwidgets[sim]'       # the simulation engine: numpy, numba, matplotlib
    pip install 'setwidgets[print]'     # the printables: reportlab, uharfbuzz
    pip install 'setwidgets[course]'    # all of these and JupyterLab, nbgrader, Voila
    pip install 'setwidgets[all]'

A module that needs a missing extra raises :class:`MissingExtra` (a ``ModuleNotFoundError``),
whose message names the command:

>>> str(MissingExtra("no_such_module", "sim", "setwidgets.sim"))
"setwidgets.sim needs no_such_module, which is not installed: pip install 'setwidgets[sim]' adds it."

A command (``python -m ...``, a ``setwidgets`` subcommand) that needs an extra calls
:func:`command_needs` first, and stops with that sentence instead of a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

EXTRAS = {
    "widgets": ("ipywidgets", "ipycanvas", "anywidget", "matplotlib"),
    "sim": ("numpy", "numba", "matplotlib"),
    "print": ("reportlab", "uharfbuzz"),
    "classroom": ("tornado", "sqlalchemy"),
}
"""The modules each extra brings (``course`` and ``all`` bring every one)."""


class MissingExtra(ModuleNotFoundError):
    """A part of setwidgets needs a module of an extra that is not installed."""

    def __init__(self, module: str, extra: str, part: str) -> None:
        super().__init__(
            f"{part} needs {module}, which is not installed: pip install 'setwidgets[{extra}]' adds it.",
            name=module,
        )
        self.extra = extra


def require(module: str, extra: str, part: str) -> ModuleType:
    """Import ``module``, which ``part`` of setwidgets needs; :class:`MissingExtra` when it is absent.

    Only the absence of ``module`` itself (or of its top package) becomes that sentence: an
    error inside an installed module is left as it is.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name != module.split(".")[0] and error.name != module:
            raise
        raise MissingExtra(module, extra, part) from None


def optional(module: str) -> ModuleType | None:
    """``module`` when it is installed, else None (for a part that works without it, only slower)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name != module.split(".")[0]:
            raise
        return None


def command_needs(extra: str, command: str, *modules: str) -> None:
    """Stop ``command`` in one sentence when a module of ``extra`` it needs is not installed.

    An entry point calls this before its own imports and before it reads its arguments (even
    ``--help``), so that without the extra the user reads what to install, not a
    ``ModuleNotFoundError`` from deep inside. ``modules`` are top-level names (all of the
    extra's in :data:`EXTRAS` when none are given); they are looked up, not imported, which
    costs nothing (nbgrader takes seconds to import), and the command imports them right after.
    Exits with status 1 and the sentence on stderr, as ``sys.exit`` does with a message.
    tests/test_entry_points.py runs every entry point with the core alone.
    """
    absent = missing(extra, command, *modules)
    if absent is not None:
        raise SystemExit(f"setwidgets: {absent}")


def missing(extra: str, command: str, *modules: str) -> MissingExtra | None:
    """The first of ``modules`` (top-level names; all of ``extra``'s when none) that is not
    installed, as the :class:`MissingExtra` that ``command`` would say; None when all are there.

    Looked up, not imported: what :func:`command_needs` and ``setwidgets lab`` (which ends with
    status 2, not 1) both ask.
    """
    for module in modules or EXTRAS[extra]:
        if "." in module:  # find_spec would import the package above it, which may be the missing one
            raise ValueError(f"command_needs: name top-level modules, not {module!r}")
        if importlib.util.find_spec(module) is None:
            return MissingExtra(module, extra, command)
    return None
