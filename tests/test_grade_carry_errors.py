"""An earlier LLM verdict that was an error is not carried over, and grading again
without --llm does not claim that the run or the assertion changed since."""

from __future__ import annotations

import json
from pathlib import Path

from sharded import RULE_ARGS, fresh

from referee.engine.cli import main
from referee.llm_adapter.cassette import FORMAT

RUN = Path("iteration-1") / "eval-1-book-flight" / "with_skill" / "run-1"


def semantic(workspace: Path) -> list[dict]:
    report = json.loads((workspace / RUN / "grading.json").read_text(encoding="utf-8"))
    return [item for item in report["expectations"] if item["precision"] == "semantic"]


def test_an_earlier_error_is_dropped_without_a_wrong_reason(tmp_path, capsys):
    # input: a grade whose cassette has no reply (the semantic assertion is an error),
    # then the same grade without --llm, nothing changed in between
    workspace, cassette = fresh(tmp_path), tmp_path / "empty.jsonl"
    cassette.write_text(json.dumps({"format": FORMAT, "version": 2, "backend": "openai", "model": "m",
                                    "params": {"temperature": 0, "seed": 0}, "judge": "empty"}) + "\n",
                        encoding="utf-8")
    main(["grade", str(workspace), *RULE_ARGS, "--llm", f"replay:{cassette}"])
    assert [(i["method"], i["outcome"]) for i in semantic(workspace)] == [("grader", "error")]
    main(["grade", str(workspace), *RULE_ARGS])
    [item] = semantic(workspace)
    assert (item["method"], item["outcome"]) == ("not_graded", "not_graded")
    assert "changed since" not in item["evidence"]
