"""GitHub shows the first 10 annotations of each kind (error, warning, notice) in a
step and drops the rest. ``report --format github`` annotates what fits, then says
in an annotation of the same kind how many it left out, and the decision always
stands among the 10: it is never the one dropped."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _annotations(tmp_path: Path, capsys, rules: str) -> tuple[int, list[str]]:
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (outputs / "response.md").write_text("all done\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text('eval 1 "x"\n' + rules, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "x.rules")])
    capsys.readouterr()
    code = main(["report", str(tmp_path / "ws"), "--format", "github", "-o", "-"])
    return code, capsys.readouterr().out.splitlines()


def _of(kind: str, lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(f"::{kind} ")]


def test_past_ten_failures_the_rest_are_counted_and_the_decision_shown(tmp_path, capsys):
    # Input: 12 gated assertions that fail. Every one was an ::error and the decision
    # the 13th, last: GitHub showed the first 10 failures, and neither the other two
    # nor that the decision was FAIL.
    rules = "".join(f'expect "says word{n}": response contains "word{n}"\n' for n in range(12))
    code, lines = _annotations(tmp_path, capsys, rules)
    assert code == 1
    errors = _of("error", lines)
    assert len(errors) == 10
    assert sum("/run-1 1#" in e for e in errors) == 8  # the first eight failures
    assert any(e.startswith("::error title=referee FAIL::") for e in errors)
    assert any("4 more failed assertions not annotated" in e for e in errors)


def test_ten_failures_or_fewer_are_each_annotated(tmp_path, capsys):
    rules = "".join(f'expect "says word{n}": response contains "word{n}"\n' for n in range(9))
    _, lines = _annotations(tmp_path, capsys, rules)
    errors = _of("error", lines)
    assert len(errors) == 10 and not any("not annotated" in e for e in errors)


def test_past_ten_warnings_the_rest_are_counted(tmp_path, capsys):
    # existence checks that fail are warnings (not gated); one gated pass keeps a PASS
    rules = "".join(f'expect "file{n} exists": exists file "f{n}.csv"\n' for n in range(11))
    code, lines = _annotations(tmp_path, capsys, rules + 'expect "done": response contains "done"\n')
    assert code == 0
    warnings = _of("warning", lines)
    assert len(warnings) == 10
    assert any("2 more failures the gate does not count not annotated" in w for w in warnings)
    assert any(n.startswith("::notice title=referee PASS::") for n in _of("notice", lines))
