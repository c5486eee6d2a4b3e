"""An LLM grader's earlier verdict is carried over (grade without --llm) only onto a
run the grader could be shown now. Graded with --llm, a run whose response cannot be
read exactly (not UTF-8) is an ERROR: the grader is not asked. Graded again without
--llm, the earlier verdict must not stand on that response either, even where the
text referee keeps for display (bytes replaced by U+FFFD) reads as it did."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import ScriptedServer, reading_judge

from referee.engine.cli import main

RULES = 'eval 1\nexpect "The reply names the flight LX2084": semantic "names LX2084"\n'
TRANSCRIPT = ("## Eval Prompt\n\nBook it\n\n## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\n"
              "Return: {}\nStatus: success\n")


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "iteration-1" / "eval-1-book" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    return run


def _item(run: Path) -> dict:
    (item,) = json.loads((run / "grading.json").read_text(encoding="utf-8"))["expectations"]
    return item


def test_no_verdict_is_carried_onto_a_response_that_is_no_longer_utf8(tmp_path, monkeypatch, capsys):
    # Input: the response, named with --response outside outputs/, judged PASS while it
    # was UTF-8 (U+FFFD written out as its three bytes); then the same place holds the
    # byte 0xff, which referee keeps for display as the same U+FFFD. referee carried the
    # PASS over onto a response it could not read; now the verdict is not kept.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run = _run(tmp_path)
    answer = run / "answer.md"
    answer.write_bytes("The flight LX2084 is booked \ufffd.\n".encode("utf-8"))
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    grade = ["grade", str(tmp_path / "ws"), "--rules", str(rules), "--response", "answer.md"]
    with ScriptedServer(default=reading_judge) as server:
        main(grade + ["--llm", f"record:{tmp_path / 'judge.jsonl'}", "--llm-backend", "openai:m",
                      "--llm-base-url", server.url])
    assert (_item(run)["method"], _item(run)["outcome"]) == ("grader", "pass")

    answer.write_bytes(b"The flight LX2084 is booked \xff.\n")
    main(grade)
    item = _item(run)
    assert (item["method"], item["outcome"]) == ("not_graded", "not_graded")
    assert "an earlier LLM grader verdict was not kept" in item["evidence"]


def test_the_verdict_is_still_carried_while_the_response_reads_as_it_did(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run = _run(tmp_path)
    (run / "answer.md").write_text("The flight LX2084 is booked.\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    grade = ["grade", str(tmp_path / "ws"), "--rules", str(rules), "--response", "answer.md"]
    with ScriptedServer(default=reading_judge) as server:
        main(grade + ["--llm", f"record:{tmp_path / 'judge.jsonl'}", "--llm-backend", "openai:m",
                      "--llm-base-url", server.url])
    main(grade)
    assert (_item(run)["method"], _item(run)["outcome"]) == ("grader (carried over)", "pass")
