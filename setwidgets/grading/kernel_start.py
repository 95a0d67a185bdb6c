"""What a grading kernel runs as it starts, and the compiled copies of the package it is handed.

:class:`setwidgets.grading.sandbox.SandboxedKernelManager` writes these into the sandbox: the
kernel's start-up (:data:`KERNEL_LAUNCH`, in place of ``-m ipykernel_launcher``), IPython's
start-up file (:data:`PATH_STARTUP`) and, beside each module of the handed-out package,
its checked compiled copy (:func:`write_compiled`).
"""

from __future__ import annotations

import importlib.util
import py_compile
from pathlib import Path

from setwidgets.grading import handout

PATH_STARTUP = Path("/tmp/ipython/profile_default/startup/00-setwidgets-path.py")
"""IPython's start-up file in the sandbox: the working folder goes last on the module path."""
PATH_STARTUP_CODE = """import sys

# The package is imported before the working folder joins the module path: an editable install's
# finder comes after every folder on the path, so a folder named setwidgets in a submission would
# otherwise be imported in its place.
import setwidgets

sys.path.append("")
"""
KERNEL_LAUNCH = """import sys
from pathlib import Path

# As ipykernel_launcher does: the working folder is not on the module path while the kernel loads.
if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
    del sys.path[0]
# ipykernel imports its debugger (debugpy) at every start when it can: a quarter of the start's CPU,
# for a kernel nobody debugs. The kernel starts without it; the name is free again for the cells.
sys.modules["debugpy"] = None
from ipykernel.kernelapp import IPKernelApp

app = IPKernelApp.instance()
app.initialize()
del sys.modules["debugpy"]
app.start()
"""
"""What a grading kernel runs in place of ``-m ipykernel_launcher``: the same kernel, without its debugger."""
_compiled: dict[tuple[str, str], bytes] = {}


def write_compiled(file: Path, relative: str, source: str) -> None:
    """Beside ``file`` (the package's module ``relative`` as the kernel sees it, written from
    ``source``), its compiled copy, made once per source in this process.

    The kernel's package is read-only: without it, each kernel compiled every module again at its
    start. The copy is checked against the source's hash as Python imports it (PEP 552), so it can
    only be the code of the file beside it; where it cannot be made, the kernel compiles the file.
    """
    try:
        target = Path(importlib.util.cache_from_source(str(file)))
    except NotImplementedError:  # a Python that keeps no compiled copies
        return
    key = (relative, source)
    if key in _compiled:
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(_compiled[key])
        return
    try:
        py_compile.compile(
            str(file),
            cfile=str(target),
            dfile=str(handout.ROOT / relative),
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
        )
    except (py_compile.PyCompileError, OSError):
        return
    _compiled[key] = target.read_bytes()
