"""A rule that names an output file with Windows separators (`file "sub\\\\r.md"`)
reads the file it names, outputs/sub/r.md, since a backslash is a separator in
these paths (engine.run.safeio.safe_relative)."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.dsl.errors import RulesError
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome


def _compile(check: str):
    return compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")])


def _verdict(files: dict[str, str], check: str):
    program = _compile(check)
    run = memory_run(files)
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return verdict


@pytest.mark.parametrize("path", ["outputs\\\\report.md", ".\\\\outputs\\\\report.md", "outputs/report.md"])
def test_a_path_that_starts_with_the_outputs_folder_is_refused(path: str):
    # Input: `not file "outputs\\report.md" contains "secret"` on a run whose
    # outputs/report.md holds "secret". Only "outputs/" was refused (bad-path); with
    # a backslash the rule read outputs/outputs/report.md, which is not there, and
    # passed "vacuously".
    with pytest.raises(RulesError) as raised:
        _compile(f'not file "{path}" contains "secret"')
    assert [d.code for d in raised.value.diagnostics] == ["bad-path"]
    assert "relative to the run's outputs/ folder" in raised.value.diagnostics[0].message


def test_a_file_in_a_folder_named_outputs_below_outputs_is_still_read():
    verdict = _verdict({"outputs/sub/outputs/x.md": "secret\n"}, 'not file "sub\\\\outputs\\\\x.md" contains "secret"')
    assert verdict.outcome is Outcome.FAIL, verdict.message


@pytest.mark.parametrize("path", [".\\\\transcript.md", "sub\\\\..\\\\transcript.md", ".\\\\outputs\\\\transcript.md"])
def test_the_transcript_named_with_backslashes_is_refused_as_a_file(path: str):
    # Input: `not file ".\\transcript.md" contains "Bash"`. "./transcript.md" is
    # refused (the transcript is read as calls and notes, each with its trust); with
    # a backslash the rule read the transcript whole, agent notes and all.
    with pytest.raises(RulesError) as raised:
        _compile(f'not file "{path}" contains "Bash"')
    assert {d.code for d in raised.value.diagnostics} <= {"bad-operand", "bad-path"}
    assert any("transcript" in d.message for d in raised.value.diagnostics)


@pytest.mark.parametrize("path", ["sub\\\\r.md", "./sub//r.md", "sub/./r.md"])
@pytest.mark.parametrize("check, line", [
    ('not file "{}" contains "secret"', 2),
    ('not file "{}" matches /^secret$/m', 2),
    ('not exists file "{}"', None),
    ('not any file "{}" as lines have . == "secret"', 2),
])
def test_evidence_names_the_file_that_was_read(path: str, check: str, line: int | None):
    # Input: `not file "sub\\r.md" contains "secret"` on a run whose outputs/sub/r.md
    # holds it. The failure cited outputs/sub\r.md (or outputs/./sub//r.md): the
    # path as the rule wrote it, which names no file of the run.
    verdict = _verdict({"outputs/sub/r.md": "intro\nsecret\n"}, check.format(path))
    assert verdict.outcome is Outcome.FAIL, verdict.message
    assert [(e.file, e.line) for e in verdict.evidence] == [("outputs/sub/r.md", line)]
