"""A run's source_map.json that is not what referee wrote (a place of another shape,
a number past any line) is ignored and said so (``bad-source-map``): never an internal
error. Before, a place that was an empty list or a string ended every command that
read the run in ``IndexError``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine.cli import main
from referee.engine.run.importers.source_map import source_map_of
from referee.engine.run.model import JsonFile

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


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                    max_leaves=12)
PLACE = st.one_of(st.none(), st.lists(st.one_of(st.integers(-2, 3), st.floats(), st.text(max_size=2)), max_size=5),
                  JSON)
NEAR = st.fixed_dictionaries({
    "format": st.one_of(st.just("claude-code"), JSON), "sources": st.one_of(st.just(["s.jsonl"]), JSON),
    "lines": st.one_of(st.dictionaries(st.sampled_from(["outputs/transcript.md", "x"]), st.lists(PLACE, max_size=4),
                                       max_size=2), JSON),
}, optional={"problems": JSON, "sha256": JSON, "unread": JSON, "options": JSON, "origin": JSON})


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, NEAR).filter(lambda value: value is not None))  # None: the file was unusable
def test_any_json_is_a_source_map_or_is_said_not_to_be_one(value):
    found, problems = source_map_of(JsonFile("source_map.json", value), Path("/run"))
    assert found is not None or [p.code for p in problems] == ["bad-source-map"]
