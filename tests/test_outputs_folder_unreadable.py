"""A folder under outputs/ that cannot be listed leaves the list of outputs unknown.

``os.walk`` skips a folder it cannot read (permission denied, say) without a word,
unless asked: the files in it would be missing from ``outputs``, and ``count(outputs)
== 1`` or ``no outputs have ...`` would pass on part of the list. The superuser reads
every folder, so the refusal is made here by ``os.scandir``, which ``os.walk`` lists
folders with.
"""

from __future__ import annotations

import contextlib
import io
import json
import os

from referee.engine.cli import main

RULES = 'eval 1\nexpect 1: count(outputs) == 1\nexpect 2: no outputs have . contains "secret"\n'


def _grade(tmp_path) -> list[dict]:
    run = tmp_path / "ws" / "iteration-1" / "eval-1-demo" / "with_skill" / "run-1"
    (run / "outputs" / "kept").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Done.\n", encoding="utf-8")
    (run / "outputs" / "kept" / "secret.txt").write_text("the key\n", encoding="utf-8")
    rules = tmp_path / "demo.rules"
    rules.write_text(RULES, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"])
    return json.loads(out.getvalue())["runs"][0]["expectations"]


def test_a_folder_that_cannot_be_read_makes_checks_over_the_outputs_errors(tmp_path, monkeypatch):
    scandir = os.scandir

    def refusing(path="."):
        if os.fspath(path).endswith(os.sep + "kept"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    expectations = _grade(tmp_path)
    assert [e["outcome"] for e in expectations] == ["error", "error"]
    assert "outputs/kept cannot be read (Permission denied)" in expectations[0]["evidence"]


def test_the_folder_read_decides_them(tmp_path):
    expectations = _grade(tmp_path)
    assert [e["outcome"] for e in expectations] == ["fail", "fail"]
