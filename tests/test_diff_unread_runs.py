"""``referee diff`` with runs whose grading.json cannot be read (broken, or gone from
a run that was graded): such a run of NEW may have failed, so it is in NEW's level
as a failed run; such runs of BASE may have succeeded, so when they alone keep a
change from reading as a regression, the eval is ``cannot tell``. Neither hides a
regression behind exit 0."""

from __future__ import annotations

from pathlib import Path

from compare_workspace import build, grade, rules
from referee.engine.cli import main

RUN = "iteration-1/eval-1-task-1/with_skill/run-{k}/grading.json"


def _states(tmp_path: Path, base_runs: list[str], new_runs: list[str]) -> tuple[Path, Path]:
    base = build(tmp_path / "base", {"with_skill": [base_runs], "without_skill": [["bad"]]})
    new = build(tmp_path / "new", {"with_skill": [new_runs], "without_skill": [["bad"]]})
    rules_file = rules(tmp_path / "gen.rules", 1)
    grade(base, rules_file)
    grade(new, rules_file)
    return base, new


def _diff(base: Path, new: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["diff", str(base), str(new), "--primary", "with_skill"])
    return code, capsys.readouterr().out


def test_an_unreadable_failing_run_of_new_does_not_hide_a_regression(tmp_path: Path, capsys):
    # 3 of 3 succeeded, now 1 of 3: a regression (exit 1). With run 3's report broken,
    # NEW read as 1 of 2, "one run flipped: not a regression", exit 0.
    base, new = _states(tmp_path, ["good"] * 3, ["good", "bad", "bad"])
    assert _diff(base, new, capsys)[0] == 1
    (new / RUN.format(k=3)).write_text("{broken", encoding="utf-8")
    code, out = _diff(base, new, capsys)
    assert code == 1
    assert "REGRESSION eval 1 with_skill: 3/3 runs succeeded (pass, pass^3 1.00) -> 1/3 runs succeeded" in out
    assert "(1 of them not read, counted as failed)" in out


def test_a_deleted_grading_json_in_new_counts_as_failed_too(tmp_path: Path, capsys):
    base, new = _states(tmp_path, ["good"] * 3, ["good", "bad", "bad"])
    (new / RUN.format(k=3)).unlink()  # its ground_truth.json stays: it was graded
    code, out = _diff(base, new, capsys)
    assert code == 1 and "REGRESSION eval 1 with_skill" in out


def test_base_runs_all_unread_cannot_vouch_for_new(tmp_path: Path, capsys):
    # Every with_skill report of BASE broken: eval 1 with_skill was not compared at
    # all, and NEW's 0 of 3 read as no regression (exit 0).
    base, new = _states(tmp_path, ["good"] * 3, ["bad"] * 3)
    for k in (1, 2, 3):
        (base / RUN.format(k=k)).write_text("{broken", encoding="utf-8")
    code, out = _diff(base, new, capsys)
    assert code == 1
    assert "CANNOT TELL eval 1 with_skill: no run read -> 0/3 runs succeeded" in out


def test_unread_runs_where_new_keeps_its_level_are_no_regression(tmp_path: Path, capsys):
    base, new = _states(tmp_path, ["good"] * 3, ["good"] * 4)
    (base / RUN.format(k=3)).write_text("{broken", encoding="utf-8")
    (new / RUN.format(k=4)).write_text("{broken", encoding="utf-8")
    code, out = _diff(base, new, capsys)
    assert code == 0 and out.splitlines()[-1].startswith("no regression")


def test_a_report_edited_out_of_shape_names_the_field(tmp_path: Path, capsys):
    # pydantic's first line, "1 validation error for GradingReport", named no field; then
    # its words ("expectations.0.passed: Input should be a valid boolean") were not
    # aggregate's about the same file: every reader now says it alike.
    import json

    base, new = _states(tmp_path, ["good"] * 3, ["good", "bad", "bad"])
    document = json.loads((new / RUN.format(k=3)).read_text(encoding="utf-8"))
    document["expectations"][0]["passed"] = None
    (new / RUN.format(k=3)).write_text(json.dumps(document), encoding="utf-8")
    code = main(["diff", str(base), str(new), "--primary", "with_skill"])
    out = capsys.readouterr().out
    assert code == 1 and "(its expectations[0].passed is null, not true or false)" in out, out
    assert "validation error for" not in out
