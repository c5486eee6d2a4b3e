"""Shards whose rules read an eval's input file (``input "x"``) are one grade only if
every shard read the same file: each manifest records the digest of each input file
its rules read, and shards that read different ones are ``mixed``, as shards of
different rules are. An input file is read when the rules are compiled, from the
evals.json folder of the host that grades, so a shard graded after the file changed
(another checkout) would give verdicts about another file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from compare_workspace import build
from referee.engine.cli import main

RULES = """\
eval 1 "task-1"
expect 1: response contains input "expected.txt"
"""


def _skill(root: Path, expected: str) -> Path:
    """A skill folder: evals/evals.json listing evals/files/expected.txt for eval 1."""
    (root / "evals" / "files").mkdir(parents=True)
    (root / "evals" / "files" / "expected.txt").write_text(expected, encoding="utf-8")
    evals = {"skill_name": "fetcher", "evals": [
        {"id": 1, "prompt": "Fetch E1.", "expected_output": "value-1", "files": ["evals/files/expected.txt"],
         "expectations": ["replies with the value the input holds"]}]}
    path = root / "evals" / "evals.json"
    path.write_text(json.dumps(evals), encoding="utf-8")
    (root / "gen.rules").write_text(RULES, encoding="utf-8")
    return path


def _runs(root: Path) -> Path:
    return build(root, {"with_skill": [["good", "good", "good"]], "without_skill": [["bad", "bad"]]})


def test_shards_that_read_different_input_files_are_mixed(tmp_path: Path, capsys):
    # Input: 5 runs graded as 2 shards on two hosts whose evals/files/expected.txt
    # differ ("value-1" on host 1, "value-9" on host 2), reports copied into one
    # workspace. Before: merged with no problem, each run's verdict made from its
    # host's file.
    hosts = {1: "value-1", 2: "value-9"}
    for index, expected in hosts.items():
        evals = _skill(tmp_path / f"skill-{index}", expected)
        workspace = _runs(tmp_path / f"host-{index}")
        assert main(["grade", str(workspace), "--rules", str(evals.parent.parent / "gen.rules"),
                     "--evals", str(evals), "--shard", f"{index}/2"]) == 0
    merged = _runs(tmp_path / "merged")
    for index in hosts:
        source = tmp_path / f"host-{index}"
        name = f"shard-{index}-of-2.json"
        shutil.copy2(source / name, merged / name)
        for entry in json.loads((source / name).read_text(encoding="utf-8"))["runs"]:
            for report in ("grading.json", "ground_truth.json"):
                shutil.copy2(source / entry["path"] / report, merged / entry["path"] / report)
    first = json.loads((merged / "shard-1-of-2.json").read_text(encoding="utf-8"))
    assert list(first["inputs"]) == ["1"] and list(first["inputs"]["1"]) == ["evals/files/expected.txt"]
    capsys.readouterr()
    evals = tmp_path / "skill-1" / "evals" / "evals.json"
    assert main(["merge", str(merged), "--rules", str(tmp_path / "skill-1" / "gen.rules"), "--evals", str(evals)]) == 2
    err = capsys.readouterr().err
    assert "mixed: the shards were graded with different input files" in err


def test_shards_that_read_the_same_input_files_merge(tmp_path: Path, capsys):
    evals = _skill(tmp_path / "skill", "value-1")
    rules = evals.parent.parent / "gen.rules"
    whole, sharded = _runs(tmp_path / "whole"), _runs(tmp_path / "sharded")
    assert main(["grade", str(whole), "--rules", str(rules), "--evals", str(evals)]) == 1
    for index in (1, 2):
        assert main(["grade", str(sharded), "--rules", str(rules), "--evals", str(evals), "--shard", f"{index}/2"]) == 0
    assert main(["merge", str(sharded), "--rules", str(rules), "--evals", str(evals)]) == 1
    reports = [p.relative_to(whole) for name in ("grading.json", "ground_truth.json") for p in whole.rglob(name)]
    assert reports and all((whole / p).read_bytes() == (sharded / p).read_bytes() for p in reports)
