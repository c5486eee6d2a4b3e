"""``referee diff`` when the old state's gated assertions errored: an ERROR is
evidence referee could not read, not a failure, so it must not lower the old
level enough to hide the new state's real failures. Where the level would have
regressed were the errors passes, the eval is ``cannot tell`` and the diff does
not exit 0."""

from __future__ import annotations

import json
from pathlib import Path

from compare_workspace import build, grade, rules
from referee.engine.cli import main

RESPONSE = "iteration-1/eval-1-task-1/with_skill/run-{k}/outputs/response.md"
NOT_UTF8 = b"| id | value |\n|----|-------|\n| E1 | value-1 \xff|\n"  # its checks error


def _states(tmp_path: Path, new_quality: str) -> tuple[Path, Path]:
    # BASE: three good runs whose response is not UTF-8, so the two response checks
    # error and no run succeeds (0/3). NEW: three runs of ``new_quality``.
    base = build(tmp_path / "base", {"with_skill": [["good"] * 3], "without_skill": [["bad"]]})
    new = build(tmp_path / "new", {"with_skill": [[new_quality] * 3], "without_skill": [["bad"]]})
    for k in (1, 2, 3):
        (base / RESPONSE.format(k=k)).write_bytes(NOT_UTF8)
    rules_file = rules(tmp_path / "gen.rules", 1)
    grade(base, rules_file)
    grade(new, rules_file)
    return base, new


def test_errors_in_base_do_not_hide_failures_in_new(tmp_path: Path, capsys):
    # NEW's runs really fail "replies with a table": 0/3 against BASE's 0/3 of
    # errors read as "no regression" (exit 0).
    base, new = _states(tmp_path, "partial")
    capsys.readouterr()
    assert main(["diff", str(base), str(new)]) == 1
    out = capsys.readouterr().out
    assert "CANNOT TELL eval 1 with_skill: 0/3 runs succeeded" in out
    assert out.splitlines()[-1].startswith("CANNOT TELL: 0 evals of with_skill regressed; 1 eval cannot be told")
    assert main(["diff", str(base), str(new), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["regressions"] == [] and len(document["cannot_tell"]) == 1


def test_a_blessed_benchmark_with_errors_does_not_hide_them_either(tmp_path: Path, capsys):
    base, new = _states(tmp_path, "partial")
    main(["aggregate", str(base), "--primary", "with_skill"])
    capsys.readouterr()
    assert main(["diff", str(base / "benchmark.json"), str(new)]) == 1
    assert "CANNOT TELL eval 1 with_skill" in capsys.readouterr().out
    code = main(["aggregate", str(new), "--primary", "with_skill", "--check",
                 "--against", str(base / "benchmark.json"), "--fail-on-regression"])
    assert code == 1
    assert "cannot be told not to have regressed" in capsys.readouterr().out


def test_errors_in_base_where_new_succeeds_are_no_regression(tmp_path: Path, capsys):
    base, new = _states(tmp_path, "good")
    capsys.readouterr()
    assert main(["diff", str(base), str(new)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("no regression")
