"""``referee grade`` in a CI log: progress lines that depend on the runs alone, a
summary that fits (failures first, each group cut at a fixed number of runs, all
with ``--verbose``), and ``--primary`` gating on one configuration."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.commands.grade_report import SHOWN_RUNS
from referee.engine.report.terminal import ProgressBar

RULES = 'eval 1 "lookup"\nexpect "says the order": response contains "order 7"\n'


def _workspace(base: Path, passing: int, failing: int, config_of=lambda n, ok: "with_skill") -> Path:
    ws = base / "ws"
    both = min(passing, failing)
    oks = [True, False] * both + [passing > failing] * abs(passing - failing)  # interleaved, then the rest
    for n, ok in enumerate(oks):
        out = ws / "eval-1-lookup" / config_of(n, ok) / f"run-{n + 1}" / "outputs"
        out.mkdir(parents=True)
        (out / "response.md").write_text("Here is order 7.\n" if ok else "Done.\n", encoding="utf-8")
    (base / "r.rules").write_text(RULES, encoding="utf-8")
    return ws


@pytest.fixture(autouse=True)
def _plain(monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


def _runs(out: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^(PASS|FAIL|EMPTY) +(\S+)", out, flags=re.M)]


def test_runs_that_did_not_pass_come_first(tmp_path: Path, capsys):
    _workspace(tmp_path, passing=3, failing=3)
    assert main(["grade", "ws", "--rules", "r.rules", "--check"]) == 1
    statuses = [status for status, _ in _runs(capsys.readouterr().out)]
    assert statuses == ["FAIL"] * 3 + ["PASS"] * 3


def test_a_large_workspace_prints_a_summary_that_fits_and_verbose_prints_all(tmp_path: Path, capsys):
    _workspace(tmp_path, passing=SHOWN_RUNS + 5, failing=SHOWN_RUNS + 3)
    assert main(["grade", "ws", "--rules", "r.rules", "--check"]) == 1
    out = capsys.readouterr().out
    shown = _runs(out)
    assert [s for s, _ in shown] == ["FAIL"] * SHOWN_RUNS + ["PASS"] * SHOWN_RUNS
    assert "... and 3 more runs that did not pass (--verbose prints every run" in out
    assert "... and 5 more runs that passed" in out
    assert "total: 48 runs (25 passed, 23 failed)" in out
    assert main(["grade", "ws", "--rules", "r.rules", "--check", "--verbose"]) == 1
    assert len(_runs(capsys.readouterr().out)) == 2 * SHOWN_RUNS + 8


def test_without_a_terminal_progress_is_a_line_per_tenth_of_the_runs():
    for total in (20, 37, 1000):
        stream = io.StringIO()
        bar = ProgressBar("grading", stream=stream)
        for done in range(1, total + 1):
            bar(done, total)
        bar.close()
        lines = stream.getvalue().splitlines()
        assert len(lines) == 10 and lines[-1] == f"grading: {total}/{total} runs (100%)"
        percents = [int(re.search(r"\((\d+)%\)", line).group(1)) for line in lines]
        assert percents == sorted(percents) and all(p // 10 == i + 1 for i, p in enumerate(percents))
    few = io.StringIO()
    bar = ProgressBar("grading", stream=few)
    for done in range(1, 6):
        bar(done, 5)
    assert few.getvalue() == ""  # a handful of runs needs no progress


def test_grade_prints_progress_lines_on_stderr_off_a_terminal(tmp_path: Path, capsys):
    _workspace(tmp_path, passing=12, failing=12)
    main(["grade", "ws", "--rules", "r.rules", "--check"])
    err = capsys.readouterr().err
    assert re.findall(r"^grading: (\d+)/24 runs", err, flags=re.M) == \
        ["3", "5", "8", "10", "12", "15", "17", "20", "22", "24"]


def _by_config(n: int, ok: bool) -> str:
    return "with_skill" if ok else "without_skill"


def test_primary_gates_on_its_configuration_and_shows_the_others_as_context(tmp_path: Path, capsys):
    _workspace(tmp_path, passing=3, failing=3, config_of=_by_config)
    assert main(["grade", "ws", "--rules", "r.rules", "--check"]) == 1  # every run counts
    capsys.readouterr()
    assert main(["grade", "ws", "--rules", "r.rules", "--check", "--primary", "with_skill"]) == 0
    out = capsys.readouterr().out
    assert [s for s, _ in _runs(out)] == ["PASS"] * 3  # the baseline's failures are not listed as failures
    assert "context  without_skill: 3 runs (0 passed, 3 failed)" in out
    assert "gate: with_skill alone: 3 of 3 runs passed" in out
    assert main(["grade", "ws", "--rules", "r.rules", "--check", "--primary", "without_skill"]) == 1
    capsys.readouterr()
    assert main(["grade", "ws", "--rules", "r.rules", "--check", "--json", "--primary", "with_skill"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["primary"] == "with_skill" and document["exit_code"] == 0
    assert document["totals"]["runs"] == 6


def test_primary_must_name_a_configuration_graded(tmp_path: Path, capsys):
    _workspace(tmp_path, passing=1, failing=1, config_of=_by_config)
    assert main(["grade", "ws", "--rules", "r.rules", "--check", "--primary", "with-skill"]) == 2
    assert "--primary with-skill: no run of that configuration" in capsys.readouterr().err
