"""Before a hub starts on this machine: what must be true of it, each check one sentence when it is not.

``python3 course.py hub`` runs these checks with the machine's own Python, before any of the
course's environments exists, so this module uses the standard library only:

- the hub starts each user's server as that Linux user, which only root may do;
- every user's server runs the course from this repository, so every folder on the way to
  it must be open to other users;
- the hub's environment is made with a Python 3.11 or newer that every user can run, its
  standard library included (an interpreter under a private folder, pyenv's in /root for
  example, would quietly start another Python, or none, in their place).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["PreflightError", "hub_python", "problem", "unreachable"]


class PreflightError(RuntimeError):
    """This machine cannot run the hub as it is; the message says what to change."""


def unreachable(path: str | Path) -> Path | None:
    """The first folder on the way to ``path`` that other users cannot enter (or read), or None."""
    path = Path(path).resolve()
    for folder in [*reversed(path.parents), path]:
        mode = folder.stat().st_mode
        if not mode & 0o001 or (folder == path and not mode & 0o004):
            return folder
    return None


def problem(root: str | Path) -> str | None:
    """Why the hub cannot start from the repository at ``root`` as this user, or None when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return (
            "course.py hub starts each user's server as that Linux user, which only root may do: "
            "run it as root (sudo python3 course.py hub). deploy/README.md explains the set-up."
        )
    blocked = unreachable(root)
    if blocked:
        return (
            f"Every user's server runs the course from {root}, but {blocked} is closed to other users: "
            "put the repository where everyone can read it (for example /opt/setwidgets) "
            "and run course.py there."
        )
    return None


def hub_python() -> str:
    """A Python 3.11+ that every user can run, stdlib included, to make the hub's environment.

    Raises :class:`PreflightError` naming the interpreters tried when there is none.
    """
    probe = "import sys, sysconfig; print(sys.version_info >= (3, 11), sysconfig.get_paths()['stdlib'])"
    tried = []
    for candidate in [
        getattr(sys, "_base_executable", sys.executable),
        "/usr/bin/python3",
        "/usr/local/bin/python3",
    ]:
        path = shutil.which(candidate)
        if path is None or path in tried:
            continue
        tried.append(path)
        try:
            recent, stdlib = subprocess.run(
                [path, "-c", probe], capture_output=True, text=True, check=True
            ).stdout.split()
        except (OSError, subprocess.CalledProcessError, ValueError):
            continue
        if recent == "True" and unreachable(path) is None and unreachable(stdlib) is None:
            return path
    raise PreflightError(
        f"course.py hub needs a Python 3.11 or newer that every user can run; none of {', '.join(tried)} is "
        "(too old, or inside a folder closed to other users). Install Debian's python3 (3.11 or newer)."
    )
