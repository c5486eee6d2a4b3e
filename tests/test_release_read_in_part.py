"""A run read only in part never makes a clean PASS of the release decision.

The real Claude Code session python-to-rust-port (tests/fixtures/real/claude-code,
see its SOURCE.md) starts a subagent whose log is not beside it: its calls may be
incomplete. Imported twice as the runs of one eval and graded with a rule on the
response alone, both runs pass, and ``referee aggregate --mode quick`` said PASS,
as if nothing of them had gone unread: a rule nobody wrote (no destructive call)
may be broken in the calls not read. It is now a CONDITIONAL PASS whose
``unusable_runs`` reason names the runs and why. The figures not known stay null: the
calls and errors, and now the tokens too, which the import counted without the
subagent's (its usage is in the log that is not there): 392173 before, a lower bound.
The same made of a session read in full (hello-world-script) stays a PASS.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.cli import main

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"


def _decided(tmp_path: Path, source: Path, rule: str, capsys) -> dict:
    sources = []
    for name in ("a", "b"):
        sources.append(tmp_path / f"{name}.jsonl")
        shutil.copyfile(source, sources[-1])
    workspace = tmp_path / "ws"
    main(["import", "claude-code", *map(str, sources), "--out", str(workspace), "--eval", "1",
          "--config", "with_skill"])
    (tmp_path / "r.rules").write_text(f'eval "1"\nexpect 1: {rule}\n', encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")])
    main(["aggregate", str(workspace), "--mode", "quick"])
    capsys.readouterr()
    return json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))


def test_runs_whose_calls_may_be_incomplete_make_no_clean_pass(tmp_path, capsys):
    benchmark = _decided(tmp_path, REAL / "python-to-rust-port" / "transcript.jsonl",
                         'response contains "Rust"', capsys)
    assert [run["result"]["pass_rate"] for run in benchmark["runs"]] == [1.0, 1.0]
    assert [(run["result"]["tool_calls"], run["result"]["errors"]) for run in benchmark["runs"]] == \
        [(None, None), (None, None)]
    # the import counted the tokens of the main session alone: the subagent's are in its missing log
    assert [run["result"]["tokens"] for run in benchmark["runs"]] == [None, None]
    assert benchmark["run_summary"]["with_skill"].get("tokens") in (None, {"mean": None, "stddev": None,
                                                                          "min": None, "max": None})
    release = benchmark["release"]
    assert release["decision"] == "CONDITIONAL PASS"
    [reason] = [r for r in release["reasons"] if r["rule"] == "unusable_runs"]
    assert reason["status"] == "conditional"
    assert reason["message"].startswith("2 counted runs read only in part, so not a clean pass: "
                                        "eval-1/with_skill/run-1 (the run's calls may be incomplete")
    assert [r["rule"] for r in release["reasons"] if r["status"] != "ok"] == ["unusable_runs"]


def test_runs_read_in_full_still_pass(tmp_path, capsys):
    benchmark = _decided(tmp_path, REAL / "hello-world-script" / "transcript.jsonl",
                         'no calls to "Bash" with status error', capsys)
    assert benchmark["release"]["decision"] == "PASS"
    assert all(run["result"]["tokens"] for run in benchmark["runs"])
