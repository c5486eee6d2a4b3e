"""How ``referee grade`` grows: with the transcript's size, the assertions per eval
and the number of runs.

Three sweeps around one base (20 assertions per eval, transcripts of 5 KB), each
configuration graded by a whole ``referee grade --check --json`` process on one
process, started by a small launcher so that its peak memory (``ru_maxrss``) is
its own (see ``bench_grade.measure``):

- runs: 100, 1,000, 10,000 (5 KB, 20 assertions): time should grow linearly
  (CPU per run flat) and memory should stay flat;
- transcript size: 5 KB, 50 KB, 500 KB, 5 MB (20 runs, 20 assertions);
- assertions per eval: 1, 20, 200 (100 runs of 50 KB).

The table gives wall and CPU seconds, CPU per run (also less the start-up: the
CPU of the same grade of a single run, which imports and compiles the rules),
and peak memory. Run by hand
(about five minutes on two cores):

    python benchmarks/bench_growth.py
    python benchmarks/bench_growth.py --quick     # runs up to 1,000, transcripts up to 500 KB
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_grade import (EVALS, FILLER_WORDS, RULES_BODY, cache_bytecode, call_block,  # noqa: E402
                         measure, referee_command)

EXPECTS = [line.split(":", 1)[1].strip() for line in RULES_BODY.splitlines() if line.startswith("expect ")]
LETS = "\n".join(line for line in RULES_BODY.splitlines() if line.startswith("let "))
CALL_BYTES = 1250  # about what one generated call takes in the transcript


def rules_text(assertions: int) -> str:
    """``assertions`` per eval, cycling through the 20 of ``bench_grade``, each with a
    sentence of its own (two assertions of an eval may not share a text)."""
    body = "\n".join(f'expect {n} "assertion {n}": {EXPECTS[(n - 1) % len(EXPECTS)]}'
                     for n in range(1, assertions + 1))
    return "".join(f'eval {ev} "bench"\n{LETS}\n{body}\n\n' for ev in range(1, EVALS + 1))


def transcript(rng: random.Random, size: int) -> tuple[str, dict]:
    """A transcript of about ``size`` bytes: filler calls between a getRecord and a saveRecord."""
    amount = f"{rng.randint(10, 9000)}.{rng.randint(0, 99):02d}"
    record = {"id": f"rec-{rng.randint(1, 10**6)}", "amount": amount, "region": rng.choice(["North", "South"])}
    doc_id = f"{rng.getrandbits(32):08x}"
    parts = ["## Eval Prompt\n\nSave the record as a draft.\n\n",
             call_block(rng, 1, "svc-mcp_getRecord", {"id": record["id"]}, {"code": "200", "body": record}, "success")]
    step = 1
    for _ in range(max(2, size // CALL_BYTES - 2)):
        step += 1
        tool = rng.choice(["Read", "Bash", "svc-mcp_lookup"])
        words = " ".join(rng.choice(FILLER_WORDS) for _ in range(50))
        args = {"command": f"python run.py {words}"} if tool == "Bash" else {"q": words}
        parts.append(call_block(rng, step, tool, args, " ".join(rng.choice(FILLER_WORDS) for _ in range(120)),
                                "success"))
        if step % 9 == 0:
            parts.append(f"## [agent_notes] Step {step}: progress\n{words}\n\n")
    step += 1
    saved = {"status": "10", "amount": amount, "region": record["region"], "subject": f"Draft {record['id']}",
             "month": "202602", "tags": ["bench", "x"]}
    parts.append(call_block(rng, step, "svc-mcp_saveRecord", saved, {"code": "200", "body": doc_id}, "success"))
    parts.append(f"## [agent_notes] Step {step}: saved\nsaveRecord status=10.\n")
    return "".join(parts), {"doc_id": doc_id, "subject": saved["subject"], "amount": amount}


def generate(root: Path, runs: int, size: int, assertions: int) -> tuple[Path, Path]:
    """``runs`` runs spread over the evals, each a transcript of about ``size`` bytes."""
    rng = random.Random(7)
    workspace = root / "workspace" / "iteration-1"
    per_eval = -(-runs // EVALS)
    made = 0
    for ev in range(1, EVALS + 1):
        eval_dir = workspace / f"eval-{ev}-bench"
        eval_dir.mkdir(parents=True, exist_ok=True)
        (eval_dir / "eval_metadata.json").write_text(json.dumps({"eval_id": ev, "eval_name": "bench"}))
        for number in range(1, per_eval + 1):
            if made == runs:
                break
            run = eval_dir / "with_skill" / f"run-{number}"
            (run / "outputs").mkdir(parents=True)
            text, facts = transcript(rng, size)
            (run / "outputs" / "transcript.md").write_text(text, encoding="utf-8")
            (run / "outputs" / "response.md").write_text(
                f"Saved record {facts['subject']} for {facts['amount']}.\n"
                f"Link: https://x.example/view?id={facts['doc_id']}\n", encoding="utf-8")
            made += 1
    rules = root / "bench.rules"
    rules.write_text(rules_text(assertions), encoding="utf-8")
    return root / "workspace", rules


def configurations(quick: bool) -> list[tuple[str, int, int, int]]:
    """(sweep, runs, transcript bytes, assertions per eval)."""
    runs = (100, 1000) if quick else (100, 1000, 10_000)
    sizes = (5_000, 50_000, 500_000) if quick else (5_000, 50_000, 500_000, 5_000_000)
    return ([("runs", n, 5_000, 20) for n in runs] + [("transcript size", 20, s, 20) for s in sizes]
            + [("assertions per eval", 100, 50_000, a) for a in (1, 20, 200)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sweeps (under a minute)")
    parser.add_argument("--dir", type=Path, default=None, help="where to generate (default: a temp dir)")
    args = parser.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="referee-growth-"))
    cache_bytecode()
    floor = measure([sys.executable, "-c", "pass"])[2]
    rows = []
    try:
        for sweep, runs, size, assertions in configurations(args.quick):
            where = root / f"{runs}-{size}-{assertions}"
            start = time.perf_counter()
            workspace, rules = generate(where, runs, size, assertions)
            made = time.perf_counter() - start
            os.sync()
            wall, cpu, peak, graded = measure(referee_command(workspace, rules, 1, False))
            if graded != runs:
                raise SystemExit(f"{graded} runs graded, {runs} expected")
            one = generate(where / "one", 1, size, assertions)
            os.sync()  # the generated files reach the disk now, not while the grades are timed
            start_cpu = measure(referee_command(*one, 1, False))[1]  # start-up and one run
            rows.append((sweep, runs, size, assertions, wall, cpu, peak, start_cpu))
            print(f"{sweep:<20} {runs:>6} runs {size / 1000:>7.0f} KB {assertions:>4} assertions: "
                  f"wall {wall:7.2f} s  cpu {cpu:7.2f} s  peak {peak:5.0f} MiB  (generated in {made:.1f} s)",
                  flush=True)
            shutil.rmtree(where, ignore_errors=True)
    finally:
        if args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\nreferee grade --check --json, 1 process (peak floor: python -c pass = {floor:.0f} MiB)")
    print("| sweep | runs | transcript | assertions/eval | wall s | cpu s | cpu ms/run | "
          "cpu ms/run less start-up | peak MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for sweep, runs, size, assertions, wall, cpu, peak, start_cpu in rows:
        marginal = f"{1000 * (cpu - start_cpu) / (runs - 1):.1f}" if runs > 1 else "-"
        print(f"| {sweep} | {runs:,} | {_size(size)} | {assertions} | {wall:.2f} | {cpu:.2f} | "
              f"{1000 * cpu / runs:.1f} | {marginal} | {peak:.0f} |")


def _size(size: int) -> str:
    return f"{size / 1_000_000:g} MB" if size >= 1_000_000 else f"{size / 1000:g} KB"


if __name__ == "__main__":
    main()
