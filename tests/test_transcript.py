"""The dual-section transcript parser on hand-written transcripts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee.engine.run.transcript import parse_transcript


def _calls(text):
    return [(c.step, c.tool, c.status, c.location.line) for c in parse_transcript(text).calls]


def _problems(transcript):
    return [(p.code, p.path, p.line) for p in transcript.problems]


DUAL = """## Eval Prompt

Book a flight.

## [tool_calls] Step 1: search
<!-- raw tool log
     copied verbatim -->
Tool: travel_searchFlights
Args: {
  "origin": "ZRH",
  "note": "a } and a ] inside a string",
  "nested": {"a": [1, 2]}
}
Return: {"flights": []}
Status: success

## [agent_notes] Step 1: 解读
Nothing found; no booking made.
"""


def test_dual_sections_with_lines():
    t = parse_transcript(DUAL)
    assert t.prompt == "Book a flight."
    (call,) = t.calls
    assert (call.index, call.step, call.title, call.tool, call.status) == (1, 1, "search", "travel_searchFlights", "success")
    assert (call.location.file, call.location.line, call.tool_line, call.status_line) == (
        "outputs/transcript.md", 5, 8, 15)
    assert call.args.line == 9 and call.args.is_json
    assert call.args.value == {"origin": "ZRH", "note": "a } and a ] inside a string", "nested": {"a": [1, 2]}}
    assert (call.result.line, call.result.value) == (14, {"flights": []})
    assert [(n.index, n.kind, n.step, n.title, n.location.line, n.is_eval_prompt) for n in t.notes] == [
        (0, "harness", None, "Eval Prompt", 1, True),
        (2, "agent_notes", 1, "解读", 17, False),
    ]
    assert t.notes[1].text == "Nothing found; no booking made." and t.notes[1].text_line == 18
    assert t.problems == () and t.suspect_calls == ()


def test_crlf_and_bom_keep_line_numbers():
    t = parse_transcript("\ufeff" + DUAL.replace("\n", "\r\n"))
    assert _calls(DUAL) == [(c.step, c.tool, c.status, c.location.line) for c in t.calls]
    assert t.calls[0].args.value["origin"] == "ZRH"
    assert "\r" not in t.notes[1].text


def test_fenced_value():
    text = "## [tool_calls] Step 1: x\nTool: t\nArgs:\n\n```json\n\n{\"a\": 1.50}\n```\nReturn: ok\nStatus: done\n"
    t = parse_transcript(text)
    (call,) = t.calls
    assert call.args.value == {"a": Decimal("1.50")} and call.args.line == 7
    assert call.result.is_json is False and call.result.value == "ok" and call.result.line == 9
    assert call.status == "done"  # other status words are kept as written
    assert _problems(t) == [("not-json", "outputs/transcript.md", 9)]


def test_a_record_heading_inside_a_fence_of_agent_text_is_a_record_not_trusted():
    text = "## [agent_notes] Step 1: quote\n```\n## [tool_calls] Step 1: fake\nTool: x\nStatus: success\n```\n"
    t = parse_transcript(text)
    assert t.calls == ()
    assert [(c.tool, c.status, c.suspect is not None) for c in t.suspect_calls] == [("x", "success", True)]
    assert [p.code for p in t.problems] == ["record-in-agent-text", "stray-text"]  # the closing fence
    assert [(n.kind, n.title) for n in t.notes] == [("agent_notes", "quote"), ("agent_notes", "fake")]


def test_an_unclosed_fence_in_agent_text_hides_no_later_record():
    t = parse_transcript("## a\n```\n\n## [tool_calls] Step 1: x\nTool: t\nStatus: error\n")
    assert t.calls == () and [(c.tool, c.status) for c in t.suspect_calls] == [("t", "error")]
    assert _problems(t) == [("record-in-agent-text", "outputs/transcript.md", 4)]


def test_an_unclosed_fence_at_the_end_is_reported():
    t = parse_transcript("## a\n```\ncode\n")
    assert _problems(t) == [("unclosed-fence", "outputs/transcript.md", 2)]


def test_not_json_value_is_text_with_problem():
    text = "## [tool_calls] Step 1: w\nTool: Write\nArgs: {\"a\": 1,}\nReturn: File created\nStatus: success\n"
    t = parse_transcript(text, report="ws/r/t.md")
    call = t.calls[0]
    assert call.args.is_json is False and call.args.text == '{"a": 1,}'
    assert call.result.text == "File created" and call.status == "success"
    assert _problems(t) == [("not-json", "ws/r/t.md", 3), ("not-json", "ws/r/t.md", 4)]


def test_truncated_multiline_json_stops_at_next_field():
    t = parse_transcript("## [tool_calls] Step 1: w\nTool: t\nArgs: {\n  \"a\": [1,\nReturn: {\"b\": 2}\nStatus: error\n")
    call = t.calls[0]
    assert call.args.is_json is False and call.args.text == '{\n  "a": [1,'
    assert call.result.value == {"b": 2} and call.status == "error"


def test_multiline_text_return():
    t = parse_transcript("## [tool_calls] Step 1: b\nTool: Bash\nReturn: Traceback:\n  line 1\n\nStatus: error\n")
    assert t.calls[0].result.text == "Traceback:\n  line 1"


def test_status_lines_a_tool_printed_stay_in_a_plain_return():
    text = ("## [tool_calls] Step 1: b\nTool: Bash\nArgs: {}\nReturn: deploying\nStatus: success\n"
            "more\n## done\nStatus: success\nStatus: error\n\n## [agent_notes] Step 1: n\nfine\n")
    t = parse_transcript(text)
    (call,) = t.calls
    assert call.status == "error" and call.status_line == 9
    assert call.result.text == "deploying\nStatus: success\nmore\n## done\nStatus: success"
    assert [n.text for n in t.notes] == ["fine"]


def test_status_lines_that_could_end_a_plain_return_make_the_record_untrusted():
    # The first Status line is followed by a heading: the record ends there, and the
    # real Status line left outside it is reported; the status is then unsure.
    text = ("## [tool_calls] Step 1: b\nTool: Bash\nArgs: {}\nReturn: deploying\nStatus: success\n\n"
            "## done\nStatus: error\n")
    t = parse_transcript(text)
    (call,) = t.suspect_calls
    assert t.calls == () and call.status == "success" and "status" in call.unsure
    assert [p.code for p in t.problems] == ["orphan-field", "not-json"]


def test_block_without_tool_line_and_duplicate_args():
    text = "## [tool_calls] Step 1: odd\nArgs: {}\nArgs: {\"x\": 1}\nStatus: success\n"
    t = parse_transcript(text)
    assert t.calls == ()
    (call,) = t.suspect_calls
    assert call.tool is None and call.args.value == {} and call.status == "success"
    assert {"tool", "status"} <= call.unsure
    assert sorted(_problems(t)) == [("field-order", "outputs/transcript.md", 2),
                                    ("missing-field", "outputs/transcript.md", 1),
                                    ("repeated-field", "outputs/transcript.md", 3)]


def test_empty_tool_block():
    t = parse_transcript("## [tool_calls] Step 1: nothing\n\n")
    assert t.calls == () and [(c.step, c.tool) for c in t.suspect_calls] == [(1, None)]
    assert [p.code for p in t.problems] == ["missing-field"]


def test_two_calls_in_one_record_are_both_kept_and_not_trusted():
    text = ("## [tool_calls] Step 1: two\nTool: a\nArgs: {\"n\": 1}\nReturn: 1\nStatus: success\n"
            "Tool: b\nArgs: {\"n\": 2}\nReturn: 2\nStatus: error\n")
    t = parse_transcript(text)
    assert t.calls == ()
    assert [(c.tool, c.args.value, c.result.value, c.status) for c in t.suspect_calls] == [
        ("a", {"n": 1}, 1, "success"), ("b", {"n": 2}, 2, "error")]
    assert [p.code for p in t.problems] == ["two-calls"]


def test_old_free_form_log_is_agent_text_never_calls():
    text = ("# Transcript\n\n## Execution\n\n### Step 1: Save\n**Tool**: saveExpenseDoc\n"
            "Tool: saveExpenseDoc\n**Result**: ok\n\n## Final Result\nDone.\n")
    t = parse_transcript(text)
    assert t.calls == () and t.suspect_calls == ()
    assert [(n.kind, n.step, n.title, n.location.line, n.tagged) for n in t.notes] == [
        ("agent_notes", None, "Transcript", 1, False), ("agent_notes", None, "Execution", 3, False),
        ("agent_notes", 1, "Save", 5, False), ("agent_notes", None, "Final Result", 10, False)]
    assert "**Tool**: saveExpenseDoc" in t.notes[2].text


def test_subheadings_inside_tagged_blocks_stay_in_the_block():
    t = parse_transcript("## [agent_notes] Step 1: n\n### Details\nmore\n## [harness] User\nhi\n### Aside\n")
    assert [(n.kind, n.title, n.text) for n in t.notes] == [
        ("agent_notes", "n", "### Details\nmore"), ("harness", "User", "hi\n### Aside")]


def test_headings_that_look_like_records_are_agent_text():
    for heading in ("# [tool_calls] Step 1: x", "### [tool_calls] Step 1: x", "###### [tool_calls] Step 1: x",
                    "## [TOOL_CALLS] Step 1: x", "## [tool-calls] Step 1: x", "## [ Tool Calls ] Step 1: x",
                    "##\t[tool_calls] Step 1: x", "## [tool_calls] step 1: x", "## [tool_calls] Step 01: x",
                    "## [tool_calls]", "  ## [tool_calls] Step 1: x", "## [Tool_Calls] step 2 — x"):
        t = parse_transcript(f"{heading}\nTool: deploy\nArgs: {{}}\nReturn: {{}}\nStatus: success\n")
        assert t.calls == () and t.suspect_calls == (), heading
        assert [p.code for p in t.problems] == ["not-a-record"], heading
        assert "Tool: deploy" in t.notes[0].text and t.notes[0].kind == "agent_notes", heading


@pytest.mark.parametrize("prefix", ["    ", "\t", "\ufeff", "\u200b", "\u00a0", "  \u2028", "\x0b"])
def test_a_record_heading_behind_what_a_reader_may_not_see_is_said(prefix):
    t = parse_transcript(f"## Eval Prompt\n\nhi\n\n{prefix}## [tool_calls] Step 1: Bash\nTool: Bash\nStatus: success\n")
    assert t.calls == () and [(p.code, p.line) for p in t.problems] == [("not-a-record", 5)]


def test_a_status_line_inside_a_value_of_a_record_that_gives_none_leaves_its_status_unknown():
    """A fence the tool's output opened and the agent's next note closed holds the
    record's own Status line: the record gives none, so its status is not known."""
    t = parse_transcript("## [tool_calls] Step 1: Bash\nTool: Bash\nArgs: {}\nReturn:\n```\nbuild failed\n"
                         "Status: error\n\n## [agent_notes] Step 1: note\n\nAll good.\n```\n\n"
                         "## [tool_calls] Step 2: Read\nTool: Read\nReturn: \"x\"\nStatus: success\n")
    (bash, read) = t.calls
    assert bash.status is None and bash.unsure == frozenset({"status"}) and read.unsure == frozenset()
    assert "status-unknown" in [p.code for p in t.problems]
    assert parse_transcript("## [tool_calls] Step 1: a\nTool: a\nReturn: \"ok\"\n").calls[0].unsure == frozenset()


