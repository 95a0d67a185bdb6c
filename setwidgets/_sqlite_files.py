"""What both SQLite stores (a competition's file, the class game's rooms) do alike with their file.

- :func:`stale_log`: whether the log of changes beside the file (its ``-wal``) belongs to it. A
  teacher who puts a backup back over the file while the log of a stopped notebook or service
  lies beside it would get the newer changes replayed into the older file, silently.
- :func:`keep_copy`: the teacher's copy of a file of an earlier version, kept beside it before
  the upgrade.

Each store says what went wrong in its own sentence.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path

_WAL_MAGIC = (0x377F0682, 0x377F0683)


def stale_log(path: Path) -> bool:
    """True when the file's ``-wal`` holds changes but the file was replaced after they were written.

    SQLite replays every committed frame of the log it finds beside a file; it cannot know that
    the file was copied over since (a backup put back after a notebook was stopped): the newer
    scores would come back into the older file. A log belongs to the file when the file has not
    changed since the log was last written, when the two were copied together keeping their times
    (:func:`copied_together`), or when the file's pages are those SQLite itself copied into it
    from the log (its ``-shm`` says how many frames: a checkpoint). A log copied on its own
    before the file, times not kept, cannot be told from a stale one and is taken as stale.
    """
    wal, shm = path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")
    try:
        log = wal.read_bytes()
        main, log_times = path.stat(), wal.stat()
    except OSError:
        return False  # no log: nothing to replay
    main_changed, log_written = main.st_ctime_ns, log_times.st_mtime_ns
    if len(log) < 32 or int.from_bytes(log[:4], "big") not in _WAL_MAGIC:
        return False  # SQLite ignores a log without a valid header
    page, salts = int.from_bytes(log[8:12], "big"), log[16:24]
    if page < 512 or page & (page - 1):
        return False
    frames: list[tuple[int, int]] = []  # (page number, where its image starts) of committed frames
    pending: list[tuple[int, int]] = []
    at = 32
    while at + 24 + page <= len(log) and log[at + 8 : at + 16] == salts:
        pending.append((int.from_bytes(log[at : at + 4], "big"), at + 24))
        if int.from_bytes(log[at + 4 : at + 8], "big"):  # a commit: its transaction is whole
            frames += pending
            pending = []
        at += 24 + page
    if not frames or main_changed <= log_written or copied_together(main, log_times):
        return False
    # The file changed after the log: fine only if SQLite did it, copying the log's first frames.
    try:
        index = shm.read_bytes()[:136]
    except OSError:
        return True
    if len(index) < 100 or index[32:40] != salts:
        return True
    copied = int.from_bytes(index[96:100], sys.byteorder)
    if not 1 <= copied <= len(frames):
        return True
    latest = {number: start for number, start in frames[:copied]}
    with path.open("rb") as main:
        for number, start in latest.items():
            main.seek((number - 1) * page)
            if main.read(page) != log[start : start + page]:
                return True
    return False


TOGETHER_SECONDS = 2.0
"""How close (in seconds) the moments a file and its log were put in place must be for the two
to be taken as copied together (see :func:`copied_together`)."""


def copied_together(main: os.stat_result, log: os.stat_result) -> bool:
    """True when the log was copied together with the file, both keeping their times.

    A copy that keeps times (``cp -a``, ``rsync -a``, :func:`shutil.copytree`, a file manager)
    sets each file's time of writing (mtime) back to the original's, while the system marks the
    moment of the copy in its change time (ctime), which nothing can set back. The file's ctime is
    then later than the log's mtime, in whichever order the two were copied, as when a backup is
    put back; but only a log copied with the file has its own ctime later than its mtime and
    within :data:`TOGETHER_SECONDS` of the file's, and the file's mtime no later than the log's,
    as SQLite leaves them. A backup put back (its times kept or not) beside a log that stayed where
    it was fails the first test: that log's ctime is the moment it was last written.
    """
    return (
        log.st_ctime_ns > log.st_mtime_ns
        and abs(log.st_ctime_ns - main.st_ctime_ns) <= TOGETHER_SECONDS * 1e9
        and main.st_mtime_ns <= log.st_mtime_ns
    )


def foreign_object(objects: Iterable[tuple[str, str]], indexes: Iterable[str] = ()) -> str | None:
    """The first trigger, view or index among ``objects`` (the ``type, name`` rows of
    ``sqlite_master``) that a store did not make, in words ("the trigger 'gone'"), or None.

    ``indexes`` names the store's own indexes; SQLite's own for the keys (``sqlite_autoindex_``)
    are always the store's. A trigger of another program could delete every row the store
    writes, silently: such a file is another program's.
    """
    ours = set(indexes)
    for kind, name in sorted(objects):
        if kind in ("trigger", "view") or (
            kind == "index" and not name.startswith("sqlite_autoindex_") and name not in ours
        ):
            return f"the {kind} {name[:40] + '...' if len(name) > 40 else name!r}"
    return None


def keep_copy(db: sqlite3.Connection, path: Path, version: int) -> Path | None:
    """Copy the database of ``db`` (the file ``path``), whole and consistent, to
    ``<name>.v<version>.bak`` beside it, never over an earlier copy (``.v0.2.bak``...).

    None when 99 copies are kept there already; a failed copy leaves no file and raises the
    ``sqlite3.Error``.
    """
    for n in range(1, 100):
        target = path.with_name(f"{path.name}.v{version}{'' if n == 1 else f'.{n}'}.bak")
        try:
            os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            break
        except FileExistsError:
            continue
    else:
        return None
    copy = sqlite3.connect(target)
    try:
        db.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
        copy.commit()
    except sqlite3.Error:
        copy.close()
        target.unlink(missing_ok=True)
        raise
    copy.close()
    return target
