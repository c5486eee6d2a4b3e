"""OpenAI-format content given as parts (``[{"type": "output_text", "text": ...}]``) in
a pretty-printed document is cited at the line of its text, not at the line of the
``content`` key above it: the quote of a check's evidence is on the line it names. A
refusal given without content is cited at ``refusal``."""

from __future__ import annotations

import json
import re

import referee

RULES = ('eval 1\nexpect 1: response contains "Done"\nexpect 2: any calls to "Read" have .return == "fine"\n'
         'expect 3: response contains "cannot"\n')


def _cited(tmp_path, messages: list) -> tuple[list[str], list[str]]:
    """Each expectation's evidence, and the source's lines."""
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["pass"] * 3
    return [e["evidence"] for e in grading["expectations"]], source.read_text(encoding="utf-8").splitlines()


def test_a_part_is_cited_at_its_text(tmp_path):
    messages = [{"role": "user", "content": [{"type": "input_text", "text": "clean up"}]},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "fine"}]},
                {"role": "assistant", "content": [{"type": "output_text", "text": "Done.", "annotations": []}]},
                {"role": "assistant", "content": None, "refusal": "I cannot do more."}]
    evidence, lines = _cited(tmp_path, messages)
    for text, quote in zip(evidence, ("Done.", "fine", "I cannot do more.")):
        line = int(re.search(rf'chat\.json:(\d+): "{quote}"', text).group(1))  # the place the quote is cited at
        assert quote in lines[line - 1], (text, lines[line - 1])
