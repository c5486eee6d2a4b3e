"""An output file named by a rule that the run holds only under a name differing by
case (`Report.md` for `report.md`), or by the trailing dots and spaces Windows drops,
is the same file where the run was made on Windows or macOS, and another one on
Linux: whether it "exists" would depend on the grading machine's file system. A
check on it is an ERROR naming both, never a pass of `not file "report.md"
contains ...` on a file referee did not read."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome


def _verdict(files: dict[str, str], check: str):
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])
    run = memory_run(files)
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict


@pytest.mark.parametrize("written", ["Report.md", "REPORT.MD", "sub/Report.md", "Sub/report.md"])
@pytest.mark.parametrize("check", ['not file "{}" contains "secret"', 'not exists file "{}"',
                                   'count(file "{}" as lines) == 0', 'not file "{}" matches /secret/'])
def test_a_name_held_only_in_another_case_is_an_error(written: str, check: str):
    held = "sub/report.md" if "/" in written else "report.md"
    verdict = _verdict({f"outputs/{held}": "the secret\n"}, check.format(written))
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert f"outputs/{held}" in verdict.message


@pytest.mark.parametrize("written", ["report.md.", "report.md "])
def test_a_name_windows_reads_without_its_trailing_dots_or_spaces_is_an_error(written: str):
    verdict = _verdict({"outputs/report.md": "the secret\n"}, f'not file "{written}" contains "secret"')
    assert verdict.outcome is Outcome.ERROR, verdict.message


def test_a_name_held_as_written_is_read_even_beside_another_case():
    files = {"outputs/report.md": "the secret\n", "outputs/Report.md": "clean\n"}
    assert _verdict(files, 'not file "report.md" contains "secret"').outcome is Outcome.FAIL
    assert _verdict(files, 'not file "Report.md" contains "secret"').outcome is Outcome.PASS


def test_a_name_held_in_no_case_is_missing():
    verdict = _verdict({"outputs/other.md": "x\n"}, 'not exists file "report.md"')
    assert verdict.outcome is Outcome.PASS, verdict.message


# macOS takes names in either Unicode normalization for one file, and wrote them
# decomposed ("e" and U+0301) on HFS+: a run made there holds "résumé.md" so, a rule
# typed elsewhere names it composed. On Linux they are two names.
@pytest.mark.parametrize("held, written", [("r\u0065\u0301sum\u0065\u0301.md", "r\u00e9sum\u00e9.md"),
                                           ("r\u00e9sum\u00e9.md", "r\u0065\u0301sum\u0065\u0301.md"),
                                           ("caf\u0065\u0301/notes.md", "caf\u00e9/notes.md")])
@pytest.mark.parametrize("check", ['not file "{}" contains "secret"', 'not exists file "{}"'])
def test_a_name_held_only_in_another_unicode_normalization_is_an_error(held: str, written: str, check: str):
    verdict = _verdict({f"outputs/{held}": "the secret\n"}, check.format(written))
    assert verdict.outcome is Outcome.ERROR, verdict.message
    assert "another Unicode normalization" in verdict.message and ascii(held)[1:-1] in verdict.message


def test_the_name_as_the_run_holds_it_is_read():
    held = "r\u0065\u0301sum\u0065\u0301.md"
    assert _verdict({f"outputs/{held}": "the secret\n"}, f'file "{held}" contains "secret"').outcome is Outcome.PASS
