"""A Claude Code session log that ends with the agent at work (its last step a call,
answered or not, and nothing after it that ends a turn) was cut short or stopped (a
timeout, a turn limit): a call's answer always goes back to the agent, so the calls
made after the log's last line and the agent's reply are not in it. Every check over
the calls the calls read do not decide is an ERROR (``calls-may-be-missing``), and so
is every check on the response, never a pass on the calls read or on an empty reply. A session that the
user interrupted, or whose last call Claude Code followed with a notice written in the
model's place (an API error), ended there: it is read as it is. A stream-json run says
how it ended in its result record: it is not read so. A subagent's transcript left at
work leaves the main agent finished, and the subagent's calls unknown
(``test_claude_code_subagent_at_work``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_chat import checks_graded
from referee.engine.run.importers import conversations

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "coverage-test-fix" / "transcript.jsonl"
# Negative checks the whole real run fails: five Bash calls, three Edits, the last Bash
# call an error, and a reply about .gitignore.
NEGATIVE = ['count(calls to "Bash") <= 1', 'no calls to "Edit"', "no calls with status error",
            'not response contains "gitignore"']


def _at_work(record: dict) -> bool:
    """Whether the real log, cut after ``record``, ends with the agent at work: the
    record is a call of the agent, or a call's answer."""
    content = record.get("message", {}).get("content")
    kinds = {part.get("type") for part in content if isinstance(part, dict)} if isinstance(content, list) else set()
    return "tool_use" in kinds or "tool_result" in kinds


CUTS = [n for n, line in enumerate(REAL.read_text(encoding="utf-8").splitlines(), start=1)
        if _at_work(json.loads(line))]


def test_the_real_session_cut_where_the_agent_is_at_work_never_passes_a_check_the_run_fails(tmp_path: Path):
    # Cut after line 19 (the answer to its first Bash call), the session passed
    # count(calls to "Bash") <= 1: the run made four more Bash calls after the cut.
    lines = REAL.read_bytes().splitlines(keepends=True)
    assert len(CUTS) == 26 and 19 in CUTS
    for n in CUTS:
        source = tmp_path / str(n) / "transcript.jsonl"
        source.parent.mkdir()
        source.write_bytes(b"".join(lines[:n]))
        outcomes, problems = checks_graded(source, NEGATIVE)
        # a FAIL where the calls read show it (an Edit read is an Edit made), never a pass
        assert set(outcomes[:-1]) <= {"error", "fail"} and outcomes[-1] == "error", (n, outcomes)
        assert outcomes[1] == ("fail" if b'"name":"Edit"' in b"".join(lines[:n]) else "error"), (n, outcomes)
        assert any(p.startswith(f"transcript.jsonl:{n}: ") and "calls-may-be-missing" in p for p in problems), n


def test_the_whole_real_session_grades_as_its_rules_say(tmp_path: Path):
    outcomes, problems = checks_graded(REAL, NEGATIVE + ['count(calls to "Bash") == 5', 'response contains "gitignore"'])
    assert outcomes == ["fail", "fail", "fail", "fail", "pass", "pass"]
    assert not any("calls-may-be-missing" in p or "no-reply" in p for p in problems)


# --- sessions built by hand --------------------------------------------------------------------

CHECKS = ['no calls to "Edit"', 'count(calls to "Bash") == 1', 'not response contains "check"', "response is empty"]


def _record(kind: str, uuid: str, content, **more) -> dict:
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message.update(id=f"m-{uuid}", model="claude-opus-4-5-20251101", stop_reason=more.pop("stop", "tool_use"))
    return {"type": kind, "sessionId": "S1", "uuid": uuid, "cwd": "/w", "message": message, **more}


PROMPT = _record("user", "u0", "Check the build")
CALL = _record("assistant", "a1", [{"type": "text", "text": "Let me check."},
                                   {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}])
ANSWER = _record("user", "r1", [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}])


def _session(tmp_path: Path, *records: dict) -> Path:
    source = tmp_path / "s.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return source


@pytest.mark.parametrize("records", [[PROMPT, CALL], [PROMPT, CALL, ANSWER]], ids=["call-pending", "call-answered"])
def test_a_session_that_ends_at_a_call_leaves_its_calls_and_its_response_unknown(tmp_path: Path, records):
    outcomes, problems = checks_graded(_session(tmp_path, *records), CHECKS)
    assert outcomes == ["error"] * 4
    line = len(records)
    assert any(p.startswith(f"s.jsonl:{line}: ") and "calls-may-be-missing" in p and "agent at work" in p
               for p in problems)
    assert not any("no-reply" in p for p in problems)  # the response is unknown, not said empty


