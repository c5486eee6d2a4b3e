"""Claude Code's reports of an API request it retries (a session log's ``system`` record of
subtype ``api_error``, a stream's ``api_retry``) are the harness telling of a problem it met:
harness text, so ``no harness where .text contains "overloaded"`` fails on a run whose only
trace of an overload is such a record. A stream whose last line is a retry was cut while a
turn was under way (the real capture of tests/fixtures/real/claude-code/stream-api-retry)."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers.record import Text

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
STREAM = REAL / "stream-parallel-calls" / "claude_stream_real_capture.jsonl"
RETRIES = REAL / "stream-api-retry" / "claude_stream_overloaded_retries.jsonl"

PROMPT = '{"type":"user","sessionId":"S1","uuid":"u0","message":{"role":"user","content":"Say hi"}}'
# a session log's retry record, in the shape Claude Code 2.x writes (a 529 answered by the API)
API_ERROR = ('{"parentUuid":"u0","isSidechain":false,"type":"system","subtype":"api_error","level":"error",'
             '"error":{"status":529,"requestID":"req_1","error":{"type":"error","error":{"type":"overloaded_error",'
             '"message":"Overloaded"}}},"retryInMs":558.94,"retryAttempt":1,"maxRetries":10,'
             '"timestamp":"2026-03-27T14:00:05.000Z","sessionId":"S1","uuid":"e1"}')
REPLY = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","model":"claude-opus-4-5",'
         '"role":"assistant","stop_reason":"end_turn","content":[{"type":"text","text":"hi"}]}}')
RULES = ('eval 1\nexpect 1: no harness where .text contains "overloaded"\nexpect 2: response contains "hi"\n'
         'expect 3: no calls to "Write"\n')


def _outcomes(rules: str, source: Path) -> list[str]:
    grading = referee.grade(rules, source, as_eval="1")[0].grading
    return [e["outcome"] for e in grading["expectations"]]


def _session(tmp_path: Path, *lines: str) -> Path:
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return session


def test_a_session_logs_api_error_record_is_harness_text(tmp_path):
    # before: the record was skipped as a system record with no content, and check 1 passed
    assert _outcomes(RULES, _session(tmp_path, PROMPT, API_ERROR, REPLY)) == ["fail", "pass", "pass"]


def test_the_retry_is_told_by_what_failed_as_one_line_of_json(tmp_path):
    (conversation,) = conversations("claude-code", [_session(tmp_path, PROMPT, API_ERROR, REPLY)])
    told = [(t.kind, t.text, t.origin.line) for t in conversation.entries if isinstance(t, Text) and t.kind == "system"]
    assert told == [("system", '{"error": {"status": 529, "requestID": "req_1", "error": {"type": "error", "error": '
                               '{"type": "overloaded_error", "message": "Overloaded"}}}}', 2)]
    assert conversation.problems == ()


def test_a_retry_record_that_tells_nothing_gives_no_text(tmp_path):
    bare = '{"type":"system","subtype":"api_error","level":"error","retryAttempt":1,"maxRetries":10}'
    (conversation,) = conversations("claude-code", [_session(tmp_path, PROMPT, bare, REPLY)])
    assert [t.kind for t in conversation.entries if isinstance(t, Text)] == ["eval prompt", "agent"]
    assert conversation.problems == ()


def test_a_streams_api_retry_records_are_harness_text():
    rules = RULES.replace('response contains "hi"', 'response contains "Done."')
    assert _outcomes(rules, RETRIES) == ["fail", "pass", "pass"]
    assert _outcomes(rules, STREAM) == ["pass", "pass", "pass"]


def test_a_stream_that_ends_on_a_retry_was_cut_while_a_turn_was_under_way(tmp_path):
    retry = RETRIES.read_text(encoding="utf-8").splitlines()[1]
    cut = tmp_path / "cut.jsonl"
    cut.write_text(STREAM.read_text(encoding="utf-8") + retry + "\n", encoding="utf-8")
    rules = RULES.replace('response contains "hi"', 'response contains "Done."')
    # before: read as finished, with its reply, its calls all read and no harness text lost;
    # the retry read is harness text all the same, whatever the cut lost
    assert _outcomes(rules, cut) == ["fail", "error", "error"]


def test_a_system_records_subtype_of_another_json_type_is_read_as_any_other_system_record(tmp_path):
    # Before: a list or an object as the subtype ended the import in an internal error
    # (unhashable type: 'list'); such a record is no retry, and reads as one of a subtype
    # referee does not know.
    def texts(subtype: str) -> list[tuple[str, str]]:
        record = '{"type":"system","subtype":%s,"content":"overloaded","level":"error"}' % subtype
        (conversation,) = conversations("claude-code", [_session(tmp_path, PROMPT, record, REPLY)])
        return [(t.kind, t.text) for t in conversation.entries if isinstance(t, Text)]

    unknown = texts('"informational"')
    assert ("system", "overloaded") in unknown
    assert texts('["api_error"]') == texts('{"api_error": 1}') == unknown
