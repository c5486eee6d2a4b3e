"""A JSON file's strings read as their values (engine.checks.json_strings): what the
text checks search once a miss in the file as written may be a hit in its strings."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, strategies as st

from linear_time import grows_linearly
from referee.engine.checks.json_strings import strings_read
from referee.engine.values import Prov

JSON_FILE = Prov("outputs", "result.json", "outputs/result.json")
TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(TEXTS, st.booleans())
def test_each_string_reads_as_its_value(value: str, ascii_only: bool):
    written = json.dumps({"k": value}, ensure_ascii=ascii_only)
    read = strings_read(written, JSON_FILE)
    if '"' + value + '"' in written:  # nothing escaped: it reads as written
        assert read is None
    else:
        assert read is not None and read.text == '{"k": "' + value + '"}'
        assert written[read.escape_near(written, 0)] == "\\"


def test_only_a_json_file_of_the_run_is_read_so():
    written = '{"cmd": "rm -rf \\/tmp"}'
    assert strings_read(written, JSON_FILE).text == '{"cmd": "rm -rf /tmp"}'
    for prov in (Prov("outputs", "notes.txt", "outputs/notes.txt"), Prov("tool_calls", "Bash", "outputs/x.json"),
                 None):
        assert strings_read(written, prov) is None


def test_an_invalid_literal_reads_as_written():
    written = '{"a": "\\ud83d", "b": "\\x", "c": "ok \\/"}'
    assert strings_read(written, JSON_FILE).text == '{"a": "\\ud83d", "b": "\\x", "c": "ok /"}'


def _time(unit: str, n: int) -> float:
    text = unit * n
    began = time.process_time()
    strings_read(text, JSON_FILE)
    return time.process_time() - began


@pytest.mark.parametrize("unit", ['\\"', '"\\', '"a\\/', '\\u0065"', '"\\\\', '"'])
def test_hostile_quotes_and_escapes_take_a_time_linear_in_their_length(unit: str):
    grows_linearly(lambda n: _time(unit, n))