# Words of the message that made the call, after it: on the call's own line, or on a line
# of their own, as Claude Code writes each block of a message split over lines.
WORDS_AFTER = _record("assistant", "a1", [CALL["message"]["content"][1],
                                          {"type": "text", "text": "Then I check the tests."}])
WORDS_LINE = {**_record("assistant", "a2", [{"type": "text", "text": "Then I check the tests."}]),
              "message": {**CALL["message"], "content": [{"type": "text", "text": "Then I check the tests."}]}}


@pytest.mark.parametrize("records", [[PROMPT, WORDS_AFTER, ANSWER], [PROMPT, CALL, WORDS_LINE, ANSWER]],
                         ids=["same-line", "own-line"])
def test_words_said_with_a_call_after_it_leave_the_agent_at_work(tmp_path: Path, records):
    """The call's answer goes back to the agent whatever its message said after the
    call: those words are narration, and end no turn. Before, they ended it: the log cut
    at the answer read as finished with no reply, and every check passed."""
    outcomes, problems = checks_graded(_session(tmp_path, *records), CHECKS)
    assert outcomes == ["error"] * 4
    assert any(p.startswith(f"s.jsonl:{len(records)}: ") and "calls-may-be-missing" in p for p in problems)
    assert not any("no-reply" in p for p in problems)


# What Claude Code writes of a message before its content: its thinking, or the streaming
# placeholder "(no content)", each on a line of its own, the words or the call after it.
THINKING = _record("assistant", "k1", [{"type": "thinking", "thinking": "The build first.", "signature": "x"}],
                   stop=None)
PLACEHOLDER = _record("assistant", "k1", [{"type": "text", "text": "(no content)"}], stop=None)
DONE = _record("assistant", "d1", [{"type": "text", "text": "It builds."}], stop="end_turn")
AGAIN = _record("user", "u2", "Now run the tests")


@pytest.mark.parametrize("records", [[PROMPT, THINKING], [PROMPT, PLACEHOLDER], [PROMPT, DONE, AGAIN, THINKING],
                                     [PROMPT, DONE, AGAIN, PLACEHOLDER, THINKING]],
                         ids=["thinking", "placeholder", "second-request-thinking", "second-request-placeholder"])
def test_a_request_taken_with_no_words_nor_call_yet_leaves_the_agent_at_work(tmp_path: Path, records):
    """The agent took its turn and had not said or called anything yet: its next step,
    words or a call, lies past the log's end. Before, the calls read passed every check
    over them, and on the first request an empty reply passed 'not response contains'."""
    outcomes, problems = checks_graded(_session(tmp_path, *records), CHECKS)
    assert outcomes == ["error"] * 4
    assert any(p.startswith(f"s.jsonl:{len(records)}: ") and "calls-may-be-missing" in p for p in problems)


# A real Claude Code 2.1.14 session: each request answered by a thinking line, then the
# words or the Read call of the same message on the next line.
THINKS_FIRST = REAL.parents[1] / "stop-hook-progress-records" / "d266fdf5-b6a3-46aa-8627-920959a0109a.jsonl"


def test_the_real_session_cut_at_a_thinking_line_never_passes_a_check_the_run_fails(tmp_path: Path):
    lines = THINKS_FIRST.read_bytes().splitlines(keepends=True)
    cuts = [n for n, line in enumerate(lines, start=1) if b'"type":"thinking"' in line.replace(b" ", b"")
            and b'"tool_result"' not in lines[n - 2]]  # after a request, not after a call's answer
    assert cuts == [3, 9]
    for n in cuts:
        source = tmp_path / str(n) / THINKS_FIRST.name
        source.parent.mkdir()
        source.write_bytes(b"".join(lines[:n]))
        outcomes, problems = checks_graded(source, ['no calls to "Read"', 'not response contains "stop"'])
        assert outcomes == ["error", "error"], (n, outcomes)
        assert any(p.startswith(f"{THINKS_FIRST.name}:{n}: ") and "calls-may-be-missing" in p for p in problems)


INTERRUPT = _record("user", "i1", [{"type": "text", "text": "[Request interrupted by user]"}])


@pytest.mark.parametrize("after", [DONE, INTERRUPT], ids=["words", "interrupt"])
def test_thinking_then_what_ends_the_turn_is_read_as_it_is(tmp_path: Path, after: dict):
    _, problems = checks_graded(_session(tmp_path, PROMPT, THINKING, after), CHECKS)
    assert not any("calls-may-be-missing" in p for p in problems)


