"""Where a printable goes: the path checked before anything is drawn, the PDF written whole or not at all.

:func:`checked_path` refuses, in one sentence that names the path, what cannot become a
PDF file: bytes or other objects, a folder, a device, a folder that does not exist, a name
too long for the disk. :func:`write_whole` writes the finished PDF to a temporary file
next to the target and renames it into place, so a full disk or a pulled USB stick leaves
the old file (or none), never half a PDF.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_whole(checked_path(folder / "kit.pdf"), b"%PDF-1.4 ...").name
'kit.pdf'
>>> checked_path(folder / "no such folder" / "kit.pdf")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: the PDF cannot go to '.../no such folder/kit.pdf': the folder ... does not exist; make it first...
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from setwidgets import _inputs

__all__ = ["checked_path", "write_whole"]

_EXAMPLE = "'entry-cards.pdf'"
# What the operating system's refusals mean for a teacher saving a PDF.
_REASONS = {
    errno.ENOSPC: "the disk is full; free some space or choose another disk",
    errno.EDQUOT: "the disk quota is used up; free some space or choose another disk",
    errno.ENAMETOOLONG: "the name is too long for the disk; choose a shorter one",
    errno.EACCES: "there is no permission to write there, or the file is open in another program",
    errno.EPERM: "there is no permission to write there, or the file is open in another program",
    errno.EROFS: "the disk is read-only; choose another folder",
    errno.ENOENT: "the folder does not exist; make it first or choose another",
    errno.ENOTDIR: "part of the path is a file, not a folder; choose another folder",
    errno.EISDIR: "it is a folder; give a file name such as 'kit.pdf' inside it",
}


def _refusal(where: Any, reason: str) -> ValueError:
    return ValueError(f"the PDF cannot go to {_inputs.path_text(where)}: {reason}")


def _reason(error: OSError) -> str:
    known = _REASONS.get(error.errno)
    if known:
        return known
    words = (error.strerror or type(error).__name__).lower()
    return f"the system answered '{_inputs.clipped(words)}'; choose another folder"


def checked_path(path: Any) -> Path:
    """``path`` as a Path where a new PDF file can be written; otherwise a clear refusal.

    The folder must exist (it is not made: a mistyped folder would be made silently), and
    the path must not be a folder or a device. Nothing is written or made here.
    """
    text = str(_inputs.file_path(path, "the file", example=_EXAMPLE))
    if not text.strip():
        raise ValueError(f"the path must be a file name like {_EXAMPLE}; got {_inputs.short(text)}")
    if text.endswith(("/", os.sep)):
        raise _refusal(text, "it ends with a slash, as a folder does; add a file name such as 'kit.pdf'")
    target = Path(text)
    folder = target.parent
    try:
        # Whether the folder is there, and what the path is now (os.stat follows links).
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            raise _refusal(text, f"{_inputs.path_text(folder)} is a file, not a folder")
    except FileNotFoundError:
        raise _refusal(
            text, f"the folder {_inputs.path_text(folder)} does not exist; make it first"
        ) from None
    except OSError as error:
        raise _refusal(text, _reason(error)) from None
    name_max = _longest_name(folder)
    if len(os.fsencode(target.name)) > name_max:
        raise _refusal(
            text, f"the file name is longer than the disk allows ({name_max} bytes); choose a shorter one"
        )
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as error:
        raise _refusal(text, _reason(error)) from None
    if stat.S_ISDIR(mode):
        raise _refusal(text, _REASONS[errno.EISDIR])
    if not stat.S_ISREG(mode):
        raise _refusal(text, "it is a device or another special file, not a file; choose a file name")
    return target


def write_whole(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` (checked by :func:`checked_path`) whole, or leave it as it was.

    The bytes go to a hidden temporary file in the same folder, which then takes the
    file's place in one step; on any trouble the temporary file is removed.
    """
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)  # a document's usual rights, not the temporary file's private ones
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise _refusal(path, _reason(error)) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass  # it was never made, or the disk is gone: nothing more to clean
    return path


def _longest_name(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # Windows has no pathconf; its disks allow 255
        return 255
