"""A run's source_map.json that is not what referee wrote (a place of another shape,
a number past any line) is ignored and said so (``bad-source-map``): never an internal
error. Before, a place that was an empty list or a string ended every command that
read the run in ``IndexError``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

SESSION = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "hello-world-script" / "transcript.jsonl"
RULES = 'eval 1\nexpect 1: exactly 1 calls to "Write"\nexpect 2: no calls to "Bash" with status error\n'


def _first_place(value):
    def change(source_map: dict) -> None:
        source_map["lines"]["outputs/transcript.md"][0] = value
    return change


def _unread_line(source_map: dict) -> None:
    source_map["unread"] = {"outputs/transcript.md": [[1e999, ["return"]]]}


def _problem_line(source_map: dict) -> None:
    source_map["problems"][0]["line"] = 1e999


@pytest.mark.parametrize("change", [_first_place([]), _first_place("x"), _first_place([0]), _first_place([0, 1, 2]),
                                    _first_place({"0": 1}), _first_place([0, 1e999]), _unread_line, _problem_line],
                         ids=["empty-place", "text-place", "one-number", "three-numbers", "object-place",
                              "infinite-line", "unread-infinite-line", "problem-infinite-line"])
def test_a_source_map_referee_did_not_write_is_ignored_and_said(tmp_path, capsys, change):
    workspace = tmp_path / "ws"
    assert main(["import", "claude-code", str(SESSION), "--out", str(workspace), "--eval", "1"]) == 0
    (path,) = workspace.rglob("source_map.json")
    source_map = json.loads(path.read_text(encoding="utf-8"))
    change(source_map)
    path.write_text(json.dumps(source_map), encoding="utf-8")  # 1e999 is written Infinity, as JSON readers take it
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    capsys.readouterr()
    code = main(["grade", str(workspace), "--rules", str(rules), "--check", "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1) and "internal error" not in err
    (run,) = json.loads(out)["runs"]
    assert any("bad-source-map" in warning for warning in run["warnings"]), run["warnings"]
    assert main(["show", str(workspace)]) == 0
    assert "internal error" not in capsys.readouterr().err
