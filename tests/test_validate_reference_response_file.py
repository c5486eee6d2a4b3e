"""A reference run given to ``referee validate --reference`` is read as ``referee
grade`` reads it: its response is the file evals.json names as the eval's
``response_file``, not outputs/response.md."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

EVALS = {"skill_name": "s", "evals": [{"id": 1, "prompt": "Book it.", "response_file": "outputs/result.md",
                                       "expectations": ["The answer names LX2084"]}]}


def run_folder(root: Path, files: dict[str, str]) -> Path:
    run = root / "eval-1" / "with_skill" / "run-1"
    for name, text in files.items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text(text, encoding="utf-8")
    return root


def validate(tmp_path: Path, capsys, reference: dict[str, str]) -> tuple[int, dict]:
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps(EVALS), encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect 1: response contains "LX2084"\n', encoding="utf-8")
    ws = run_folder(tmp_path / "ws", {"outputs/result.md": "Booked LX2084.\n"})
    ref = run_folder(tmp_path / "ref", reference)
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals), "--check"]) == 0
    capsys.readouterr()
    code = main(["validate", str(ws), "--rules", str(rules), "--evals", str(evals), "--reference", str(ref),
                 "--check", "--json", "--no-critique"])
    return code, json.loads(capsys.readouterr().out)


def test_the_reference_response_is_the_file_evals_json_names(tmp_path, capsys):
    code, doc = validate(tmp_path, capsys, {"outputs/result.md": "Booked LX2084.\n"})
    (row,) = doc["evals"]
    assert [r["gate"] for r in row["reference"]] == ["PASS"] and row["can_tell"] and code == 0


def test_a_response_md_beside_it_is_not_the_response(tmp_path, capsys):
    code, doc = validate(tmp_path, capsys, {"outputs/result.md": "No flight booked.\n",
                                            "outputs/response.md": "Booked LX2084.\n"})
    (row,) = doc["evals"]
    assert [r["gate"] for r in row["reference"]] == ["FAIL"] and code == 1
