"""An annotation names a file (``::error file=PATH,line=N::``) only when GitHub can find
PATH in the checkout. A path holding a byte that is not UTF-8 (a folder "eval-1-\\xff")
cannot be written in the UTF-8 log as it is: printed as the escape ``\\udcff`` it names
a path that does not exist, and the annotation is lost. Such an annotation stands on
the job instead, with the rest of its message, as one whose path holds a control
character does."""

from __future__ import annotations

import os
from pathlib import Path

from referee.engine.cli import main

FOLDER = os.fsdecode(b"eval-1-\xff")


def test_a_path_that_is_not_utf8_is_not_named(tmp_path: Path, capsys, monkeypatch):
    # Input: a run under the folder "eval-1-\xff" failing an assertion on its response;
    # report --format github wrote "file=ws/eval-1-\udcff/with_skill/run-1/outputs/response.md".
    outputs = tmp_path / "ws" / FOLDER / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("Done.\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "quiet": not response contains "Done"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["report", "ws", "--format", "github", "-o", "-"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("::error title=")
    assert "file=" not in lines[0] and "response.md contains" in lines[0]


def test_a_utf8_path_is_still_named(tmp_path: Path, capsys, monkeypatch):
    outputs = tmp_path / "ws" / "eval-1-\u00e9" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("Done.\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect "quiet": not response contains "Done"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["report", "ws", "--format", "github", "-o", "-"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("::error file=ws/eval-1-\u00e9/with_skill/run-1/outputs/response.md,line=1,")
