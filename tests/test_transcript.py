"""The dual-section transcript parser on hand-written transcripts."""

from __future__ import annotations

from decimal import Decimal

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
    assert [(n.index, n.kind, n.step, n.title, n.location.line) for n in t.notes] == [
        (0, "prose", None, "Eval Prompt", 1),
        (2, "agent_notes", 1, "解读", 17),
    ]
    assert t.notes[1].text == "Nothing found; no booking made."
    assert t.problems == ()


def test_crlf_and_bom_keep_line_numbers():
    t = parse_transcript("\ufeff" + DUAL.replace("\n", "\r\n"))
    assert _calls(DUAL) == [(c.step, c.tool, c.status, c.location.line) for c in t.calls]
    assert t.calls[0].args.value["origin"] == "ZRH"
    assert "\r" not in t.notes[1].text


def test_fenced_value():
    text = "## [tool_calls] Step 2: x\nTool: t\nArgs:\n\n```json\n\n{\"a\": 1.50}\n```\nReturn: ok\nStatus: done\n"
    t = parse_transcript(text)
    (call,) = t.calls
    assert call.args.value == {"a": Decimal("1.50")} and call.args.line == 7
    assert call.result.is_json is False and call.result.value == "ok" and call.result.line == 9
    assert call.status == "done"  # other status words are kept as written
    assert _problems(t) == [("not-json", "outputs/transcript.md", 9)]


def test_heading_inside_a_fence_is_not_a_heading():
    text = "## [agent_notes] Step 1: quote\n```\n## [tool_calls] Step 9: fake\nTool: x\n```\n"
    t = parse_transcript(text)
    assert t.calls == () and "Step 9" in t.notes[0].text


def test_unclosed_fence_is_reported():
    t = parse_transcript("## a\n```\n## [tool_calls] Step 1: x\nTool: t\n")
    assert t.calls == () and _problems(t) == [("unclosed-fence", "outputs/transcript.md", 2)]


def test_not_json_value_is_text_with_problem():
    t = parse_transcript("## [tool_calls] Step 1: w\nTool: Write\nArgs: {\"a\": 1,}\nReturn: File created\n", report="ws/r/t.md")
    call = t.calls[0]
    assert call.args.is_json is False and call.args.text == '{"a": 1,}'
    assert call.result.text == "File created" and call.status is None
    assert _problems(t) == [("not-json", "ws/r/t.md", 3), ("not-json", "ws/r/t.md", 4)]


def test_truncated_multiline_json_stops_at_next_field():
    t = parse_transcript("## [tool_calls] Step 1: w\nTool: t\nArgs: {\n  \"a\": [1,\nReturn: {\"b\": 2}\nStatus: error\n")
    call = t.calls[0]
    assert call.args.is_json is False and call.args.text == '{\n  "a": [1,'
    assert call.result.value == {"b": 2} and call.status == "error"


def test_multiline_text_return():
    t = parse_transcript("## [tool_calls] Step 1: b\nTool: Bash\nReturn: Traceback:\n  line 1\n\nStatus: error\n")
    assert t.calls[0].result.text == "Traceback:\n  line 1"


def test_block_without_tool_line_and_duplicate_args():
    text = "## [tool_calls] Step 3: odd\nArgs: {}\nArgs: {\"x\": 1}\nStatus: success\n"
    t = parse_transcript(text)
    (call,) = t.calls
    assert call.tool is None and call.args.value == {} and call.status == "success"
    assert sorted(_problems(t)) == [("duplicate-field", "outputs/transcript.md", 3), ("no-tool", "outputs/transcript.md", 1)]


def test_empty_tool_block():
    t = parse_transcript("## [tool_calls] Step 1: nothing\n\n")
    assert _calls("## [tool_calls] Step 1: nothing\n") == [(1, None, None, 1)]
    assert [p.code for p in t.problems] == ["no-tool"]


def test_return_pairs_with_the_call_it_follows():
    text = ("## [tool_calls] Step 1: two\nTool: a\nArgs: {\"n\": 1}\nReturn: 1\nStatus: success\n"
            "Tool: b\nArgs: {\"n\": 2}\nReturn: 2\nStatus: error\n")
    t = parse_transcript(text)
    assert [(c.index, c.tool, c.args.value, c.result.value, c.status) for c in t.calls] == [
        (0, "a", {"n": 1}, 1, "success"), (1, "b", {"n": 2}, 2, "error")]


def test_old_free_form_log_is_prose_never_calls():
    text = ("# Transcript\n\n## Execution\n\n### Step 1: Save\n**Tool**: saveExpenseDoc\n"
            "Tool: saveExpenseDoc\n**Result**: ok\n\n## Final Result\nDone.\n")
    t = parse_transcript(text)
    assert t.calls == ()
    assert [(n.kind, n.step, n.title, n.location.line) for n in t.notes] == [
        ("prose", None, "Transcript", 1), ("prose", None, "Execution", 3),
        ("prose", 1, "Save", 5), ("prose", None, "Final Result", 10)]
    assert "**Tool**: saveExpenseDoc" in t.notes[2].text


def test_subheadings_inside_tagged_blocks_stay_in_the_block():
    t = parse_transcript("## [agent_notes] Step 1: n\n### Details\nmore\n## [Tool_Calls] step 2 — x\nTool: t\n")
    assert [n.text for n in t.notes] == ["### Details\nmore"]
    assert _calls("## [Tool_Calls] step 2 — x\nTool: t\n") == [(2, "t", None, 1)]
    assert t.calls[0].title == "x"


def test_html_comment_mid_line_is_data():
    t = parse_transcript('## [tool_calls] Step 1: h\nTool: t\nReturn: "<!-- kept -->"\n')
    assert t.calls[0].result.value == "<!-- kept -->"


def test_preamble_and_headings_without_step():
    t = parse_transcript("intro line\n\n## [agent_notes] 总结\n中文内容\n")
    assert [(n.title, n.step, n.location.line, n.text) for n in t.notes] == [
        ("", None, 1, "intro line"), ("总结", None, 3, "中文内容")]


def test_arbitrary_junk_never_raises():
    for text in ["", "\x00", "#", "## [tool_calls]", "Args: {", "```", "<!--", "## [tool_calls] Step 99999999999: x\nTool:"]:
        parse_transcript(text)
