"""The transcript is not a file operand: read whole, agent notes in it would pass as
an output. It is refused with a message that names what to use instead."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.dsl.errors import RulesError
from referee.engine.compile import compile_rules


def compile_text(text: str):
    return compile_rules([dsl.parse_rules(f"eval 1\n{text}\n", "t.rules")])


@pytest.mark.parametrize("path", ["transcript.md", "./transcript.md", "Transcript.md", "sub/../transcript.md"])
def test_the_transcript_as_a_file_is_refused(path: str):
    with pytest.raises(RulesError) as caught:
        compile_text(f'expect 1: file "{path}" contains "booked"')
    [diagnostic] = [d for d in caught.value.diagnostics if d.code == "bad-operand"]
    assert "transcript" in diagnostic.message and "notes" in diagnostic.message and "calls" in diagnostic.message
    assert diagnostic.line == 2


def test_other_files_named_alike_are_files():
    compile_text('expect 1: file "transcript.md.txt" contains "booked"')
    compile_text('expect 1: file "notes/transcript.md" contains "booked"')


def test_header_of_the_transcript_is_refused_too():
    import referee

    with pytest.raises(referee.RulesError) as caught:
        referee.compile('eval 1\nexpect: header(file "transcript.md" as csv) == ["a"]\n')
    assert [d.code for d in caught.value.diagnostics] == ["bad-operand"]
