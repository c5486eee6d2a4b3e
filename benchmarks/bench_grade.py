"""Benchmark ``referee grade`` against a minimal hand-written grader.

Generates a workspace of N runs shaped as real sessions (transcripts of about
50 KB, 40 tool calls each, agent notes every 3 steps with about 28 claims a run,
a fifth of the JSON spread over lines, a third of the returns multi-line text; see
README.md) and a rules file with 20 deterministic assertions per eval. The
minimal script reads the same files, cuts each record with a regex, parses the
JSON payloads and runs the same 20 checks as plain Python lookups.

For each size (default 1,000 and 10,000 runs), whole processes are measured in
pairs, the minimal script just before each referee variant, ``--repeat`` times:
``referee grade --json`` with ``--check`` and writing, on 1 and 2 processes (a
full grade: verdicts, claims, metrics, both reports). Printed: medians of wall
time, CPU time and peak memory (the child's ``ru_maxrss``), and the medians of
the pairwise ratios against the minimal script, with their min and max.
``--phases`` also times, in this process, referee's verdicts alone and
``grade_all`` against the minimal script, and the CPU of each piece of a full
grade (parse, evaluate, claims, facts, the report's record and files).
``--base CHECKOUT`` adds ``grade --check`` of an earlier revision to the pairs.

Writing is measured against a floor too: a minimal writer that writes the reports
referee wrote again, as any careful writer must (the same bytes to a file beside
each, fsync, rename), with 8 threads in 1 and in 2 processes. What writing adds
to a grade is then set beside what the disk asks of anyone writing those files.

Run by hand, not by the test suite:

    python benchmarks/bench_grade.py --runs 1000 --repeat 5 --phases
    python benchmarks/bench_grade.py --runs 1000 10000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
# The measured processes load their modules as on a user's machine: from cached
# bytecode, written by the first of them. Where PYTHONDONTWRITEBYTECODE is set,
# every process would compile each module anew, which is not what a user waits for.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

EVALS = 10
CALLS = 40
FILLER_WORDS = ("alpha", "beta", "gamma", "delta", "record", "ledger", "amount", "region", "total", "值")

RULES_BODY = """
let fetched = first(calls to glob "*getRecord" with status success)
let saved   = last(calls to glob "*saveRecord" with status success)

