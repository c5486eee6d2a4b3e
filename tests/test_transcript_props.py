"""Properties of the transcript parser: it never raises, and every line points at its text."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.run.transcript import parse_transcript

FRAGMENTS = [
    "## [tool_calls] Step 1: save", "## [agent_notes] Step 2: 解读", "## Eval Prompt", "### Step 3",
    "# Transcript", "## [tool_calls]", "## [TOOL_CALLS] step 7 — x", "Tool: expense-mcp_save",
    "Tool:", "Args: {\"a\": 1}", "Args: {", "Args:", "Return: [1, 2", "Return: \"ok\"", "Return: plain text",
    "Status: success", "Status: error", "Status: weird", "  \"k\": \"v\",", "}", "]", "{\"x\": [", "```", "```json",
    "~~~", "<!-- comment", "-->", "<!-- one line -->", "**Tool**: x", "", "   ", "\t", "\\", "\"", "\ufeff",
    "Args: \"unterminated", "##", "###### deep", "Status: 成功",
]
LINE_ENDS = st.sampled_from(["\n", "\r\n", "\r"])
FRAGMENT = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12))


@st.composite
def transcript_like(draw):
    lines = draw(st.lists(FRAGMENT, max_size=40))
    return "".join(line + draw(LINE_ENDS) for line in lines)


def _lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    return re.split(r"\r\n|\r|\n", text)


def _check_locations(text: str) -> None:
    transcript = parse_transcript(text)
    lines = _lines(text)
    for element in transcript.calls + transcript.notes:
        line = lines[element.location.line - 1]
        assert element.title in line
        if hasattr(element, "args"):
            for payload in (element.args, element.result):
                if payload is not None and payload.text:
                    start = payload.text.split()[0]
                    assert start in lines[payload.line - 1], (payload, lines[payload.line - 1])
            if element.tool is not None:
                assert element.tool in lines[element.tool_line - 1]
            if element.status is not None:
                assert element.status in lines[element.status_line - 1]
    for problem in transcript.problems:
        assert problem.line is None or 1 <= problem.line <= len(lines)
    indexes = sorted(e.index for e in transcript.calls + transcript.notes)
    assert indexes == list(range(len(indexes)))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_never_raises_on_any_text(text):
    _check_locations(text)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(transcript_like())
def test_transcript_like_text_keeps_true_locations(text):
    _check_locations(text)
