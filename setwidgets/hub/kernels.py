"""The kernel of a student's Validate on the hub: socket files in the student's runtime folder, not TCP.

A kernel publishes what it runs and prints to every subscriber of its output channel (its
messages are signed, not hidden), and over TCP, jupyter_client's default, any user of the
machine can connect to its ports on 127.0.0.1. The hub's servers start their kernels over socket
files (``KernelManager.transport`` in ``deploy/jupyter/*/jupyter_server_config.json``), in the
runtime folder :func:`setwidgets.hub.runtime_folder` gives each user. nbgrader's Validate, the
button of the Assignments tab, starts a kernel of its own with nbgrader's configuration only:
without this class it would run a student's answers over TCP, for a classmate to read while it
runs. The student's ``nbgrader_config.py`` names it (``c.Execute.kernel_manager_class``); the
teacher's Validate runs in the grading sandbox, whose kernels use socket files already.
"""

from __future__ import annotations

import os
import uuid

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.paths import jupyter_runtime_dir
from traitlets import CaselessStrEnum, default

__all__ = ["PrivateKernelManager"]


class PrivateKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, with the kernel's channels as socket files of a name of its
    own in the user's runtime folder (mode 700), so that no other user can connect to them."""

    transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    @default("ip")
    def _ip_default(self) -> str:
        # jupyter_client's own default for "ipc" is a name relative to the folder each process
        # runs in (the kernel runs in the notebook's), and the same for every kernel.
        folder = jupyter_runtime_dir()
        os.makedirs(folder, mode=0o700, exist_ok=True)
        return os.path.join(folder, f"kernel-{uuid.uuid4()}-ipc")
