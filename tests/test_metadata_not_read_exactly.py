"""A check over `metadata` when an eval_metadata.json of the run could not be read
as it is (bytes that are not UTF-8, JSON that is not valid, not an object) is an
ERROR naming the file, as one over metrics.json or timing.json is. The fields were
read from a lossy decoding, or were none: `not metadata.prompt contains "café"` and
`not exists metadata.prompt` passed on a file that holds them."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee

RULES = "eval 1\nexpect 1: {}\n"


def _grade(tmp_path: Path, data: bytes, check: str, level: str = "run") -> dict:
    run = tmp_path / "ws" / "eval-1" / "cfg" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("hi\n", encoding="utf-8")
    (run if level == "run" else run.parent.parent).joinpath("eval_metadata.json").write_bytes(data)
    (result,) = referee.grade(RULES.format(check), tmp_path / "ws")
    (item,) = result.expectations
    return item


@pytest.mark.parametrize("level", ["run", "eval"])
@pytest.mark.parametrize("data", [
    '{"eval_id": 1, "prompt": "Order a café"}'.encode("latin-1"),
    b'{"eval_id": 1, "prompt": "Order a caf',
    b'["Order a caf\xc3\xa9"]',
])
@pytest.mark.parametrize("check", ['not metadata.prompt contains "café"', "not exists metadata.prompt"])
def test_a_metadata_file_not_read_as_it_is_makes_the_check_an_error(tmp_path: Path, data: bytes, check: str,
                                                                       level: str):
    item = _grade(tmp_path, data, check, level)
    assert item["outcome"] == "error", item["evidence"]
    assert "eval_metadata.json cannot be used" in item["evidence"]


def test_a_metadata_file_read_as_it_is_is_checked(tmp_path: Path):
    data = '{"eval_id": 1, "prompt": "Order a café"}\r\n'.encode("utf-16")
    assert _grade(tmp_path, data, 'not metadata.prompt contains "café"')["outcome"] == "fail"
