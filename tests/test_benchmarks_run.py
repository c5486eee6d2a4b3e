"""The benchmarks still run: each offline one, at its smallest size, exits 0.

They are run by hand and measure nothing here (no timing is checked); this only
keeps them from going stale as the code they drive changes (a generator's helper
that took a new argument, a rule the compiler came to refuse, an exit code that
is an outcome). Left out: bench_peers (it installs the peers from the network),
bench_report_html (a browser; the report's own test opens one), bench_import_openai
(tens of megabytes; bench_import covers the importer's loop), and bench_growth's
sweeps (a minute), whose workload is built and compiled here instead.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.grade import RulesSource

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SMALLEST = {
    "bench_grade": ["--runs", "4", "--repeat", "1", "--quick"],
    "bench_critique": ["--runs", "2"],
    "bench_shards": ["--runs", "4", "--shards", "2", "--root", "{tmp}"],
    "bench_aggregate": ["--runs", "2", "--repeat", "1"],
    "bench_claims": ["--runs", "2", "--repeat", "1"],
    "bench_import": ["--sessions", "1", "--messages", "10"],
    "bench_load": ["--runs", "2"],
    "bench_parse": ["--copies", "1", "--repeat", "1", "--runs", "1"],
    "bench_suggest": ["--lengths", "50"],
    "bench_hostile_text": ["--size", "20", "--repeat", "1", "--pieces", "<", "9"],
}


@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_a_benchmark_runs_to_its_end(name, tmp_path):
    args = [arg.replace("{tmp}", str(tmp_path / "root")) for arg in SMALLEST[name]]
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


def test_bench_growth_builds_a_workload_referee_grades():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_growth
    finally:
        sys.path.remove(str(BENCHMARKS))
    program = RulesSource((("bench.rules", bench_growth.rules_text(200)),)).compile()
    assert all(len(ev.assertions) == 200 for ev in program.evals)
    text, facts = bench_growth.transcript(random.Random(1), 20_000)
    assert text.count("Tool: ") >= 10 and facts