expect 1: count(calls to glob "*saveRecord") == 1
expect 2: any calls to glob "*saveRecord" with status success have .args.status == "10"
expect 3: saved.args.amount == fetched.return.body.amount
expect 4: number(saved.args.amount) between 1 and 100000
expect 5: response contains "Saved record"
expect 6: response matches /id=[0-9a-f]{8}/
expect 7: not response contains "{id}"
expect 8: count(calls) >= 10
expect 9: count(calls with status error) <= 3
expect 10: any calls to "Bash" have .args.command contains "python"
expect 11: calls to glob "*getRecord" before calls to glob "*saveRecord"
expect 12: saved.args.region == fetched.return.body.region
expect 13: response contains saved.args.subject
expect 14: no calls to "DeleteRecord"
expect 15: all calls to glob "*getRecord" have .args.id matches /^rec-[0-9]+$/
expect 16: saved.return.code == "200"
expect 17: first(lines(response)) starts with "Saved record"
expect 18: count(calls to "Read") >= 1
expect 19: saved.args.month == "202602"
expect 20: any calls to glob "*saveRecord" have .args.tags includes ["bench"]
"""


# ---- the workspace ----------------------------------------------------------------------


def filler(rng: random.Random, size: int) -> str:
    words, length = [], 0
    while length < size:
        word = rng.choice(FILLER_WORDS)
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


# The shape of the runs, as issue 22 measured real sessions: about 50 KB, 40 calls,
# agent notes every 3 steps carrying about 28 claims in all, a fifth of the JSON
# payloads spread over lines, and a third of the returns multi-line text.
NOTE_EVERY = 3
SPREAD_JSON = 0.20
TEXT_RETURNS = 0.35


def payload(rng: random.Random, value) -> str:
    """A JSON value as a harness writes it: on one line, or spread over several."""
    if rng.random() < SPREAD_JSON:
        return "\n" + json.dumps(value, ensure_ascii=False, indent=2)
    return " " + json.dumps(value, ensure_ascii=False)


def text_return(rng: random.Random, tool: str) -> str:
    """Lines a tool printed: a file's content, or a command's output."""
    lines = rng.randint(12, 28)
    if tool == "Read":
        return "\n".join(f"{n:>4}  {filler(rng, 60)}" for n in range(1, lines + 1))
    return "\n".join(f"[{rng.choice(['ok', 'info', 'warn'])}] {filler(rng, 55)}" for _ in range(lines))


def call_block(rng: random.Random, step: int, tool: str, args: dict, result, status: str) -> str:
    returned = " " + result if isinstance(result, str) and "\n" not in result else (
        "\n" + result if isinstance(result, str) else payload(rng, result))
    return (f"## [tool_calls] Step {step}: {tool.split('_')[-1]}\n"
            f"Tool: {tool}\nArgs:{payload(rng, args)}\n"
            f"Return:{returned}\nStatus: {status}\n\n")


def note(rng: random.Random, step: int, tool: str, record: dict) -> str:
    """Agent notes with two claims a line's patterns find (a call, a field or status),
    between sentences of plain prose."""
    claims = [f"Called {tool} for the next part of the task.",
              f"The amount={record['amount']} matches the record.",
              f"docStatus=10 stays as planned for {record['id']}.",
              f"Ran {tool} again to confirm the {rng.choice(FILLER_WORDS)} values."]
    picked = rng.sample(claims, 3 if rng.random() < 0.25 else 2)
    return (f"## [agent_notes] Step {step}: progress\n{filler(rng, 120)}\n{picked[0]}\n"
            f"{filler(rng, 80)} {' '.join(picked[1:])}\n\n")


def transcript(rng: random.Random, good: bool) -> tuple[str, dict]:
    amount = f"{rng.randint(10, 9000)}.{rng.randint(0, 99):02d}"
    record = {"id": f"rec-{rng.randint(1, 10**6)}", "amount": amount, "region": rng.choice(["North", "South"])}
    doc_id = f"{rng.getrandbits(32):08x}"
    parts = ["## Eval Prompt\n\nSave the record as a draft.\n\n"]
    step = 1
    parts.append(call_block(rng, step, "svc-mcp_getRecord", {"id": record["id"]},
                            {"code": "200", "body": record}, "success"))
    for _ in range(CALLS - 4):
        step += 1
        tool = rng.choice(["Read", "Bash", "svc-mcp_lookup"])
        args = {"command": f"python run.py {filler(rng, 200)}"} if tool == "Bash" else {"q": filler(rng, 200)}
        if tool != "svc-mcp_lookup" and rng.random() < TEXT_RETURNS / (2 / 3):
            result = text_return(rng, tool)
        else:
            result = {"code": "200", "rows": [{"k": filler(rng, 60), "n": rng.randint(1, 999)} for _ in range(10)]}
        parts.append(call_block(rng, step, tool, args, result, "success"))
        if step % NOTE_EVERY == 0:
            parts.append(note(rng, step, tool, record))
    step += 1
    parts.append(call_block(rng, step, "Bash", {"command": "python check.py"}, "ok", "success"))
    step += 1
    parts.append(call_block(rng, step, "Read", {"file_path": "x"}, filler(rng, 200), "success"))
    step += 1
    saved_args = {"status": "10" if good else "20", "amount": amount, "region": record["region"],
                  "subject": f"Draft {record['id']}", "month": "202602", "tags": ["bench", "x"]}
    parts.append(call_block(rng, step, "svc-mcp_saveRecord", saved_args, {"code": "200", "body": doc_id}, "success"))
    parts.append(f"## [agent_notes] Step {step}: saved\nsaveRecord 成功，status=10。\n")
    return "".join(parts), {"doc_id": doc_id, "subject": saved_args["subject"], "amount": amount}


def generate(root: Path, runs: int, seed: int = 7) -> tuple[Path, Path]:
    """Write ``runs`` runs under ``root/workspace`` and the rules file; return both paths."""
    rng = random.Random(seed)
    workspace = root / "workspace" / "iteration-1"
    configurations = ("with_skill", "without_skill")
    folders = EVALS * len(configurations)
    for ev in range(1, EVALS + 1):
        eval_dir = workspace / f"eval-{ev}-bench"
        eval_dir.mkdir(parents=True, exist_ok=True)
        (eval_dir / "eval_metadata.json").write_text(json.dumps({"eval_id": ev, "eval_name": "bench"}))
        for place, config in enumerate(configurations, (ev - 1) * len(configurations)):
            # exactly ``runs`` runs: the first folders take one more when they do not divide evenly
            for number in range(1, runs // folders + (place < runs % folders) + 1):
                write_run(eval_dir / config / f"run-{number}", rng, good=config == "with_skill")
    rules = root / "bench.rules"
    rules.write_text("".join(f'eval {ev} "bench"\n{RULES_BODY}\n' for ev in range(1, EVALS + 1)))
    return root / "workspace", rules


def write_run(run: Path, rng: random.Random, good: bool) -> None:
    (run / "outputs").mkdir(parents=True, exist_ok=True)
    text, facts = transcript(rng, good)
    (run / "outputs" / "transcript.md").write_text(text, encoding="utf-8")
    response = (f"Saved record {facts['subject']} for {facts['amount']}.\n"
                f"Link: https://x.example/view?id={facts['doc_id']}\n")
    (run / "outputs" / "response.md").write_text(response, encoding="utf-8")
    (run / "timing.json").write_text(json.dumps({"total_tokens": 1000, "total_duration_seconds": 3.5}))


# ---- the minimal grader -----------------------------------------------------------------

_HEADING = re.compile(r"^## ", re.MULTILINE)
_RECORD = re.compile(r"\[tool_calls\] Step (\d+):.*?\nTool: (.*?)\nArgs:(.*?)\nReturn:(.*)\nStatus: (\S*)",
                     re.DOTALL)


def minimal_grade(workspace: Path) -> int:
    """The same 20 checks, hand-written; returns how many runs were graded."""
    graded = 0
    for run in sorted(p.parent for p in workspace.rglob("outputs")):
        out = run / "outputs"
        text = (out / "transcript.md").read_text(encoding="utf-8")
        response = (out / "response.md").read_text(encoding="utf-8")
        minimal_checks(minimal_calls(text), response)
        graded += 1
    return graded


def minimal_calls(text: str) -> list[tuple]:
    """(step, tool, args, return, status) of each record: cut at the headings, each
    value up to the next field, JSON decoded where it is JSON."""
    calls = []
    for section in _HEADING.split(text):
        found = _RECORD.match(section)
        if found:
            step, tool, args, result, status = found.groups()
            calls.append((int(step), tool, _value(args), _value(result), status))
    return calls


def _value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


REPORTS = ("grading.json", "ground_truth.json")


def minimal_rewrite(workspace: Path, processes: int) -> None:
    """Write every report under ``workspace`` again as a minimal writer would (see
    the module's docstring), the files shared among ``processes`` processes."""
    files = sorted(path for name in REPORTS for path in workspace.rglob(name))
    if processes == 1:
        _rewrite_all(files)
        return
    with ProcessPoolExecutor(processes) as pool:
        list(pool.map(_rewrite_all, [files[k::processes] for k in range(processes)]))


def _rewrite_all(files: list[Path]) -> None:
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(_rewrite, files))


