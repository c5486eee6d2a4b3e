"""Per-run CPU of referee against in-memory deterministic peers, on generated OpenAI runs.

The peers are the fastest deterministic checks of two tools people reach for:
deepeval's ``ToolCorrectnessMetric`` (expected tools, with their input parameters,
in order) and agentevals' trajectory match (``superset`` mode, arguments exact).
This script installs them (pinned) into a throwaway virtual environment with pip,
so referee's own environment never holds them; deepeval's telemetry is turned off
and its metric is given a model that answers nothing (it is never asked: no
``available_tools`` are given, so no LLM is called). Nothing here needs a key.

The workload: N OpenAI-format message lists (JSON), each of 40 tool calls in 20
assistant turns, a third of the tool answers multi-line text and the rest JSON,
and a final reply. Half the runs save the record with the wrong status, so every
tool has something to find. Each tool does the closest job it can express:

- referee: ``referee grade --json`` of the N files as they are, as the runs of one
  eval (``--as-eval``), with three rules (the record is fetched with its id; it is
  saved with status "10" and its amount; fetched before saved), as a user would run
  it; and, for comparison, ``referee import openai`` of the files, then ``referee
  grade --check --json`` of the workspace written (the only way before referee
  graded sources; ``--base`` revisions are measured so);
- deepeval: for each run, an ``LLMTestCase`` of the calls, measured against the
  two expected calls with their input parameters, ordering considered;
- agentevals: for each run, its messages matched against a reference trajectory
  holding the two expected calls.

Each is run ``--repeat`` times in turn (after one round that is not counted). A
peer is timed inside its process, from after its imports, over reading, taking
the calls of and checking every run: its in-memory per-run CPU. referee is timed
so too ("referee, in process": ``referee grade --json`` of the N files called in
a process that has graded one file before, so that every module is loaded, the
CPU of the call over N), and as whole processes, both commands, on N runs and on
1 run: per-run CPU is (CPU on N - CPU on 1) / (N - 1), so that start-up and
imports cancel out (a difference of two processes, so noisier). Printed:
medians with min and max, and referee's per-run CPU over each peer's. ``--base CHECKOUT`` measures an earlier
revision of referee in the same run (put first on PYTHONPATH).

    python benchmarks/bench_peers.py --runs 50 --repeat 5
    python benchmarks/bench_peers.py --base /path/to/earlier/checkout --venv /tmp/peers-venv
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PEERS = ("deepeval==4.3.1", "agentevals==0.0.9")
CALLS, TEXT_ANSWERS = 40, 0.35
WORDS = ("alpha", "beta", "gamma", "delta", "record", "ledger", "amount", "region", "total", "值")
RECORD_ID, AMOUNT = "rec-7", "12.50"
EXPECTED = [("getRecord", {"id": RECORD_ID}), ("saveRecord", {"status": "10", "amount": AMOUNT})]
RULES = f"""eval "bench"
expect 1: any calls to "getRecord" have .args.id == "{RECORD_ID}"
expect 2: any calls to "saveRecord" have (.args.status == "10" and .args.amount == "{AMOUNT}")
expect 3: calls to "getRecord" before calls to "saveRecord"
"""
def words(rng: random.Random, size: int) -> str:
    found: list[str] = []
    while sum(len(w) + 1 for w in found) < size:
        found.append(rng.choice(WORDS))
    return " ".join(found)


def conversation(rng: random.Random, good: bool) -> list[dict]:
    """One run as an OpenAI chat-completions message list."""
    messages: list[dict] = [{"role": "system", "content": "You keep records."},
                            {"role": "user", "content": "Save record rec-7 as a draft."}]
    calls = [("getRecord", {"id": RECORD_ID})]
    calls += [(rng.choice(["lookup", "readFile", "runCommand"]), {"q": words(rng, 150)}) for _ in range(CALLS - 2)]
    calls.append(("saveRecord", {"status": "10" if good else "20", "amount": AMOUNT}))
    for turn in range(0, CALLS, 2):
        pair = calls[turn:turn + 2]
        ids = [f"call_{turn + k}" for k in range(len(pair))]
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in zip(ids, pair)]})
        for i, (name, _) in zip(ids, pair):
            messages.append({"role": "tool", "tool_call_id": i, "content": answer(rng, name)})
    messages.append({"role": "assistant", "content": f"Saved {RECORD_ID} for {AMOUNT}."})
    return messages


def answer(rng: random.Random, name: str) -> str:
    if name != "getRecord" and rng.random() < TEXT_ANSWERS:
        return "\n".join(f"{n:>4}  {words(rng, 55)}" for n in range(1, rng.randint(10, 24)))
    return json.dumps({"code": "200", "rows": [{"k": words(rng, 50), "n": rng.randint(1, 999)} for _ in range(8)]})


def generate(folder: Path, runs: int, seed: int = 11) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(1, runs + 1):
        path = folder / f"run-{number:03d}.json"
        path.write_text(json.dumps(conversation(rng, good=number % 2 == 1), ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


# ---- the peers, in their own virtual environment --------------------------------------

# A peer's child process: it reads the runs and checks them, nothing else.
PEER_CHILD = r'''
import json, os, sys, time
kind, paths = sys.argv[1], sys.argv[2:]
expected = json.loads(os.environ["EXPECTED"])
scores = []
if kind == "deepeval":
    from deepeval.metrics import ToolCorrectnessMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams

    class Offline(DeepEvalBaseLLM):  # never asked: no available_tools are given
        def __init__(self): super().__init__("offline")
        def load_model(self): return None
        def generate(self, *a, **k): raise RuntimeError("offline")
        async def a_generate(self, *a, **k): raise RuntimeError("offline")
        def get_model_name(self): return "offline"

    metric = ToolCorrectnessMetric(model=Offline(), async_mode=False, should_consider_ordering=True,
                                   evaluation_params=[ToolCallParams.INPUT_PARAMETERS])
    wanted = [ToolCall(name=n, input_parameters=a) for n, a in expected]
    start = time.process_time()  # from here on, per run: read it, take its calls, check them
    for path in paths:
        run = json.loads(open(path, encoding="utf-8").read())
        made = [(c["function"]["name"], json.loads(c["function"]["arguments"]))
                for m in run if m.get("tool_calls") for c in m["tool_calls"]]
        case = LLMTestCase(input=run[1]["content"], actual_output=run[-1]["content"],
                           tools_called=[ToolCall(name=n, input_parameters=a) for n, a in made],
                           expected_tools=wanted)
        scores.append(metric.measure(case))
else:
    from agentevals.trajectory.match import create_trajectory_match_evaluator

    evaluator = create_trajectory_match_evaluator(trajectory_match_mode="superset", tool_args_match_mode="exact")
    reference = [{"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": n, "arguments": json.dumps(a)}} for n, a in expected]}]
    start = time.process_time()
    for path in paths:
        run = json.loads(open(path, encoding="utf-8").read())
        scores.append(evaluator(outputs=run, reference_outputs=reference)["score"])
print(json.dumps({"cpu": time.process_time() - start, "scores": [float(s) for s in scores]}))
'''


def peer_venv(where: Path) -> Path:
    """The throwaway environment's python, with the peers installed (once)."""
    python = where / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    done = subprocess.run([str(python), "-c", "import deepeval, agentevals"], capture_output=True)
    if done.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEERS], check=True)
    return python


