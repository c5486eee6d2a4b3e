"""An executor log's ``## Final Result`` may hold headings of its own (``###`` to
``#####``), tables and ``<details>`` blocks: the response is the whole section, up
to the log's next ``##`` section, graded in place and imported alike."""

from __future__ import annotations

from pathlib import Path

import referee
from referee.engine.run.importers import import_sources

LOG = """# Eval Execution Transcript

## Eval Prompt
Show the run task results.

## Execution

### Step 1: Run the script
**Tool**: Bash `bash scripts/results.sh run-1`
**Result**: ok

## Final Result

### Run Task Results for run-1

#### Post-Plan stage (stage status: passed)

| Task Name | Status |
|---|---|
| Cost | failed |

##### Outcomes

<details>
<summary>Estimation</summary>

Total Cost before: 10
</details>

## Issues
- None
"""

RULES = """eval 1
expect "The table is in the answer": response matches /\\| Cost \\| failed \\|/
expect "The deepest heading's part is in the answer": response contains "Total Cost before"
expect "The answer opens with its own heading": response starts with "### Run Task Results"
expect "The answer stops where Issues begins": not response contains "## Issues"
"""


def test_the_final_result_is_the_whole_section_in_place_and_imported(tmp_path: Path):
    run = tmp_path / "ws" / "eval-1" / "with_skill"
    (run / "outputs").mkdir(parents=True)
    (run / "transcript.md").write_text(LOG, encoding="utf-8")
    (in_place,) = referee.grade(RULES, tmp_path / "ws")
    import_sources("skill-creator-log", [run / "transcript.md"], tmp_path / "imported", "1", "with_skill")
    (imported,) = referee.grade(RULES, tmp_path / "imported")
    for result in (in_place, imported):
        assert [e["outcome"] for e in result.expectations] == ["pass"] * 4, result.expectations
