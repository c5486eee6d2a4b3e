"""`^` and `$` meet the lines `lines(...)` gives, in any text: a tool's output
written with CRLF (a Windows command) or lone CRs, held in a JSON value of its
record, has the lines DENIED and x, so `.return matches /^DENIED$/m` finds it. The
anchors met only a line feed there: `no calls where .return matches /^DENIED$/m`
passed while `any lines(.return) have . == "DENIED"` found the line."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.regexes import compile_regex
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome


def _verdict(output: str, check: str):
    record = json.dumps({"out": output})
    transcript = ("## Eval Prompt\n\nGo.\n\n## [tool_calls] Step 1: run\nTool: Bash\n"
                  f"Args: {{\"command\": \"dir\"}}\nReturn: {record}\nStatus: success\n")
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])
    run = memory_run({"outputs/transcript.md": transcript})
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("check", [
    "no calls where .return.out matches /^DENIED$/m",
    "no calls where .return.out matches /DENIED$/",
    "not any calls have .return.out matches /^x$/m",
    "not any calls have .return.out matches /(?<=\\n)DENIED$/m",
])
def test_a_forbidden_line_of_a_value_is_found_whatever_ends_its_lines(end: str, check: str):
    verdict = _verdict(f"ok{end}DENIED{end}x{end}".removesuffix(end) if "^x$" in check else f"ok{end}DENIED{end}",
                       check)
    assert verdict.outcome is Outcome.FAIL, verdict.message


@pytest.mark.parametrize("pattern, flags", [("^DENIED$", "m"), ("DENIED$", ""), ("(?<=k)\\s+^D", "m"), ("^x", "m")])
@pytest.mark.parametrize("text", ["ok\r\nDENIED\r\nx", "ok\rDENIED\rx", "ok\r\n\r\nDENIED\r\n"])
def test_a_match_starts_where_it_starts_in_the_text_as_written(pattern: str, flags: str, text: str):
    found = compile_regex(pattern, flags).search(text, "the text")
    lf = text.replace("\r\n", "\n").replace("\r", "\n")
    expected = compile_regex(pattern, flags).search(lf, "the text")
    assert (found is None) == (expected is None)
    if found is not None:
        start = found.start()
        # the same line, the same column
        assert text[:start].replace("\r\n", "\n").replace("\r", "\n") == lf[:expected.start()]


def test_a_pattern_without_line_anchors_reads_the_text_as_written():
    assert compile_regex("a.b", "").search("a\rb", "t") is not None
    assert compile_regex("a\\r\\nb", "").search("a\r\nb", "t") is not None