def _rewrite(path: Path) -> None:
    data = path.read_bytes()
    temporary = path.with_name(path.name + ".rewrite")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def minimal_checks(calls: list, response: str) -> list[bool]:
    saves = [c for c in calls if c[1].endswith("saveRecord")]
    ok_saves = [c for c in saves if c[4] == "success"]
    gets = [c for c in calls if c[1].endswith("getRecord") and c[4] == "success"]
    saved, fetched = ok_saves[-1], gets[0]
    return [
        len(saves) == 1, any(c[2].get("status") == "10" for c in ok_saves),
        saved[2]["amount"] == fetched[3]["body"]["amount"], 1 <= float(saved[2]["amount"]) <= 100000,
        "Saved record" in response, re.search(r"id=[0-9a-f]{8}", response) is not None,
        "{id}" not in response, len(calls) >= 10, sum(c[4] == "error" for c in calls) <= 3,
        any("python" in c[2].get("command", "") for c in calls if c[1] == "Bash"),
        gets[0][0] < saves[-1][0], saved[2]["region"] == fetched[3]["body"]["region"],
        saved[2]["subject"] in response, not any(c[1] == "DeleteRecord" for c in calls),
        all(re.match(r"^rec-[0-9]+$", c[2]["id"]) for c in gets), saved[3]["code"] == "200",
        response.splitlines()[0].startswith("Saved record"), sum(c[1] == "Read" for c in calls) >= 1,
        saved[2]["month"] == "202602", any("bench" in c[2].get("tags", []) for c in saves),
    ]


