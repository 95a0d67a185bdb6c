"""The baselines of benchmarks/bench_sim.py do the same work as the engine they are compared with;
benchmarks/bench_classroom.py runs (briefly) against the real room service."""

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from setwidgets import sim

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_sim  # noqa: E402


def test_the_classic_program_plays_whole_games_like_the_engine():
    rng = random.Random(1)
    classic = [bench_sim.classic_game(rng) for _ in range(150)]
    engine = sim.play(3000, seed=1, progress=False).mean_sets
    # About 24.4 SETs a game either way; 150 games put the classic mean within 0.35 of it.
    assert abs(sum(classic) / len(classic) - engine) < 0.35


def test_the_classic_check_agrees_with_the_engine_on_random_tables():
    deck = bench_sim.classic_deck()
    tables = sim.deal_tables(300, 12, seed=4)
    classic = [bench_sim.classic_find_set([deck[i] for i in row]) is not None for row in tables.tolist()]
    assert classic == sim.has_set_many(tables).tolist()


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here: the C baseline is skipped")
def test_the_c_baseline_plays_and_checks_like_the_engine(tmp_path):
    program = bench_sim.c_baseline(tmp_path)
    games = subprocess.run([str(program), "games", "4000"], capture_output=True, text=True, check=True)
    word, count, seconds, sets = games.stdout.split()
    assert (word, count) == ("games", "4000") and float(seconds) >= 0
    assert abs(int(sets) / 4000 - sim.play(4000, seed=2, progress=False).mean_sets) < 0.15
    tables = subprocess.run(
        [str(program), "tables", "60000", "12"], capture_output=True, text=True, check=True
    )
    none = int(tables.stdout.split()[3]) / 60000
    engine = 1 - sim.has_set_many(sim.deal_tables(60000, 12, seed=2)).mean()
    assert abs(none - engine) < 0.005  # both about 3.2% of fresh 12-card deals


def test_the_classroom_benchmark_measures_every_client_in_a_brief_run(tmp_path):
    pytest.importorskip("tornado")
    pytest.importorskip("sqlalchemy")
    figures_file = tmp_path / "classroom.json"
    script = ROOT / "benchmarks" / "bench_classroom.py"
    run = subprocess.run(
        [sys.executable, str(script), "--quick", "--json", str(figures_file)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_file.read_text())
    for phase in ("echo_baseline", "one_student", "room"):
        measured = figures[phase]
        assert measured["claims"] >= 6, phase
        assert measured["not_everyone"] == 0, f"{phase}: a claim did not reach every client"
        assert 0 < measured["median_ms"] <= measured["p95_ms"], phase
    assert figures["room"]["clients"] == 9  # the eight students of --quick and the projector
    assert figures["room"]["kinds"].get("right", 0) > 0
    assert figures["room"]["save_ms"] > 0 and figures["room"]["broadcast_ms"] > 0  # the service's clocks
    assert figures["service_idle_mib"] > 10 and figures["room"]["memory_mib"] > 10
    assert [step["rooms"] for step in figures["rooms"]["steps"]][:1] == [1]
