"""Grading kernels in a bubblewrap sandbox: the kernel that runs a student's notebook sees little.

:class:`SandboxedKernelManager` is the kernel manager of the course's grading preprocessor
(:class:`setwidgets.grading.preprocessors.GradingExecute`) and of ``nbgrader validate``
(``c.Execute.kernel_manager_class``), both set in ``exercises/nbgrader_config.py``.
Each kernel it starts runs under Debian's ``bwrap`` (bubblewrap) with

- an allow-list of this machine's files, read-only (:mod:`setwidgets.grading.mounts`): the system's
  folders, the Python that grades, and the package as the exercise hands it out (``hand_out``,
  :mod:`setwidgets.grading.handout`); a private ``/tmp``, ``/dev/shm`` (both sized, in memory),
  ``/dev`` and ``/proc``;
- as its working folder, a temporary copy of the submission's folder (the only writable
  place besides ``/tmp``), mounted where the folder is, so relative paths work as before
  (up to ``copy_limit`` bytes: the biggest files that do not fit, and links, pipes and devices,
  are left out);
- the folders in ``hidden`` (the course root: ``source/``, the other students' folders,
  ``gradebook.db``; and the exchange) replaced by empty ones, also when the working folder
  holds them or is one of them (a notebook validated at the course root works in an empty
  folder);
- its own user, PID, IPC, UTS, cgroup and network namespaces: no network at all, so the
  grader talks to it over ZMQ's ``ipc`` transport, through socket files in the sandbox's own
  ``/tmp``, which the grader reaches through ``/proc/PID/root``, and on the grader's own route
  (:mod:`setwidgets.grading.route`), whose messages it bounds before it reads them;
- limits on its address space (``memory``), CPU time (``cpu_seconds``) and number of
  processes and threads (``processes``), set by ``prlimit`` before the kernel starts;
- as root, a memory cgroup of ``memory_total`` bytes around all its processes together
  (:mod:`setwidgets.grading.cgroup`), files in its ``/tmp`` and working folder included: both
  are memory of a bounded size (``tmp_bytes``, ``work_bytes``), so what a notebook writes never
  reaches the grading machine's disk;
- ``--die-with-parent`` and a PID namespace: when the kernel ends, or the grader does,
  every process the kernel started is killed with it;
- as root, the kernel runs as ``user`` (nobody), since the limit on processes does not bind
  root; it is interrupted by a message, not by SIGINT to its process group (which would
  reach bubblewrap outside and end the sandbox).

Where bubblewrap cannot run (not installed, user namespaces forbidden, not Linux), no kernel
starts (:class:`SandboxMissing`, one sentence in the log): grading fails closed. Only the
teacher's own setting ``sandbox = False`` runs kernels as nbgrader would, and the log says so.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.connect import channel_socket_types
from jupyter_client.manager import AsyncKernelManager
from traitlets import Bool, DottedObjectName, Integer, List, Unicode

from setwidgets import _words
from setwidgets.grading import cgroup, handout, mounts, route
from setwidgets.grading.handout import kernel_package
from setwidgets.grading.hide import overlays
from setwidgets.grading.kernel_start import KERNEL_LAUNCH, PATH_STARTUP, PATH_STARTUP_CODE, write_compiled

GIB = 2**30
SUBMISSION = "/tmp/.submission"
"""Where the sandbox shows the submission's folder read-only, to copy it into the working folder."""
KERNEL_CONNECTION = Path("/tmp/.kernel-connection.json")
"""Where the sandbox shows the kernel its connection file (its sockets in its own /tmp)."""
MESSAGE_BYTES = {"shell": route.MAX_MESSAGE, "iopub": 64 * 2**20}
"""The longest message the grader reads on each of a grading kernel's channels (1 MiB on the others);
ZeroMQ drops a longer one before anything parses it."""
REFUSED = (
    "Grading refuses to start a kernel without its sandbox: {why}; install bubblewrap (as root, "
    "'python3 course.py lab' does it on Debian, or 'apt-get install bubblewrap'), or, to grade "
    "without a sandbox at your own risk, set c.SandboxedKernelManager.sandbox = False in "
    "nbgrader_config.py, and every grade is then marked 'graded without a sandbox' in the report."
)
NOT_SANDBOXED = (
    "GRADING IS NOT SANDBOXED, as c.SandboxedKernelManager.sandbox = False asks: the students' "
    "notebooks run with all the rights of this user (they can read source/ and the gradebook, write "
    "to them, use the network and leave processes behind), and every grade is marked 'graded "
    "without a sandbox' in the report."
)


