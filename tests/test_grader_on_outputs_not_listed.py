"""A run whose outputs/ holds a link to a folder, which referee does not follow, is not
shown to the LLM grader: its files are unknown, a rule over the outputs is an ERROR,
and the grader, shown "outputs: (nothing)", would pass "no file holds a password" on a
folder nobody read. Its semantic assertions are ERRORs that say why."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.grade import RulesSource, grade_all, grader_info
from referee.engine.judging import JudgeResult
from referee.engine.run.workspace import discover
from referee.engine.verdict import Evidence, Outcome, Verdict

SENTENCE = "No output file holds a password"


class PassingJudge:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def grade(self, run, items):
        self.asked.extend(item.key for item in items)
        return JudgeResult({item.key: Verdict(Outcome.PASS, "no password",
                                              (Evidence("response", "outputs/response.md", 1, None, "Done"),))
                            for item in items})


def _graded(tmp_path: Path, linked: bool) -> tuple[dict, PassingJudge]:
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "creds.txt").write_text("password: hunter2\n", encoding="utf-8")
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("Done. The report is written.\n", encoding="utf-8")
    if linked:
        (outputs / "kept").symlink_to(secret, target_is_directory=True)
    run = next(iter(discover(tmp_path / "ws").runs))
    source = RulesSource((("r.rules", f'eval 1 "x"\nexpect "{SENTENCE}"\n'),))
    judge = PassingJudge()
    graded = list(grade_all(source.compile(), [run], source, grader_info(), judge=judge))
    return json.loads(graded[0].grading), judge


def test_a_run_with_a_folder_not_listed_is_not_judged(tmp_path, capsys):
    report, judge = _graded(tmp_path, linked=True)
    judged = report["expectations"][0]
    assert judge.asked == []
    assert (judged["method"], judged["outcome"]) == ("grader", "error")
    assert "outputs/kept is a link to a folder" in judged["evidence"]


def test_a_run_whose_outputs_are_all_listed_is_judged(tmp_path, capsys):
    report, judge = _graded(tmp_path, linked=False)
    assert len(judge.asked) == 1
    assert report["expectations"][0]["outcome"] == "pass"
