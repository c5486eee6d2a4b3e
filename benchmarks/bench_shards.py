"""Benchmark a sharded grade and its merge, against one unsharded grade.

Generates N runs shaped as real sessions (``bench_grade.generate``: 50 KB
transcripts, 40 calls, 10 evals of two configurations), then, each as whole
processes measured by ``bench_grade``'s launcher (wall, CPU, the child's peak
memory):

1. ``referee grade --jobs 2`` of the whole workspace (the baseline), whose reports'
   digests are kept, and then removed;
2. the same runs as ``--shards`` shards in 2 processes at once, each process grading
   its shards one after the other (shards 1, 3, 5, ... and 2, 4, 6, ...): the
   sharded grade's wall time is the longer chain's, its CPU the sum, its peak the
   largest process's;
3. ``referee merge``, then ``referee aggregate`` (which checks the merge);
4. every merged report is compared, by digest, with the unsharded grade's.

Printed: each step's figures, and the merge's wall and CPU time and peak memory as
ratios of the sharded grade's and of the unsharded grade's. Run by hand:

    python benchmarks/bench_shards.py --runs 100000 --shards 8 --root /var/tmp/shards
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_grade  # noqa: E402  (beside this file)

REPORTS = ("grading.json", "ground_truth.json")


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "referee.engine.cli", *args]


def digests(workspace: Path) -> dict[str, str]:
    """Every report under ``workspace``, by path: the SHA-256 of its bytes."""
    return {p.relative_to(workspace).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for name in REPORTS for p in workspace.rglob(name)}


def remove_reports(workspace: Path) -> None:
    for name in (*REPORTS, "benchmark.json", "benchmark.md"):
        for path in workspace.rglob(name):
            path.unlink()


def step(label: str, command: list[str]) -> dict:
    wall, cpu, peak, _ = bench_grade.measure(command)
    found = {"step": label, "wall": wall, "cpu": cpu, "peak": peak}
    print(f"  {label:<28} wall {wall:9.1f} s  cpu {cpu:9.1f} s  peak {peak:8.1f} MiB", flush=True)
    return found


def sharded(workspace: Path, rules: Path, shards: int) -> dict:
    """Shards 1..n in two processes at once, each grading its share one shard after another."""
    def chain(first: int) -> list[dict]:
        return [step(f"shard {i}/{shards}", referee("grade", str(workspace), "--rules", str(rules),
                                                    "--shard", f"{i}/{shards}"))
                for i in range(first, shards + 1, 2)]

    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        parts = [s for chain_steps in pool.map(chain, (1, 2)) for s in chain_steps]
    return {"step": f"{shards} shards in 2 processes", "wall": time.perf_counter() - start,
            "cpu": sum(p["cpu"] for p in parts), "peak": max(p["peak"] for p in parts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--root", type=Path, required=True, help="a folder with room for the runs (50 KB each)")
    parser.add_argument("--keep", action="store_true", help="keep the generated workspace")
    args = parser.parse_args()
    args.root.mkdir(parents=True, exist_ok=True)
    bench_grade.cache_bytecode()
    start = time.perf_counter()
    workspace, rules = bench_grade.generate(args.root, args.runs)
    print(f"generated {args.runs} runs in {time.perf_counter() - start:.0f} s under {workspace}", flush=True)
    try:
        whole = step("unsharded grade --jobs 2", referee("grade", str(workspace), "--rules", str(rules), "--jobs", "2"))
        expected = digests(workspace)
        remove_reports(workspace)
        grade = sharded(workspace, rules, args.shards)
        print(f"  {grade['step']:<28} wall {grade['wall']:9.1f} s  cpu {grade['cpu']:9.1f} s  "
              f"peak {grade['peak']:8.1f} MiB", flush=True)
        merged = step("merge", referee("merge", str(workspace), "--rules", str(rules)))
        step("aggregate (checks the merge)", referee("aggregate", str(workspace)))
        same = digests(workspace) == expected
        print(f"merged reports identical to the unsharded grade's: {same} ({len(expected)} reports)")
        for against in (grade, whole):
            print(f"merge / {against['step']}: wall {merged['wall'] / against['wall']:.3f}x, "
                  f"cpu {merged['cpu'] / against['cpu']:.3f}x, peak {merged['peak'] / against['peak']:.3f}x")
        print(json.dumps({"runs": args.runs, "shards": args.shards, "unsharded": whole, "sharded": grade,
                          "merge": merged, "identical": same}))
        if not same:
            raise SystemExit(1)
    finally:
        if not args.keep:
            shutil.rmtree(workspace, ignore_errors=True)


if __name__ == "__main__":
    main()
