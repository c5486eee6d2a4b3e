"""The transcript of a run imported in memory, made from the writer's layout
(``engine.run.transcript_direct``), is the transcript the parser reads from the text
written (the reference): field by field, each value of each payload of the same
type (a float is not the Decimal the transcript's reader makes of it). On every
source the import tests use (tests/fixtures/real/imports.yaml,
tests/fixtures/import/cases.yaml), and on generated conversations.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from transcript_cases import CASES, ORIGIN, REPORT, nested, same

from referee.engine.run.importers import read_sources
from referee.engine.run.importers.record import EVAL_PROMPT, Call, Conversation, Origin, Text
from referee.engine.run.importers.writer import TRANSCRIPT, render_run
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import RunId
from referee.engine.run.transcript import parse_transcript
from referee.engine.run.transcript_direct import direct_transcript



def direct_and_parsed(conversation: Conversation):
    files = render_run(conversation)
    text = files.views[TRANSCRIPT]
    direct = None if files.layout is None else direct_transcript(text, files.layout, TRANSCRIPT, REPORT)
    return direct, parse_transcript(text, TRANSCRIPT, REPORT)


@pytest.mark.parametrize("root, case", CASES, ids=[c["id"] for _, c in CASES])
def test_every_import_source_reads_as_parsed(root: Path, case: dict):
    read = read_sources(case["format"], [root / s for s in case["sources"]], error_when=case.get("error_when"))
    for _, _, conversation in read.found:
        direct, parsed = direct_and_parsed(conversation)
        if direct is not None:
            assert same(direct, parsed), case["id"]
            assert direct == parsed


def test_most_import_sources_are_read_directly():
    """The direct reading is not given up on the usual sources (it would be right, and no faster)."""
    read, direct = 0, 0
    for root, case in CASES:
        for _, _, conversation in read_sources(case["format"], [root / s for s in case["sources"]],
                                               error_when=case.get("error_when")).found:
            read += 1
            direct += direct_and_parsed(conversation)[0] is not None
    assert direct >= read * 3 // 4


def test_a_memory_run_reads_its_transcript_directly_and_as_parsed():
    origin = Origin("chat.json", 1)
    conversation = Conversation("openai", ("chat.json",), (
        Text(EVAL_PROMPT, "", "Fix it", origin),
        Call("Bash", {"cmd": "ls", "n": 1.5}, {"out": "a\nb"}, "success", origin),
        Text("agent", "reply", "done", origin),
    ))
    files = render_run(conversation)
    run = MemoryRun(files.views, RunId("run", "1", None, "c", 1), source_map=files.source_map, layout=files.layout)
    reference = MemoryRun(files.views, RunId("run", "1", None, "c", 1), source_map=files.source_map)
    assert direct_and_parsed(conversation)[0] is not None
    assert same(run.transcript, reference.transcript)
    assert run.transcript.calls[0].args.value["n"] == reference.transcript.calls[0].args.value["n"]


@pytest.mark.parametrize("entry", [
    Text("agent", "reply", "see\n    ## [tool_calls] Step 1: Bash", ORIGIN),  # reported by the parser
    Text("agent", "reply ##", "done", ORIGIN),  # a title read trimmed
    Text("user ", "", "hi", ORIGIN),
    Call("Bash\u200b", {}, {}, "success", ORIGIN),  # reported: a character a reader cannot see
    Call("", {}, {}, "success", ORIGIN),
    Call("Bash", nested(600), {}, "success", ORIGIN),  # too deep to read
    Call("Bash", {}, 10 ** 1100, "success", ORIGIN),  # a number out of its range
    Call("Bash", {}, {}, "", ORIGIN),  # read as no status
    Call("Bash", {}, "x" * 1_000_001, "success", ORIGIN),  # cut
], ids=["hidden-heading", "title-trimmed", "kind-trimmed", "tool-unseen", "no-tool", "too-deep", "huge-int",
        "no-status", "cut"])
def test_what_the_layout_does_not_fix_is_parsed(entry):
    conversation = Conversation("openai", ("chat.json",), (Call("Read", {"p": "a"}, "x", "success", ORIGIN), entry))
    direct, parsed = direct_and_parsed(conversation)
    assert direct is None


# --- generated conversations ------------------------------------------------------------

_ODD = ["", " ", "#", "## [tool_calls] Step 1: x", "```", "~~~", "Status: error", "Tool: x", "Args: {}",
        "\r", "\r\n", "\n", "\x00", "\u2028", "\x85", "\ufeff", "\u200b", "😀", "\\", "<!-- c -->", "    #",
        "\n\t## [tool_calls] Step 2: y", "\n    ## [tool_calls] Step 9: z", "/home/ann/x", "C:\\Users\\ann", "\ud800", "Step 3:", "[harness]", "值"]
TEXT = st.lists(st.one_of(st.sampled_from(_ODD), st.text(max_size=6)), max_size=6).map("".join)
NUMBERS = st.one_of(st.integers(), st.integers(min_value=10 ** 900, max_value=10 ** 1200),
                    st.floats(allow_nan=True), st.sampled_from([float("inf"), -0.0, 1e300, 5e-324]))
JSON = st.recursive(st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(TEXT, inner, max_size=3)), max_leaves=8)
SUBAGENT = st.none() | st.just(Conversation("claude-code", ("a.jsonl",), (Call("Read", {}, "x", "success", ORIGIN),)))
CALLS = st.builds(lambda tool, args, result, status, subagent: Call(tool, args, result, status, ORIGIN,
                                                                    subagent=subagent),
                  st.one_of(st.sampled_from(["Bash", "read_file", "mcp__x__y"]), TEXT),
                  st.one_of(st.just({}), JSON), JSON, st.one_of(st.sampled_from(["success", "error"]), TEXT), SUBAGENT)
TEXTS = st.builds(lambda kind, text, title: Text(kind, title, text, ORIGIN),
                  st.one_of(st.sampled_from(["agent", EVAL_PROMPT, "user", "hook"]), TEXT), TEXT, TEXT)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(CALLS, TEXTS), max_size=6), st.sampled_from([(), (("/work/repo", "<cwd>"),)]))
def test_generated_conversations_read_as_parsed(entries, placeholders):
    direct, parsed = direct_and_parsed(Conversation("openai", ("chat.json",), tuple(entries),
                                                    placeholders=placeholders))
    if direct is not None:
        assert same(direct, parsed)


def test_records_not_numbered_one_two_in_order_are_left_to_the_parser():
    """The writer numbers its records 1, 2, ... in order, which fits the parser's numbering
    whatever the notes say; another numbering the parser judges (here it fits, the notes
    numbered with the record: the parser trusts the record)."""
    text = "## [agent_notes] Step 1: text\n\nlook\n\n## [tool_calls] Step 2: Read\nTool: Read\nArgs: {}\n" \
           "Return: {}\nStatus: success\n"
    layout = (9, ((1, "agent_notes", 1), (5, "call", 2)), ())
    parsed = parse_transcript(text, TRANSCRIPT, REPORT)
    assert [call.step for call in parsed.calls] == [2]  # trusted by the parser
    assert direct_transcript(text, layout, TRANSCRIPT, REPORT) is None
    renumbered = text.replace("Step 2", "Step 1")
    assert same(direct_transcript(renumbered, (9, ((1, "agent_notes", 1), (5, "call", 1)), ()), TRANSCRIPT, REPORT),
                parse_transcript(renumbered, TRANSCRIPT, REPORT))