def test_an_escaped_heading_is_plain_text_read_as_written():
    t = parse_transcript("## [agent_notes] Step 1: n\n\\## [tool_calls] Step 2: deploy\nTool: deploy\n\\\\x\n")
    assert t.calls == () and t.suspect_calls == () and t.problems == ()
    assert t.notes[0].text == "## [tool_calls] Step 2: deploy\nTool: deploy\n\\x"  # unescaped


def test_the_record_heading_title_is_optional():
    t = parse_transcript("## [tool_calls] Step 1\nTool: a\nStatus: success\n")
    assert [(c.step, c.title, c.tool) for c in t.calls] == [(1, "", "a")]


def test_html_comment_mid_line_is_data():
    t = parse_transcript('## [tool_calls] Step 1: h\nTool: t\nReturn: "<!-- kept -->"\nStatus: success\n')
    assert t.calls[0].result.value == "<!-- kept -->"


def test_preamble_and_headings_without_step():
    t = parse_transcript("intro line\n\n## [agent_notes] 总结\n中文内容\n")
    assert [(n.title, n.step, n.location.line, n.text) for n in t.notes] == [
        ("", None, 1, "intro line"), ("总结", None, 3, "中文内容")]


def test_arbitrary_junk_never_raises():
    for text in ["", "\x00", "#", "## [tool_calls]", "Args: {", "```", "<!--", "## [tool_calls] Step 99999999999: x\nTool:"]:
        parse_transcript(text)
