"""JUnit and the Markdown summary agree with referee's gate. In JUnit a failed
assertion the gate does not count (an existence check) is ``<skipped>`` with the
reason, never a ``<failure>`` that fails the CI job reading the file while
referee's own gate passes; the Markdown summary lists it marked as such, with the
reason, so a PASS report does not list, unmarked, a failure that reads as what
failed it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _graded(tmp_path: Path, rules: str) -> Path:
    run = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
    (run / "outputs" / "response.md").write_text("all done\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text('eval 1 "x"\n' + rules, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "x.rules")])
    return tmp_path / "ws"


def _junit(tmp_path: Path, ws: Path) -> tuple[int, ET.Element]:
    out = tmp_path / "junit.xml"
    code = main(["report", str(ws), "--format", "junit", "-o", str(out)])
    return code, ET.fromstring(out.read_bytes())


def _summary(tmp_path: Path, rules: str, capsys) -> tuple[int, str]:
    ws = _graded(tmp_path, rules)
    capsys.readouterr()
    code = main(["report", str(ws), "--format", "markdown", "-o", "-"])
    return code, capsys.readouterr().out


def test_an_ungated_existence_failure_is_skipped_with_its_reason(tmp_path, capsys):
    # Input: "exists file report.csv" (existence only: not gated) fails, "response
    # contains done" (gated) passes. grade and report exit 0 (PASS); JUnit said
    # failures="1", so a CI job failed on it.
    ws = _graded(tmp_path, 'expect "report exists": exists file "report.csv"\n'
                           'expect "says done": response contains "done"\n')
    code, root = _junit(tmp_path, ws)
    assert code == 0
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == ("0", "0", "1")
    suite = root.find("testsuite")
    assert (suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("0", "0", "1")
    case = suite.find("testcase[@name='1#1 report exists']")
    assert case.find("failure") is None
    skipped = case.find("skipped")
    assert skipped.get("message").startswith("this FAIL does not count toward the gate: existence only")
    assert "outputs/report.csv does not exist" in skipped.text


def test_a_gated_failure_beside_it_is_still_a_failure(tmp_path, capsys):
    ws = _graded(tmp_path, 'expect "report exists": exists file "report.csv"\n'
                           'expect "says hello": response contains "hello"\n')
    code, root = _junit(tmp_path, ws)
    assert code == 1
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == ("1", "0", "1")
    assert root.find(".//testcase[@name='1#2 says hello']/failure") is not None
    assert root.find(".//testcase[@name='1#1 report exists']/skipped") is not None


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
