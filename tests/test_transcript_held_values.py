"""The Args and Return values the writer hands to the direct reading of a transcript
(the layout's third part) are the values their lines' JSON reads as: taken as they are, they
give the transcript that reading every value from its line gives (the reference,
that part empty), which is the parser's. ``transcript_direct.reads_as_is`` says where the
value may stand for its text: held to ``safejson.json_value`` on generated values (floats,
Decimals, integers too long to read, NaN, nesting too deep, texts that look like numbers)
and on chosen ones; the transcripts on every source the import tests use and on seeded
generated runs of the peers' benchmark.
"""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from transcript_cases import CASES, FIXTURES, ORIGIN, REPORT, nested, same

from referee.engine.run.importers import each_conversation, read_sources
from referee.engine.run.importers.exact import dumps_told, loads
from referee.engine.run.transcript_direct import reads_as_is
from referee.engine.run.importers.record import Call, Conversation
from referee.engine.run.importers.writer import TRANSCRIPT, render_run
from referee.engine.run.safejson import json_value
from referee.engine.run.transcript import parse_transcript
from referee.engine.run.transcript_direct import direct_transcript

sys.path.insert(0, str(FIXTURES.parent.parent / "benchmarks"))
import bench_peers  # noqa: E402  (the generated runs the peers are measured on)


# --- the value against its text ----------------------------------------------------------

def _agrees(value) -> bool:
    """Where ``reads_as_is`` says so, the reader reads the text written as the value itself."""
    text, plain = dumps_told(value)
    return not reads_as_is(text, plain) or same(json_value(text), (value,))


_WORDS = st.sampled_from(["1.5", "NaN", "Infinity", "1e-07", "rec-7", "-", "+", ".", "N", "I", "e+", "值", "\u2028"])
TEXT = st.one_of(st.text(max_size=5), _WORDS)
NUMBERS = st.one_of(st.integers(), st.integers(min_value=10 ** 990, max_value=10 ** 1010),
                    st.integers(min_value=-(10 ** 1010), max_value=-(10 ** 990)), st.floats(),
                    st.decimals(allow_nan=False), st.sampled_from([Decimal("123"), Decimal("1E+5000")]))
JSON = st.recursive(st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
                    max_leaves=10)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(JSON)
def test_a_value_held_is_what_its_text_reads_as(value):
    assert _agrees(value)


@pytest.mark.parametrize("value, held", [
    ({"id": "rec-7", "n": 55}, True),
    ({"amount": "12.50"}, False),  # a fraction's look in a text: read, to be sure
    ({"n": 1.5}, False), ({"n": 1e-7}, False), ({"n": 1e16}, False), ({"n": -0.0}, False),
    ([float("nan")], False), ([float("inf")], False), ([float("-inf")], False),
    ([Decimal("123")], False),  # written as an integer's digits, read as an int
    ([Decimal("1.50")], False),
    ([10 ** 999], False), ([-(10 ** 998)], True), ([10 ** 998], True),
    (nested(512), True), (nested(513), False),
    ("\ud800", True),  # a lone surrogate: the text written escapes it (and its values are read)
])
def test_chosen_values(value, held):
    text, plain = dumps_told(value)
    assert reads_as_is(text, plain) is held
    assert _agrees(value)


# --- the transcripts ----------------------------------------------------------------------

def _readings(conversation: Conversation):
    """The direct reading with the values held, the reference without them, and the parser's."""
    files = render_run(conversation)
    text = files.views[TRANSCRIPT]
    if files.layout is None:
        return None, None, parse_transcript(text, TRANSCRIPT, REPORT), files
    held = direct_transcript(text, files.layout, TRANSCRIPT, REPORT)
    read = direct_transcript(text, (*files.layout[:2], ()), TRANSCRIPT, REPORT)
    return held, read, parse_transcript(text, TRANSCRIPT, REPORT), files


def _check(conversation: Conversation) -> int:
    """The three readings agree; how many payloads were taken as held."""
    held, read, parsed, files = _readings(conversation)
    assert same(held, read)
    if held is None:
        return 0
    assert same(held, parsed)
    # taken as held: the call's value is the very object the layout held (never so when read again)
    return sum(v is not None and payload is not None and payload.value is v[0]
               for call, pair in zip(held.calls, files.layout[2])
               for payload, v in ((call.args, pair[0]), (call.result, pair[1])))


@pytest.mark.parametrize("root, case", CASES, ids=[c["id"] for _, c in CASES])
def test_every_import_source_reads_the_same_with_its_values_held(root: Path, case: dict):
    read = read_sources(case["format"], [root / s for s in case["sources"]], error_when=case.get("error_when"))
    for _, _, conversation in read.found:
        _check(conversation)


def test_seeded_generated_runs_read_the_same_and_take_the_values_held(tmp_path: Path):
    taken = 0
    for seed in range(6):
        messages = bench_peers.conversation(random.Random(seed), good=seed % 2 == 0)
        path = tmp_path / f"run-{seed}.json"
        path.write_text(json.dumps(messages, ensure_ascii=seed % 2 == 0), encoding="utf-8")
        for item in each_conversation("auto", [path], late=True):
            assert not isinstance(item, str)
            taken += _check(item[2])
    assert taken >= 6 * bench_peers.CALLS  # the answers at least: not one read again


def test_the_value_held_is_the_calls_own():
    """Not a copy read again from its text: the call's value itself."""
    args, result = loads('{"id": "rec-7"}')[0], loads('{"rows": [{"k": "a", "n": 5}], "ok": true}')[0]
    files = render_run(Conversation("openai", ("chat.json",), (Call("getRecord", args, result, "success", ORIGIN),)))
    assert files.layout is not None
    transcript = direct_transcript(files.views[TRANSCRIPT], files.layout, TRANSCRIPT, REPORT)
    assert transcript is not None
    assert transcript.calls[0].args.value is args and transcript.calls[0].result.value is result


@pytest.mark.parametrize("conversation", [
    Conversation("openai", ("chat.json",), (Call("Read", {"p": "/home/ann/x"}, "x", "success", ORIGIN),)),
    Conversation("openai", ("chat.json",), (Call("Read", {"p": "/work/repo/x"}, "x", "success", ORIGIN),),
                 placeholders=(("/work/repo", "<cwd>"),)),
    Conversation("openai", ("chat.json",), (Call("Read", {"p": "a\ud800"}, "x", "success", ORIGIN),)),
], ids=["home", "placeholder", "surrogate"])
def test_a_text_changed_after_it_was_rendered_has_its_values_read(conversation):
    files = render_run(conversation)
    assert files.layout is not None and files.layout[2] == ()
    assert _check(conversation) == 0


def test_a_value_whose_text_reads_otherwise_is_read_from_its_text():
    """A fraction is written as a float's text and read as a Decimal: never taken as held."""
    files = render_run(Conversation("openai", ("chat.json",), (Call("Pay", {"amount": 12.5}, {"ok": True},
                                                                     "success", ORIGIN),)))
    assert files.layout is not None and files.layout[2] != ()
    transcript = direct_transcript(files.views[TRANSCRIPT], files.layout, TRANSCRIPT, REPORT)
    assert transcript is not None and transcript.calls[0].args.value == {"amount": Decimal("12.5")}
    assert transcript.calls[0].result.value is files.layout[2][0][1][0]