# ---- timing -----------------------------------------------------------------------------


OUTCOMES: dict[str, int] = {}


def referee_verdicts_only(workspace: Path, rules: Path) -> int:
    """Discover, parse and evaluate every run, and nothing else: the part of referee
    that does what the minimal script does (no claims, metrics or reports)."""
    from referee.engine.evaluate import evaluate
    from referee.engine.grade import RulesSource
    from referee.engine.run.workspace import discover

    program = RulesSource(((rules.name, rules.read_text(encoding="utf-8")),)).compile()
    graded = 0
    for run in discover(workspace).runs:
        compiled = program.for_run(run.id, run.metadata)
        if compiled is not None:
            evaluate(compiled, run)
            graded += 1
        run.release()
    return graded


def referee_in_process(workspace: Path, rules: Path, jobs: int) -> int:
    """Discover, evaluate, render both files of every run (nothing written); the
    outcomes of the assertions are tallied into ``OUTCOMES``."""
    from referee.engine.grade import RulesSource, grade_all, grader_info
    from referee.engine.run.workspace import discover

    source = RulesSource(((rules.name, rules.read_text(encoding="utf-8")),))
    program = source.compile()
    runs = discover(workspace).runs
    graded = [g for g in grade_all(program, runs, source, grader_info(), jobs) if g is not None]
    OUTCOMES.clear()
    for g in graded:
        summary = g.brief.summary
        for name, count in (("pass", summary["passed"]), ("fail", summary["failed"] - summary["errors"]),
                            ("error", summary["errors"]), ("not_graded", summary["not_graded"])):
            OUTCOMES[name] = OUTCOMES.get(name, 0) + count
    return len(graded)


