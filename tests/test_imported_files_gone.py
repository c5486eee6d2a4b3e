"""An imported run whose response.md is gone (removed, or emptied, since the import
wrote the real session's reply there) has an unknown response: a check on it is an
ERROR, never a run with no response over which 'not response contains' passed. A run
whose import wrote no reply (an empty response.md) is read as before. So for the
metrics.json and timing.json an import wrote: removed or changed since, their figures
are unknown; a source map written before it recorded theirs reads them as they are."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover
from referee.engine.evaluate import evaluate
from referee.engine.grade import RulesSource

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "hello-world-script" / "transcript.jsonl"
RULES = 'eval "transcript"\nexpect 1: not response contains "zzz"\n'
FIGURES = ('eval "transcript"\nexpect 1: not (metrics.total_tool_calls > 100)\n'
           'expect 2: not (timing.total_tokens > 100000000)\n')


def _outcome(workspace: Path, rules: str = RULES, which: int = 0) -> str:
    program = RulesSource((("r.rules", rules),)).compile()
    run = discover(workspace).runs[0]
    return evaluate(program.for_run(run.id, run.metadata), run)[which].outcome.value


def _imported(tmp_path: Path) -> tuple[Path, Path]:
    assert main(["import", "claude-code", str(REAL), "--out", str(tmp_path / "ws")]) == 0
    return tmp_path / "ws", tmp_path / "ws" / "transcript" / "outputs" / "response.md"


def test_a_response_removed_after_the_import_is_unknown(tmp_path):
    workspace, response = _imported(tmp_path)
    assert _outcome(workspace) == "pass"
    response.unlink()
    assert _outcome(workspace) == "error"


def test_a_response_emptied_after_the_import_is_unknown(tmp_path):
    workspace, response = _imported(tmp_path)
    response.write_text("", encoding="utf-8")
    assert _outcome(workspace) == "error"


def test_a_run_imported_with_no_reply_is_read_as_before(tmp_path):
    workspace, response = _imported(tmp_path)
    response.write_text("", encoding="utf-8")
    source_map = workspace / "transcript" / "source_map.json"
    recorded = json.loads(source_map.read_text(encoding="utf-8"))
    recorded["sha256"]["outputs/response.md"] = hashlib.sha256(b"").hexdigest()  # as an import of no reply writes it
    source_map.write_text(json.dumps(recorded), encoding="utf-8")
    assert _outcome(workspace) == "pass"


def test_metrics_removed_after_the_import_are_unknown(tmp_path):
    workspace, _ = _imported(tmp_path)
    assert _outcome(workspace, FIGURES) == "pass"
    (workspace / "transcript" / "outputs" / "metrics.json").unlink()
    assert _outcome(workspace, FIGURES) == "error"


def test_timing_changed_after_the_import_is_unknown(tmp_path):
    workspace, _ = _imported(tmp_path)
    timing = workspace / "transcript" / "timing.json"
    figures = json.loads(timing.read_text(encoding="utf-8"))
    timing.write_text(json.dumps({**figures, "total_tokens": 1}), encoding="utf-8")
    assert _outcome(workspace, FIGURES, 1) == "error"


def test_a_source_map_that_records_no_figures_reads_them_as_they_are(tmp_path):
    workspace, _ = _imported(tmp_path)
    source_map = workspace / "transcript" / "source_map.json"
    recorded = json.loads(source_map.read_text(encoding="utf-8"))
    for name in ("outputs/metrics.json", "timing.json"):
        del recorded["sha256"][name]
    source_map.write_text(json.dumps(recorded), encoding="utf-8")
    (workspace / "transcript" / "outputs" / "metrics.json").unlink()
    assert _outcome(workspace, FIGURES) == "pass"


HARNESS = 'eval "transcript"\nexpect 1: no harness where .text contains "rm -rf"\n'


def test_harness_text_of_a_transcript_gone_or_changed_is_unknown(tmp_path):
    workspace, _ = _imported(tmp_path)
    view = workspace / "transcript" / "outputs" / "transcript.md"
    assert _outcome(workspace, HARNESS) == "pass"
    text = view.read_text(encoding="utf-8")
    assert "## [harness]" in text or "## Eval Prompt" in text
    view.write_text(text.replace("## Eval Prompt", "## Notes"), encoding="utf-8")
    assert _outcome(workspace, HARNESS) == "error"
    view.unlink()
    assert _outcome(workspace, HARNESS) == "error"
