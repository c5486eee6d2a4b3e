"""A text file written with CRLF line ends (Windows editors, PowerShell) or lone CRs
(classic Mac OS) is read as the same text as its twin with LF line ends: the lines
are the same, so what a check finds in them is the same. Read as written, a
CRLF response held "a\\r\\nDENIED\\r\\n": `$` and `^` with the m flag never met the
line's end, and `not response matches /^DENIED$/m`, `not response contains
"a\\nDENIED"` and `not response ends with "DENIED\\n"` passed on a response that
shows the line DENIED."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome

ENDS = ["\n", "\r\n", "\r"]


def _verdict(files: dict[str, bytes], check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])
    run = memory_run(files)
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict


def _text(end: str) -> bytes:
    return end.join(["a", "DENIED", ""]).encode("utf-8")


@pytest.mark.parametrize("end", ENDS)
@pytest.mark.parametrize("check", [
    "not response matches /^DENIED$/m",
    "not response matches /DENIED$/",
    'not response contains "a\\nDENIED"',
    'not response ends with "DENIED\\n"',
    "not response fully matches /a\\nDENIED\\n/",
    'not file "o.txt" matches /^DENIED$/m',
])
def test_a_forbidden_line_is_found_whatever_ends_the_lines(end: str, check: str):
    verdict = _verdict({"outputs/response.md": _text(end), "outputs/o.txt": _text(end)}, check)
    assert verdict.outcome is Outcome.FAIL, verdict.message


@pytest.mark.parametrize("end", ENDS)
def test_a_line_anchored_match_is_cited_on_its_line(end: str):
    verdict = _verdict({"outputs/response.md": _text(end)}, "response matches /^DENIED$/m")
    assert verdict.outcome is Outcome.PASS, verdict.message
    assert [(e.file, e.line, e.quote) for e in verdict.evidence] == [("outputs/response.md", 2, "DENIED")]


@pytest.mark.parametrize("end", ENDS)
def test_a_utf16_file_with_windows_line_ends_reads_as_its_utf8_twin(end: str):
    data = "\ufeffa\r\nDENIED\r\n".replace("\r\n", end).encode("utf-16-le")
    verdict = _verdict({"outputs/response.md": data}, "not response matches /^DENIED$/m")
    assert verdict.outcome is Outcome.FAIL, verdict.message
    assert _verdict({"outputs/response.md": data}, "length(response) == 9").outcome is Outcome.PASS
