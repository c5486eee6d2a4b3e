"""Benchmark ``referee aggregate`` against reading the same grading.json files with json.loads.

Generates a workspace of N graded runs (default 10,000: 100 evals, two
configurations, N/200 runs each), each with a grading.json as referee writes it
(10 assertions), a timing.json and a short transcript, then times in the same
process, best of ``--repeat``:

- the floor: ``json.loads`` of every grading.json, the paths known in advance;
- ``referee aggregate`` in-process: discovery, reading every grading.json and
  timing.json, the contamination check of every run (raw-text prefilter; the
  transcript is parsed only where it names a forbidden path), the analysis, the
  release decision, and writing benchmark.json and benchmark.md.

Prints both times and their ratio. Run by hand, not by the test suite:

    python benchmarks/bench_aggregate.py
    python benchmarks/bench_aggregate.py --runs 2000 --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO.parent))

ASSERTIONS = 10
CONFIGS = ("with_skill", "without_skill")


def grading(rng: random.Random, eval_id: int, config: str, run: int) -> dict:
    good = 0.9 if config == "with_skill" else 0.5
    outcomes = ["pass" if rng.random() < good else "fail" for _ in range(ASSERTIONS - 1)] + ["not_graded"]
    keys = [f"{eval_id}#{i}" for i in range(1, ASSERTIONS + 1)]
    graded = outcomes[:-1]
    passed = graded.count("pass")
    return {
        "expectations": [{
            "text": f"assertion {k}: the record is saved with the amount the lookup returned",
            "passed": o == "pass", "evidence": f"step 3 saveRecord args.amount is \"{rng.randint(1, 999)}.00\" "
                                              f"(transcript.md:{rng.randint(5, 400)}) [at step 3]",
            "key": k, "outcome": o, "precision": "semantic" if o == "not_graded" else "exact_match",
            "evidence_source": "tool_calls", "method": "not_graded" if o == "not_graded" else "ground_truth",
            "gated": o != "not_graded", "check": "saved.args.amount == fetched.return.body.amount",
            "rules_location": f"bench.rules@00000000:{i + 3}:1",
            "evidence_location": [{"source": "tool_calls", "file": "outputs/transcript.md", "line": 12, "step": 3}],
        } for i, (k, o) in enumerate(zip(keys, outcomes))],
        "summary": {"passed": passed, "failed": len(graded) - passed, "total": len(graded),
                    "pass_rate": round(passed / len(graded), 4), "errors": 0, "not_graded": 1},
        "execution_metrics": {"tool_calls": {"getRecord": 2, "saveRecord": 1}, "total_tool_calls": 3,
                              "total_steps": 3, "files_created": ["response.md"], "errors_encountered": 0,
                              "output_chars": 120, "transcript_chars": 2000},
        "execution_metrics_source": "transcript",
        "timing": {"total_tokens": 5000, "duration_ms": 12000, "total_duration_seconds": 12.0},
        "claims": [], "user_notes_summary": {"uncertainties": [], "needs_review": [], "workarounds": []},
        "eval_feedback": {"suggestions": [], "overall": "No deterministic critique."},
        "skill_type": "mcp_based",
        "gate": {"counted": keys[:-1], "excluded": [{"assertion": keys[-1], "reason": "semantic and not graded"}],
                 "passed": passed, "total": len(graded), "pass_rate": round(passed / len(graded), 4)},
        "run": {"path": f"iteration-1/eval-{eval_id}/{config}/run-{run}", "eval_id": str(eval_id),
                "eval_name": None, "configuration": config, "run_number": run, "rules_eval": str(eval_id)},
        "problems": [], "grader": {"name": "referee", "version": "0.1.0", "llm": None},
    }


def transcript(rng: random.Random) -> str:
    blocks = []
    for step, tool in enumerate(("getRecord", "getRecord", "saveRecord"), start=1):
        args = {"id": f"rec-{rng.randint(1, 10**6)}", "note": "x" * 400}
        blocks.append(f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\n"
                      f"Return: {{\"code\": \"200\"}}\nStatus: success\n")
    return "## Eval Prompt\n\nSave the record.\n\n" + "\n".join(blocks)


def make_workspace(root: Path, runs: int) -> list[Path]:
    rng = random.Random(7)
    evals = 100
    per = max(1, runs // (evals * len(CONFIGS)))
    paths = []
    for eval_id in range(1, evals + 1):
        for config in CONFIGS:
            for run in range(1, per + 1):
                folder = root / "iteration-1" / f"eval-{eval_id}" / config / f"run-{run}"
                (folder / "outputs").mkdir(parents=True)
                (folder / "outputs" / "transcript.md").write_text(transcript(rng), encoding="utf-8")
                (folder / "outputs" / "response.md").write_text("Saved record.", encoding="utf-8")
                (folder / "timing.json").write_text('{"total_tokens": 5000, "total_duration_seconds": 12.0}',
                                                    encoding="utf-8")
                path = folder / "grading.json"
                path.write_text(json.dumps(grading(rng, eval_id, config, run), indent=2), encoding="utf-8")
                paths.append(path)
    return paths


def time_loads(paths: list[Path]) -> float:
    start = time.perf_counter()
    for path in paths:
        json.loads(path.read_bytes())
    return time.perf_counter() - start


def time_aggregate(workspace: Path, out: Path, skill: Path) -> tuple[float, int]:
    from referee.engine.cli import main

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["aggregate", str(workspace), "--output", str(out), "--skill-path", str(skill)])
    return time.perf_counter() - start, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = make_workspace(root / "ws", args.runs)
        skill = root / "skills" / "record-skill"
        skill.mkdir(parents=True)
        (root / "out").mkdir()  # --output names a folder that must be there already
        loads = min(time_loads(paths) for _ in range(args.repeat))
        results = [time_aggregate(root / "ws", root / "out", skill) for _ in range(args.repeat)]
        best = min(t for t, _ in results)
        doc = json.loads((root / "out" / "benchmark.json").read_text(encoding="utf-8"))
        size = sum(p.stat().st_size for p in paths) / len(paths) / 1024
    print(f"{len(paths)} graded runs ({size:.1f} KB grading.json each), best of {args.repeat}")
    print(f"json.loads of every grading.json: {loads:.3f} s ({len(paths) / loads:,.0f} runs/s)")
    print(f"referee aggregate:                {best:.3f} s ({len(paths) / best:,.0f} runs/s), "
          f"exit {results[0][1]}, decision {doc['release']['decision']}, {len(doc['runs'])} runs in benchmark.json")
    print(f"ratio aggregate / json.loads:     {best / loads:.1f}x")


if __name__ == "__main__":
    main()
