"""JupyterLab as ``setwidgets lab`` and ``python3 course.py lab`` run it: ``python -m setwidgets._lab``.

The same server as ``python -m jupyterlab``, but one SIGINT always stops it. Jupyter's server
takes SIGINT itself only when its standard input is a terminal; elsewhere (a script, an IDE's
stop button) Python's own handler raises KeyboardInterrupt wherever the server happens to be,
and when that is a weakref callback or a ``__del__`` run by the garbage collector, Python prints
"Exception ignored" and the server runs on (test_course's SIGINT test caught it so, once in
several runs). Here SIGINT asks the server to stop, as SIGTERM does and as JupyterHub has its
servers do.
"""

from __future__ import annotations

import signal
import sys

from setwidgets import _extras

_extras.command_needs("course", "python -m setwidgets._lab", "jupyterlab")

from jupyter_server.serverapp import ServerApp  # noqa: E402 - after the sentence for a missing extra

_jupyters_init_signal = ServerApp.init_signal


def _init_signal(self: ServerApp) -> None:
    _jupyters_init_signal(self)
    signal.signal(signal.SIGINT, self._signal_stop)


if __name__ == "__main__":
    ServerApp.init_signal = _init_signal
    from jupyterlab.labapp import main

    sys.exit(main())