def test_a_finished_session_is_read_as_it_is(tmp_path: Path):
    done = _record("assistant", "a2", [{"type": "text", "text": "The build passes."}], stop="end_turn")
    outcomes, problems = checks_graded(_session(tmp_path, PROMPT, CALL, ANSWER, done), CHECKS)
    assert outcomes == ["pass", "pass", "pass", "fail"]
    assert not any("calls-may-be-missing" in p for p in problems)


def test_an_interrupted_session_ended_there(tmp_path: Path):
    """The user stopped the agent at its call: it ended, with no reply (the words said
    with the call are narration), and the calls read are all it made."""
    refused = _record("user", "r1", [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content":
                                      "The user doesn't want to proceed with this tool use. The tool use was rejected."}])
    stop = _record("user", "i1", [{"type": "text", "text": "[Request interrupted by user for tool use]"}])
    outcomes, problems = checks_graded(_session(tmp_path, PROMPT, CALL, refused, stop), CHECKS)
    assert outcomes == ["pass", "pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)
    assert any(p.startswith("s.jsonl:2: ") and "no-reply" in p and "interrupted" in p for p in problems)


def test_a_session_whose_last_call_is_followed_by_an_api_error_ended_there(tmp_path: Path):
    """Claude Code wrote the API error in the model's place (model ``<synthetic>``) and
    the turn ended: harness text, no reply, and the calls read are all there are."""
    error = _record("assistant", "e1", [{"type": "text", "text": "API Error: 529 Overloaded"}], stop="stop_sequence",
                    isApiErrorMessage=True)
    error["message"]["model"] = "<synthetic>"
    outcomes, problems = checks_graded(_session(tmp_path, PROMPT, CALL, ANSWER, error), CHECKS)
    assert outcomes == ["pass", "pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)


@pytest.mark.parametrize("after", [
    {"type": "system", "sessionId": "S1", "uuid": "h1", "content": "PostToolUse:Bash hook succeeded: logged"},
    _record("user", "h1", "<system-reminder>The build folder changed.</system-reminder>", isMeta=True),
    _record("assistant", "a2", [{"type": "thinking", "thinking": "It passed; next the tests.", "signature": "x"}],
            stop=None),
    # Claude Code's own notices, written while the agent works (before, each ended the
    # tail of calls, and the session read as finished): a compaction's boundary and its
    # summary, a background task's end told in a user record or in an attachment, what a
    # command the user ran printed
    {"type": "system", "subtype": "compact_boundary", "sessionId": "S1", "uuid": "c1",
     "content": "Conversation compacted", "isMeta": False, "level": "info",
     "compactMetadata": {"trigger": "auto", "preTokens": 155000}},
    _record("user", "c2", "This session is being continued from a previous conversation that ran out of context.",
            isCompactSummary=True, isVisibleInTranscriptOnly=True),
    _record("user", "n1", "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n"
            "</task-notification>"),
    {"type": "attachment", "sessionId": "S1", "uuid": "n1", "attachment": {
        "type": "queued_command", "commandMode": "task-notification",
        "prompt": "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"}},
    _record("user", "o1", "<local-command-stdout>Total cost: $0.12</local-command-stdout>"),
], ids=["hook", "system-reminder", "thinking", "compact-boundary", "compaction-summary", "task-notification",
        "queued-task-notification", "command-output"])
def test_what_follows_a_call_while_the_agent_works_leaves_it_at_work(tmp_path: Path, after: dict):
    outcomes, problems = checks_graded(_session(tmp_path, PROMPT, CALL, ANSWER, after), CHECKS)
    assert outcomes == ["error"] * 4
    assert any(p.startswith("s.jsonl:4: ") and "calls-may-be-missing" in p for p in problems)


def test_parallel_calls_answered_out_of_order_name_the_last_line(tmp_path: Path):
    both = _record("assistant", "a1", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}},
                                       {"type": "tool_use", "id": "t2", "name": "Read", "input": {}}])
    second = _record("user", "r2", [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}])
    _, problems = checks_graded(_session(tmp_path, PROMPT, both, second, ANSWER), CHECKS)
    assert [p.split(": ")[0] for p in problems if "agent at work" in p] == ["s.jsonl:4"]


