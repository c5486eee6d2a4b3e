"""JUnit carries the release decision ``referee aggregate`` wrote into benchmark.json,
the one ``referee report`` prints and exits with. Every assertion of the primary can
pass while the release decision is FAIL (too few runs where the release settings make
that a failure, an eval a null run passes, a regression): the file then holds a
``referee release`` suite whose error gives the breached rules, never suites that are
all passed, which a CI job reading the file takes for a green build. A CONDITIONAL
PASS is a ``<skipped>`` there, with its reasons: shown, without failing the build.
The GitHub annotation of a decision that is not PASS gives the same rules."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from referee.engine.cli import main

TRANSCRIPT = "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a\"}\nReturn: {}\nStatus: success\n"


def _decided(tmp_path: Path, on_breach_runs: str, runs: int = 1) -> Path:
    """``runs`` runs with the skill that pass, as many without that fail: one is too
    few for the standard mode, a breach of the ``runs`` rule; two are enough for the quick one."""
    ws = tmp_path / "ws"
    for config, response in (("with_skill", "all done"), ("without_skill", "nope")):
        for number in range(1, runs + 1):
            outputs = ws / "eval-1-x" / config / f"run-{number}" / "outputs"
            outputs.mkdir(parents=True)
            (outputs / "transcript.md").write_text(TRANSCRIPT, encoding="utf-8")
            (outputs / "response.md").write_text(response + "\n", encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text('eval 1 "x"\nexpect "says done": response contains "done"\n', encoding="utf-8")
    release = tmp_path / "release.toml"
    release.write_text(f'mode = "{"quick" if runs > 1 else "standard"}"\n[on_breach]\nruns = "{on_breach_runs}"\n',
                       encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(rules), "--primary", "with_skill"]) == 0
    main(["aggregate", str(ws), "--release-config", str(release)])
    return ws


def _junit(tmp_path: Path, ws: Path) -> tuple[int, ET.Element]:
    out = tmp_path / "junit.xml"
    code = main(["report", str(ws), "--format", "junit", "-o", str(out)])
    return code, ET.fromstring(out.read_bytes())


def test_a_failed_release_with_every_assertion_passed_is_an_error(tmp_path):
    # Input: the primary's one assertion passes; the release settings make too few
    # runs a failure, so benchmark.json's decision is FAIL and report exits 1. JUnit
    # said tests="2" failures="0" errors="0": a green build.
    ws = _decided(tmp_path, "fail")
    code, root = _junit(tmp_path, ws)
    assert code == 1
    assert root.get("errors") == "1"
    suite = root.find("testsuite[@name='referee release']")
    assert suite is not None and suite.get("errors") == "1"
    error = suite.find("testcase/error")
    assert error.get("message").startswith("release decision FAIL")
    assert "runs: standard mode needs 3 runs" in error.text
    assert "pass_rate" not in error.text  # the rules that held are not the reasons


def test_a_conditional_pass_is_skipped_with_its_reasons(tmp_path):
    ws = _decided(tmp_path, "conditional")
    code, root = _junit(tmp_path, ws)
    assert code == 3
    assert (root.get("failures"), root.get("errors")) == ("0", "0")
    suite = root.find("testsuite[@name='referee release']")
    skipped = suite.find("testcase/skipped")
    assert skipped.get("message").startswith("release decision CONDITIONAL PASS")
    assert "runs: standard mode needs 3 runs" in skipped.text
    assert int(root.get("skipped")) == 2  # the baseline's failure and the decision


def test_a_passed_release_adds_nothing(tmp_path):
    ws = _decided(tmp_path, "fail", runs=2)
    code, root = _junit(tmp_path, ws)
    assert code == 0
    assert root.find("testsuite[@name='referee release']") is None
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "0", "0")


def test_the_github_decision_gives_the_rules_it_breaks(tmp_path, capsys):
    # Input: the same FAIL. The decision's annotation said only "with_skill: 1 of 1 run
    # passed; gated assertions 1/1 passed": a FAIL with nothing that failed.
    ws = _decided(tmp_path, "fail")
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "github", "-o", "-"]) == 1
    (decision,) = [line for line in capsys.readouterr().out.splitlines() if "title=referee FAIL" in line]
    assert "gated assertions 1/1 passed%0Afail runs: standard mode needs 3 runs" in decision
    assert "pass_rate" not in decision