class SandboxMissing(RuntimeError):
    """No sandbox can be made here, and the course's configuration asks for one: no kernel starts."""


_warned: set[str] = set()


@functools.cache
def bubblewrap_problem(bwrap: str = "bwrap", become: tuple[str, ...] = ()) -> str | None:
    """None when bubblewrap can start a sandbox here (as the user ``become`` switches to), else why not."""
    if not sys.platform.startswith("linux"):
        return f"bubblewrap needs Linux, and this is {sys.platform}"
    path = shutil.which(bwrap)
    if path is None:
        return f"the command {bwrap!r} (Debian's bubblewrap) is not installed"
    try:
        trial = subprocess.run(
            [*become, path, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap did not start: {error}"
    if trial.returncode != 0:
        return f"bubblewrap cannot make a sandbox here ({trial.stderr.strip() or trial.returncode})"
    return None


@functools.cache
def kernel_python_problem(python: str, become: tuple[str, ...]) -> str | None:
    """None when ``python`` starts a kernel as the user ``become`` switches to, else why not.

    Grading as root, kernels run as another user (nobody), who may not enter the folder that
    holds the grader's Python (a virtual environment under /root, say): every kernel would then
    die at its start, student after student.
    """
    if not become:
        return None
    try:
        trial = subprocess.run(
            [*become, python, "-c", "import ipykernel, setwidgets"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd="/",
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if trial.returncode == 0:
        return None
    lines = trial.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {trial.returncode}"


def preflight(**_: Any) -> None:
    """nbgrader's ``pre_convert_hook``: stop before the first submission if no kernel could start.

    Set as ``c.Autograde.pre_convert_hook`` in the course's configuration. It checks once, with
    the running nbgrader's configuration, that a sandbox can be made here (unless the configuration
    switches it off) and that the sandbox's user can start the kernel's Python; if not, the log says
    in one sentence what to change and nbgrader stops before any grade is recorded, rather than
    giving each student a kernel that died or grading without the sandbox.
    """
    from traitlets.config import Application

    app = Application.instance() if Application.initialized() else None
    manager = SandboxedKernelManager(config=app.config if app else None)
    problem = manager.start_problem()
    if problem is not None:
        (app.log if app else manager.log).error(problem)
        raise SystemExit(1)


def kernel_python(kernel_name: str) -> str:
    """The Python the kernel ``kernel_name`` runs, as jupyter_client would start it."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        first = KernelSpecManager().get_kernel_spec(kernel_name).argv[0]
    except (NoSuchKernel, IndexError):
        return sys.executable
    # jupyter_client starts a spec's bare "python" with the Python it runs in.
    if first in {"python", f"python{sys.version_info[0]}", "python{}.{}".format(*sys.version_info[:2])}:
        return sys.executable
    return first


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels run in a bubblewrap sandbox (see the module's help)."""

    sandbox = Bool(True, help="Run grading kernels in the sandbox; off, they run as nbgrader runs them.").tag(
        config=True
    )
    bwrap = Unicode("bwrap", help="The bubblewrap command.").tag(config=True)
    hidden = List(Unicode(), help="Folders the kernel must not see: they appear empty in the sandbox.").tag(
        config=True
    )
    memory = Integer(2 * GIB, help="The kernel's address space, in bytes (RLIMIT_AS).").tag(config=True)
    cpu_seconds = Integer(600, help="CPU seconds a kernel may use in all (RLIMIT_CPU).").tag(config=True)
    processes = Integer(
        512, help="Processes and threads of the sandbox's user (RLIMIT_NPROC); ipykernel needs some 20."
    ).tag(config=True)

    user = Unicode(
        "nobody",
        help="Grading as root, the kernel runs as this user instead: limits on processes do not bind root.",
    ).tag(config=True)

    copy_limit = Integer(
        100 * 2**20,
        help="The kernel works in a copy of its folder up to this many bytes; bigger files are left out.",
    ).tag(config=True)

    tmp_bytes = Integer(256 * 2**20, help="The size of the kernel's own /tmp, in bytes.").tag(config=True)

    shm_bytes = Integer(64 * 2**20, help="The size of the kernel's own /dev/shm, in bytes.").tag(config=True)

    client_class = DottedObjectName(
        "setwidgets.grading.sandbox.BoundedKernelClient",
        help="The grader's client of a kernel: it reads no message longer than MESSAGE_BYTES.",
    )

    work_bytes = Integer(
        256 * 2**20,
        help="The room, in bytes, the working folder has for what the notebook writes, beyond its own files.",
    ).tag(config=True)

    memory_total = Integer(
        4 * GIB,
        help="The memory of all the kernel's processes together, files in its /tmp and working folder "
        "included, in bytes (a cgroup; grading as root only). 0: no such bound.",
    ).tag(config=True)

    passed_environment = List(
        Unicode(),
        ["NBGRADER_EXECUTION"],
        help="Names of the grader's environment variables the kernel gets too; everything else is left out.",
    ).tag(config=True)

    hand_out = List(
        Unicode(),
        default_value=None,
        allow_none=True,
        help="What of the package the kernel has, as dotted names (setwidgets.grading.handout): nothing "
        "else of it is there. None: the whole package. The grader sets it per assignment.",
    ).tag(config=True)

    hide_functions = List(
        Unicode(),
        help="Functions of the package the kernel must not have, as dotted names: it sees their modules "
        "without them (setwidgets.grading.hide). The grader sets them per assignment.",
    ).tag(config=True)

    _scratch: Path | None = None
    _overlays: list[tuple[str, str]] = []  # noqa: RUF012 - set per kernel in _async_pre_start_kernel
    _copied = False
    _cwd: str | None = None
    _group: cgroup.MemoryGroup | None = None
    _work_size = 0
    _ipc = ""
    _told = False

    def _sandbox_problem(self) -> str | None:
        if not self.sandbox:
            return "the sandbox is switched off (SandboxedKernelManager.sandbox = False)"
        return bubblewrap_problem(self.bwrap, tuple(self._become()))

    def refusal(self) -> str | None:
        """One sentence when this manager would refuse to start a kernel (no sandbox, yet one is asked
        for); else None."""
        if not self.sandbox:
            return None
        problem = self._sandbox_problem()
        return None if problem is None else REFUSED.format(why=problem)

    def start_problem(self) -> str | None:
        """None when this manager's kernels can start, else one sentence that says what to change."""
        refused = self.refusal()
        if refused is not None:
            return refused
        if self._sandbox_problem() is not None or self._owner() is None:
            return None
        python = kernel_python(self.kernel_name)
        why = kernel_python_problem(python, tuple(self._become()))
        if why is None:
            return None
        return (
            f"Grading as root runs each student's kernel as the user {self.user!r}, who cannot start "
            f"the kernel's Python {python} ({why}): grade with the course's own environment "
            "('python3 course.py' makes .venv), let other users enter every folder on the way to that "
            "Python (chmod o+x), or set c.SandboxedKernelManager.user to a user who can run it."
        )

    @property
    def sandboxed(self) -> bool:
        """Whether the next kernel runs in the sandbox."""
        return self._sandbox_problem() is None

    async def _async_pre_start_kernel(self, **kw: Any) -> tuple[list[str], dict[str, Any]]:
        refused = self.refusal()
        if refused is not None:
            # Fail closed: without its sandbox a notebook could read the hidden tests and write
            # the gradebook, so no kernel starts, and nbgrader records no grade.
            self.log.error(refused)
            raise SandboxMissing(refused)
        if not self.sandbox:
            if not self._told:  # once per notebook, not at each restart of its kernel
                self._told = True
                self.log.warning(NOT_SANDBOXED)
            return await super()._async_pre_start_kernel(**kw)
        self._drop_scratch()
        self._cwd = os.path.abspath(kw.get("cwd") or os.getcwd())
        self._scratch = Path(tempfile.mkdtemp(prefix="setwidgets-grading-"))
        # The kernel works in a copy: whatever it writes is gone when grading ends. A folder too
        # big to copy (a submission is a notebook or two) is shown read-only instead. What must
        # stay hidden is not copied: a working folder that is itself hidden (a notebook validated
        # at the course root) starts empty, and hidden folders inside it stay empty.
        if any(folder == self._cwd for folder in self._hidden()):
            (self._scratch / "work").mkdir()
            self._copied = True
        else:
            below = tuple(folder for folder in self._hidden() if mounts.inside(folder, self._cwd))
            too_big = mounts.copy_small(self._cwd, self._scratch / "work", self.copy_limit, below)
            self._copied = too_big is not None
            if too_big:
                self.log.warning(
                    "%s: the kernel works without %s, over the %s MiB its folder may hold",
                    self._cwd,
                    _words.and_list(too_big[:5]) + (" ..." if len(too_big) > 5 else ""),
                    self.copy_limit // 2**20,
                )
        if not self._copied:
            self.log.warning("%s cannot be copied for the sandbox: the kernel sees it read-only", self._cwd)
        else:
            self._work_size = self.work_bytes + mounts.size_of(self._scratch / "work")
        self._group = self._memory_group()
        (self._scratch / "ipc").mkdir()
        (self._scratch / PATH_STARTUP.name).write_text(PATH_STARTUP_CODE)
        self._overlays = []
        if self.hand_out is not None:
            # The package as the exercise hands it out, and nothing else of it (an allow-list).
            package = self._scratch / "package"
            for relative, source in kernel_package(self.hand_out, self.hide_functions).items():
                (package / relative).parent.mkdir(parents=True, exist_ok=True)
                (package / relative).write_text(source, encoding="utf-8")
                write_compiled(package / relative, relative, source)
            self._overlays.append((str(package), str(handout.ROOT)))
        elif self.hide_functions:
            (self._scratch / "hidden").mkdir()
            empty = self._scratch / "hidden" / "empty"
            empty.write_bytes(b"")
            for number, (target, source) in enumerate(overlays(self.hide_functions).items()):
                copy = self._scratch / "hidden" / f"{number}-{target.name}"
                copy.write_text(source, encoding="utf-8")
                self._overlays.append((str(copy), str(target)))
                # The module's compiled copy still holds the functions: it reads as empty, which
                # Python takes for a stale cache and compiles the copy without them instead.
                for compiled in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
                    self._overlays.append((str(empty), str(compiled)))
        # SIGINT to the kernel's process group would reach bubblewrap outside and end the sandbox:
        # the kernel is interrupted by a message instead, and signals itself.
        self.kernel_spec.interrupt_mode = "message"
        self.transport = "ipc"
        self.connection_file = str(self._scratch / "ipc" / f"kernel-{os.getpid()}.json")
        self.ip = str(self._scratch / "ipc" / "kernel")  # until the sandbox exists: see _async_launch_kernel
        # The kernel's sockets live in its own sized /tmp, in a folder of an unguessable name; its
        # copy of the connection file says so. The grader reaches them through the sandbox's root.
        self._ipc = f"/tmp/.ipc-{secrets.token_hex(8)}"
        launch = await super()._async_pre_start_kernel(**kw)
        info = json.loads(Path(self.connection_file).read_text())
        info["ip"] = f"{self._ipc}/kernel"
        (self._scratch / KERNEL_CONNECTION.name).write_text(json.dumps(info))
        owner = self._owner()
        if owner is not None:
            for path in [self._scratch, *self._scratch.rglob("*")]:
                os.chown(path, *owner, follow_symlinks=False)
        return launch

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        await super()._async_launch_kernel(kernel_cmd, **kw)
        if self._scratch is not None and self.sandboxed:
            self.ip = f"{await self._sandbox_root()}{self._ipc}/kernel"

    async def _sandbox_root(self) -> str:
        """The sandbox's root as the grader reaches it (``/proc/PID/root`` of a process inside it).

        The kernel's sockets are files in the sandbox's own ``/tmp``, which lives in memory and is
        bounded, unlike a folder on the grading machine's disk. The folder of the sockets is looked for
        inside the sandbox only once it exists there, so nothing outside can stand in for it.
        """
        assert self.provisioner is not None
        outer = getattr(self.provisioner, "pid", None) or self.provisioner.process.pid
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for child in mounts.children(outer):
                root = f"/proc/{child}/root"
                if os.path.isdir(f"{root}{self._ipc}"):
                    return root
            if await self.provisioner.poll() is not None:
                break
            await asyncio.sleep(0.02)
        raise RuntimeError("the grading sandbox did not start (its kernel's folder never appeared)")

    def _owner(self) -> tuple[int, int] | None:
        """The user and group the kernel runs as, when grading as root; else None (the grader's own)."""
        if not self.user or not hasattr(os, "geteuid") or os.geteuid() != 0:
            return None
        import pwd

        entry = pwd.getpwnam(self.user)
        return entry.pw_uid, entry.pw_gid

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        # The grader's questions come on a route of its own, loaded before any cell runs.
        cmd = [*super().format_kernel_cmd(extra_arguments), route.kernel_argument()]
        if cmd[1:3] == ["-m", "ipykernel_launcher"]:  # the usual kernel spec; any other is left as it is
            cmd[1:3] = ["-c", KERNEL_LAUNCH]
        if self._scratch is None or not self.sandboxed:
            return cmd
        return self.sandbox_command(cmd)

    def sandbox_command(self, cmd: list[str]) -> list[str]:
        """``cmd`` wrapped in bubblewrap and prlimit, working in the scratch copy of the folder."""
        assert self._scratch is not None and self._cwd is not None
        args = [shutil.which(self.bwrap) or self.bwrap]
        # An allow-list of the file system: the system's folders and the kernel's Python, read-only.
        # Anything else on this machine (home folders, other copies of the course, the checkout
        # around the package) is not in the sandbox at all.
        for source, target in mounts.allowed(cmd, self._owner()):
            args += ["--symlink", target, source] if target is not None else ["--ro-bind", source, source]
        args += ["--dev", "/dev", "--proc", "/proc"]
        # Sized, in memory: what a notebook writes in /tmp or /dev/shm cannot fill the grading machine.
        args += ["--size", str(self.tmp_bytes), "--tmpfs", "/tmp"]
        args += ["--size", str(self.shm_bytes), "--tmpfs", "/dev/shm"]
        args += ["--perms", "0700", "--dir", self._ipc]
        args += ["--ro-bind", str(self._scratch / KERNEL_CONNECTION.name), str(KERNEL_CONNECTION)]
        cmd = [str(KERNEL_CONNECTION) if arg == self.connection_file else arg for arg in cmd]
        args += ["--ro-bind", str(self._scratch / PATH_STARTUP.name), str(PATH_STARTUP)]
        # The sandbox's /tmp is its own, yet the kernel's Python and this package may live there
        # (a course cloned into /tmp): those folders are shown again, read-only.
        for folder in mounts.needed_from_tmp(cmd):
            args += ["--ro-bind", folder, folder]
        # Mounts stack in order: the hidden folders around the working folder are emptied first,
        # then the working folder is put in its place, then the hidden folders inside it (the
        # course, when a notebook is validated from its root) are emptied again.
        hidden = self._hidden()
        below = [folder for folder in hidden if mounts.inside(folder, self._cwd)]
        for folder in hidden:
            if folder not in below:
                args += ["--tmpfs", folder]
        if self._copied:
            # A folder of a bounded size, in memory, which the kernel fills with the copy first.
            args += ["--ro-bind", str(self._scratch / "work"), SUBMISSION]
            args += ["--size", str(self._work_size), "--tmpfs", self._cwd]
        else:
            args += ["--ro-bind", self._cwd, self._cwd]
        for folder in below:
            if folder != self._cwd:
                args += ["--tmpfs", folder]
        # Last, so that no later mount (the package shown again from /tmp, say) covers them: the
        # modules of the functions the exercise asks for, seen without those functions.
        for copy, target in self._overlays:
            args += ["--ro-bind", copy, target]
        args += ["--chdir", self._cwd]
        for folder in hidden:
            if folder != self._cwd:
                args += ["--remount-ro", folder]  # empty, and nothing can be put there
        # The sandbox's own root holds only the mount points made above: nothing can be written there.
        args += ["--remount-ro", "/"]
        args += ["--unshare-all", "--die-with-parent", "--clearenv"]
        for name, value in self.kernel_environment().items():
            args += ["--setenv", name, value]
        limits = [
            shutil.which("prlimit") or "prlimit",
            f"--as={self.memory}",
            f"--cpu={self.cpu_seconds}",
            f"--nproc={self.processes}",
            "--",
        ]
        inside = [*limits, *cmd]
        if self._copied:
            inside = ["/bin/sh", "-c", f'cp -R {SUBMISSION}/. . && exec "$@"', "sh", *inside]
        # The sandbox joins its cgroup before it starts (as root: the cgroup is root's), and every
        # process it starts stays in it.
        join = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self._group.procs)] if self._group else []
        return [*join, *self._become(), *args, "--", *inside]

    def _memory_group(self) -> cgroup.MemoryGroup | None:
        """A memory cgroup for the next kernel, when grading as root; else None (said once in the log)."""
        if not self.memory_total or self._owner() is None:
            return None
        group, why = cgroup.make(self.memory_total, f"setwidgets-kernel-{os.getpid()}-{self._scratch.name}")
        if group is None and why not in _warned:
            _warned.add(why)
            self.log.warning("The memory of a kernel's processes together is not bounded: %s", why)
        return group

    def out_of_memory(self) -> bool:
        """Whether the kernel's processes together reached ``memory_total`` and one was killed for it."""
        return self._group is not None and self._group.out_of_memory()

    def kernel_environment(self) -> dict[str, str]:
        """The kernel's whole environment: a short allow-list, never the grader's own.

        The grader's environment may hold secrets (JupyterHub's API token, say) that a notebook
        could print into its feedback; the kernel gets only what Python and IPython need, and
        ``NBGRADER_EXECUTION``, which tells the notebooks they are being graded.
        """
        environment = {
            "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": "/tmp",
            "LANG": "C.UTF-8",
            "TMPDIR": "/tmp",
            "IPYTHONDIR": "/tmp/ipython",
            "MPLCONFIGDIR": "/tmp/matplotlib",
            # Inside, the kernel's parent is the sandbox's init (PID 1), which ipykernel's parent poller
            # takes for an orphaned kernel; parent 1 turns the poller off, and --die-with-parent ends
            # the kernel with the grader instead.
            "JPY_PARENT_PID": "1",
            # The working folder is not put first on the module path at start-up, so a file of the
            # submission's cannot replace a module the kernel imports to start; IPython's start-up
            # file (PATH_STARTUP) puts it last, once the kernel is up, for the answers' own modules.
            "PYTHONSAFEPATH": "1",
            # The package's folder is read-only in the sandbox: numba keeps its compiled code here.
            "NUMBA_CACHE_DIR": "/tmp/numba",
        }
        for name in self.passed_environment:
            if name in os.environ:
                environment[name] = os.environ[name]
        return environment

    def _hidden(self) -> list[str]:
        """The hidden folders that exist, as absolute paths, each folder before those inside it."""
        return sorted({os.path.abspath(folder) for folder in self.hidden if os.path.isdir(folder)}, key=len)

    def _become(self) -> list[str]:
        """The command prefix that switches from root to ``user``, or nothing."""
        owner = self._owner()
        if owner is None:
            return []
        setpriv = shutil.which("setpriv") or "setpriv"
        return [setpriv, f"--reuid={owner[0]}", f"--regid={owner[1]}", "--clear-groups", "--"]

    def _drop_scratch(self) -> None:
        if self._group is not None:
            self._group.remove()
            self._group = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    async def _async_shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
        await super()._async_shutdown_kernel(now=now, restart=restart)
        if not restart:
            self._drop_scratch()

    shutdown_kernel = _async_shutdown_kernel

    def __del__(self) -> None:
        self._drop_scratch()


class BoundedKernelClient(AsyncKernelClient):
    """The grader's client of a grading kernel: a message longer than its channel's bound
    (:data:`MESSAGE_BYTES`) is dropped by ZeroMQ before anything reads or parses it, so that no
    notebook can make the grader hold more memory than that."""

    def _create_connected_socket(self, channel: str, identity: bytes | None = None) -> zmq.Socket:
        # jupyter_client's own, with the bound set before the socket connects (it applies then).
        sock = self.context.socket(channel_socket_types[channel])
        sock.linger = 1000
        sock.setsockopt(zmq.MAXMSGSIZE, MESSAGE_BYTES.get(channel, 2**20))
        if identity:
            sock.identity = identity
        if getattr(self, "curve_publickey", None) is not None:
            sock.curve_secretkey = self.curve_secretkey
            sock.curve_publickey = self.curve_publickey
            sock.curve_serverkey = self.curve_publickey
        sock.connect(self._make_url(channel))
        return sock
