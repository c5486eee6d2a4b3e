"""outputs/transcript.md is left out of the grader's output files only when it is the
transcript, shown as the run's calls and notes. When the harness's transcript lies
beside outputs/, the one inside is a file the agent wrote, an output like any other:
it was shown nowhere, and "no output file holds a password" passed on a run whose
outputs/transcript.md held one."""

from __future__ import annotations

from pathlib import Path

from referee.engine.run.workspace import discover
from referee.llm_adapter.evidence import collect

RECORD = '## [tool_calls] Step 1: read\nTool: Read\nArgs: {}\nReturn: "ok"\nStatus: success\n'


def _shown(tmp_path: Path, beside: bool) -> list[tuple[str, str]]:
    run_dir = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run_dir / "outputs").mkdir(parents=True)
    (run_dir / "outputs" / "response.md").write_text("Done.\n", encoding="utf-8")
    if beside:
        (run_dir / "transcript.md").write_text(RECORD, encoding="utf-8")
        (run_dir / "outputs" / "transcript.md").write_text("admin password: hunter2\n", encoding="utf-8")
    else:
        (run_dir / "outputs" / "transcript.md").write_text(RECORD, encoding="utf-8")
    run = next(iter(discover(tmp_path / "ws").runs))
    return [(s.source, s.file) for s in collect(run).segments]


def test_the_agents_transcript_md_beside_the_harness_one_is_an_output(tmp_path):
    assert _shown(tmp_path, beside=True) == [("tool_calls", "transcript.md"), ("response", "outputs/response.md"),
                                             ("outputs", "outputs/transcript.md")]


def test_outputs_transcript_md_that_is_the_transcript_is_shown_once(tmp_path):
    assert _shown(tmp_path, beside=False) == [("tool_calls", "outputs/transcript.md"),
                                              ("response", "outputs/response.md")]
