"""The ``setwidgets`` command: the course's notebooks out of the installed package, and Lab to open them.

usage: setwidgets COMMAND [ARGUMENTS]

commands:
  lessons [DEST]   copy the lessons and the exercises (student copies) into DEST
                   (default: ./setwidgets-course); files already there are kept, not overwritten.
  lab [DEST]       the same copy if DEST holds none yet, then JupyterLab on DEST, opening lesson 00.
                   Needs the course extra: pip install 'setwidgets[course]'. Further arguments go
                   to 'jupyter lab' (for example --no-browser, --port=8889). One Ctrl-C
                   stops the server and its kernels (save your notebooks first); as root it
                   runs with --allow-root.
  version          the version of setwidgets.
  help             this text (also -h and --help).

The notebooks ship inside the package, at its version, so nothing is downloaded. From a clone of
the repository, python3 course.py does more (the tests, the hub, the teacher's nbgrader course).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import setwidgets
from setwidgets import _extras

DEFAULT_DEST = "setwidgets-course"
FIRST = "lessons/00_start_here.ipynb"


def course_files() -> dict[str, Path]:
    """Where the lessons and the exercises' student copies are: in the package, or in its clone."""
    package = Path(setwidgets.__file__).resolve().parent
    shipped = {
        "lessons": package / "_course" / "lessons",
        "exercises/release": package / "_course" / "exercises",
    }
    if all(folder.is_dir() for folder in shipped.values()):
        return shipped
    clone = package.parent  # an editable install runs from the repository itself
    return {"lessons": clone / "lessons", "exercises/release": clone / "exercises" / "release"}


def copy_course(dest: Path) -> tuple[list[Path], list[Path]]:
    """Copy the notebooks into ``dest``; the files written and those kept because they were there."""
    written, kept = [], []
    for where, source in course_files().items():
        if not source.is_dir():
            raise SystemExit(
                f"setwidgets: the course's {where} are missing from this installation ({source})."
            )
        for path in sorted(source.rglob("*")):
            if path.suffix not in {".ipynb", ".md"} or ".ipynb_checkpoints" in path.parts:
                continue
            target = dest / where / path.relative_to(source)
            if target.exists():
                kept.append(target)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            written.append(target)
    return written, kept


def lessons(args: list[str]) -> int:
    dest = Path(args[0] if args else DEFAULT_DEST)
    if dest.exists() and not dest.is_dir():
        print(f"setwidgets: {dest} is a file; name a folder to copy the course into.", file=sys.stderr)
        return 2
    written, kept = copy_course(dest)
    print(f"setwidgets: {len(written)} notebooks copied into {dest}", end="")
    print(f"; {len(kept)} already there were kept as they are." if kept else ".")
    print(f"Open {dest / FIRST} to start (setwidgets lab {dest} opens it in JupyterLab).")
    return 0


def lab_argv(root: Path, args: list[str], python: str | None = None) -> list[str]:
    """The JupyterLab command line that ``setwidgets lab`` and ``python3 course.py lab`` both run.

    Lab serves ``root`` (the whole course: lessons/ and exercises/, where nbgrader finds the
    teacher's course) and opens lesson 00 through LabApp.default_url: started with a notebook's
    path, Lab would serve only that notebook's folder, and ServerApp.default_url is overridden by
    JupyterLab. ServerApp.answer_yes makes one Ctrl-C stop the server instead of asking "Shut down
    this Jupyter server (y/[n])?" and going on after 5 s, and :mod:`setwidgets._lab` makes one SIGINT
    stop it without a terminal too. As root, Lab refuses to start without
    --allow-root and says why only in its log. ``args`` come last, so the user's own options win.
    """
    command = [
        python or sys.executable,
        "-m",
        "setwidgets._lab",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.default_url=/lab/tree/{FIRST}",
        "--ServerApp.answer_yes=True",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command + list(args)


def run_in_place(command: list[str]) -> int:
    """Run ``command`` as this very process, so that Ctrl-C and SIGTERM reach the server itself.

    A child would outlive a killed parent and keep the port busy. Where there is no exec
    (Windows), the child runs in the foreground: the console sends Ctrl-C to both, and this
    process waits for the child to finish shutting down instead of leaving it behind.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)
    with subprocess.Popen(command) as child:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:
                continue


def lab(args: list[str]) -> int:
    """``setwidgets lab [DEST] [LAB OPTIONS]``: copy the course into DEST if it is not there, serve it.

    ``python3 course.py lab`` runs this too, with DEST the clone itself (``.``), which already
    holds lesson 00, so nothing is copied there.
    """
    dest = Path(args[0]) if args and not args[0].startswith("-") else Path(DEFAULT_DEST)
    extra = args[1:] if args and not args[0].startswith("-") else args
    absent = _extras.missing("course", "setwidgets lab", "jupyterlab")
    if absent is not None:
        print(f"setwidgets: {absent}", file=sys.stderr)
        return 2
    if dest.exists() and not dest.is_dir():
        print(f"setwidgets: {dest} is a file; name a folder to serve the course from.", file=sys.stderr)
        return 2
    if not (dest / FIRST).exists():
        lessons([str(dest)])
    # The server's working folder is the course, as for course.py: Jupyter and nbgrader read
    # their configuration files (nbgrader_config.py) from there.
    root = dest.resolve()
    os.chdir(root)
    return run_in_place(lab_argv(root, extra))


COMMANDS = {"lessons": lessons, "lab": lab}


def main(argv: list[str] | None = None) -> int:
    """Run the ``setwidgets`` command with ``argv`` (the command line's arguments by default)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("help", "-h", "--help"):
        print(__doc__)
        return 0
    if argv and argv[0] in ("version", "--version"):
        print(setwidgets.__version__)
        return 0
    if not argv or argv[0] not in COMMANDS:
        if argv:
            print(f"setwidgets: unknown command {argv[0]!r}\n", file=sys.stderr)
        print(__doc__, file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
