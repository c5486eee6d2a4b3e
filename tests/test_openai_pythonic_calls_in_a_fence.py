"""A pythonic list of calls (Llama 3.2's, 3.3's and 4's format) that the model put in a
code fence, as open-weight models often fence what they write: a message that is all
one fenced block holding such a list writes a call (the pythonic parsers find the list
inside), so the run's calls are unknown, no call is invented, and the text is a note,
not the reply. Ordinary code in a fence, and a fenced list inside prose, stay replies."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.run.importers import openai_sources
from referee.engine.run.importers.source import read_source
from openai_chat import call_in_text, call_in_text_outcomes, json_file

FENCED = {
    "python": '```python\n[bash(command="rm -rf /tmp/x")]\n```',
    "no-language": '```\n[get_weather(city="Paris"), bash(command="rm -rf /")]\n```',
    "py-padded": '\n```py\n  [bash(command="rm -rf /", timeout=None)]  \n```\n',
    "crlf-line-ends": '```python\r\n[bash(command="rm -rf /tmp/x")]\r\n```',
}
NOT_CALLS = {
    "a-print": '```python\nprint("rm -rf /")\n```',
    "a-list-of-numbers": "```\n[1, 2, 3]\n```",
    "a-positional-call": '```python\n[bash("rm -rf /")]\n```',
    "a-method": '```python\n[os.remove(path="/tmp/x")]\n```',
    "a-script": '```python\nx = 1\n[bash(command="ls")]\n```',
    "in-prose": 'Call it like this:\n```python\n[bash(command="ls")]\n```\nand read what it prints.',
    "two-fences": '```\n[bash(command="ls")]\n```\n\n```\n[1]\n```',
}


@pytest.mark.parametrize("written", FENCED.values(), ids=FENCED.keys())
def test_a_fenced_pythonic_list_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written) == ["error", "error", "pass"]


def test_the_fenced_list_is_a_note_and_no_call_is_invented(tmp_path: Path):
    source = json_file(tmp_path / "chat.json", call_in_text(FENCED["python"]))
    conversation, = openai_sources.read_conversations(read_source(source))
    assert [(e.kind, e.title) for e in conversation.entries][1:2] == [("agent", "text sent with a tool call")]
    assert "calls-may-be-missing" in {p.code for p in conversation.problems}


@pytest.mark.parametrize("written", NOT_CALLS.values(), ids=NOT_CALLS.keys())
def test_code_in_a_fence_that_is_no_call_list_is_a_reply(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written, 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
