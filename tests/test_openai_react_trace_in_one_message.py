"""A ReAct scratchpad kept as one assistant message: an ``Action:`` line, an ``Action
Input:`` line, then an ``Observation:`` line (and maybe more steps and a final answer).
The observation may be what the harness ran the command for and appended, or the
model's own invention: the run's calls cannot be known, so a check over them is an
ERROR, never a pass, no call is invented, and the message is a note sent with a call.
A reply that writes the format without such a sequence stays a reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source

RULES = ('eval 1\nexpect 1: no calls where .args.command contains "rm"\nexpect 2: count(calls) == 0\n'
         'expect 3: response contains "clean"\n')


def _write(tmp_path: Path, content, *after: dict) -> Path:
    messages = [{"role": "user", "content": "clean up /tmp/x"}, {"role": "assistant", "content": content}, *after]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    return source


def _grade(tmp_path: Path, content, *after: dict) -> list[str]:
    result, = referee.grade(RULES, _write(tmp_path, content, *after), as_eval="1")
    return [item["outcome"] for item in result.expectations]


TRACES = {
    "langchain": "Thought: delete it\nAction: bash\nAction Input: rm -rf /tmp/x\nObservation: done\n"
                 "Thought: I now know the final answer\nFinal Answer: clean.",
    "llamaindex": 'Thought: I need a tool.\nAction: bash\nAction Input: {"command": "rm -rf /tmp/x"}\n'
                  "Observation: \nThought: done.\nAnswer: clean.",
    "numbered": "Thought 1: delete it\nAction 1: bash\nAction 1 Input: rm -rf /tmp/x\nObservation 1: done\n"
                "Final Answer: clean.",
    "json-blob": 'Thought: delete it\nAction:\n```\n{"action": "bash", "action_input": "rm -rf /tmp/x"}\n```\n'
                 "Observation: done\nFinal Answer: clean.",
    "second-step": "Thought: look\nAction: bash\nAction Input: ls /tmp\nObservation: x\nThought: delete it\n"
                   "Action: bash\nAction Input: rm -rf /tmp/x\nObservation: done\nFinal Answer: clean.",
}


@pytest.mark.parametrize("trace", TRACES.values(), ids=TRACES.keys())
def test_a_react_trace_in_one_message_leaves_the_calls_unknown(tmp_path: Path, trace: str):
    assert _grade(tmp_path, trace) == ["error", "error", "error"]


def test_a_trace_in_a_content_part_is_read_the_same(tmp_path: Path):
    assert _grade(tmp_path, [{"type": "text", "text": TRACES["langchain"]}]) == ["error", "error", "error"]


def test_the_trace_is_a_note_and_no_call_is_invented(tmp_path: Path):
    conversation, = openai_sources.read_conversations(read_source(_write(tmp_path, TRACES["langchain"])))
    assert [(e.kind, e.title) for e in conversation.entries][1:] == [("agent", "text sent with a tool call")]
    assert "calls-may-be-missing" in {p.code for p in conversation.problems}


REPLIES = {
    "action-without-observation": "Use this format:\nAction: the tool to use\nAction Input: its input\n"
                                  "I will not run anything: clean.",
    "observation-before-the-action": "Observation: the folder is there.\nAction: bash\nAction Input: rm -rf /tmp/x\n"
                                     "is what I would run; it is clean.",
    "observation-without-input": "Thought: think\nAction: explain\nObservation: what the tool said\nAll clean.",
    "words-naming-the-lines": "A ReAct step writes Action: and Action Input: lines, then Observation: comes back. "
                              "clean.",
}


@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
def test_a_reply_that_explains_the_format_stays_a_reply(tmp_path: Path, reply: str):
    # a reply after it: a run that ends on an Action Input: line may have run it
    # (test_openai_run_ending_on_a_react_action)
    assert _grade(tmp_path, reply, {"role": "assistant", "content": "Nothing was run."}) == ["pass", "pass", "pass"]


# every character str.isspace() takes for a blank, which found_in does not search
BLANKS = "".join(chr(code) for code in range(0x110000) if chr(code).isspace())


@pytest.mark.parametrize("blank", ["", BLANKS, BLANKS[::-1], "\n\n", " \t", "\u3000\u2028", "\r\n" * 3])
def test_blank_text_writes_no_markup_so_it_is_not_searched(blank: str):
    """found_in skips blank text (and a text already searched): every finder it is given
    finds nothing there, as it would have found nothing."""
    from referee.engine.run.importers import text_calls
    from referee.engine.run.importers.openai_steps import MessageSteps, found_in

    steps = MessageSteps(lambda *_: None, [])  # the run's declared tools: none
    steps.declared.add("Point")
    finders = [steps.call_markup, text_calls.call_markup, text_calls.react_trace, text_calls.react_action,
               text_calls.react_action_at_end, text_calls.observation, text_calls.answer_markup]
    for find in finders:
        assert find(blank) is None, find
        assert found_in(blank, [{"type": "x", "text": "Action: ls\nAction Input: /"}], find) == \
            find("Action: ls\nAction Input: /")
