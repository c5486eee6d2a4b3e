"""A call whose value the import could not show whole (Claude Code's
``<persisted-output>`` preview of a return kept in a file beside the session, a value
cut) is shown to the grader with that said, and a grader's PASS that rests only on
such text is an ERROR: the rules make that value unknown, and a preview's "all tests
passed" is not what the tool returned. Quotes of the same call's other fields, read
whole, still carry a PASS."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.judging import SemanticItem
from referee.engine.run.workspace import discover
from referee.engine.verdict import Outcome
from referee.llm_adapter import prompt
from referee.llm_adapter.evidence import collect
from referee.llm_adapter.reply import AssertionReply
from referee.llm_adapter.verify import judge_item

PERSISTED = ("<persisted-output>\nOutput too large (257.8KB). Full output saved to: "
             "/home/u/.claude/projects/-w/0141fab3/tool-results/bqqw0ykde.txt\n\n"
             "Preview (first 2KB):\ncollected 2104 items\ntests/test_a.py ........ all tests passed cleanly\n"
             "</persisted-output>")


def _run(tmp_path: Path, content: str):
    records = [
        {"type": "user", "sessionId": "S1", "uuid": "u0", "message": {"role": "user", "content": "run the tests"}},
        {"type": "assistant", "sessionId": "S1", "uuid": "a0",
         "message": {"id": "m0", "role": "assistant", "stop_reason": "tool_use",
                     "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                  "input": {"command": "pytest --maxfail=1 tests"}}]}},
        {"type": "user", "sessionId": "S1", "uuid": "r0",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": content,
                                                  "is_error": False}]}},
        {"type": "assistant", "sessionId": "S1", "uuid": "a1",
         "message": {"id": "m1", "role": "assistant", "stop_reason": "end_turn",
                     "content": [{"type": "text", "text": "The tests ran."}]}},
    ]
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "ws"
    assert main(["import", "claude-code", str(session), "--out", str(out)]) == 0
    return next(iter(discover(out).runs))


def _verdict(run, quote: str):
    reply = AssertionReply.model_validate({"id": "A1", "reasoning": "the tests passed",
                                           "evidence": [{"source": "tool_calls", "quote": quote}],
                                           "verdict": "PASS"})
    return judge_item(reply, collect(run))


def test_a_pass_on_a_preview_of_a_return_is_an_error(tmp_path, capsys):
    verdict = _verdict(_run(tmp_path, PERSISTED), "all tests passed cleanly")
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "not known in full" in verdict.message and "step 1" in verdict.message


def test_a_quote_of_the_calls_arguments_still_counts(tmp_path, capsys):
    verdict = _verdict(_run(tmp_path, PERSISTED), "pytest --maxfail=1 tests")
    assert verdict.outcome is Outcome.PASS, verdict.message


def test_the_grader_is_told_which_value_it_is_not_shown_whole(tmp_path, capsys):
    run = _run(tmp_path, PERSISTED)
    text = prompt.render(collect(run), [SemanticItem("k", "The tests passed", "The tests passed")]).request.turns[0][1]
    assert "the return of step 1 is not known in full" in text


def test_a_return_held_whole_carries_a_pass(tmp_path, capsys):
    run = _run(tmp_path, "collected 2104 items\ntests/test_a.py ........ all tests passed cleanly")
    assert _verdict(run, "all tests passed cleanly").outcome is Outcome.PASS
    text = prompt.render(collect(run), [SemanticItem("k", "The tests passed", "The tests passed")]).request.turns[0][1]
    assert "not known in full" not in text


def test_a_quote_also_found_in_a_value_read_whole_counts(tmp_path, capsys):
    # the same words in the preview (call 1) and in the whole return of a later call
    records = [
        {"type": "user", "sessionId": "S1", "uuid": "u0", "message": {"role": "user", "content": "run the tests"}},
    ]
    for n, content in ((1, PERSISTED), (2, "collected 2104 items\ntests/test_a.py ........ all tests passed cleanly")):
        records += [
            {"type": "assistant", "sessionId": "S1", "uuid": f"a{n}",
             "message": {"id": f"m{n}", "role": "assistant", "stop_reason": "tool_use",
                         "content": [{"type": "tool_use", "id": f"t{n}", "name": "Bash",
                                      "input": {"command": f"pytest -k part{n}"}}]}},
            {"type": "user", "sessionId": "S1", "uuid": f"r{n}",
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}",
                                                      "content": content, "is_error": False}]}}]
    records.append({"type": "assistant", "sessionId": "S1", "uuid": "z",
                    "message": {"id": "mz", "role": "assistant", "stop_reason": "end_turn",
                                "content": [{"type": "text", "text": "The tests ran."}]}})
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["import", "claude-code", str(session), "--out", str(tmp_path / "ws")]) == 0
    run = next(iter(discover(tmp_path / "ws").runs))
    verdict = _verdict(run, "all tests passed cleanly")
    assert verdict.outcome is Outcome.PASS, verdict.message
    assert [e.step for e in verdict.evidence] == [2]
