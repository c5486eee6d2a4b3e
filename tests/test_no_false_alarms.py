"""What reads as a call is a call's shape, never a word: ordinary runs whose records,
tools or metadata only mention calls (a tool named ``end_call``, ``"function_call":
"auto"``, a Python file's ``__call__``, context editing's ``clear_tool_uses``) grade
as they are, with no "calls may be missing". The shapes are those real harnesses
write (Claude Code 2.x records, chat-completions requests and responses, LangChain)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee

RULES = 'eval 1\nexpect 1: no calls to "Bash"\nexpect 2: count(calls) == 1\n'
READ = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "r", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]}
CHAT = [{"role": "user", "content": "hi"}, READ, {"role": "tool", "tool_call_id": "r", "content": "ok"},
        {"role": "assistant", "content": "done"}]
TOOL = {"type": "function", "function": {"name": "end_call", "parameters": {"type": "object", "properties": {
    "mode": {"type": "string", "enum": ["phone_call", "in_person"]}, "arguments": {"type": "array"}}}}}

OPENAI = {
    "request-with-tools": {"model": "m", "messages": CHAT, "tools": [TOOL], "tool_choice": "auto",
                           "parallel_tool_calls": True, "metadata": {"suite": "tool_use"}},
    "legacy-functions": {"messages": CHAT, "functions": [TOOL["function"]], "function_call": "auto"},
    "response-beside": {"messages": CHAT, "response": {"choices": [{"index": 0, "message": {
        "role": "assistant", "content": "done", "function_call": None, "tool_calls": None}}]}},
    "response-beside-as-text": {"messages": CHAT, "response": json.dumps({"choices": [{"message": {
        "role": "assistant", "content": "done", "tool_calls": None}}]}), "metadata": '{"suite": "tool_use"}'},
    "langchain-copy": [CHAT[0], dict(READ, additional_kwargs={"tool_calls": READ["tool_calls"]}), *CHAT[2:]],
}

SESSION = ['{"type":"user","sessionId":"S1","uuid":"u0","message":{"role":"user","content":"fix it"}}',
           '{"type":"assistant","sessionId":"S1","uuid":"a0","message":{"id":"m0","role":"assistant","content":'
           '[{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}]%s}}',
           '{"type":"user","sessionId":"S1","uuid":"r0","message":{"role":"user","content":'
           '[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}}',
           # the agent's last words: a session that ends at a call's answer leaves the calls unknown
           '{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant",'
           '"stop_reason":"end_turn","content":[{"type":"text","text":"Fixed."}]}}']
EDITING = ',"context_management":{"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":3}]}'
CLAUDE = {
    "attachment": ['{"type":"attachment","sessionId":"S1","uuid":"t1","cwd":"/w/voice_call_bot","attachment":'
                   '{"type":"edited_text_file","filename":"app.py","snippet":"def __call__(self, req):"}}'],
    "last-prompt": ['{"type":"last-prompt","lastPrompt":"why is tool_use parsing broken?","sessionId":"S1"}'],
}


def _outcomes(path: Path) -> list[str]:
    (result,) = referee.grade(RULES, path, as_eval="1")
    assert "calls-may-be-missing" not in result.grading_json
    return [item["outcome"] for item in result.expectations]


@pytest.mark.parametrize("document", OPENAI.values(), ids=OPENAI.keys())
def test_an_openai_log_that_mentions_calls_is_graded_as_it_is(tmp_path: Path, document):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    assert _outcomes(source) == ["pass", "pass"]


@pytest.mark.parametrize("lines", CLAUDE.values(), ids=CLAUDE.keys())
def test_a_claude_code_record_that_mentions_calls_is_graded_as_it_is(tmp_path: Path, lines: list[str]):
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join([SESSION[0], SESSION[1] % "", *SESSION[2:], *lines]) + "\n", encoding="utf-8")
    assert _outcomes(source) == ["pass", "pass"]


def test_context_editing_on_a_message_is_no_call(tmp_path: Path):
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join([SESSION[0], SESSION[1] % EDITING, *SESSION[2:]]) + "\n", encoding="utf-8")
    assert _outcomes(source) == ["pass", "pass"]


def test_a_compaction_that_replays_the_session_s_calls_hides_none(tmp_path: Path):
    """Claude Code's compaction writes a subagent file that no Task started and that
    replays the session's own calls (the same tool_use ids): they are not calls missing."""
    source = tmp_path / "s1.jsonl"
    source.write_text("\n".join([SESSION[0], SESSION[1] % "", *SESSION[2:]]) + "\n", encoding="utf-8")
    replay = tmp_path / "s1" / "subagents" / "agent-acompact-1.jsonl"
    replay.parent.mkdir(parents=True)
    replay.write_text("\n".join(line.replace('"sessionId":"S1"', '"sessionId":"S1","isSidechain":true,'
                                             '"agentId":"acompact-1"') for line in SESSION).replace("%s", "") + "\n",
                      encoding="utf-8")
    assert _outcomes(source) == ["pass", "pass"]


def test_the_records_claude_code_2_writes_besides_messages_are_known(tmp_path: Path):
    records = [f'{{"type":"{kind}","sessionId":"S1","value":"x"}}'
               for kind in ("permission-mode", "atis-latch", "ai-title", "cost-state", "bridge-session")]
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join([SESSION[0], SESSION[1] % "", *SESSION[2:], *records]) + "\n", encoding="utf-8")
    (result,) = referee.grade(RULES, source, as_eval="1")
    assert "unknown-record" not in result.grading_json


def test_a_tool_message_naming_its_one_call_in_a_list_answers_it(tmp_path: Path):
    """SWE-agent writes ``"tool_call_ids": [id]`` on its tool messages."""
    messages = [CHAT[0], READ, {"role": "tool", "tool_call_ids": ["r"], "content": "failed", "status": "error"}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    rules = 'eval 1\nexpect 1: count(calls with status error) == 1\n'
    (result,) = referee.grade(rules, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass"]


@pytest.mark.parametrize("answer, status", [
    ('{"type":"web_search_tool_result","tool_use_id":"srv_1","content":[{"type":"web_search_result","url":"u"}]}',
     "success"),
    ('{"type":"web_search_tool_result","tool_use_id":"srv_1","content":{"type":"web_search_tool_result_error",'
     '"error_code":"max_uses_exceeded"}}', "error")])
def test_a_call_a_server_ran_is_a_call_with_its_answer(tmp_path: Path, answer: str, status: str):
    """A web search the API ran within the message (server_tool_use, answered by a
    web_search_tool_result block of the same message) is a call of the run."""
    searched = ('{"type":"assistant","sessionId":"S1","uuid":"a1","message":{"id":"m1","role":"assistant","content":'
                '[{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{"query":"fares"}},'
                + answer + ',{"type":"text","text":"found"}]}}')
    source = tmp_path / "session.jsonl"
    source.write_text("\n".join([SESSION[0], SESSION[1] % "", SESSION[2], searched]) + "\n", encoding="utf-8")
    rules = f'eval 1\nexpect 1: exactly 1 calls to "web_search" with status {status}\nexpect 2: count(calls) == 2\n'
    (result,) = referee.grade(rules, source, as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass"]
    assert "calls-may-be-missing" not in result.grading_json