def peer_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(DEEPEVAL_TELEMETRY_OPT_OUT="YES", DEEPEVAL_DISABLE_DOTENV="1", LANGSMITH_TRACING="false",
               EXPECTED=json.dumps(EXPECTED))
    return env


def peer_per_run(python: Path, kind: str, paths: list[Path], script: Path) -> tuple[float, list[float]]:
    """CPU seconds per run of one child checking ``paths`` in memory (timed inside it,
    from after its imports), and its scores."""
    _, found = _timed([str(python), str(script), kind, *map(str, paths)], peer_env(), scores=True)
    return found["cpu"] / len(paths), found["scores"]


# ---- referee ----------------------------------------------------------------------------

# referee's child process, timed as the peers' are: it grades one file first, so
# that the command's modules are loaded, then grades the N files under the clock.
REFEREE_CHILD = r'''
import contextlib, io, json, sys, time
from referee.engine.cli import main
rules, paths = sys.argv[1], sys.argv[2:]
def grade(files):
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
        main(["grade", *files, "--as-eval", "bench", "--rules", rules, "--json"])
    return json.loads(out.getvalue())
grade(paths[:1])
start = time.process_time()  # from here on: read, import in memory, grade and print every run
found = grade(paths)
cpu = time.process_time() - start
print(json.dumps({"cpu": cpu, "scores": [r["gate"]["passed"] / r["gate"]["total"] for r in found["runs"]]}))
'''


