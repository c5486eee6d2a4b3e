"""``with_skill`` against ``old_skill``: skill-creator's layout when improving a skill.

skill-creator runs the edited skill as ``with_skill/`` and, when a skill is being
improved, the snapshot of its old version as the baseline ``old_skill/`` (not
``without_skill/``); real workspaces (z5labs/ai's audit-skill-workspace, iterations
4 to 7) hold exactly these two. ``aggregate``, ``compare`` and ``report`` refused
them ("cannot tell which configuration is the skill under test"); the names tell:
``with_X`` is the primary and ``old_X`` its baseline when no ``without_X`` is there.
Where the names could pair two ways, the roles are still asked for.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.decision.configurations import choose
from referee.engine.usage import UsageError

REAL = Path(__file__).parent / "fixtures" / "real" / "audit-skill-workspace"


@pytest.mark.parametrize("names, roles", [
    (["old_skill", "with_skill"], ("with_skill", "old_skill")),
    (["with_skill", "old_skill"], ("with_skill", "old_skill")),
    (["With_Skill", "OLD_SKILL"], ("With_Skill", "OLD_SKILL")),
    (["with_skill", "without_skill", "old_skill"], ("with_skill", "without_skill")),
])
def test_with_x_is_the_primary_and_old_x_its_baseline(names, roles):
    choice = choose(names)
    assert (choice.primary, choice.baseline) == roles


def test_the_other_pairs_come_first():
    choice = choose(["with_skill", "new_skill", "old_skill"])
    assert (choice.primary, choice.baseline, choice.others) == ("new_skill", "old_skill", ("with_skill",))


def test_two_ways_to_pair_are_still_asked():
    with pytest.raises(UsageError, match="--primary NAME --baseline NAME"):
        choose(["with_a", "old_a", "with_b", "old_b"])


def test_aggregate_reads_the_real_workspace(tmp_path: Path):
    workspace = tmp_path / "ws"
    shutil.copytree(REAL, workspace)
    assert main(["grade", str(workspace), "--rules", str(workspace / "report.rules"),
                 "--response", "outputs/audit-report.md"]) in (0, 1)
    assert main(["aggregate", str(workspace)]) in (0, 1, 3)
    benchmark = json.loads((workspace / "benchmark.json").read_text(encoding="utf-8"))
    assert (benchmark["metadata"]["primary"], benchmark["metadata"]["baseline"]) == ("with_skill", "old_skill")
    assert list(benchmark["run_summary"]) == ["with_skill", "old_skill", "delta"]
