"""The parser's fast path gives exactly what its general line-by-line reader gives.

``usual_record.plain_record`` reads a record of the usual shape with one regex and
falls back to the general reader (``tool_log.RecordReader``) on anything else.
Here it is switched off and the results compared on generated blocks that are
near that shape, with the usual ways real logs break it (comments, CRLF, spread
or broken JSON, odd spacing).
"""

from __future__ import annotations

import re
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.run import tool_log, transcript_sections, usual_record
from referee.engine.run.model import Payload
from referee.engine.run.transcript import parse_transcript
from referee.engine.text import file_lines

COMMENTS = st.sampled_from(["", "<!-- raw log -->\n", "  <!-- a --> \n", "<!-->\n", "<!-- open\n", "<!-- x --> Tool: y\n"])
KEYS = st.sampled_from(["Tool:", "Args:", "Return:", "Status:", "tool :", "ARGS:", "Args :", "x:"])
VALUES = st.sampled_from([
    '{"a": 1}', '"ok"', "[1, 2]", "plain text", "", " ", '{"a": [1,\n  2]}', '{\n  "b": "}"\n}', '[\n1,\n2\n]  ',
    '{"a": 1} x', "[1]\n  ", "{}\n }", "[1,\n]", "{\n", "[1,\n2", '{"s": "x\\"y"}\n\n', "```json\n{}\n```", "{}\u00a0", "1e999", '[[["deep"]]]',
    # a value on the line after its field line, as harnesses spread JSON
    '\n{"a": 1}', '\n{\n  "b": [1,\n    2]\n}', "\n[\n]\n  ", "\n\n{}", "\n  {}", "\n{}\ntext", '\n"s"', "\n{\n",
    # text a tool printed: a file's lines, a log, markdown
    "\n   1  alpha\n   2  beta", "[ok] a\n[warn] b", "text\n\nmore\n", "x\n# h", "x\n   ## h", "x\n    # code",
    "x\nTool: y", "x\nReturn: y", "\n```\ncode\n```", "\n~~~ x\ny", "\n\n  text", "\n\u00a0\ntext", "\u00a0",
    "1  alpha\n2  beta", "\x0b\nx", "Status\nStatus : x", "\n#x\ny", "\n<!-- c -->\nx",
])
WORDS = st.one_of(st.sampled_from(["t", "mcp__s_get", "success", "error"]), st.text(max_size=4))  # Tool, Status
TAILS = st.sampled_from(["", "\n", "\n\n", "\n  \n", "\nmore text", "\nStatus: again", "\n<!-- c -->", "\n\x0b"])
ENDS = st.sampled_from(["\n", "\r\n"])


@st.composite
def field_block(draw):
    """A block body: mostly Tool/Args/Return/Status in order, sometimes shuffled or odd."""
    keys = ["Tool:", "Args:", "Return:", "Status:"]
    if draw(st.booleans()):
        keys = draw(st.lists(KEYS, min_size=1, max_size=6))
    lines = [f"{key} {draw(VALUES)}" if key not in ("Tool:", "Status:") else f"{key} {draw(WORDS)}"
             for key in keys]
    return draw(COMMENTS) + "\n".join(lines) + draw(TAILS)


RETURNS = st.lists(st.sampled_from(["x", "", " ", "\u00a0", "[ok] a", "   1  b", "{", "}", "[1]", "```", "~~~", "# h",
                                     "   ## h", "    # code", "Tool: y", "Args: z", "Return: r", "Status x", "<!-- c -->",
                                     '"s"', "\x0b"]), max_size=5)


@st.composite
def usual_block(draw):
    """A block of the usual shape whose Return may be lines of text: field lines and
    headings among them, a fence, blank lines, on its field line or below it."""
    lines = draw(RETURNS)
    value = draw(st.sampled_from([" ", "", "  ", " \n", "\n"])) + "\n".join(lines)
    args = draw(VALUES.filter(lambda v: "\n" not in v))
    return f"Tool: t\nArgs: {args}\nReturn:{value}\nStatus: ok" + draw(TAILS)


@st.composite
def transcripts(draw):
    blocks = draw(st.lists(st.one_of(field_block(), usual_block()), min_size=1, max_size=4))
    end = draw(ENDS)
    text = "".join(f"## [tool_calls] Step {n}: call\n{body}\n" for n, body in enumerate(blocks, 1))
    return text.replace("\n", end)


def _general(text: str):
    with mock.patch.object(transcript_sections, "plain_record", lambda text, start, stop, first, report: None):
        return parse_transcript(text)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(transcripts())
def test_fast_paths_match_the_general_reader(text):
    assert parse_transcript(text) == _general(text)


def test_the_fast_paths_are_taken():
    plain = "<!-- log -->\nTool: t\nArgs: {\"a\": 1}\nReturn: [1]\nStatus: success\n\n## next"
    record = usual_record.plain_record(plain, 0, len(plain), 2, "r")
    assert record.calls[0]["args"] == Payload('{"a": 1}', {"a": 1}, True, 4) and record.used == 6
    lines = ["Tool: t", "Args: {", '  "a": 1', "}", "Status: success"]
    spread = tool_log.RecordReader(lines, 2, "r")._spread_json("{", 1)
    assert spread == (Payload('{\n  "a": 1\n}', {"a": 1}, True, 3), 4)


HEADING_LINES = st.lists(st.sampled_from([
    "## [tool_calls] Step 1", "## [tool_calls] Step 2: get", "## [tool_calls] Step 0", "## [tool_calls] Step x",
    "## [tool_calls] Step 3:  a b \t", " ## [tool_calls] Step 1", "\ufeff## [tool_calls] Step 1", "Tool: t", "",
    "## [tool_calls] Step 12345678901", "text ## [tool_calls] Step 1"]), max_size=8)


@given(HEADING_LINES, st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1))
def test_exact_headings_counts_the_lines_a_file_reads_as_headings(lines, ends):
    text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines)) + (lines[-1] if lines else "")
    want = sum(1 for line in file_lines(text) if transcript_sections.RECORD_HEADING.fullmatch(line))
    assert transcript_sections.exact_headings(text) == want


def _backtracking(pattern: str) -> re.Pattern:
    """The record pattern with the lines of its payloads taken greedily but given back
    on demand: the reference for its possessive form."""
    greedy = pattern.replace(r"[^\n]*+", r"[^\n]*").replace(r"[^\n]*)*+", r"[^\n]*)*")
    assert greedy.count(r"[^\n]*)*") == pattern.count(r"[^\n]*+)*+") == 2
    return re.compile(greedy)


LINES = st.lists(st.sampled_from(['  "a": 1', "}", "]", " ]", "[", "{", "\t1,", "Status: ok", "Status:", "Status", "text",
                                   " indented", "", " ", "Return: x", "Tool: u", "## h"]), max_size=4)


@st.composite
def record_zones(draw):
    """Record zones near the usual shape: its four field lines in order, lines of all
    kinds after each (indented JSON, Status lines, text, blank lines)."""
    lines = ["Tool: t"]
    for field in ("Args:", "Return:", "Status:"):
        lines.append(field + draw(st.sampled_from(["", " {", " []", " x", " ok", "\t[1,"])))
        lines += draw(LINES)
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n## next"]))


@given(record_zones())
def test_possessive_payload_lines_match_what_backtracking_matches(text):
    reference = _backtracking(usual_record._PLAIN_RECORD.pattern)
    before, now = reference.match(text), usual_record._PLAIN_RECORD.match(text)
    assert (before and (before.span(), before.groupdict())) == (now and (now.span(), now.groupdict()))
