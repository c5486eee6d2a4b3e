"""The Markdown summary lists a failure the gate does not count (an existence check)
marked as such, with the reason, so a PASS report does not list, unmarked, a
failure that reads as what failed it."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _summary(tmp_path: Path, rules: str, capsys) -> tuple[int, str]:
    run = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("all done\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text('eval 1 "x"\n' + rules, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "x.rules")])
    capsys.readouterr()
    code = main(["report", str(tmp_path / "ws"), "--format", "markdown", "-o", "-"])
    return code, capsys.readouterr().out


def test_an_ungated_failure_is_marked_not_gated_with_its_reason(tmp_path, capsys):
    # Input: "exists file report.csv" (not gated) fails, "response contains done" passes.
    # The summary said PASS and listed "FAIL 1#1 report exists" with nothing more.
    code, text = _summary(tmp_path, 'expect "report exists": exists file "report.csv"\n'
                                    'expect "says done": response contains "done"\n', capsys)
    assert code == 0 and "## referee: PASS" in text
    assert "<summary><b>FAIL</b> (not gated) 1#1 report exists" in text
    assert "not counted toward the gate: existence only" in text


def test_a_gated_failure_is_listed_as_before(tmp_path, capsys):
    code, text = _summary(tmp_path, 'expect "says hello": response contains "hello"\n', capsys)
    assert code == 1
    assert "<summary><b>FAIL</b> 1#1 says hello" in text
    assert "not counted toward the gate" not in text
