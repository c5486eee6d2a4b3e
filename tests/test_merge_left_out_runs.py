"""``referee merge`` derives again where each run stands in its manifest: the
shards' selection (their options) and the rules they graded with say which runs
were graded, not selected, or matched by no eval. A manifest edited to move a
failing run among its left-out runs is refused, never merged into a PASS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import build, rules
from referee.engine.cli import main
from referee.engine.run.select import Selection, described

FAILING = "iteration-1/eval-1-task-1/with_skill/run-3"


def _sharded(tmp_path: Path, *flags: str) -> tuple[Path, Path]:
    # Eval 1: with_skill runs 1 and 2 good, run 3 bad; eval 2 has no rule (eval 1 only).
    workspace = build(tmp_path / "ws", {"with_skill": [["good", "good", "bad"], ["good"]],
                                        "without_skill": [["bad"]]})
    rules_file = rules(tmp_path / "one.rules", 1)
    for index in (1, 2):
        assert main(["grade", str(workspace), "--rules", str(rules_file), "--shard", f"{index}/2", *flags]) == 0
    return workspace, rules_file


def _move_to_left_out(workspace: Path, path: str, reason: str) -> None:
    for manifest in workspace.glob("shard-*-of-2.json"):
        document = json.loads(manifest.read_text(encoding="utf-8"))
        entry = next((e for e in document["runs"] if e["path"] == path), None)
        if entry is None:
            continue
        document["runs"].remove(entry)
        document["left_out"].append({key: entry[key] for key in ("eval_id", "configuration", "run_number", "path")}
                                    | {"reason": reason})
        manifest.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        return
    raise AssertionError(f"no shard graded {path}")


def _merge(workspace: Path, rules_file: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["merge", str(workspace), "--rules", str(rules_file)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("reason", ["not selected", "no eval of the rules matches it"])
def test_a_failing_run_moved_among_the_left_out_is_refused(tmp_path: Path, capsys, reason: str):
    # The merge said "PASS ... 4 runs" and exited 0 over the runs the manifests kept.
    workspace, rules_file = _sharded(tmp_path)
    _move_to_left_out(workspace, FAILING, reason)
    code, err = _merge(workspace, rules_file, capsys)
    assert code == 2
    assert "selection: shard-" in err and f"lists {FAILING} as left out ({reason})" in err
    assert "make it graded: the manifest was edited" in err
    assert not (workspace / "shard-merge.json").exists()


def test_runs_left_out_by_the_selection_and_the_rules_merge(tmp_path: Path, capsys):
    # --config with_skill leaves without_skill out; eval 2 has no rule: both are
    # left out as the manifests say, and the merge decides on eval 1's runs.
    workspace, rules_file = _sharded(tmp_path, "--config", "with_skill")
    reasons = {e["path"]: e["reason"] for m in workspace.glob("shard-*-of-2.json")
               for e in json.loads(m.read_text(encoding="utf-8"))["left_out"]}
    assert reasons == {"iteration-1/eval-1-task-1/without_skill/run-1": "not selected",
                       "iteration-1/eval-2-task-2/with_skill/run-1": "no eval of the rules matches it"}
    assert _merge(workspace, rules_file, capsys)[0] == 1  # run 3 fails


def test_a_selected_run_said_not_selected_under_a_selection_is_refused(tmp_path: Path, capsys):
    workspace, rules_file = _sharded(tmp_path, "--config", "with_skill")
    _move_to_left_out(workspace, FAILING, "not selected")
    code, err = _merge(workspace, rules_file, capsys)
    assert code == 2 and "the shards' selection (--config with_skill)" in err


@pytest.mark.parametrize("selection", [Selection(), Selection(("1", "book-flight"), ("with skill",), (2, 10)),
                                       Selection(configs=("a--b",))])
def test_a_recorded_selection_reads_back(selection: Selection):
    assert described(selection.describe() or None) == selection


def test_a_text_no_selection_describes_reads_as_none():
    assert described("--evals 1") is None and described("--run two") is None