def test_a_stream_json_run_says_in_its_result_how_it_ended(tmp_path: Path):
    stream = [{"type": "system", "subtype": "init", "session_id": "s-1", "cwd": "/w", "tools": ["Bash"]},
              {**{k: v for k, v in CALL.items() if k not in ("sessionId", "uuid", "cwd")}, "session_id": "s-1",
               "parent_tool_use_id": None},
              {**{k: v for k, v in ANSWER.items() if k not in ("sessionId", "uuid", "cwd")}, "session_id": "s-1",
               "parent_tool_use_id": None},
              {"type": "result", "subtype": "success", "is_error": False, "result": "", "session_id": "s-1",
               "num_turns": 2}]
    outcomes, problems = checks_graded(_session(tmp_path, *stream), CHECKS)
    assert outcomes == ["pass", "pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in p for p in problems)


def test_a_subagent_whose_transcript_ends_at_a_call_leaves_the_main_agent_finished(tmp_path: Path):
    """The main agent replied after its Task call: its turn ended, and its reply is read.
    The subagent's transcript ends at its call's answer, though the subagent went on (its
    last words, "make passed", are its Task's answer, and the answer counts no calls):
    what it did after is unknown, so the checks over the calls are errors. Before, they
    passed on the one call read."""
    task = _record("assistant", "a1", [{"type": "tool_use", "id": "t1", "name": "Task",
                                        "input": {"description": "check", "prompt": "Run make."}}])
    told = _record("user", "r1", [{"type": "tool_result", "tool_use_id": "t1", "content": "make passed"}],
                   toolUseResult={"agentId": "ab12"})
    done = _record("assistant", "a2", [{"type": "text", "text": "The build passes."}], stop="end_turn")
    side = {"isSidechain": True, "agentId": "ab12"}
    (tmp_path / "agent-ab12.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        _record("user", "s0", "Run make.", **side), {**CALL, "uuid": "s1", **side}, {**ANSWER, "uuid": "s2", **side}]),
        encoding="utf-8")
    source = _session(tmp_path, PROMPT, task, told, done)
    (conversation,) = conversations("claude-code", [source])
    missing = [p for p in conversation.problems if p.code == "calls-may-be-missing"]
    assert [(p.path, p.line) for p in missing] == [("agent-ab12.jsonl", 3)]
    assert "subagent at work" in missing[0].message
    outcomes, _ = checks_graded(source, CHECKS)
    assert outcomes == ["error", "error", "pass", "fail"]


def test_words_after_a_call_that_are_not_read_end_the_session_all_the_same(tmp_path: Path):
    """The agent spoke after its call, in a shape not read (content one object): that
    was its reply, unknown, and the session ended; the calls read are all it made."""
    said = _record("assistant", "a2", {"type": "text", "text": "The build passes."}, stop="end_turn")
    outcomes, problems = checks_graded(_session(tmp_path, PROMPT, CALL, ANSWER, said), CHECKS)
    assert outcomes == ["pass", "pass", "error", "error"]
    assert any("unread-text" in p for p in problems) and not any("calls-may-be-missing" in p for p in problems)


# --- harness text after a call that does not end the agent's turn ------------------------------

HOOKS = REAL.parents[1] / "fasthooks-samples" / "sample_main_transcript.jsonl"


def _compacted_mid_turn(tmp_path: Path) -> Path:
    """The real session cut at line 41 (the answers to its Read and two Bash calls; the
    agent's next step, on line 42, is its words and a fifth Bash call), then compacted
    there as Claude Code does on its own when the context runs out mid-turn: the real
    ``compact_boundary`` and summary records of the same session (lines 49 and 50, its
    ``/compact``), the boundary's trigger ``auto`` and its logical parent the cut's last
    record. The agent carries on after such a compaction: the log was cut there."""
    lines = HOOKS.read_text(encoding="utf-8").splitlines(keepends=True)
    boundary = json.loads(lines[48])
    boundary["compactMetadata"]["trigger"] = "auto"
    boundary["logicalParentUuid"] = json.loads(lines[40])["uuid"]
    source = tmp_path / "compacted.jsonl"
    source.write_text("".join(lines[:41]) + json.dumps(boundary) + "\n" + lines[49], encoding="utf-8")
    return source


def test_a_session_compacted_mid_turn_and_cut_there_leaves_its_calls_and_response_unknown(tmp_path: Path):
    # Before, the compaction ended the tail of calls: the log read as finished, and
    # count(calls to "Bash") <= 4 passed (the whole run makes five), and so did the
    # checks on the response (read as empty: no reply).
    source = _compacted_mid_turn(tmp_path)
    checks = ['count(calls to "Bash") <= 4', "count(calls) <= 9", 'not response contains "Great"',
              "response is empty"]
    outcomes, problems = checks_graded(source, checks)
    assert outcomes == ["error"] * len(checks)
    assert any(p.startswith("compacted.jsonl:43: ") and "calls-may-be-missing" in p and "agent at work" in p
               for p in problems)
    assert not any("no-reply" in p for p in problems)
