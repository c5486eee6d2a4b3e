"""What ``referee import`` promises (docs/import.md): a run folder whole or not at all,
nothing synced to disk, and a view that is not what the import wrote never lets a
check over the run's calls pass (the machine may have stopped before the disk had it)."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import referee
from referee.engine.cli import main

SESSION = Path(__file__).resolve().parent / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = 'eval "session"\nexpect 1: no calls to "mcp__mail__send"\nexpect 2: response contains "a"\n'


def _imported(tmp_path: Path) -> Path:
    assert main(["import", "claude-code", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
    return tmp_path / "ws" / "session"


def _outcomes(folder: Path) -> list[str]:
    (result,) = referee.grade(RULES, folder)
    return [item["outcome"] for item in result.expectations]


def test_import_waits_for_no_disk(tmp_path: Path, capsys):
    with mock.patch("os.fsync", side_effect=AssertionError("import synced a file")):
        run = _imported(tmp_path)
    assert (run / "outputs" / "transcript.md").is_file()
    assert not [p for p in run.parent.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_a_view_left_short_makes_the_checks_over_calls_errors(tmp_path: Path, capsys):
    run = _imported(tmp_path)
    transcript = run / "outputs" / "transcript.md"
    text = transcript.read_text(encoding="utf-8")
    assert "Tool: mcp__mail__send" in text
    assert _outcomes(run)[0] == "fail"  # the session sends the mail
    # the disk kept the folder but not the end of its transcript: the last call is gone
    transcript.write_text(text[:text.index("Tool: mcp__mail__send")].rsplit("## [tool_calls]", 1)[0], encoding="utf-8")
    (result,) = referee.grade(RULES, run)
    first = result.expectations[0]
    assert first["outcome"] == "error" and "not the text the import wrote" in first["evidence"]
    assert result.expectations[1]["outcome"] in ("pass", "fail")  # the response is not a call


def test_a_transcript_put_beside_outputs_of_an_import_makes_the_checks_over_calls_errors(tmp_path: Path, capsys):
    """The harness's place beside outputs/ wins over the imported view: a transcript
    put there is not what the import wrote, whatever it holds."""
    run = _imported(tmp_path)
    text = (run / "outputs" / "transcript.md").read_text(encoding="utf-8")
    (run / "transcript.md").write_text(text[:text.index("Tool: mcp__mail__send")].rsplit("## [tool_calls]", 1)[0],
                                       encoding="utf-8")
    assert _outcomes(run)[0] == "error"


def test_a_source_map_that_cannot_be_read_makes_the_checks_over_calls_errors(tmp_path: Path, capsys):
    run = _imported(tmp_path)
    (run / "source_map.json").write_text("", encoding="utf-8")  # written, never reached the disk
    transcript = run / "outputs" / "transcript.md"
    text = transcript.read_text(encoding="utf-8")
    transcript.write_text(text[:text.index("Tool: mcp__mail__send")].rsplit("## [tool_calls]", 1)[0], encoding="utf-8")
    assert _outcomes(run)[0] == "error"


def test_an_untouched_import_is_checked_as_ever(tmp_path: Path, capsys):
    run = _imported(tmp_path)
    assert _outcomes(run)[0] == "fail"
    map_text = (run / "source_map.json").read_text(encoding="utf-8")
    assert json.loads(map_text)["sha256"]["outputs/transcript.md"]
