"""A run that ends on a ReAct call no ``Observation:`` answers (the last assistant
message ends with its ``Action:`` and ``Action Input:`` lines, as a harness stops the
model for it): the harness may have run it and stopped before writing its answer, or
not. The run's calls cannot be known (a check over them is an ERROR, never a pass), no
call is invented, the message is a note sent with a call, and the response is unknown.
All that follows ``Action Input:`` is the input, as LangChain's parser reads it (code
over several lines; words after it cannot be told from it), and so is the first fenced
JSON blob after ``Action:``. A reply that writes an unfenced JSON action with words after
it (tau-bench then answers with the whole) or names the lines in prose stays a reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: not response contains "delete"\n')


def _write(tmp_path: Path, *last: dict) -> Path:
    messages = [{"role": "user", "content": "clean up /tmp/x"}, *last]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    return source


def _grade(tmp_path: Path, *last: dict) -> list[str]:
    result, = referee.grade(RULES, _write(tmp_path, *last), as_eval="1")
    return [item["outcome"] for item in result.expectations]


def _said(text) -> dict:
    return {"role": "assistant", "content": text}


ENDINGS = {
    "langchain": "Thought: I should delete it.\nAction: bash\nAction Input: rm -rf /tmp/x",
    "trailing-line-end": "Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x\n",
    "numbered": "Thought 1: delete it\nAction 1: bash\nAction 1 Input: rm -rf /tmp/x",
    "llamaindex-json": 'Thought: delete it, I need a tool.\nAction: bash\nAction Input: {"command": "rm -rf /tmp/x",\n'
                       '  "timeout": 10}',
    "fenced-input": "Thought: delete it\nAction: bash\nAction Input:\n```\nrm -rf /tmp/x\nls /tmp\n```",
    "fenced-input-crlf": "Thought: delete it\r\nAction: bash\r\nAction Input:\r\n```\r\nrm -rf /tmp/x\r\n```",
    "langchain-json-blob": 'Thought: delete it\nAction:\n```\n{\n  "action": "bash",\n  "action_input": "rm -rf /tmp/x"\n}\n```',
    # LangChain's Python tools are given code over several lines, with no fence
    "multi-line-code": "Thought: delete it with Python\nAction: python_repl_ast\nAction Input: import shutil\n"
                       "shutil.rmtree('/tmp/x')\nprint('done')",
    "input-then-words": "Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x\nThat should clean it up.",
    "explains-and-goes-on": "Use this format:\nAction: the tool to use\nAction Input: its input\n"
                            "I will not run anything.",
    # LangChain's JSON agents run the first fenced block after Action:, whatever follows it
    "json-blob-then-words": 'Action:\n```\n{"action": "bash", "action_input": "rm -rf /tmp/x"}\n```\nThat is the shape.',
}


@pytest.mark.parametrize("written", ENDINGS.values(), ids=ENDINGS.keys())
def test_a_run_ending_on_an_unanswered_action_leaves_calls_and_response_unknown(tmp_path: Path, written: str):
    assert _grade(tmp_path, _said(written)) == ["error", "error", "error"]


def test_in_a_content_part_it_is_read_the_same(tmp_path: Path):
    assert _grade(tmp_path, _said([{"type": "text", "text": ENDINGS["langchain"]}])) == ["error", "error", "error"]


def test_a_turn_that_answers_nothing_after_it_changes_nothing(tmp_path: Path):
    last = (_said(ENDINGS["langchain"]), {"role": "user", "content": "are you there?"})
    assert _grade(tmp_path, *last) == ["error", "error", "error"]


def test_the_action_is_a_note_and_no_call_is_invented(tmp_path: Path):
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, _said(ENDINGS["langchain"]))))
    assert [(e.kind, e.title) for e in conversation.entries][1:] == [("agent", "text sent with a tool call")]
    assert {"calls-may-be-missing", "unread-text"} <= {p.code for p in conversation.problems}
    assert all(reply.unsure for reply in conversation.response)


REPLIES = {
    # tau-bench's parser reads Action: and all after it as JSON: words after it make the whole the reply
    "tau-bench-json-then-words": 'Action:\n{"name": "bash", "arguments": {"command": "ls"}}\nThat is the shape.',
    "names-the-lines": "A ReAct step writes Action: and Action Input: lines. Nothing to do here.",
}


@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
def test_a_reply_that_explains_the_format_stays_a_reply(tmp_path: Path, reply: str):
    assert _grade(tmp_path, _said(reply)) == ["pass", "pass", "pass"]


def test_words_that_explain_the_format_before_a_reply_stay_words(tmp_path: Path):
    # no run ends on them: a later reply shows no harness stopped the model there
    assert _grade(tmp_path, _said(ENDINGS["explains-and-goes-on"]), _said("Nothing to run.")) == ["pass", "pass",
                                                                                                    "pass"]


def test_an_action_sent_with_a_tool_call_is_its_note(tmp_path: Path):
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
    message = {"role": "assistant", "content": "Thought: look\nAction: bash\nAction Input: ls", "tool_calls": [call]}
    answer = {"role": "tool", "tool_call_id": "c1", "content": "x"}
    assert _grade(tmp_path, message, answer, _said("Listed.")) == ["pass", "fail", "pass"]


def test_an_answered_action_before_a_final_answer_is_read_as_before(tmp_path: Path):
    last = (_said(ENDINGS["langchain"]), {"role": "user", "content": "Observation: done"},
            _said("Final Answer: all tidy."))
    assert _grade(tmp_path, *last) == ["error", "error", "pass"]


FINAL_ANSWERS = {
    "langchain-chat-agent": 'Thought: I know what to respond\nAction:\n```\n{\n  "action": "Final Answer",\n'
                            '  "action_input": "It is tidy now."\n}\n```',
    "text": "Thought: done\nAction: Final Answer\nAction Input: It is tidy now.",
}


@pytest.mark.parametrize("written", FINAL_ANSWERS.values(), ids=FINAL_ANSWERS.keys())
def test_a_run_ending_on_a_final_answer_action_ends_on_its_reply(tmp_path: Path, written: str):
    # LangChain's chat agents end a run with the "Final Answer" action: no call
    result, = referee.grade('eval 1\nexpect 1: count(calls) == 0\nexpect 2: response contains "tidy"\n',
                            _write(tmp_path, _said(written)), as_eval="1")
    assert [item["outcome"] for item in result.expectations] == ["pass", "pass"]
