"""Time claims extraction alone, against an earlier revision in the same process.

Generates the workspace of ``bench_grade.py`` (transcripts of about 50 KB, 40
calls each), reads and parses every run first, then times
``engine.facts.claims.find_claims`` over all of them: the current code, and with
``--against REV`` the two claims modules as they were at that git revision
(loaded from ``git show``), on the same parsed runs, alternating, best of
``--repeat``. Prints seconds, the ratio and how many claims each found. Run by
hand, not by the test suite:

    python benchmarks/bench_claims.py --runs 500 --against HEAD~3
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

MODULES = ("claim_lookup", "claims")


def dense_workspace(root: Path, runs: int, calls: int = 200) -> Path:
    """Runs whose notes are full of claims: ``calls`` calls, a note after every
    second call with a tool claim and two field claims, a response of 40 numbers."""
    import json
    import random

    rng = random.Random(11)
    workspace = root / "dense"
    for number in range(1, runs + 1):
        parts = ["## Eval Prompt\n\nDo the work.\n\n"]
        for step in range(1, calls + 1):
            args = {f"field{step % 17}": str(rng.randint(1, 999)), "region": "North"}
            result = {"code": "200", "body": {"count": rng.randint(1, 99), "id": f"id{step:04d}"},
                      "log": f"found {rng.randint(1, 99)} files"}
            parts.append(f"## [tool_calls] Step {step}: work\nTool: svc-mcp_tool{step % 23}\n"
                         f"Args: {json.dumps(args)}\nReturn: {json.dumps(result)}\nStatus: success\n\n")
            if step % 2 == 0:
                parts.append(f"## [agent_notes] Step {step}: note\nCalled tool{step % 23}; "
                             f"field{step % 17}={rng.randint(1, 999)} and count is {rng.randint(1, 99)}.\n\n")
        run = workspace / "eval-1" / "cfg" / f"run-{number}" / "outputs"
        run.mkdir(parents=True)
        (run / "transcript.md").write_text("".join(parts), encoding="utf-8")
        response = "\n".join(f"Item {i}: {rng.randint(10, 9999)} records" for i in range(40))
        (run / "response.md").write_text(response + "\n", encoding="utf-8")
    return workspace


def old_find_claims(revision: str):
    """``find_claims`` as it was at ``revision``, imported under private names."""
    loaded: dict[str, types.ModuleType] = {}
    for name in MODULES:
        source = subprocess.run(["git", "show", f"{revision}:engine/facts/{name}.py"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout
        for other in MODULES:
            source = source.replace(f"referee.engine.facts.{other} import", f"_old_{other} import")
        module = types.ModuleType(f"_old_{name}")
        sys.modules[module.__name__] = module
        exec(compile(source, f"{revision}:{name}.py", "exec"), module.__dict__)
        loaded[name] = module
    return loaded["claims"].find_claims


def timed(find, runs, repeat: int) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        count = sum(len(find(run)) for run in runs)
        best = min(best, time.process_time() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", default=None, help="a git revision to compare with")
    parser.add_argument("--dense", action="store_true",
                        help="runs full of claims (--calls calls, a note every second call) instead of "
                             "bench_grade's runs")
    parser.add_argument("--calls", type=int, default=200, help="calls per run with --dense")
    args = parser.parse_args()
    from bench_grade import generate

    from referee.engine.facts.claims import find_claims
    from referee.engine.run.workspace import discover

    root = Path(tempfile.mkdtemp(prefix="referee-claims-"))
    try:
        workspace = dense_workspace(root, args.runs, args.calls) if args.dense else generate(root, args.runs)[0]
        runs = [run.load() for run in discover(workspace).runs]
        now, found = timed(find_claims, runs, args.repeat)
        print(f"current code:      {now:7.2f} s CPU for {len(runs)} runs ({found} claims)")
        if args.against:
            before, found_before = timed(old_find_claims(args.against), runs, args.repeat)
            print(f"{args.against:<18} {before:7.2f} s CPU for {len(runs)} runs ({found_before} claims)")
            print(f"speed-up: {before / now:.1f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
