"""What a grading kernel's sandbox shows of this machine: an allow-list of folders, and copies.

:class:`setwidgets.grading.sandbox.SandboxedKernelManager` builds its bubblewrap command from these:
the system's folders and the Python that grades (:data:`SYSTEM_FOLDERS`, :func:`python_prefixes`),
only where the kernel's user can reach them (:func:`reachable`); the submission's folder copied
(:func:`copy_small`); the project's other folders when the package runs from its checkout
(:func:`checkout_folders`).
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys")
"""The system's folders a grading kernel sees, read-only; with its Python and the package, all it sees."""


def allowed(cmd: list[str], owner: tuple[int, int] | None) -> list[tuple[str, str | None]]:
    """What the sandbox of a kernel started by ``cmd`` shows of this machine's files, read-only:
    (path, None) for a folder, and (path, target) for a symbolic link at the top (``/bin`` to
    ``usr/bin``). ``owner`` is the kernel's user (uid, gid), or None for the grader's own."""
    import setwidgets

    found: list[tuple[str, str | None]] = []
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            found.append((folder, os.readlink(folder)))
        elif os.path.isdir(folder):
            found.append((folder, None))
    wanted = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    wanted |= python_prefixes(cmd[0]) | python_prefixes(sys.executable)
    wanted.add(str(Path(setwidgets.__file__).resolve().parent))
    covered = [os.path.realpath(path) for path, _ in found]
    for folder in sorted(os.path.realpath(folder) for folder in wanted if os.path.isdir(folder)):
        # A folder the kernel's user cannot reach is of no use to it (as nobody, a Python under
        # /root runs on Debian's own library: see sandbox.kernel_python_problem).
        if reachable(folder, owner) and not any(inside(folder, done) for done in covered):
            found.append((folder, None))
            covered.append(folder)
    return found


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    try:
        return [int(n) for n in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        pass
    found = []
    for entry in Path("/proc").iterdir():
        try:
            # The parent is the field after the command, which is in parentheses and may hold spaces.
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            if entry.name.isdigit() and int(fields[1]) == pid:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def python_prefixes(python: str) -> set[str]:
    """The folders a Python needs: its own prefix and, for a virtual environment, its base's."""
    prefixes = set()
    for executable in {os.path.abspath(python), os.path.realpath(python)}:
        prefix = Path(executable).parent.parent
        prefixes.add(str(prefix))
        config = prefix / "pyvenv.cfg"
        if config.is_file():
            for line in config.read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "home" and value.strip():
                    prefixes.add(str(Path(value.strip()).parent))
    return prefixes


def reachable(path: str, owner: tuple[int, int] | None) -> bool:
    """Whether the user ``owner`` (uid, gid) may enter ``path`` and every folder on the way to it
    (always, for the grader's own user): bubblewrap, run as that user, refuses a path it cannot reach."""
    if owner is None:
        return True
    uid, gid = owner
    folder = Path(path)
    for step in [folder, *folder.parents]:
        try:
            info = step.stat()
        except OSError:
            return False
        bit = stat.S_IXUSR if info.st_uid == uid else stat.S_IXGRP if info.st_gid == gid else stat.S_IXOTH
        if not info.st_mode & bit:
            return False
    return True


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies in it (both absolute)."""
    return os.path.commonpath([path, folder]) == folder


def copy_small(source: str, target: Path, limit: int, leave_out: tuple[str, ...] = ()) -> list[str] | None:
    """Copy the folder ``source`` to ``target``, regular files and folders only, up to ``limit`` bytes.

    The smallest files are copied first; the files that no longer fit are left out (a notebook
    and its helper modules are small, a file of gigabytes is not). Returns the files left out,
    relative to ``source``, or None when nothing could be copied (``target`` is inside
    ``source``: a kernel started in /tmp). The folders in ``leave_out`` (absolute paths inside
    ``source``) are not copied; nor are links, pipes or devices.
    """
    if inside(os.path.abspath(target), os.path.abspath(source)):
        return None
    left_out = {os.path.abspath(folder) for folder in leave_out}
    files = []
    folders = []
    for folder, subfolders, names in os.walk(source):
        subfolders[:] = [
            name
            for name in subfolders
            if os.path.join(os.path.abspath(folder), name) not in left_out
            and not os.path.islink(os.path.join(folder, name))
        ]
        folders += [os.path.relpath(os.path.join(folder, name), source) for name in subfolders]
        for name in names:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                files.append((info.st_size, os.path.relpath(path, source)))
    target.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        (target / folder).mkdir(parents=True, exist_ok=True)
    total, too_big = 0, []
    for size, name in sorted(files):
        total += size + 512
        if total > limit:
            too_big.append(name)
            continue
        try:
            shutil.copy2(os.path.join(source, name), target / name, follow_symlinks=False)
        except OSError:
            too_big.append(name)
    return sorted(too_big)


def checkout_folders() -> list[str]:
    """The folders of the project's checkout that a grading kernel has no need of, when it runs from one.

    Installed from a checkout in place (``course.py``'s ``.venv``), the package lives beside the
    project's other folders: the lessons, the tests (which hold right answers as test data), the
    exercises, the repository's history. The kernel needs only the package and the environment it
    runs in; hiding the rest keeps a notebook from reading answers out of them. Empty when the
    package is installed in ``site-packages``.
    """
    import setwidgets

    package = Path(setwidgets.__file__).resolve().parent
    root = package.parent
    if not (root / "pyproject.toml").is_file():
        return []
    keep = {package, Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    found = []
    for entry in sorted(root.iterdir()):
        if entry.is_symlink() or not entry.is_dir():
            continue
        resolved = entry.resolve()
        if any(resolved == kept or inside(str(kept), str(resolved)) for kept in keep):
            continue
        if entry.name.endswith(".egg-info"):
            continue
        found.append(str(entry))
    return found


def size_of(folder: Path) -> int:
    """The bytes of the files in ``folder``, with room for each one's metadata."""
    return sum(path.lstat().st_size + 4096 for path in folder.rglob("*"))


def needed_from_tmp(cmd: list[str]) -> list[str]:
    """The folders under /tmp that a kernel started by ``cmd`` needs: its Python and setwidgets."""
    import setwidgets

    needed = {
        sys.prefix,
        os.path.dirname(os.path.abspath(cmd[0])),
        str(Path(setwidgets.__file__).resolve().parent),
    }
    tmp = Path("/tmp").resolve()
    return sorted(
        folder for folder in needed if os.path.isdir(folder) and Path(folder).resolve().is_relative_to(tmp)
    )
