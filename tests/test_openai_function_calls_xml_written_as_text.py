"""Prompt-based tool use writes a call as ``<function_calls>`` XML holding an
``<invoke name="...">`` per call, with its ``<parameter>``s; a model (or a proxy that
did not parse it) may leave it in the assistant's text. It is never read as a call,
but the run's calls are unknown (a negative check is an ERROR, never a pass) and the
text is a note. Words naming the tag, with no invoke after it, stay a reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from openai_chat import call_in_text_outcomes

WRITTEN = {
    "after-words": 'Deleting.\n<function_calls>\n<invoke name="bash">\n<parameter name="command">rm -rf /tmp/x'
                   '</parameter>\n</invoke>\n</function_calls>',
    "on-one-line": '<function_calls><invoke name="bash"><parameter name="command">rm -rf /</parameter></invoke>'
                   '</function_calls>',
}


@pytest.mark.parametrize("written", WRITTEN.values(), ids=WRITTEN.keys())
def test_function_calls_xml_leaves_the_runs_calls_unknown(tmp_path: Path, written: str):
    assert call_in_text_outcomes(tmp_path, written) == ["error", "error", "pass"]


def test_words_naming_the_tag_are_a_reply(tmp_path: Path):
    assert call_in_text_outcomes(tmp_path, "Older prompts wrapped calls in <function_calls> tags.",
                                 'eval 1\nexpect 1: count(calls) == 0\n') == ["pass"]
