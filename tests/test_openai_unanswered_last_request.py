"""A conversation that ends on a user turn no reply answers (a new question, and the
file ends: a log cut short, or a logged request whose completion is not beside it):
the agent's answer to it is not in the record, and the replies before it answer
earlier turns, so the response is unknown (``no-reply``), never those replies. Turns
that close a run and ask nothing stay as they are: tau-bench's user simulator ends with
``###STOP###``, mini-swe-agent answers its submit command with the submission, and a
turn with no words asks nothing.

So does a conversation that ends with the agent at work: a tool's answer, or a call, no
assistant message follows (a log cut short, a run stopped at its step limit, an answer
given through a tool): its final reply is not in the record, and the words it said
before were said while it worked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source

RULES = 'eval 1\nexpect 1: not response contains "Paris"\nexpect 2: response contains "Rome"\n'
ASKED = [{"role": "user", "content": "What is the capital of Italy?"},
         {"role": "assistant", "content": "Rome."}]


def _write(tmp_path: Path, messages: list) -> Path:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    return source


def _grade(tmp_path: Path, messages: list) -> list[str]:
    result, = referee.grade(RULES, _write(tmp_path, messages), as_eval="1")
    return [item["outcome"] for item in result.expectations]


def test_a_last_request_no_reply_answers_leaves_the_response_unknown(tmp_path: Path):
    assert _grade(tmp_path, ASKED + [{"role": "user", "content": "And of France?"}]) == ["error", "error"]


def test_a_system_turn_after_it_changes_nothing(tmp_path: Path):
    messages = ASKED + [{"role": "user", "content": "And of France?"}, {"role": "system", "content": "Be brief."}]
    assert _grade(tmp_path, messages) == ["error", "error"]


def test_it_is_said_where_the_request_is(tmp_path: Path):
    messages = ASKED + [{"role": "user", "content": "And of France?"}]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, messages)))
    assert [p.code for p in conversation.problems] == ["no-reply"]
    assert all(reply.unsure for reply in conversation.response)


def test_a_prompt_no_reply_answers_leaves_the_response_unknown(tmp_path: Path):
    assert _grade(tmp_path, [{"role": "user", "content": "What is the capital of France?"}]) == ["error", "error"]


def test_a_request_answered_is_read_as_before(tmp_path: Path):
    messages = ASKED + [{"role": "user", "content": "Thanks!"}, {"role": "assistant", "content": "Glad to help."}]
    assert _grade(tmp_path, messages) == ["pass", "pass"]


def test_a_request_answered_by_a_call_is_no_unanswered_request(tmp_path: Path):
    call = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}
    messages = ASKED + [{"role": "user", "content": "And of France?"},
                        {"role": "assistant", "content": None, "tool_calls": [call]},
                        {"role": "tool", "tool_call_id": "c1", "content": "Paris"},
                        {"role": "assistant", "content": "Paris."}]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, messages)))
    assert "no-reply" not in {p.code for p in conversation.problems}


CLOSINGS = {
    "tau-bench-stop": "Thanks, that is all. ###STOP###",
    "tau2-bench-transfer": "###TRANSFER###",
    "tau2-bench-out-of-scope": "###OUT-OF-SCOPE###",
    "no-words": "",
}


@pytest.mark.parametrize("closing", CLOSINGS.values(), ids=CLOSINGS.keys())
def test_a_turn_that_closes_the_run_keeps_the_replies(tmp_path: Path, closing: str):
    assert _grade(tmp_path, ASKED + [{"role": "user", "content": closing}]) == ["pass", "pass"]


def test_mini_swe_agents_submission_keeps_the_replies(tmp_path: Path):
    messages = [{"role": "user", "content": "Please solve this issue: what is the capital of Italy?"},
                {"role": "assistant", "content": "THOUGHT: Rome.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"},
                {"role": "user", "content": "diff --git a/capital.txt b/capital.txt\n+Rome"}]
    assert _grade(tmp_path, messages) == ["pass", "pass"]


REQUESTS_WITHOUT_WORDS = {
    "an-image": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}],
    "spoken": [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}],
    "a-file": [{"type": "text", "text": " "}, {"type": "file", "file": {"file_id": "file-1"}}],
}


@pytest.mark.parametrize("content", REQUESTS_WITHOUT_WORDS.values(), ids=REQUESTS_WITHOUT_WORDS.keys())
def test_a_last_request_of_no_words_no_reply_answers_leaves_the_response_unknown(tmp_path: Path, content):
    # an image, a question spoken or a file is a request all the same
    assert _grade(tmp_path, ASKED + [{"role": "user", "content": content}]) == ["error", "error"]


EMPTY_ANSWERS = {
    "no-content": {"role": "assistant", "content": None},
    "blank": {"role": "assistant", "content": "  "},
    "empty-parts": {"role": "assistant", "content": []},
}


@pytest.mark.parametrize("answer", EMPTY_ANSWERS.values(), ids=EMPTY_ANSWERS.keys())
def test_a_last_request_answered_with_no_words_leaves_the_response_unknown(tmp_path: Path, answer: dict):
    # the words before it answer an earlier turn, as a Claude Code session's do
    assert _grade(tmp_path, ASKED + [{"role": "user", "content": "And of France?"}, answer]) == ["error", "error"]


CALL = {"role": "assistant", "content": "Let me check.", "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "capital of France"}'}}]}
AT_WORK = {
    "a-tool-answer": [CALL, {"role": "tool", "tool_call_id": "c1", "content": "Paris"}],
    "a-call-unanswered": [CALL],
    "a-legacy-function-answer": [{"role": "assistant", "content": None,
                                  "function_call": {"name": "search", "arguments": "{}"}},
                                 {"role": "function", "name": "search", "content": "Paris"}],
    "a-responses-call-output": [{"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
                                {"type": "function_call_output", "call_id": "c1", "output": "Paris"}],
    "a-harness-answer-to-a-command": [
        {"role": "assistant", "content": "THOUGHT: look.\n\n```bash\ngrep -r Paris .\n```"},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>Paris</output>"}],
    "a-system-turn-after-the-answer": [CALL, {"role": "tool", "tool_call_id": "c1", "content": "Paris"},
                                       {"role": "system", "content": "Step limit reached."}],
}


@pytest.mark.parametrize("tail", AT_WORK.values(), ids=AT_WORK.keys())
def test_a_run_ending_with_the_agent_at_work_leaves_the_response_unknown(tmp_path: Path, tail: list):
    # "Rome." was said before the work the record ends in: it is not the final reply
    assert _grade(tmp_path, ASKED + [{"role": "user", "content": "And of France?"}] + tail) == ["error", "error"]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, ASKED + tail)))
    assert "no-reply" in {p.code for p in conversation.problems}


def test_a_reply_after_the_work_is_the_response(tmp_path: Path):
    tail = [CALL, {"role": "tool", "tool_call_id": "c1", "content": "Paris"}, {"role": "assistant", "content": "Rome."}]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, ASKED + tail)))
    assert "no-reply" not in {p.code for p in conversation.problems}
    assert [reply.text for reply in conversation.response if not reply.unsure] == ["Rome.", "Rome."]


def test_a_tool_answer_is_never_the_response(tmp_path: Path):
    tail = [CALL, {"role": "tool", "tool_call_id": "c1", "content": "Paris"}]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, ASKED + tail)))
    assert [reply.text for reply in conversation.response] == ["Rome."]  # unsure: said before the call
    assert all(reply.unsure for reply in conversation.response)


SPOKE_AFTER = {
    "words-not-read": {"role": "assistant", "content": {"type": "text", "text": "Paris."}},
    "a-call-written-as-text": {"role": "assistant",
                               "content": '<tool_call>{"name": "search", "arguments": {"q": "x"}}</tool_call>'},
}


@pytest.mark.parametrize("last", SPOKE_AFTER.values(), ids=SPOKE_AFTER.keys())
def test_words_after_the_work_that_are_not_read_say_so_alone(tmp_path: Path, last: dict):
    # the agent spoke after the tool's answer: what is unknown is what it said (unread-text), not whether it did
    tail = [CALL, {"role": "tool", "tool_call_id": "c1", "content": "Paris"}, last]
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, ASKED + tail)))
    codes = {p.code for p in conversation.problems}
    assert "unread-text" in codes and "no-reply" not in codes
    assert all(reply.unsure for reply in conversation.response)
