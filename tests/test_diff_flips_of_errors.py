"""``referee diff``'s flipped assertions keep an ERROR apart from a failure: an
assertion whose runs errored in one state (evidence referee could not read) and
pass or fail in the other is said to have been unreadable there, never to have
failed there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import build, grade, rules
from referee.engine.cli import main

RESPONSE = "iteration-1/eval-1-task-1/with_skill/run-{k}/outputs/response.md"
NOT_UTF8 = b"| id | value |\n|----|-------|\n| E1 | value-1 \xff|\n"  # the two response checks error


@pytest.fixture(scope="module")
def states(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("flips-of-errors")
    found = {}
    for name, quality in (("errored", "good"), ("good", "good"), ("partial", "partial")):
        found[name] = build(root / name, {"with_skill": [[quality] * 3], "without_skill": [["bad"]]})
    for k in (1, 2, 3):
        (found["errored"] / RESPONSE.format(k=k)).write_bytes(NOT_UTF8)
    rules_file = rules(root / "gen.rules", 1)
    for workspace in found.values():
        grade(workspace, rules_file)
    return found


def _flips(capsys, base: Path, new: Path) -> tuple[dict, str]:
    capsys.readouterr()
    main(["diff", str(base), str(new), "--json"])
    doc = json.loads(capsys.readouterr().out)
    main(["diff", str(base), str(new)])
    return {f["key"]: f for f in doc["flipped_assertions"]}, capsys.readouterr().out


def test_errored_before_and_passing_now_is_not_a_failure_that_now_passes(states, capsys):
    flips, out = _flips(capsys, states["errored"], states["good"])
    flip = flips["1#2"]
    assert (flip["was"], flip["now"]) == ("errored", "passes")
    assert flip["base"]["errors"] == 3 and flip["new"]["errors"] == 0
    assert ('flipped: eval 1 with_skill 1#2 "replies with value-1" now passes, could not be read before '
            '(3 of 3 errored): 0/3 -> 3/3 passed') in out
    assert "now passes: 0/3" not in out


def test_passing_before_and_errored_now_is_not_a_failure(states, capsys):
    flips, out = _flips(capsys, states["good"], states["errored"])
    assert (flips["1#3"]["was"], flips["1#3"]["now"]) == ("passed", "errors")
    assert ('"replies with a table" now could not be read (3 of 3 errored), passed before: 3/3 -> 0/3 passed'
            in out)
    assert "now fails" not in out


def test_errored_before_and_failing_now_is_listed(states, capsys):
    flips, out = _flips(capsys, states["errored"], states["partial"])
    assert (flips["1#3"]["was"], flips["1#3"]["now"]) == ("errored", "fails")
    assert '"replies with a table" now fails, could not be read before (3 of 3 errored): 0/3 -> 0/3 passed' in out
    assert (flips["1#2"]["was"], flips["1#2"]["now"]) == ("errored", "passes")


def test_plain_flips_read_as_before(states, capsys):
    flips, out = _flips(capsys, states["good"], states["partial"])
    assert (flips["1#3"]["was"], flips["1#3"]["now"]) == ("passed", "fails")
    assert '"replies with a table" now fails: 3/3 -> 0/3 passed' in out