def referee_in_process(paths: list[Path], rules: Path, script: Path, base: Path | None) -> tuple[float, list[float]]:
    """referee's CPU per run, timed inside its process after its modules are loaded."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if base is not None:
        env["PYTHONPATH"] = str(base)
    _, found = _timed([sys.executable, str(script), str(rules), *map(str, paths)], env, scores=True)
    return found["cpu"] / len(paths), found["scores"]


def referee_cpu(paths: list[Path], work: Path, rules: Path, base: Path | None,
                imported: bool) -> tuple[float, list[float]]:
    """CPU seconds of ``referee grade --json`` of the files (``imported``: of ``referee
    import openai`` then ``referee grade --check --json``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if base is not None:
        env["PYTHONPATH"] = str(base)
    cli = [sys.executable, "-m", "referee.engine.cli"]
    if not imported:
        return _timed([*cli, "grade", *map(str, paths), "--as-eval", "bench", "--rules", str(rules), "--json"], env,
                      grades=True)
    out = work / "ws"
    shutil.rmtree(out, ignore_errors=True)
    writing, _ = _timed([*cli, "import", "openai", *map(str, paths), "--out", str(out), "--eval", "bench"], env)
    graded, found = _timed([*cli, "grade", str(out), "--rules", str(rules), "--check", "--json"], env, grades=True)
    return writing + graded, found


def _timed(command: list[str], env: dict, scores: bool = False, grades: bool = False) -> tuple[float, list]:
    """Run ``command``; its CPU (``wait4``'s account of it and its children) and what it found."""
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, env=env, cwd=REPO)
        err = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise SystemExit(f"{' '.join(command[:6])}... exited {code}: {err.decode(errors='replace')[-1500:]}")
        out.seek(0)
        text = out.read().decode()
    found: Any = json.loads(text.strip().splitlines()[-1]) if scores else []
    if grades:
        found = [run["gate"]["passed"] / run["gate"]["total"] for run in json.loads(text)["runs"]]
    return usage.ru_utime + usage.ru_stime, found


def referee_per_run(paths: list[Path], work: Path, rules: Path, base: Path | None,
                    imported: bool = False) -> tuple[float, list[float]]:
    """referee's CPU per run: its commands on every run less on one, over the runs
    between (start-up and imports cancel out), and its findings."""
    many, scores = referee_cpu(paths, work, rules, base, imported)
    one, _ = referee_cpu(paths[:1], work, rules, base, imported)
    return (many - one) / (len(paths) - 1), scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--venv", type=Path, default=None, help="where the peers' environment is (kept); "
                        "default: a throwaway one")
    parser.add_argument("--base", type=Path, default=None, help="an earlier checkout of referee, measured too")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="referee-peers-"))
    try:
        python = peer_venv(args.venv or work / "venv")
        script, own = work / "peer.py", work / "referee_child.py"
        script.write_text(PEER_CHILD, encoding="utf-8")
        own.write_text(REFEREE_CHILD, encoding="utf-8")
        paths = generate(work / "runs", args.runs)
        rules = work / "bench.rules"
        rules.write_text(RULES, encoding="utf-8")
        base = _base_path(args.base, work) if args.base else None
        tools = {"referee, in process": lambda p: referee_in_process(p, rules, own, None),
                 "referee": lambda p: referee_per_run(p, work, rules, None),
                 "referee import + grade": lambda p: referee_per_run(p, work, rules, None, imported=True),
                 "deepeval ToolCorrectnessMetric": lambda p: peer_per_run(python, "deepeval", p, script),
                 "agentevals trajectory match": lambda p: peer_per_run(python, "agentevals", p, script)}
        if base is not None:
            tools["before: referee, in process"] = lambda p: referee_in_process(p, rules, own, base)
            tools["before: referee import + grade"] = lambda p: referee_per_run(p, work, rules, base, imported=True)
        report(measure(tools, paths, args.repeat), args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _base_path(checkout: Path, work: Path) -> Path:
    folder = work / "base-path"
    folder.mkdir()
    (folder / "referee").symlink_to(checkout.resolve(), target_is_directory=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout)], check=True)
    return folder


def measure(tools: dict, paths: list[Path], repeat: int) -> dict[str, list[float]]:
    """Per-run CPU of each tool, ``repeat`` times, the tools in turn; each tool's
    findings are printed once, so that a tool that checked nothing shows."""
    found: dict[str, list[float]] = {name: [] for name in tools}
    for round_ in range(repeat + 1):  # the first round warms the caches and is not counted
        for name, tool in tools.items():
            cpu, scores = tool(paths)
            if round_ == 0:
                print(f"{name}: {sum(1 for s in scores if s == 1)} of {len(scores)} runs fully pass", flush=True)
                continue
            found[name].append(cpu)
            print(f"  {name:<32} {found[name][-1] * 1000:7.2f} ms/run", flush=True)
    return found


def report(found: dict[str, list[float]], runs: int) -> None:
    print(f"\nper-run CPU on {runs} OpenAI-format runs (medians [min-max]):")
    for name, values in found.items():
        print(f"  {name:<32} {statistics.median(values) * 1000:7.2f} ms [{min(values) * 1000:.2f}-"
              f"{max(values) * 1000:.2f}]")
    for name in (n for n in found if "referee" in n):
        for peer in (n for n in found if "referee" not in n):
            _ratio(found, name, peer)
    for name in (n for n in found if f"before: {n}" in found):
        _ratio(found, name, f"before: {name}")


def _ratio(found: dict[str, list[float]], name: str, other: str) -> None:
    """The median, min and max of ``name``'s CPU over ``other``'s, round by round."""
    ratios = [a / b for a, b in zip(found[name], found[other])]
    print(f"  {name} / {other}: {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]")


if __name__ == "__main__":
    main()
