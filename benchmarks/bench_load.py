"""How fast referee discovers and loads runs, against plain reads of the same files.

Generates N runs (default 10,000) with small realistic transcripts in a temporary
folder, then measures in one process:
  (a) discover + load + parse every run (transcript, response, metrics, timing, notes);
  (b) plain ``open().read()`` of the same files.
Run by hand: ``python benchmarks/bench_load.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.run.workspace import discover  # noqa: E402

RUNS_PER_CONFIG = 2
CONFIGS = ("with_skill", "without_skill")


def transcript(n: int) -> str:
    """A dual-section transcript of about 3 KB with four tool calls and notes."""
    parts = ["## Eval Prompt\n\nBook the cheapest direct flight from ZRH to LIS on 2026-05-14.\n"]
    for step in range(1, 5):
        args = json.dumps({"origin": "ZRH", "destination": "LIS", "date": "2026-05-14", "step": step, "run": n}, indent=2)
        ret = json.dumps({"flights": [{"flightId": f"LX{2080 + i}", "stops": i % 2,
                                       "price": {"amount": f"{180 + i * 7}.00", "currency": "EUR"}} for i in range(3)]})
        parts.append(f"## [tool_calls] Step {step}: call {step}\n<!-- raw log -->\nTool: travel_searchFlights\n"
                     f"Args: {args}\nReturn: {ret}\nStatus: {'error' if step == 2 else 'success'}\n")
        parts.append(f"## [agent_notes] Step {step}: note\nInterpretation of step {step}: chose LX2081.\n")
    return "\n".join(parts)


def generate(root: Path, count: int) -> list[Path]:
    """Write ``count`` runs under ``root``; returns every file written."""
    files = []
    per_eval = len(CONFIGS) * RUNS_PER_CONFIG
    for n in range(count):
        eval_dir = root / "iteration-1" / f"eval-{n // per_eval + 1}-bench"
        config = CONFIGS[(n // RUNS_PER_CONFIG) % len(CONFIGS)]
        run = eval_dir / config / f"run-{n % RUNS_PER_CONFIG + 1}"
        out = run / "outputs"
        out.mkdir(parents=True)
        contents = {
            out / "transcript.md": transcript(n),
            out / "response.md": f"Booked LX2081, reference QX{n:05d}. Your e-ticket follows by e-mail.\n",
            out / "metrics.json": json.dumps({"tool_calls": {"travel_searchFlights": 4}, "total_tool_calls": 4,
                                              "total_steps": 4, "errors_encountered": 1}),
            out / "user_notes.md": "# User Notes\n\n## Uncertainty\n- none really\n\n## Workarounds\n- retried once\n",
            run / "timing.json": json.dumps({"total_tokens": 12000 + n, "duration_ms": 30000, "total_duration_seconds": 30.0}),
        }
        for path, text in contents.items():
            path.write_text(text, encoding="utf-8")
            files.append(path)
    return files


def load_all(root: Path) -> int:
    found = discover(root)
    calls = 0
    for run in found.runs:
        run.load()
        calls += len(run.transcript.calls)
    return len(found.runs)


def read_all(files: list[Path]) -> int:
    total = 0
    for path in files:
        with open(path, encoding="utf-8") as handle:
            total += len(handle.read())
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        root = Path(tmp)
        files = generate(root, args.runs)
        size = sum(p.stat().st_size for p in files)
        print(f"{args.runs} runs, {len(files)} files, {size / 1e6:.1f} MB")
        read_all(files)  # warm the page cache so both measurements read from memory
        start = time.perf_counter()
        loaded = load_all(root)
        referee_s = time.perf_counter() - start
        start = time.perf_counter()
        read_all(files)
        plain_s = time.perf_counter() - start
    assert loaded == args.runs, f"discovered {loaded} of {args.runs} runs"
    print(f"(a) discover + load + parse: {referee_s:.2f} s, {loaded / referee_s:,.0f} runs/s")
    print(f"(b) plain open().read():     {plain_s:.2f} s, {args.runs / plain_s:,.0f} runs/s")
    print(f"ratio (a)/(b): {referee_s / plain_s:.1f}x slower")
    return 0


if __name__ == "__main__":
    sys.exit(main())
