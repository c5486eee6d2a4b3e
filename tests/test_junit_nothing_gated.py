"""JUnit fails where referee's gate fails when nothing counted toward the gate: runs
whose assertions are all existence checks or semantic ones not graded are no pass
(``grade`` and ``report`` exit 1, the decision is FAIL), so the file must not read as
green to the CI job that reads it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import xmlschema
from conftest import REPO

from referee.engine.cli import main

XSD = REPO / "tests" / "fixtures" / "junit" / "junit-common.xsd"

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _graded(tmp_path: Path, rules: str, configs=("with_skill",)) -> Path:
    for config in configs:
        run = tmp_path / "ws" / "eval-1-x" / config / "run-1"
        (run / "outputs").mkdir(parents=True)
        (run / "outputs" / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
        (run / "outputs" / "response.md").write_text("all done\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text('eval 1 "x"\n' + rules, encoding="utf-8")
    main(["grade", str(tmp_path / "ws"), "--rules", str(tmp_path / "x.rules")])
    return tmp_path / "ws"


def _junit(tmp_path: Path, ws: Path, *extra: str) -> tuple[int, ET.Element]:
    out = tmp_path / "junit.xml"
    code = main(["report", str(ws), "--format", "junit", "-o", str(out), *extra])
    return code, ET.fromstring(out.read_bytes())


def test_nothing_gated_is_an_error_in_junit(tmp_path, capsys):
    # Input: a run whose only assertions are an existence check (passes) and a semantic
    # one (not graded: no --llm). report exits 1, its decision FAIL ("nothing counted
    # toward the gate: this is not a pass"); JUnit said failures="0" errors="0".
    ws = _graded(tmp_path, 'expect "report exists": exists file "response.md"\nexpect "polite": semantic "polite"\n')
    code, root = _junit(tmp_path, ws)
    assert code == 1
    assert root.get("errors") == "1"
    case = root.find("testsuite/testcase[@name='gate']")
    error = case.find("error")
    assert "nothing counted toward the gate" in error.get("message")
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in root.findall("testsuite"))
    xmlschema.XMLSchema(str(XSD)).validate(str(tmp_path / "junit.xml"))


def test_a_primary_with_nothing_gated_is_an_error_beside_a_failing_baseline(tmp_path, capsys):
    # The baseline's failures are context (skipped); the primary's runs count nothing.
    ws = _graded(tmp_path, 'expect "report exists": exists file "response.md"\n',
                 configs=("with_skill", "without_skill"))
    code, root = _junit(tmp_path, ws, "--primary", "with_skill")
    assert code == 1
    assert root.get("errors") == "1"


def test_a_gated_pass_adds_no_error(tmp_path, capsys):
    ws = _graded(tmp_path, 'expect "says done": response contains "done"\n')
    code, root = _junit(tmp_path, ws)
    assert code == 0
    assert (root.get("failures"), root.get("errors")) == ("0", "0")
    assert root.find("testsuite/testcase[@name='gate']") is None
