"""grading.json's ``skill_type`` is stated only where the run's calls decide it.

The real Claude Code session python-to-rust-port (tests/fixtures/real/claude-code,
see its SOURCE.md) starts a subagent whose log is not beside it: the import warns
``calls-may-be-missing``, and the subagent may have called an MCP tool. grading.json
said ``"skill_type": "code_execution"`` all the same, from the Bash calls that were
read; it now says null. A call seen to be an MCP call decides the type whatever the
calls not read were, and a session read in full keeps its type.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.facts.metrics import known_skill_type, run_skill_type
from referee.engine.grade import run_facts
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import Run, load_run

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"


def _imported(tmp_path: Path, source: Path) -> Run:
    import_sources("claude-code", [source], tmp_path / "ws")
    [folder] = (tmp_path / "ws").iterdir()
    return load_run(folder, tmp_path / "ws")


def test_calls_that_may_be_missing_leave_the_type_unknown(tmp_path):
    run = _imported(tmp_path, REAL / "python-to-rust-port" / "transcript.jsonl")
    assert run.every_call.incomplete() is not None
    assert known_skill_type(run) is None
    assert run_facts(run, "e").skill_type is None
    assert run_skill_type(run) == "code_execution"  # the grader's prompt needs one; it is not asked here


def test_a_session_read_in_full_keeps_its_type(tmp_path):
    run = _imported(tmp_path, REAL / "stream-parallel-calls" / "claude_stream_real_capture.jsonl")
    assert run.every_call.incomplete() is None
    assert known_skill_type(run) == run_facts(run, "e").skill_type == "code_execution"


def test_an_mcp_call_seen_decides_it_though_calls_are_missing(tmp_path):
    lines = (REAL / "mcp-thinking-api-error" / "real-claude-logs.jsonl").read_text(encoding="utf-8").splitlines()
    last = max(n for n, line in enumerate(lines) if '"tool_use"' in line)
    cut = tmp_path / "cut.jsonl"  # the last line holding a call, cut in the middle
    cut.write_text("\n".join(lines[:last] + [lines[last][: len(lines[last]) // 2]]) + "\n", encoding="utf-8")
    run = _imported(tmp_path, cut)
    assert run.every_call.incomplete() is not None
    assert known_skill_type(run) == "mcp_based"


def test_a_run_without_a_record_has_no_type_but_a_declared_one(tmp_path):
    folder = tmp_path / "eval-1" / "with_skill"
    (folder / "outputs").mkdir(parents=True)
    (folder / "outputs" / "response.md").write_text("done", encoding="utf-8")
    assert known_skill_type(load_run(folder, tmp_path)) is None
    (folder / "eval_metadata.json").write_text(json.dumps({"eval_id": 1, "skill_type": "mcp_based"}),
                                               encoding="utf-8")
    assert known_skill_type(load_run(folder, tmp_path)) == "mcp_based"


def test_grading_json_says_null_and_keeps_to_its_schema(tmp_path):
    from referee.engine.cli import main
    from test_schema import load, validate

    source = tmp_path / "port.jsonl"
    source.write_bytes((REAL / "python-to-rust-port" / "transcript.jsonl").read_bytes())
    main(["import", "claude-code", str(source), "--out", str(tmp_path / "ws"), "--eval", "1"])
    (tmp_path / "r.rules").write_text('eval "1"\nexpect 1: response contains "Rust"\n', encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "r.rules")])
    [written] = (tmp_path / "ws").rglob("grading.json")
    document = json.loads(written.read_text(encoding="utf-8"))
    assert document["skill_type"] is None
    schema = load("grading.schema.json")
    assert validate(document, schema, schema) == []
