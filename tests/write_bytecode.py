"""The tests' compiled copies, written once before the suite starts (``python3 course.py test``).

Where ``PYTHONDONTWRITEBYTECODE`` is set (as on CI's machines) nothing writes them, so each of
the suite's pytest-xdist workers read, rewrote (pytest's assertion rewriting) and compiled every
test module again: about 10 of a worker's 17 CPU-seconds of collection. This writes, beside each
test module and conftest, the copy pytest itself would write, under pytest's own name, and
compiles the helper modules as Python does. pytest uses a copy only when it was made from the same
source (its hash) by the same pytest, so an old copy is never read.

It calls pytest's internal ``_rewrite_test``; where a pytest lacks it, it says so in one line and
writes nothing, and the suite runs as before.
"""

from __future__ import annotations

import compileall
import importlib.util
import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _up_to_date(source: Path, copy: Path) -> bool:
    """Whether ``copy`` is pytest's copy of ``source`` as it is now (the header pytest checks)."""
    try:
        with copy.open("rb") as header:
            head = header.read(16)
    except OSError:
        return False
    expected = importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00"
    return head[:8] == expected and head[8:16] == importlib.util.source_hash(source.read_bytes())[:8]


def main() -> int:
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc_fp, get_cache_dir
    except ImportError as error:
        print(f"[course] the tests' compiled copies are not written: this pytest differs ({error})")
        return 0
    rewritten = sorted({*TESTS.rglob("test_*.py"), *TESTS.rglob("conftest.py")})
    for path in rewritten:
        target = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        if _up_to_date(path, target):
            continue
        source_hash, code = _rewrite_test(path, None)  # None: the defaults, as pyproject.toml keeps them
        target.parent.mkdir(exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}")
        with open(partial, "wb") as out:
            _write_pyc_fp(out, source_hash, code)
        os.replace(partial, target)  # a worker never reads half a file
    for path in sorted(set(TESTS.rglob("*.py")) - set(rewritten)):
        compileall.compile_file(path, quiet=2)  # skips a copy made from the file as it is
    return 0


if __name__ == "__main__":
    sys.exit(main())