def phase_breakdown(workspace: Path, rules: Path) -> list[str]:
    """CPU seconds of each piece of a full grade, run by run in this process, against
    the minimal script: what the work that a report needs costs."""
    from referee.engine.evaluate import evaluate
    from referee.engine.facts import claims
    from referee.engine.facts.contents import run_contents
    from referee.engine.grade import Evaluated, RulesSource, graded, grader_info, run_facts
    from referee.engine.report.run_report import RunReport
    from referee.engine.run.workspace import discover

    clock = time.process_time
    spent = dict.fromkeys(("discover", "read files", "parse transcript", "evaluate 20 assertions",
                           "claims", "other facts (metrics, tools, ...)", "contents", "report record, both files"), 0.0)
    start = clock()
    program = RulesSource(((rules.name, rules.read_text(encoding="utf-8")),)).compile()
    compile_seconds = clock() - start
    start = clock()
    runs = discover(workspace).runs
    spent["discover"] = clock() - start
    for run in runs:
        start = clock()
        run.transcript_file, run.response
        middle = clock()
        run.transcript
        spent["read files"] += middle - start
        spent["parse transcript"] += clock() - middle
        start = clock()
        compiled = program.for_run(run.id, run.metadata)
        verdicts = tuple(evaluate(compiled, run))
        middle = clock()
        tuple(claims.find_claims(run))
        after_claims = clock()
        facts = run_facts(run, compiled.key)  # finds the claims again: counted once, under claims
        after_facts = clock()
        contents = run_contents(run)
        after_contents = clock()
        done = graded(compiled.assertions, Evaluated(compiled.key, verdicts, facts, contents), grader_info())
        report = RunReport.from_record(done.record, {"suggestions": [], "overall": ""})
        report.grading_text(), report.truth_text()
        spent["evaluate 20 assertions"] += middle - start
        spent["claims"] += after_claims - middle
        spent["other facts (metrics, tools, ...)"] += max(0.0, after_facts - after_claims - (after_claims - middle))
        spent["contents"] += after_contents - after_facts
        spent["report record, both files"] += clock() - after_contents
        run.release()
    start = clock()
    minimal_grade(workspace)
    base = clock() - start
    lines = [f"where a full grade's CPU goes, {len(runs)} runs in one process (minimal script {base:.2f} s; "
             f"compiling the rules once {compile_seconds:.2f} s):"]
    lines += [f"  {name:<36} {seconds:6.2f} s  {seconds / base:6.2f}x" for name, seconds in spent.items()]
    total = sum(spent.values())
    lines.append(f"  {'total':<36} {total:6.2f} s  {total / base:6.2f}x")
    return lines


def check_outcomes() -> None:
    """Print the assertion outcomes once: the benchmark must grade for real. Every
    generated rule is decidable, so an ERROR means the rules or the engine broke."""
    print("assertion outcomes: " + ", ".join(f"{n} {name}" for name, n in OUTCOMES.items()))
    if OUTCOMES.get("error") or OUTCOMES.get("not_graded"):
        print("WARNING: some assertions errored or were not graded; these timings do not "
              "measure real grading", flush=True)


def timed(label: str, action, runs: int, results: dict) -> None:
    start = time.perf_counter()
    graded = action()
    seconds = time.perf_counter() - start
    results[label] = seconds
    print(f"{label:<38} {seconds:8.2f} s  {runs / seconds:9.0f} runs/s  ({graded} graded)", flush=True)


# ---- whole processes, paired with the minimal script --------------------------------------


def cache_bytecode() -> None:
    """Write referee's bytecode before the first measured process (see ``CHILD_ENV``)."""
    subprocess.run([sys.executable, "-c", "import compileall, os, referee; "
                    "compileall.compile_dir(os.path.dirname(referee.__file__), quiet=1)"], env=CHILD_ENV, check=True)


def measure(command: list[str]) -> tuple[float, float, float, int]:
    """Run ``command`` to its end: (wall s, cpu s, peak MiB, runs in its --json output).

    The command is started by a small launcher process (this script, ``--launch``):
    Linux carries the parent's peak memory into a child's ``ru_maxrss`` across
    fork and exec, so a child of this (large) process would read this process's
    size. The launcher's own size is the floor of every peak (``floor``)."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--launch", json.dumps(command)],
                          cwd=REPO, capture_output=True, text=True, env=CHILD_ENV)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:5])}... failed: {done.stderr[-2000:]}")
    found = json.loads(done.stdout)
    return found["wall"], found["cpu"], found["peak"], found["runs"]


def launch(command: list[str]) -> None:
    """The launcher: run ``command``, then print its figures as JSON (``wait4``: the
    kernel's accounting of that child; its ``ru_maxrss`` covers the worker processes
    it waited for as the largest single process, not their sum)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=REPO, stdout=out, stderr=subprocess.PIPE, env=CHILD_ENV)
        err = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1, 3):  # outcomes: runs failed (1), a conditional release (3)
            raise SystemExit(f"exit {process.returncode}: {err.decode(errors='replace')[-2000:]}")
        out.seek(0)
        text = out.read()
    runs = len(json.loads(text)["runs"]) if text.startswith(b"{") else 0
    print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024,
                      "runs": runs}))


