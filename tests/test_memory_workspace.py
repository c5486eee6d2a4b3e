"""A workspace held in memory gives the runs discovery gives on disk, and the public API
grades them into the bytes ``referee grade`` writes (what the Ray recipe rests on)."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.api import rules_name
from referee.engine.run.memory_workspace import memory_workspace, readers, run_folders
from referee.engine.run.workspace import discover
from sharded import EVALS, RULES, files, fresh, grade


def held(workspace: Path) -> dict[str, bytes]:
    return {p.relative_to(workspace).as_posix(): p.read_bytes() for p in workspace.rglob("*") if p.is_file()}


def test_runs_in_memory_are_the_runs_discovery_finds(tmp_path):
    ws = fresh(tmp_path)
    meta = ws / "iteration-1" / "eval-2-fare-export" / "without_skill" / "run-1" / "eval_metadata.json"
    meta.write_text("[1, 2]", encoding="utf-8")  # a problem, reported alike
    ids = ws / "iteration-1" / "eval-1-book-flight" / "eval_metadata.json"
    ids.write_text(json.dumps({**json.loads(ids.read_text(encoding="utf-8")), "eval_id": "flights"}), encoding="utf-8")
    on_disk = list(discover(ws).runs)
    in_memory = memory_workspace(held(ws))
    assert [(r.id, r.id.extra, r.metadata, [str(p) for p in r.problems]) for r in in_memory] == \
        [(r.id, r.id.extra, r.metadata, [str(p) for p in r.problems]) for r in on_disk]
    assert any(r.id.eval_id == "flights" for r in in_memory) and any("bad-metadata" in str(p) for r in in_memory for p in r.problems)


def test_the_api_over_runs_in_memory_writes_what_grade_writes(tmp_path, capsys):
    ws = fresh(tmp_path)
    text, evals = RULES.read_text(encoding="utf-8"), EVALS.read_text(encoding="utf-8")
    program = referee.compile(text, rules_name(RULES, text), evals=EVALS, evals_name=rules_name(EVALS, evals))
    results = referee.grade(program, memory_workspace(held(ws)), evals=EVALS)
    grade(ws)
    assert {f"{r.path}/{name}": text.encode("utf-8") for r in results
            for name, text in (("grading.json", r.grading_json), ("ground_truth.json", r.ground_truth_json))} \
        == files(ws)


def test_which_runs_read_a_file():
    runs = run_folders(["e/a/run-1/outputs/t.md", "e/a/run-1/timing.json", "e/a/run-2/outputs/x/outputs/y",
                        "e/eval_metadata.json", ".git/outputs/x", "top.json"])
    assert runs == ["e/a/run-1", "e/a/run-2"]
    assert readers("e/a/run-1/timing.json", runs) == ["e/a/run-1"]
    assert readers("e/eval_metadata.json", runs) == ["e/a/run-1", "e/a/run-2"]
    assert readers("e/a/run-2/eval_metadata.json", runs) == ["e/a/run-2"]
    assert readers("top.json", runs) == [] and readers("eval_metadata.json", runs) == runs
    assert run_folders(["outputs/response.md"]) == ["."]
