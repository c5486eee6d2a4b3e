"""An executor log imported keeps the executor's user notes beside it.

The nabledge-test run (tests/fixtures/real/nabledge-test-workspace) holds the
executor's log as outputs/transcript.md beside outputs/user_notes.md (two
uncertainties, two workarounds, one suggestion). Graded as it lies, the run has
those notes (grading.json's user_notes_summary, ``exists file "user_notes.md"``);
imported with ``referee import skill-creator-log``, the run folder held the log's
view, its metrics.json and timing.json, and no notes: the summary came out empty
and the existence check failed. The notes are now carried over as written."""

from __future__ import annotations

from pathlib import Path

from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import discover

REAL = Path(__file__).parent / "fixtures" / "real" / "nabledge-test-workspace"
RUN = REAL / "eval-processing-005-183659" / "with_skill"


def _imported(tmp_path: Path, log: Path):
    import_sources("skill-creator-log", [log], tmp_path / "out", "processing-005", "with_skill", None)
    (run,) = discover(tmp_path / "out").runs
    return run


def test_the_user_notes_beside_the_log_are_the_imported_runs(tmp_path):
    run = _imported(tmp_path, RUN / "outputs" / "transcript.md")
    as_it_lies = next(r for r in discover(REAL).runs).user_notes
    assert len(run.user_notes.uncertainties) == 2 and len(run.user_notes.workarounds) == 2
    assert (run.user_notes.uncertainties, run.user_notes.workarounds, run.user_notes.suggestions) == \
        (as_it_lies.uncertainties, as_it_lies.workarounds, as_it_lies.suggestions)
    assert (run.path / "outputs" / "user_notes.md").read_bytes() == (RUN / "outputs" / "user_notes.md").read_bytes()


def test_a_log_with_no_notes_beside_it_gives_none(tmp_path):
    log = tmp_path / "alone" / "transcript.md"
    log.parent.mkdir()
    log.write_bytes((RUN / "outputs" / "transcript.md").read_bytes())
    run = _imported(tmp_path, log)
    assert not (run.path / "outputs" / "user_notes.md").exists()
    assert run.user_notes.uncertainties == ()