def referee_command(workspace: Path, rules: Path, jobs: int, write: bool, base: Path | None = None) -> list[str]:
    """``referee grade --json``; with ``base``, the referee of that checkout (put first
    on the path: a folder holding a ``referee`` link to it, see ``base_root``)."""
    command = [sys.executable, "-m", "referee.engine.cli", "grade", str(workspace), "--rules", str(rules),
               "--jobs", str(jobs), "--json"] + ([] if write else ["--check"])
    return command if base is None else ["env", f"PYTHONPATH={base}", *command]


def base_root(checkout: Path, root: Path) -> Path:
    """A folder whose ``referee`` is ``checkout``: on PYTHONPATH, it comes before the
    installed referee, so the same interpreter runs the other revision."""
    folder = root / "base-path"
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "referee"
    if not link.exists():
        link.symlink_to(checkout.resolve(), target_is_directory=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout)], env=CHILD_ENV, check=True)
    return folder


def minimal_command(workspace: Path) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--minimal-only", str(workspace)]


def rewrite_command(workspace: Path, processes: int) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--minimal-rewrite", str(processes), str(workspace)]


REWRITE_ONE, REWRITE_TWO = "rewrite reports, 1 process", "rewrite reports, 2 processes"


def variants(workspace: Path, rules: Path, base: Path | None, quick: bool) -> dict[str, list[str]]:
    """The commands measured, by name: referee's (and ``base``'s, as ``before: ...``)."""
    found = {"grade --check, 1 process": referee_command(workspace, rules, 1, False),
             "grade --check, 2 processes": referee_command(workspace, rules, 2, False)}
    if not quick:
        found.update({"grade writing, 1 process": referee_command(workspace, rules, 1, True),
                      "grade writing, 2 processes": referee_command(workspace, rules, 2, True),
                      # after referee has written the reports: the floor under writing them
                      REWRITE_ONE: rewrite_command(workspace, 1),
                      REWRITE_TWO: rewrite_command(workspace, 2)})
    if base is not None:
        found.update({f"before: {name}": referee_command(workspace, rules, jobs, False, base)
                      for name, jobs in (("grade --check, 1 process", 1), ("grade --check, 2 processes", 2))})
    return found


def paired(runs: int, repeat: int, measured: dict[str, list[str]], workspace: Path) -> dict[str, list[tuple]]:
    """Each variant and the minimal script in turn, ``repeat`` times: the ratio is taken
    pair by pair (each variant against the minimal run just before it), so a machine
    whose speed drifts during the benchmark still gives meaningful ratios."""
    found: dict[str, list[tuple]] = {name: [] for name in ["minimal script", *measured]}
    for _ in range(repeat):
        for name, command in measured.items():
            base = measure(minimal_command(workspace))
            found["minimal script"].append(base[:3] + (base[:3],))
            wall, cpu, peak, graded = measure(command)
            if graded != runs and name not in (REWRITE_ONE, REWRITE_TWO):
                raise SystemExit(f"{name}: {graded} runs graded, {runs} expected")
            found[name].append((wall, cpu, peak, base[:3]))
            print(f"  {name:<36} wall {wall:7.2f} s  cpu {cpu:7.2f} s  peak {peak:6.0f} MiB   "
                  f"(minimal: wall {base[0]:.2f} s, cpu {base[1]:.2f} s, peak {base[2]:.0f} MiB)", flush=True)
    return found


