"""tests/write_bytecode.py writes the compiled copies pytest itself writes, and only those that changed."""

import marshal
import os
import shutil
import subprocess
import sys

import write_bytecode

SAMPLE = "def test_sum():\n    total = 1 + 1\n    assert total == 2, 'arithmetic'\n"


def _copies(folder):
    """The assertion-rewritten copies in ``folder``'s __pycache__: name -> (header, code)."""
    found = {}
    for path in (folder / "__pycache__").iterdir():
        if "-pytest-" in path.name:
            data = path.read_bytes()
            found[path.name] = (data[:16], marshal.loads(data[16:]))
    return found


def test_the_copies_are_the_ones_pytest_writes_and_are_made_once(tmp_path, monkeypatch):
    folder = tmp_path / "tests"
    folder.mkdir()
    (folder / "test_sample.py").write_text(SAMPLE)
    (folder / "conftest.py").write_text("")
    (folder / "helper.py").write_text("VALUE = 1\n")
    # pytest's own copies, from a run where it may write them.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)]
    ran = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    theirs = _copies(folder)
    shutil.rmtree(folder / "__pycache__")

    monkeypatch.setattr(write_bytecode, "TESTS", folder)
    assert write_bytecode.main() == 0
    ours = _copies(folder)
    assert sorted(ours) == sorted(theirs) and len(ours) == 2, (sorted(ours), sorted(theirs))
    assert ours == theirs, "the same header (source hash) and the same rewritten code as pytest's"
    assert (folder / "__pycache__" / f"helper.{sys.implementation.cache_tag}.pyc").is_file()

    # A copy made from the file as it is stays; a changed file gets a new one.
    made = {path.name: path.stat().st_mtime_ns for path in (folder / "__pycache__").iterdir()}
    (folder / "test_sample.py").write_text(SAMPLE.replace("1 + 1", "2 + 0"))
    write_bytecode.main()
    again = {path.name: path.stat().st_mtime_ns for path in (folder / "__pycache__").iterdir()}
    changed = {name for name in made if again[name] != made[name]}
    assert changed == {next(name for name in made if name.startswith("test_sample") and "-pytest-" in name)}
