"""claude-code-action's execution file (``$RUNNER_TEMP/claude-execution-output.json``,
the action's ``execution_file`` output) holds the messages ``claude -p
--output-format stream-json`` prints, as one JSON array (pretty-printed, or on one
line). It is a Claude Code log: read as the stream is, each record cited at the line
its element starts on, never taken for an OpenAI message list (which read no call of
it, nor its reply). An array cut short may have lost a call or the last words."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.source_format import detect
from referee.engine.run.importers.record import Call

STREAM = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-json-diagnostic"
          / "claude-stream-json-simple.jsonl")
RULES = ('eval 1\nexpect 1: no calls to "Bash" have .args.command contains "rm "\nexpect 2: exactly 21 calls\n'
         'expect 3: response contains "Would you like me to help create unit tests"\n')


def _records() -> list[dict]:
    return [json.loads(line) for line in STREAM.read_text(encoding="utf-8").splitlines()]


def _calls(conversation) -> list[tuple[str, str, int]]:
    """(tool, agent, line) of every call, the subagents' under their Task calls."""
    found = []
    for entry in conversation.entries:
        if isinstance(entry, Call):
            found.append((entry.tool, "main", entry.origin.line))
            if entry.subagent is not None:
                found += [(c.tool, entry.call_id, c.origin.line) for c in entry.subagent.entries if isinstance(c, Call)]
    return found


def test_a_pretty_printed_execution_file_is_read_as_the_stream_is(tmp_path):
    source = tmp_path / "claude-execution-output.json"
    records = _records()
    source.write_text(json.dumps(records, indent=2, ensure_ascii=False), encoding="utf-8")
    assert detect(source) == "claude-code"
    read = conversations("auto", [source])[0]
    stream = conversations("claude-code", [STREAM])[0]
    assert [(tool, agent) for tool, agent, _ in _calls(read)] == [(tool, agent) for tool, agent, _ in _calls(stream)]
    assert [reply.text for reply in read.response] == [reply.text for reply in stream.response]
    assert [p.code for p in read.problems] == ["usage-snapshot"]
    # each call is cited at the line its record starts on
    text = source.read_text(encoding="utf-8").splitlines()
    first_glob = next(line for tool, _, line in _calls(read) if tool == "Glob")
    assert text[first_glob - 1] == "  {" and '"toolu_01VdNvyRGtzZvniXJGQQjvEP"' in "".join(text[first_glob:first_glob + 20])


def test_an_execution_file_on_one_line_likewise(tmp_path):
    source = tmp_path / "claude-execution-output.json"
    source.write_text(json.dumps(_records(), ensure_ascii=False), encoding="utf-8")
    assert detect(source) == "claude-code"
    outcomes = [e["outcome"] for e in referee.grade(RULES, source, as_eval="1")[0].grading["expectations"]]
    assert outcomes == ["pass", "pass", "pass"]


def test_an_execution_file_cut_short_leaves_the_calls_and_the_response_unknown(tmp_path):
    source = tmp_path / "claude-execution-output.json"
    records = _records()[:-3]  # up to the TodoWrite answer; the last words and the result record are lost
    whole = json.dumps(records, indent=2, ensure_ascii=False)
    source.write_text(whole[:whole.rindex('"tool_use_id"')], encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["error", "error", "error"]
