"""The line a warning gives for a byte that is not UTF-8, or a NUL, is counted as
every other place counts lines (engine.text.file_lines): a lone CR (classic Mac
OS) ends a line too. Counting line feeds alone, such a file's bad byte on line 3
was reported on line 1."""

from __future__ import annotations

import pytest

from referee.engine.run.safeio import decode

ENDS = ["\n", "\r\n", "\r"]


def _lines(end: str, third: bytes) -> bytes:
    return end.encode().join([b"one", b"two", third, b"four", b""])


@pytest.mark.parametrize("end", ENDS)
@pytest.mark.parametrize("third, code", [(b"caf\xe9", "not-utf8"), (b"a\x00b", "binary")])
def test_a_bad_byte_is_reported_on_its_line(end: str, third: bytes, code: str):
    _, problems = decode(_lines(end, third), "outputs/response.md")
    assert [(p.code, p.line) for p in problems] == [(code, 3)]


@pytest.mark.parametrize("end", ENDS)
def test_a_nul_character_in_utf16_is_reported_on_its_line(end: str):
    data = end.join(["one", "two", "a\x00b", "four", ""]).encode("utf-16")
    _, problems = decode(data, "outputs/response.md")
    assert [(p.code, p.line) for p in problems] == [("binary", 3)]


@pytest.mark.parametrize("end", ENDS)
def test_a_rules_file_s_bad_byte_is_reported_on_its_line(tmp_path, end: str):
    from referee.dsl.named_file import NotUtf8, read_named_text

    path = tmp_path / "case.rules"
    path.write_bytes(_lines(end, b"caf\xe9"))
    with pytest.raises(NotUtf8) as raised:
        read_named_text(path)
    assert raised.value.line == 3
