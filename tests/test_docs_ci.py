"""docs/ci.md: its workflow is valid YAML using the action, and every referee command in it
parses (tests/test_action.py runs the workflow's steps)."""

from __future__ import annotations

import re
import shlex

import yaml

from conftest import REPO
from referee.engine.cli import parse_args

# Its sharded grading section is checked with docs/scale.md (test_docs_scale.py).
DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8").split("\n## Grading in shards", 1)[0]


def _commands() -> list[str]:
    found = []
    for block in re.findall(r"^```(?:sh|yaml)\n(.*?)^```$", DOC, flags=re.S | re.M):
        joined = re.sub(r"\n\s+--", " --", block)  # folded YAML lines continue a command
        found += [line.strip().split(" || ")[0].split("  #")[0]
                  for line in joined.splitlines() if line.strip().startswith("referee ")]
    return found


def test_the_workflow_is_yaml_with_the_steps_it_promises():
    workflow = yaml.safe_load(re.search(r"^```yaml\n(.*?)^```$", DOC, flags=re.S | re.M).group(1))
    steps = workflow["jobs"]["grade"]["steps"]
    uses = [str(step.get("uses", "")) for step in steps]
    assert "OWNER/referee@vX" in uses  # the action of this repository, pinned by the reader
    assert any(use.startswith("actions/upload-artifact@") for use in uses)
    assert any("junit.xml" in str(step.get("with", {}).get("report_paths", "")) for step in steps)
    assert any(step.get("name") == "Comment on the pull request" for step in steps)


def test_every_referee_command_in_the_doc_parses():
    commands = _commands()
    assert len(commands) >= 4
    for command in commands:
        args = parse_args(shlex.split(command)[1:])
        assert args.command in ("grade", "report"), command
