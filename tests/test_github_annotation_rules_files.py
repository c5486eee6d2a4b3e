"""``report --format github --rules FILE`` knows the rules file that graded by the name
and digest ``rules_location`` records, which ``grade`` takes of the text as its one
reader of named files reads it: line endings kept, UTF-16 behind its mark decoded.
Read otherwise (CRLF made LF), a rules file written on Windows gave another digest,
and no failure was annotated on its rules line."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = 'eval 1 "x"\nexpect "says done": response contains "done"\n'


@pytest.mark.parametrize("encode", [lambda text: text.replace("\n", "\r\n").encode("utf-8"),
                                    lambda text: text.encode("utf-16")], ids=["crlf", "utf-16"])
def test_the_rules_line_is_annotated_whatever_the_line_endings(tmp_path, capsys, monkeypatch, encode):
    # Input: rules with CRLF line endings (or UTF-16 with its mark), a run that fails
    # its one assertion, report --rules naming the same file. The ::error named no file.
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("nope\n", encoding="utf-8")
    (tmp_path / "x.rules").write_bytes(encode(RULES))
    monkeypatch.chdir(tmp_path)
    assert main(["grade", "ws", "--rules", "x.rules"]) == 1
    capsys.readouterr()
    assert main(["report", "ws", "--format", "github", "--rules", "x.rules"]) == 1
    (failure,) = [line for line in capsys.readouterr().out.splitlines() if "1#1 says done" in line]
    assert failure.startswith("::error file=x.rules,line=2,title=")


def test_each_rules_file_is_read_once(tmp_path, capsys, monkeypatch):
    # report read each --rules file twice: once to refuse one it cannot read, once
    # to know it by its name and digest (Places.of)
    from referee.dsl import named_file

    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("nope\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text(RULES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["grade", "ws", "--rules", "x.rules"]) == 1
    capsys.readouterr()
    read, reader = [], named_file.read_named_text

    def counted(path, *args, **kwargs):
        read.append(Path(path).name)
        return reader(path, *args, **kwargs)

    monkeypatch.setattr(named_file, "read_named_text", counted)
    assert main(["report", "ws", "--format", "github", "--rules", "x.rules"]) == 1
    assert read.count("x.rules") == 1
    (failure,) = [line for line in capsys.readouterr().out.splitlines() if "1#1 says done" in line]
    assert failure.startswith("::error file=x.rules,line=2,title=")
