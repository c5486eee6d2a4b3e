"""Benchmark ``referee critique`` against a plain grade of the same workspace.

Generates the workspace of ``bench_grade.py`` (runs of about 50 KB with 40 tool
calls, 20 deterministic assertions per eval), then times, in this process and on
the same files: a plain grade (verdicts for every run) and the critique (every
passing assertion graded again on each of its mutants). Prints both times, the
number of mutants graded and the ratio. Run by hand:

    python benchmarks/bench_critique.py --runs 1000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_grade import generate  # noqa: E402


def plain_grade(workspace: Path, rules: Path) -> int:
    from referee.engine.evaluate import evaluate
    from referee.engine.grade import RulesSource
    from referee.engine.run.workspace import discover

    program = RulesSource(((rules.name, rules.read_text(encoding="utf-8")),)).compile()
    verdicts = 0
    for run in discover(workspace).runs:
        ev = program.for_run(run.id, run.metadata)
        if ev is not None:
            verdicts += len(evaluate(ev, run))
        run.release()
    return verdicts


def critique(workspace: Path, rules: Path) -> int:
    from referee.engine.critique.runner import critique_workspace

    # No budget: the default stops a critique of this workspace past about 50 runs,
    # and what is measured is the work, not where the budget cuts it.
    result = critique_workspace(workspace, [str(rules)], None, units=10**15)
    return sum(len(c.tried) for c in result.critiques)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as folder:
        workspace, rules = generate(Path(folder), args.runs)
        started = time.process_time()
        verdicts = plain_grade(workspace, rules)
        grade_seconds = time.process_time() - started
        started = time.process_time()
        mutants = critique(workspace, rules)
        critique_seconds = time.process_time() - started
    print(f"runs: {args.runs}; verdicts: {verdicts}; mutants graded: {mutants}")
    print(f"plain grade (verdicts):  {grade_seconds:8.2f} s CPU")
    print(f"critique:                {critique_seconds:8.2f} s CPU")
    print(f"critique / plain grade:  {critique_seconds / grade_seconds:8.1f}x")


if __name__ == "__main__":
    main()
