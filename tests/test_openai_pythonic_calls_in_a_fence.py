"""A pythonic list of calls (Llama 3.2's, 3.3's and 4's format) that the model put in a
code fence, as open-weight models often fence what they write, or after words of its
own (Llama 4 writes some before its list, and vLLM's parser then leaves the whole in
the content): such a list writes a call (SGLang's parser finds it wherever it is), and
whether the harness ran it is not in the record, so the run's calls are unknown, no call
is invented, and the text is a note, not the reply. So is a JSON call (Llama 3.1's
format) in a message that is all one fenced block. Ordinary code in a fence, a list
inside a sentence and JSON of another shape stay replies."""

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
    "in-prose": 'Call it like this:\n```python\n[bash(command="ls")]\n```\nand read what it prints.',
    "two-fences": '```\n[bash(command="ls")]\n```\n\n```\n[1]\n```',
    "after-words-unfenced": 'To clean up, I will remove the folder first.\n\n[bash(command="rm -rf /tmp/x")]',
    "after-words-over-lines": 'I will remove it.\n[\n  bash(command="rm -rf /tmp/x"),\n  now()\n]',
    "json-call-fenced": '```json\n{"name": "bash", "parameters": {"command": "rm -rf /tmp/x"}}\n```',
    "json-calls-fenced": '```\n[{"name": "bash", "arguments": {"command": "ls"}}]\n```',
    "a-fence-left-open": '```python\n[bash(command="ls")]',  # the model stopped before closing it
}
NOT_CALLS = {
    "a-print": '```python\nprint("rm -rf /")\n```',
    "a-list-of-numbers": "```\n[1, 2, 3]\n```",
    "a-positional-call": '```python\n[bash("rm -rf /")]\n```',
    "a-method": '```python\n[os.remove(path="/tmp/x")]\n```',
    "a-script": '```python\nx = 1\n[bash(command="ls")]\n```',
    "in-a-sentence": 'Call [bash(command="ls")] to see them.',
    "a-list-in-a-sentence-at-the-end": 'The calls were [bash(command="ls")]',
    "json-data-fenced": '```json\n{"name": "my-app", "version": "1.0.0"}\n```',
    "a-tool-definition-fenced": '```json\n{"name": "bash", "parameters": {"type": "object", "properties": {}}}\n```',
    "json-call-in-prose": 'The request was:\n```json\n{"name": "bash", "parameters": {"command": "ls"}}\n```\nas logged.',
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
