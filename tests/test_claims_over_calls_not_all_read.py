"""A claim no call bears out says so when the run's calls could not all be read.

grading.json's ``claims`` checks what the agent says it did against the calls. On
a transcript whose records are not trusted (their step numbers skip), or cut, the
evidence of an unverified claim read "no [tool_calls] record of Bash in the
transcript" as if every call had been read, beside a run whose checks over calls
are ERRORs. The claim stays unverified; its evidence now says the calls it was
looked up in are not all the run's, and why.

The run is built from a real Claude Code stream-json session that made two Bash
calls (tests/fixtures/real/claude-code/stream-parallel-calls, see its SOURCE.md),
imported, with the agent's note saying what it ran.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.facts.claims import find_claims
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import load_run

SOURCE = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "stream-parallel-calls"
          / "claude_stream_real_capture.jsonl")


def _claims(tmp_path: Path, edit) -> list:
    import_sources("claude-code", [SOURCE], tmp_path / "imported")
    [found] = (tmp_path / "imported").glob("*/outputs/transcript.md")
    text = found.read_text(encoding="utf-8").replace("Great! Both", "I ran the Bash tool twice. Both", 1)
    folder = tmp_path / "ws" / "eval-1" / "with_skill" / "run-1"
    (folder / "outputs").mkdir(parents=True)
    (folder / "transcript.md").write_text(edit(text), encoding="utf-8")
    return find_claims(load_run(folder, tmp_path / "ws"))


def test_a_claim_over_a_whole_record_is_borne_out(tmp_path):
    [claim] = _claims(tmp_path, lambda text: text)
    assert claim.claim == "Bash was called" and claim.verified
    assert "cannot all be read" not in claim.evidence and "could be read" not in claim.evidence


def test_a_claim_over_untrusted_records_says_the_calls_were_not_all_read(tmp_path):
    [claim] = _claims(tmp_path, lambda text: text.replace("Step 2: Bash", "Step 3: Bash", 1))
    assert claim.claim == "Bash was called" and not claim.verified
    assert "no [tool_calls] record of Bash" in claim.evidence
    assert "not every call of the run could be read" in claim.evidence
    assert "not trusted" in claim.evidence and "cannot be told" in claim.evidence
