"""Build graded runs on disk for aggregation tests: a grading.json as referee writes
it (the fields ``referee aggregate`` reads), timing.json, and optionally a transcript."""

from __future__ import annotations

import json
from pathlib import Path


def write_run(run_dir: Path, outcomes: list[str], *, counted: list[bool] | None = None,
              tokens: int | None = 1000, seconds: float | None = 10.0, transcript: str | None = None,
              grader: str | None = "referee", eval_key: str = "1") -> Path:
    """A graded run; ``outcomes`` are pass/fail/error/not_graded per assertion.
    ``counted`` says which count toward the gate (default: all but not_graded)."""
    (run_dir / "outputs").mkdir(parents=True, exist_ok=True)
    (run_dir / "outputs" / "response.md").write_text("done", encoding="utf-8")
    if transcript is not None:
        (run_dir / "outputs" / "transcript.md").write_text(transcript, encoding="utf-8")
    if tokens is not None or seconds is not None:
        timing = {k: v for k, v in (("total_tokens", tokens), ("total_duration_seconds", seconds)) if v is not None}
        (run_dir / "timing.json").write_text(json.dumps(timing), encoding="utf-8")
    counted = counted if counted is not None else [o != "not_graded" for o in outcomes]
    keys = [f"{eval_key}#{i}" for i in range(1, len(outcomes) + 1)]
    graded = [o for o in outcomes if o != "not_graded"]
    passed = sum(o == "pass" for o in graded)
    gate = [o for o, c in zip(outcomes, counted) if c]
    document = {
        "expectations": [{"text": f"assertion {k}", "passed": o == "pass", "evidence": f"evidence {k}",
                          "key": k, "outcome": o, "precision": "exact_match" if c else "existence",
                          "gated": c}
                         for k, o, c in zip(keys, outcomes, counted)],
        "summary": {"passed": passed, "failed": len(graded) - passed, "total": len(graded),
                    "pass_rate": round(passed / len(graded), 4) if graded else 0.0,
                    "errors": outcomes.count("error"), "not_graded": outcomes.count("not_graded")},
        "execution_metrics": {"output_chars": 61, "total_tool_calls": 2, "errors_encountered": 0},
        "timing": {},
        "gate": {"counted": [k for k, c in zip(keys, counted) if c], "excluded": [],
                 "passed": sum(o == "pass" for o in gate), "total": len(gate),
                 "pass_rate": round(sum(o == "pass" for o in gate) / len(gate), 4) if gate else 0.0},
    }
    if grader is not None:
        document["grader"] = {"name": grader, "version": "0.1.0", "llm": None}
    (run_dir / "grading.json").write_text(json.dumps(document), encoding="utf-8")
    return run_dir
