"""grading.json's ``rules_location`` names where a sentence graded alone was written.

An expectation that is a sentence of evals.json (or of an eval's
eval_metadata.json) with no rule written for it had an empty ``rules_location``,
so a reader of the report could not find where the sentence was written. It now
names the file and the sentence's line and column, as the ``duplicate-text``
error locates it; a sentence checked by a rule still names the rule's line."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

METADATA = """{
  "eval_id": 1,
  "eval_name": "greet",
  "prompt": "Say hi",
  "assertions": [
    "The reply says hi",
    "The reply is polite"
  ]
}
"""
EVALS = """{"skill_name": "x", "evals": [
  {"id": 1, "prompt": "Say hi", "expected_output": "hi",
   "expectations": ["The reply says hi",
                    "The reply is polite"]}]}
"""


def _workspace(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("hi there\n", encoding="utf-8")
    (tmp_path / "ws" / "eval-1" / "eval_metadata.json").write_text(METADATA, encoding="utf-8")
    (tmp_path / "r.rules").write_text('eval 1\nexpect 1: response contains "hi"\n', encoding="utf-8")
    return tmp_path / "ws"


def _locations(ws: Path) -> list[str]:
    report = json.loads((ws / "eval-1" / "with_skill" / "run-1" / "grading.json").read_text(encoding="utf-8"))
    return [item["rules_location"] for item in report["expectations"]]


def test_a_sentence_of_eval_metadata_is_located_there(tmp_path, capsys):
    ws = _workspace(tmp_path)
    main(["grade", str(ws), "--rules", str(tmp_path / "r.rules")])
    ruled, alone = _locations(ws)
    assert ruled.startswith("r.rules@") and ruled.endswith(":2:1")
    assert alone == "eval-1/eval_metadata.json:7:5"


def test_a_sentence_of_evals_json_is_located_there(tmp_path, capsys):
    ws = _workspace(tmp_path)
    (tmp_path / "evals.json").write_text(EVALS, encoding="utf-8")
    main(["grade", str(ws), "--rules", str(tmp_path / "r.rules"), "--evals", str(tmp_path / "evals.json")])
    ruled, alone = _locations(ws)
    assert ruled.startswith("r.rules@") and ruled.endswith(":2:1")
    assert alone.startswith("evals.json@") and alone.endswith(":4:21")
