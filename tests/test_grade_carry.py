"""grade without --llm keeps the LLM grader's earlier verdicts while the run's files
and the assertion are unchanged, marked as carried over; otherwise it says that
the earlier verdict was dropped. Offline: the example's cassette is replayed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARGS = ["grade", "examples/booking-skill-workspace", "--rules", "examples/booking-skill/booking.rules",
        "--evals", "examples/booking-skill/evals/evals.json"]
CASSETTE = ["--llm", "replay:examples/booking-skill/judge.cassette.jsonl"]


def grade(where: Path, *extra: str) -> None:
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", *ARGS, *extra], cwd=where,
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr


def semantic(where: Path) -> dict[str, dict]:
    found = {}
    for path in sorted((where / "examples" / "booking-skill-workspace").rglob("grading.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        for item in report["expectations"]:
            if item["precision"] == "semantic":
                found[f"{path.parent.relative_to(where).as_posix()}#{item['key']}"] = item
    return found


def test_earlier_llm_verdicts_are_kept_while_nothing_changed(tmp_path: Path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    grade(tmp_path, *CASSETTE)
    judged = semantic(tmp_path)
    decided = {key: item for key, item in judged.items() if item["method"] == "grader"}
    assert decided and all(item["grader_input"].startswith("sha256:") for item in decided.values())
    grade(tmp_path)
    again = semantic(tmp_path)
    for key, item in decided.items():
        assert again[key]["method"] == "grader (carried over)"
        assert again[key]["judged_by"]["model"] == "answer-key-judge"  # who gave it
        assert ({k: v for k, v in again[key].items() if k not in ("method", "judged_by")}
                == {k: v for k, v in item.items() if k != "method"})
    first = sorted((tmp_path / "examples").rglob("grading.json"))
    grade(tmp_path)  # carrying over twice gives the same bytes
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in sorted((tmp_path / "examples").rglob("grading.json"))]


def test_a_changed_run_drops_its_earlier_verdict_and_says_so(tmp_path: Path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    grade(tmp_path, *CASSETTE)
    decided = [key for key, item in semantic(tmp_path).items() if item["method"] == "grader"]
    run = tmp_path / "examples" / "booking-skill-workspace" / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    (run / "outputs" / "response.md").write_text("Changed after the model read it.\n", encoding="utf-8")
    grade(tmp_path)
    after = semantic(tmp_path)
    changed = [key for key in decided if key.startswith(f"{run.relative_to(tmp_path).as_posix()}#")]
    assert changed
    for key in decided:
        item = after[key]
        if key in changed:
            assert item["outcome"] == "not_graded" and "was not kept" in item["evidence"]
            assert item["grader_input"] is None
        else:
            assert item["method"] == "grader (carried over)"


def test_another_declared_skill_type_drops_the_earlier_verdict(tmp_path: Path):
    """The grader's page names the standard it judges by, from the skill type: a verdict
    given by one standard is not kept once eval_metadata.json declares another."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    grade(tmp_path, *CASSETTE)
    decided = [key for key, item in semantic(tmp_path).items() if item["method"] == "grader"]
    folder = tmp_path / "examples" / "booking-skill-workspace" / "iteration-1" / "eval-1-book-flight"
    metadata = json.loads((folder / "eval_metadata.json").read_text(encoding="utf-8"))
    (folder / "eval_metadata.json").write_text(json.dumps({**metadata, "skill_type": "code_execution"}),
                                               encoding="utf-8")
    grade(tmp_path)
    after = semantic(tmp_path)
    inside = [key for key in decided if "/eval-1-book-flight/" in key]
    assert inside and all(after[key]["outcome"] == "not_graded" for key in inside)
    assert all(after[key]["method"] == "grader (carried over)" for key in decided if key not in inside)
