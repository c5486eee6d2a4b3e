"""An expectation of evals.json whose sentence holds a lone surrogate (the JSON escape
"\\ud800", which is no text) is shown to the grader written as that escape, as
grading.json writes it: the request is UTF-8, the assertion is judged, and its
verdict is carried over by a grade without --llm like any other."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import ScriptedServer, reading_judge, user_text
from sharded import fresh

from referee.engine.cli import main

RUN = Path("iteration-1") / "eval-1-book-flight" / "with_skill" / "run-1"
SENTENCE = "The response names the flight LX2084 \ud800"


def item(workspace: Path) -> dict:
    report = json.loads((workspace / RUN / "grading.json").read_text(encoding="utf-8"))
    return next(found for found in report["expectations"] if found["text"] == SENTENCE)


def test_a_sentence_with_a_lone_surrogate_is_judged_and_carried(tmp_path, monkeypatch, capsys):
    # input: evals.json whose one expectation ends in "\ud800"; --llm record:, then a grade without --llm
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    workspace, cassette = fresh(tmp_path), tmp_path / "judge.jsonl"
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"skill_name": "booking", "evals": [
        {"id": 1, "prompt": "Book LX2084.", "expectations": [SENTENCE]}]}), encoding="utf-8")
    with ScriptedServer(default=reading_judge) as server:
        main(["grade", str(workspace), "--evals", str(evals), "--llm", f"record:{cassette}",
              "--llm-backend", "openai:m", "--llm-base-url", server.url])
    # was: "internal error in the LLM grader (UnicodeEncodeError ...)", nothing asked
    assert any("A1: The response names the flight LX2084 \\ud800" in user_text(r["body"]) for r in server.requests)
    judged = item(workspace)
    assert (judged["method"], judged["outcome"]) == ("grader", "pass"), judged["evidence"]
    # was: "referee: internal error: UnicodeEncodeError" for the whole grade
    assert main(["grade", str(workspace), "--evals", str(evals)]) in (0, 1)
    assert (item(workspace)["method"], item(workspace)["outcome"]) == ("grader (carried over)", "pass")
