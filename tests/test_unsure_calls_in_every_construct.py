"""A call an import could not read whole, or a record referee does not trust, is
unsure of some fields (``ToolCall.unsure``): every construct of the language that
would read such a field is an ERROR, never a PASS or a FAIL decided on the value
the record happens to show. Each test below takes one construct and a run that
holds such a call, as imports and harnesses really write them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee


def _openai(tmp_path: Path, messages: list) -> Path:
    source = tmp_path / "s.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    return source


def _call(call_id: str, tool: str, arguments: str) -> dict:
    return {"role": "assistant", "tool_calls": [{"id": call_id, "type": "function",
                                                 "function": {"name": tool, "arguments": arguments}}]}


def _outcomes(checks: list[str], where) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect: {check}\n" for check in checks)
    kwargs = {"as_eval": "1"} if isinstance(where, Path) else {}
    (result,) = referee.grade(rules, where, **kwargs)
    return [item["outcome"] for item in result.expectations]


# An OpenAI message list whose Bash result flags its error as the text "true": the
# import cannot tell an error from a success, so the call is unsure of its status.
# Some harnesses write their flags as strings; tests/test_openai_hidden_calls.py
# holds the same case for 'with status error'.
def _error_flag_as_text(tmp_path: Path) -> Path:
    return _openai(tmp_path, [
        {"role": "user", "content": "clean up"},
        _call("a", "Read", '{"path": "x"}'), {"role": "tool", "tool_call_id": "a", "content": "ok"},
        _call("b", "Bash", '{"cmd": "rm -rf build"}'),
        {"role": "tool", "tool_call_id": "b", "content": "permission denied", "is_error": "true"},
        {"role": "assistant", "content": "done"}])


@pytest.mark.parametrize("check", [
    'no calls where . includes {"status": "error"}',
    'no calls where . matches {"status": "error"}',
    'not (first(calls to "Bash") includes {"status": "error"})',
    'not (text(first(calls to "Bash")) contains "\\"status\\":\\"error\\"")',
    'no jsonpath(calls, "$[*].status") where . == "error"',
    '"error" not in jsonpath(calls, "$[*].status")',
])
def test_a_call_taken_whole_cannot_give_a_field_it_is_unsure_of(tmp_path: Path, check: str):
    """A call compared whole, written as text or queried with jsonpath shows the
    status the import guessed ("success"): each of these passed on it."""
    assert _outcomes([check, 'count(calls) == 2'], _error_flag_as_text(tmp_path)) == ["error", "pass"]


# The import writes outputs/metrics.json from the calls it read. A Claude Code
# session with a line it cannot read that may hold a call (here a Bash call whose
# message content is an object, not a list: tests/test_claude_code_hidden_calls.py)
# and the OpenAI list above, whose Bash error flag is the text "true", are counted
# without that call, or with its error as a success.
_SESSION = ['{"type":"user","sessionId":"S1","uuid":"u0","message":{"role":"user","content":"do it"}}',
            '{"type":"assistant","sessionId":"S1","uuid":"a0","message":{"id":"m0","role":"assistant","content":'
            '[{"type":"tool_use","id":"t_read","name":"Read","input":{}}]}}',
            '{"type":"user","sessionId":"S1","uuid":"r0","message":{"role":"user","content":'
            '[{"type":"tool_result","tool_use_id":"t_read","content":"ok"}]}}',
            '{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant","content":'
            '{"type":"tool_use","id":"t_b","name":"Bash","input":{"command":"rm -rf /"}}}}']


def test_the_counts_an_import_made_of_calls_it_could_not_read_are_errors(tmp_path: Path):
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(_SESSION) + "\n", encoding="utf-8")
    checks = ['"Bash" not in keys(metrics.tool_calls)', 'metrics.total_tool_calls == 1', 'no calls to "Bash"']
    assert _outcomes(checks, session) == ["error", "error", "error"]


def test_the_errors_an_import_counted_are_an_error_when_a_status_is_unsure(tmp_path: Path):
    checks = ['metrics.errors_encountered == 0', 'no calls with status error', 'count(calls) == 2']
    assert _outcomes(checks, _error_flag_as_text(tmp_path)) == ["error", "error", "pass"]


def test_the_counts_of_an_import_that_read_every_call_are_read(tmp_path: Path):
    source = _openai(tmp_path, [_call("a", "Read", '{"path": "x"}'), {"role": "tool", "tool_call_id": "a",
                                "content": "ok"}, _call("b", "Bash", '{"cmd": "ls'),
                                {"role": "tool", "tool_call_id": "b", "content": "ok"}])
    checks = ['metrics.errors_encountered == 0', 'metrics.tool_calls.Bash == 1', 'count(calls) == 2']
    assert _outcomes(checks, source) == ["pass", "pass", "pass"]  # arguments not JSON: counted all the same


# An OpenAI message list saved partly in Latin-1 (a tool named "SaveDocé" whose é is
# the single byte 0xE9): bytes that are not UTF-8 are read with replacement
# characters, so the calls of that document are unsure of their tool. An import
# titles each call by its tool ("## [tool_calls] Step 2: SaveDoc\ufffd"), so the
# title cannot be read for certain either.
def test_the_title_of_an_imported_call_unsure_of_its_tool_is_unsure_too(tmp_path: Path):
    messages = [{"role": "user", "content": "go"}, _call("a", "SaveDocXX", "{}"),
                {"role": "tool", "tool_call_id": "a", "content": "ok"}, {"role": "assistant", "content": "done"}]
    source = tmp_path / "s.json"
    source.write_bytes(json.dumps(messages).encode("utf-8").replace(b"SaveDocXX", b"SaveDoc\xe9"))
    checks = ['no calls where .title == "SaveDoc\u00e9"', 'no calls to "SaveDoc\u00e9"', 'count(calls) == 1']
    assert _outcomes(checks, source) == ["error", "error", "pass"]


def test_a_filter_unsure_of_a_call_another_filter_drops_decides_nothing(tmp_path: Path):
    """Filters come in any order: 'with status error to "Read"' keeps what
    'to "Read" with status error' keeps. The Bash call the status filter cannot
    decide on is not a Read call, so neither selection can hold it; only a check
    that may hold it is an ERROR."""
    checks = ['no calls with status error to "Read"', 'no calls to "Read" with status error',
              'count(calls where .status == "error" to "Read") == 0', 'no calls with status error to "Bash"',
              'no calls with status error']
    assert _outcomes(checks, _error_flag_as_text(tmp_path)) == ["pass", "pass", "pass", "error", "error"]


# A Claude Code Bash call run in the background is answered by a start notice: its
# status is unknown (tests/test_claude_code_background_calls.py), its tool is not.
# metrics.json counts it by tool in tool_calls and in total_tool_calls whatever its
# status; only errors_encountered, and the file read whole, count it by its status.
def _background_bash(tmp_path: Path) -> Path:
    from claude_session import one_call_session

    return one_call_session(tmp_path, "Bash", {"command": "pytest", "run_in_background": True},
                            "Command running in background with ID: bash_1")


@pytest.mark.parametrize("check, outcome", [
    ('metrics.total_tool_calls == 1', "pass"),
    ('metrics.tool_calls.Bash == 1', "pass"),
    ('not exists metrics.tool_calls.Read', "pass"),
    ('"Write" not in keys(metrics.tool_calls)', "pass"),
    ('metrics.output_chars > 0', "pass"),
    ('metrics.errors_encountered == 0', "error"),
    ('not (metrics.errors_encountered > 0)', "error"),
    ('metrics includes {"total_tool_calls": 1}', "error"),
    ('count(jsonpath(metrics, "$.errors_encountered")) == 1', "error"),
])
def test_a_count_errs_only_when_the_field_it_counts_by_is_unsure(tmp_path: Path, check: str, outcome: str):
    assert _outcomes([check], _background_bash(tmp_path)) == [outcome]


def test_a_count_by_tool_errs_for_every_tool_when_a_tool_is_unsure(tmp_path: Path):
    """A tool named "Save\u200bDoc" (a zero-width space inside) reads as SaveDoc and
    compares as another name: which tool was called is unknown, so any tool's count may
    hold it, as any 'calls to' may ('not exists metrics.tool_calls.SaveDoc' passed on
    it); the counts that go by no tool or by status stand."""
    source = _openai(tmp_path, [{"role": "user", "content": "go"}, _call("a", "Save\u200bDoc", "{}"),
                                {"role": "tool", "tool_call_id": "a", "content": "ok", "is_error": False},
                                {"role": "assistant", "content": "done"}])
    checks = ['not exists metrics.tool_calls.SaveDoc', 'not exists metrics.tool_calls.Read',
              'metrics.total_tool_calls == 1', 'metrics.errors_encountered == 0', 'no calls to "SaveDoc"']
    assert _outcomes(checks, source) == ["error", "error", "pass", "pass", "error"]


def test_counts_of_calls_that_may_be_missing_err_but_counts_of_text_stand(tmp_path: Path):
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(_SESSION) + "\n", encoding="utf-8")
    checks = ['not exists metrics.tool_calls.Write', 'metrics.errors_encountered == 0', 'metrics.total_steps == 1',
              'metrics.transcript_chars > 0']
    assert _outcomes(checks, session) == ["error", "error", "error", "pass"]


def _errors(checks: list[str], where) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect: {check}\n" for check in checks)
    kwargs = {"as_eval": "1"} if where.is_file() else {}
    results = referee.grade(rules, where, **kwargs)
    return [item["evidence"] for result in results for item in result.expectations]


GENERIC = "cut or not JSON in its source"


def test_an_unsure_field_names_the_warning_at_its_call(tmp_path: Path):
    """The run's warning at the call's answer says why (the answer is a start notice),
    by its code and line, in place of every reason a field can be unsure for."""
    errors = _errors(['no calls to "Bash" with status error', 'metrics.errors_encountered == 0',
                      'no calls to "Bash" have .return contains "FAILED"'], _background_bash(tmp_path))
    assert all("cannot give its" in e and "warning[backgrounded] at s.jsonl:3: this answer only says" in e
               and GENERIC not in e for e in errors), errors
    assert "metrics.errors_encountered counts the calls the import read, by status: step 1 Bash" in errors[1]


def test_an_unsure_field_names_the_warning_of_a_written_transcript(tmp_path: Path):
    """A record whose Status line a fence took: the warning stands at its heading."""
    run = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    (run / "transcript.md").write_text(
        "## [tool_calls] Step 1: Bash\nTool: Bash\nArgs: {}\nReturn:\n```\nbuild failed\nStatus: error\n\n"
        "## [agent_notes] Step 1: note\n\nAll good.\n```\n", encoding="utf-8")
    (error,) = _errors(["no calls with status error"], tmp_path)
    assert "warning[status-unknown] at eval-1/with_skill/run-1/outputs/transcript.md:1: the record gives no " \
           "Status line" in error and GENERIC not in error, error


def test_an_unsure_tool_names_its_warning_in_a_count_too(tmp_path: Path):
    source = _openai(tmp_path, [{"role": "user", "content": "go"}, _call("a", "Save\u200bDoc", "{}"),
                                {"role": "tool", "tool_call_id": "a", "content": "ok", "is_error": False}])
    errors = _errors(['not exists metrics.tool_calls.SaveDoc', 'no calls to "SaveDoc"'], source)
    assert all("warning[tool-unseen] at eval-1/imported/run-1/outputs/transcript.md:6: the tool name" in e and GENERIC not in e for e in errors), errors


def test_a_warning_on_a_line_that_holds_many_calls_is_not_taken_for_this_calls(tmp_path: Path):
    """A message list written on one line holds every call: a warning at that line
    may be another call's, so the reasons stay generic."""
    (error, _) = _errors(['no calls with status error', 'count(calls) == 2'], _error_flag_as_text(tmp_path))
    assert GENERIC in error and "warning[" not in error, error


def test_a_subagent_call_unsure_of_its_status_leaves_the_main_agents_counts_read(tmp_path: Path):
    """metrics.json counts the main agent's calls in tool_calls and errors_encountered,
    its subagents' by tool in subagent_tool_calls: a subagent's Grep whose answer flags
    is_error "yes" is unsure of its status, which none of them counts by."""
    fixtures = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "agents"
    for name in ("main.jsonl", "agent-b7e1.jsonl"):
        text = (fixtures / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace('"tool_use_id":"toolu_g1","type":"tool_result",',
                                                  '"tool_use_id":"toolu_g1","type":"tool_result","is_error":"yes",'),
                                     encoding="utf-8")
    checks = ['metrics.errors_encountered == 0', 'metrics.subagent_tool_calls.Grep == 1',
              'metrics.tool_calls.Task == 1', 'no calls with status error', 'metrics includes {"total_tool_calls": 1}']
    assert _outcomes(checks, tmp_path / "main.jsonl") == ["pass", "pass", "pass", "error", "error"]
