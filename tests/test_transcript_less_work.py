"""The parse's shortcuts give exactly what their references give.

Each shortcut of ``parse_transcript`` that skips work most transcripts do not
need keeps the reference it stands for; here every one is switched back to its
reference and the whole Transcript compared, on transcripts shaped as real
sessions (benchmarks/bench_grade.py writes them: 40 calls, notes every 3 steps,
JSON spread over lines, text returns) and on the ways they break.
"""

from __future__ import annotations

import importlib.util
import random
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.run import numbering, safejson, transcript, transcript_sections
from referee.engine.run.numbering import Numbered, first_untrusted
from referee.engine.run.transcript import parse_transcript


def _bench_grade():
    """benchmarks/bench_grade.py, loaded from its file: the benchmarks are no package,
    and the search path of the other tests stays as it is."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_grade.py"
    spec = importlib.util.spec_from_file_location("bench_grade", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_grade = _bench_grade()


def _reference(text: str):
    """The parse with every shortcut switched to its reference."""
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(transcript, "_one_per_call", lambda records: False))
        stack.enter_context(mock.patch.object(safejson, "_SHORT_INTS", safejson._SCAN))
        stack.enter_context(mock.patch.object(transcript_sections, "hidden_headings",
                                              transcript_sections.hidden_headings_by_lines))
        return parse_transcript(text)


def _sessions() -> list[str]:
    return [bench_grade.transcript(random.Random(seed), seed % 2 == 0)[0] for seed in range(4)]


def _broken(text: str) -> list[str]:
    """``text`` with its numbering, fields and JSON broken as real logs break them."""
    return [
        text.replace("Step 5:", "Step 7:", 1),  # a record out of place
        text.replace("## [agent_notes] Step 3:", "## [agent_notes] Step 4:", 1),
        text.replace("\nStatus: success\n", "\n", 1),
        text.replace('"code": "200"', '"code": "200", "code": "201"', 1),  # a key given twice
        text.replace('"code": "200"', '"code": "200", "code": "200"', 1),  # given twice, same value
        text.replace('"code": "200"', '"code": ' + "9" * 1001, 1),  # a number too long
        text.replace('"code": "200"', '"code": ' + "9" * 1000, 1),
        text.replace('"code": "200"', '"code": 1.5e3, "x": NaN', 1),
        text.replace("Tool: Read", "Tool: Read\u200b", 1),
        text.replace("## [tool_calls] Step 4:", "   ## [tool_calls] Step 4:", 1),
        text.replace("## [tool_calls] Step 6:", "\u00a0## [tool_calls] Step 6:", 1),
    ]


SESSIONS = _sessions()


@pytest.mark.parametrize("text", SESSIONS + [broken for text in SESSIONS[:2] for broken in _broken(text)])
def test_the_parse_is_its_references_parse(text):
    # compared as written out: a NaN read from the JSON is not equal to itself
    assert repr(parse_transcript(text)) == repr(_reference(text))


@settings(max_examples=300)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 6)), max_size=8))
def test_records_numbered_one_per_call_fit_a_scheme(sections):
    """``_one_per_call`` stands for ``first_untrusted`` finding nothing."""
    numbered = [Numbered(record, step, line) for line, (record, step) in enumerate(sections, 1)]
    records = [section for section in numbered if section.record]
    if all(section.step == position for position, section in enumerate(records, 1)):
        assert first_untrusted(numbered, "t") is None
    assert numbering.first_untrusted is first_untrusted


SHORT = st.one_of(st.integers(-10**40, 10**40).map(str), st.sampled_from(["-0", "1e5", "-1.5E-3", "NaN", "-Infinity"]),
                  st.integers(995, 1000).map(lambda n: "9" * n), st.integers(995, 1000).map(lambda n: "-" + "9" * n))


@settings(max_examples=300)
@given(st.lists(SHORT, max_size=4), st.booleans())
def test_short_json_is_read_as_with_the_integer_hook(numbers, keyed):
    """Text shorter than MAX_NUMBER_CHARS is scanned without ``_bounded_int``."""
    text = ("{%s}" % ", ".join(f'"k{i % 2}": {n}' for i, n in enumerate(numbers))) if keyed else f"[{', '.join(numbers)}]"
    with mock.patch.object(safejson, "_SHORT_INTS", safejson._SCAN):
        expected = repr(safejson.json_value(text))
    assert repr(safejson.json_value(text)) == expected


def test_problem_and_note_are_frozen_values():
    """Problem and Note (made by ``dsl.frozen.frozen``; their constructors' parameters
    are held to their fields in tests/test_verdict_constructors.py) stay frozen, equal
    and hashable by value."""
    import dataclasses

    from referee.engine.run import model

    problem = model.Problem("bad-json", "a.md", "why", 3)
    assert problem == model.Problem(code="bad-json", path="a.md", message="why", line=3)
    assert hash(problem) == hash(model.Problem("bad-json", "a.md", "why", 3)) and problem.line == 3
    assert repr(problem) == "Problem(code='bad-json', path='a.md', message='why', line=3)"
    note = model.Note(0, None, "t", "x", "agent_notes", model.Location("a.md", 1))
    assert (note.tagged, note.text_line, note.is_eval_prompt) == (False, None, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.line = 4  # type: ignore[misc]
    assert dataclasses.replace(note, text="y").text == "y"


@settings(max_examples=500)
@given(st.text(alphabet=" \t\ufeff\u200b\u00a0\n#[a", max_size=30))
def test_hidden_headings_pattern_takes_its_run_possessively(text):
    """The run of unseen characters before '#' is never given back: '#' is none of
    them, so giving any back could never let '#' match (the pattern read before)."""
    import re

    from referee.engine.run import near_headings

    greedy = re.compile(f"\n([{near_headings._UNSEEN}]+)#")
    found = [(m.span(), m.group(1)) for m in near_headings._UNSEEN_START.finditer(text)]
    assert found == [(m.span(), m.group(1)) for m in greedy.finditer(text)]


# Pieces of lines around a record heading: what a reader may not see, line breaks
# (and the other breaks some editors end a line at), hashes and tags in every form.
_HEADING_PIECES = [" ", "    ", "\t", "\ufeff", "\u200b", "\u2060", "\u00a0", "\x0b", "\x0c", "\x85", "\u2028",
                   "\u2029", "\n", "\n\n", "#", "##", "####### ", "[tool_calls]", "[ Tool Calls ]", "[tool-call]",
                   " Step 1: x", "a", "#a", "[", "tool", "]"]


@settings(max_examples=1000)
@given(st.lists(st.sampled_from(_HEADING_PIECES), max_size=24).map("".join))
def test_hidden_headings_are_the_ones_found_line_by_line(text):
    """``hidden_headings`` looks only at lines whose first '#' follows an unseen
    character; the reference tries every line break. Same problems, same lines."""
    expected = transcript_sections.hidden_headings_by_lines(text, "t.md")
    assert transcript_sections.hidden_headings(text, "t.md") == expected


@pytest.mark.parametrize("text", SESSIONS + [broken for text in SESSIONS[:2] for broken in _broken(text)]
                         + [" #x\n\t# [tool_calls] Step 1\n    ## [TOOL_CALLS] Step 2\n  # [tool_calls]\n"])
def test_hidden_headings_of_sessions_are_the_ones_found_line_by_line(text):
    expected = transcript_sections.hidden_headings_by_lines(text, "t.md")
    assert transcript_sections.hidden_headings(text, "t.md") == expected
    if text.startswith(" #x"):  # behind a tab, behind four spaces; two spaces hide nothing
        assert [problem.line for problem in expected] == [2, 3]


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000\u200b\ufeff1[{a")), max_size=8))
def test_a_value_is_empty_where_nothing_is_left_once_stripped(text):
    """parse_json tells an empty value by ``str.isspace``, not by a stripped copy."""
    found = safejson.parse_json(text, "t.md")
    assert (found.problem is not None and found.problem.message == "empty: no JSON value") == (not text.strip())


def test_hidden_headings_take_a_time_linear_in_a_long_line():
    """Each "#" after a blank is looked at back to where its run of blanks starts, never
    to its line's start: one line of `` #`` repeated is read in linear time."""
    import time

    from linear_time import grows_linearly

    def seconds_for(repeats: int) -> float:
        text = " x \t#" * repeats + "\n\t## [tool_calls] Step 1: hidden\n"
        start = time.process_time()
        found = transcript_sections.hidden_headings(text, "t.md")
        assert [p.line for p in found] == [2]
        return time.process_time() - start

    grows_linearly(seconds_for)


def test_many_hidden_headings_take_a_time_linear_in_their_number():
    """The line of each hidden heading is counted on from the one before, not from the
    text's start: a text of such headings alone is read in linear time."""
    import time

    from linear_time import grows_linearly

    def seconds_for(repeats: int) -> float:
        text = "\t## [tool_calls] Step 1: hidden\n" * repeats
        start = time.process_time()
        found = transcript_sections.hidden_headings(text, "t.md")
        assert [p.line for p in found[-2:]] == [repeats - 1, repeats]
        return time.process_time() - start

    grows_linearly(seconds_for)