def summary_table(runs: int, found: dict[str, list[tuple]]) -> list[str]:
    """Medians of the figures, and of the pairwise ratios against the minimal script
    (with their min and max, in brackets)."""
    lines = [f"{runs} runs ({len(found['minimal script'])} minimal runs, medians [min-max]):",
             f"  {'what':<36} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'wall ÷ min':>20} "
             f"{'cpu ÷ min':>20} {'peak ÷ min':>8}"]
    for name, rows in found.items():
        wall, cpu, peak = (statistics.median(r[i] for r in rows) for i in range(3))
        ratios = [[r[i] / r[3][i] for r in rows] for i in range(3)]
        spread = [f"{statistics.median(x):5.2f}x [{min(x):.2f}-{max(x):.2f}]" for x in ratios[:2]]
        lines.append(f"  {name:<36} {wall:8.2f} {cpu:8.2f} {peak:9.0f} {spread[0]:>20} {spread[1]:>20} "
                     f"{statistics.median(ratios[2]):7.2f}x")
    walls = {name: statistics.median(r[0] for r in rows) for name, rows in found.items() if rows}
    for what in ("--check", "writing"):
        one, two = walls.get(f"grade {what}, 1 process"), walls.get(f"grade {what}, 2 processes")
        if one and two:
            lines.append(f"  speed-up of {what} from 1 to 2 processes (wall): {one / two:.2f}x")
    for label, rewrite in (("1 process", REWRITE_ONE), ("2 processes", REWRITE_TWO)):
        writing, check = walls.get(f"grade writing, {label}"), walls.get(f"grade --check, {label}")
        if writing and check and rewrite in walls:
            lines.append(f"  writing adds {writing - check:.2f} s on {label}; the minimal writer "
                         f"takes {walls[rewrite]:.2f} s for the same files")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[1000, 10_000],
                        help="workspace sizes, each measured in whole processes (default 1000 10000)")
    parser.add_argument("--repeat", type=int, default=3, help="pairs per variant and size (default 3)")
    parser.add_argument("--phases", action="store_true",
                        help="also time the in-process phases (verdicts alone, grade_all) on the first size")
    parser.add_argument("--dir", type=Path, default=None, help="where to generate (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the generated workspaces")
    parser.add_argument("--base", type=Path, default=None,
                        help="another checkout of referee (an earlier revision) to measure in the same run")
    parser.add_argument("--quick", action="store_true", help="only grade --check (1 and 2 processes)")
    parser.add_argument("--minimal-only", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--launch", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--minimal-rewrite", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.minimal_only is not None:  # the child process of the pairs
        minimal_grade(args.minimal_only)
        return
    if args.minimal_rewrite is not None:
        minimal_rewrite(Path(args.minimal_rewrite[1]), int(args.minimal_rewrite[0]))
        return
    if args.launch is not None:
        launch(json.loads(args.launch))
        return
    cache_bytecode()
    floor = measure([sys.executable, "-c", "pass"])
    print(f"floor of the peaks (the launcher, and python -c pass): {floor[2]:.0f} MiB", flush=True)
    root = args.dir or Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        report: list[str] = []
        for number, runs in enumerate(args.runs):
            base = base_root(args.base, root) if args.base is not None else None
            report += run_benchmark(root / f"runs-{runs}", runs, args.repeat, args.phases and number == 0, base,
                                    args.quick)
        print("\n" + "\n".join(report))
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)


def run_benchmark(root: Path, runs: int, repeat: int, phases: bool, base: Path | None = None,
                  quick: bool = False) -> list[str]:
    start = time.perf_counter()
    workspace, rules = generate(root, runs)
    os.sync()  # the generated files reach the disk now, not while the first processes are timed
    size = sum(p.stat().st_size for p in workspace.rglob("transcript.md")) / runs / 1024
    print(f"generated {runs} runs (transcripts {size:.0f} KB on average) in "
          f"{time.perf_counter() - start:.1f} s under {root}; CPUs: {os.cpu_count()}", flush=True)
    lines = []
    if phases:
        results: dict[str, float] = {}
        timed("minimal script, in process", lambda: minimal_grade(workspace), runs, results)
        timed("referee verdicts only, in process", lambda: referee_verdicts_only(workspace, rules),
              runs, results)
        timed("referee grade_all, in process", lambda: referee_in_process(workspace, rules, 1), runs, results)
        check_outcomes()
        floor = results["minimal script, in process"]
        lines += [f"in-process phases, {runs} runs:"]
        lines += [f"  {label:<36} {seconds:7.2f} s  {seconds / floor:6.2f}x" for label, seconds in results.items()]
        lines += phase_breakdown(workspace, rules)
    lines += summary_table(runs, paired(runs, repeat, variants(workspace, rules, base, quick), workspace))
    return lines


if __name__ == "__main__":
    main()
