"""What the commands print reads as English: a count agrees with its noun ("1 run",
"1 tool call"), a table keeps one unit per column (pass rates in percent, their
delta in points), and a list of expectation numbers never reads as a count."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
BAD = re.compile(r"\b1 (runs|tool calls|pairs|assertions|mutants|problems|comparison files)\b")


def _one_run(base: Path) -> Path:
    ws = base / "ws"
    shutil.copytree(EXAMPLE / "iteration-1" / "eval-2-fare-export" / "with_skill" / "run-1",
                    ws / "eval-2-fare-export" / "with_skill" / "run-1")
    return ws


def test_one_of_a_thing_is_said_in_the_singular(tmp_path: Path, capsys):
    ws = _one_run(tmp_path)
    assert main(["grade", str(ws), "--rules", str(RULES), "--eval", "2"]) == 0
    assert main(["report", str(ws), "--format", "markdown"]) == 0
    assert main(["aggregate", str(ws), "--check"]) in (0, 1, 3)
    one = tmp_path / "one.rules"
    one.write_text('eval 2\nexpect: exists file "fares.csv"\n', encoding="utf-8")
    main(["critique", str(ws), "--rules", str(one), "--check"])
    session = tmp_path / "s.jsonl"
    session.write_text((REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl")
                       .read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    main(["import", "claude-code", str(session), "--out", str(tmp_path / "imported")])
    printed = capsys.readouterr()
    said = printed.out + printed.err
    assert "(markdown, 1 run)" in said and "over 1 run" in said and "critique: 1 assertion over 1 run" in said
    assert BAD.search(said) is None, BAD.search(said)


def test_pass_rates_and_their_delta_share_a_unit(tmp_path: Path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    assert main(["aggregate", str(tmp_path / "ws"), "--evals", str(EVALS)]) == 3
    out = capsys.readouterr().out
    assert "delta (with_skill - without_skill): pass_rate +77.8 pts, pass_rate_all_graded +66.7 pts" in out
    table = (tmp_path / "ws" / "benchmark.md").read_text(encoding="utf-8")
    assert "| pass rate (gated) | 100% ± 0% | 22% ± 38% | +78 pts |" in table
    assert not re.search(r"\| [+-]0\.\d+ \|", table)  # no fraction beside percentages


def test_critique_names_expectations_by_number_not_as_a_count(tmp_path: Path, capsys):
    main(["critique", str(EXAMPLE), "--rules", str(RULES), "--evals", str(EVALS), "--check"])
    out = capsys.readouterr().out
    assert "eval 1: expectation 7 has no check: left to the LLM grader" in out
    assert "left to the LLM grader: 7" not in out
