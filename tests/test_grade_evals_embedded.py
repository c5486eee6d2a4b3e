"""Checks kept inside evals.json grade exactly like the same checks in a rules file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

# rules/expense-draft.rules, carried by evals.json under "referee" instead.
EMBEDDED = {
    "1": {"let": {"invoice_amount": 'first(calls to glob "*getInvoiceInfo" with status success)'
                                    ".return.body.amount",
                  "saved": 'last(calls to glob "*saveExpenseDoc" with status success)'},
          "checks": {"1": 'count(calls to glob "*saveExpenseDoc") == 1',
                     "2": 'any calls to glob "*saveExpenseDoc" with status success have '
                          '.args.docStatus == "10"',
                     "3": "saved.args.fdApplyMoney == invoice_amount",
                     "4": 'saved.args.fdMonthOfOccurrence == "120260200"',
                     "5": 'not response contains "{fdId}"',
                     "6": "response contains saved.args.fdSubject",
                     "7": "response is not empty"}},
    "2": {"checks": {"1": 'exists file "summary.csv"',
                     "2": 'first(lines(file "summary.csv")) == "region,total"',
                     "3": 'any file "summary.csv" as csv where .region == "North" have '
                          "number(.total) == 1250",
                     "4": 'any calls to "Bash" with status success before response'}},
}


def _outcomes(workspace: Path) -> dict[str, list[tuple[str, str, str]]]:
    return {str(p.relative_to(workspace)): [(e["text"], e["outcome"], e["precision"])
                                           for e in json.loads(p.read_text("utf-8"))["expectations"]]
            for p in sorted(workspace.rglob("grading.json"))}


def test_embedded_checks_grade_like_the_rules_file(shared_examples, tmp_path):
    evals = json.loads((shared_examples / "expense-skill/evals/evals.json").read_text("utf-8"))
    for entry in evals["evals"]:
        entry["referee"] = EMBEDDED[str(entry["id"])]
    embedded = tmp_path / "evals.json"
    embedded.write_text(json.dumps(evals, ensure_ascii=False, indent=2), encoding="utf-8")
    for name in ("by-rules", "by-evals"):
        shutil.copytree(shared_examples / "expense-skill-workspace", tmp_path / name)
    assert main(["grade", str(tmp_path / "by-rules"), "--rules", str(REPO / "rules/expense-draft.rules"),
                 "--evals", str(shared_examples / "expense-skill/evals/evals.json")]) == 1
    assert main(["grade", str(tmp_path / "by-evals"), "--evals", str(embedded)]) == 1
    by_rules, by_evals = _outcomes(tmp_path / "by-rules"), _outcomes(tmp_path / "by-evals")
    assert len(by_evals) == 6 and by_evals == by_rules
    semantic = [o for items in by_evals.values() for (_, o, p) in items if p == "semantic"]
    assert semantic == ["not_graded"] * 6


def test_grade_needs_rules_or_evals(tmp_path, capsys):
    (tmp_path / "run" / "outputs").mkdir(parents=True)
    assert main(["grade", str(tmp_path)]) == 2
    assert "nothing to grade with" in capsys.readouterr().err
