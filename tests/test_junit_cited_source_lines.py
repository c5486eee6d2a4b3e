"""JUnit's failure body lists each cited line with the file it stands in. A line of the
run folder is named from the workspace (``ws/eval-1/with_skill/run-1/outputs/response.md:1``);
an imported run's evidence names its source (``transcript.md:25``, the log it was
imported from), which is not in the run folder, and is named as the evidence names it:
with the run folder before it, it read as a file of the run that is not there (or, for a
log named like a file the run holds, as that file's line 25)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

LOG = REPO / "tests" / "fixtures" / "import" / "skill-creator-log" / "outputs" / "transcript.md"


def test_a_source_line_is_not_named_inside_the_run_folder(tmp_path: Path, capsys):
    # Input: a skill-creator log imported as a run failing an assertion on its response,
    # whose evidence cites transcript.md:25 (the log). JUnit listed
    # "ws/eval-1/with_skill/run-1/transcript.md:25: ...", a file the run does not hold.
    assert main(["import", "skill-creator-log", str(LOG), "--out", str(tmp_path / "ws"), "--eval", "1",
                 "--config", "with_skill"]) == 0
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "no price": not response contains "189 EUR"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    out = tmp_path / "junit.xml"
    assert main(["report", str(tmp_path / "ws"), "--format", "junit", "-o", str(out)]) == 1
    failure = ET.fromstring(out.read_bytes()).find("testsuite/testcase/failure")
    lines = failure.text.splitlines()
    assert "transcript.md:25: Booked LX2084 for Ana Müller at 189 EUR." in lines
    assert not any(line.endswith("run-1/transcript.md:25: Booked LX2084 for Ana Müller at 189 EUR.") for line in lines)


def test_a_line_of_the_run_folder_is_named_from_the_workspace(tmp_path: Path, capsys):
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("189 EUR\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "no price": not response contains "189 EUR"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    out = tmp_path / "junit.xml"
    assert main(["report", str(tmp_path / "ws"), "--format", "junit", "-o", str(out)]) == 1
    failure = ET.fromstring(out.read_bytes()).find("testsuite/testcase/failure")
    assert any(line.endswith("ws/eval-1-x/with_skill/run-1/outputs/response.md:1: 189 EUR")
               for line in failure.text.splitlines())
