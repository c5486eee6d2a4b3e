"""``referee analyze``: analysis.json from facts, in skill-creator's analyzer schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compare_workspace import graded, skill
from conftest import REPO
from referee.engine.cli import main
from skill_creator_schemas import analysis_problems

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def analyze(capsys, *args) -> tuple[int, dict | None, str]:
    capsys.readouterr()
    code = main(["analyze", *map(str, args), "--check"])
    out = capsys.readouterr()
    return code, json.loads(out.out) if code == 0 else None, out.err


@pytest.fixture(scope="module")
def fetcher(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("fetcher")
    plan = {"with_skill": [["validated", "good", "validated"]] * 5,
            "without_skill": [["bad", "partial", "good"]] * 5}
    return graded(root, plan), skill(root)


def test_the_bundled_example_is_analysed_from_its_facts(capsys):
    code, doc, _ = analyze(capsys, EXAMPLE, "--evals", EVALS)
    assert code == 0 and analysis_problems(doc) == []
    summary = doc["comparison_summary"]
    assert (summary["winner"], summary["winner_skill"]) == ("A", "booking-skill")
    assert doc["referee"]["assignment"] == {"A": "with_skill", "B": "without_skill"}
    weak = "\n".join(doc["loser_weaknesses"])
    assert "(1#4) fails in 2 of 2 runs of without_skill" in weak and '"IB3471"' in weak
    assert "claims \"travel_bookReservation was called\", which the record does not bear out" in weak
    strong = "\n".join(doc["winner_strengths"])
    assert "called travel_searchFlights as booking-skill/SKILL.md:8 says" in strong
    assert doc["instruction_following"]["winner"]["score"] == 10
    assert "eval 2: Read -> Bash" in doc["transcript_insights"]["winner_execution_pattern"]


def test_instruction_following_cites_skill_md_by_line(fetcher, capsys):
    workspace, folder = fetcher
    code, doc, _ = analyze(capsys, workspace, "--skill-path", folder)
    assert code == 0 and analysis_problems(doc) == []
    coverage = {row["name"]: row for row in doc["referee"]["skill_coverage"]}
    assert sorted(coverage) == ["api_fetch", "references/forms.md", "scripts/retry.sh", "scripts/validate.py"]
    assert coverage["references/forms.md"]["summary"] == "references/forms.md (SKILL.md:7) never opened in 30 runs"
    assert coverage["scripts/validate.py"]["summary"] == "scripts/validate.py (SKILL.md:9) ran in 10 of 30 runs"
    assert coverage["scripts/validate.py"]["configurations"]["with_skill"]["used"] == 10
    assert coverage["scripts/retry.sh"]["exists"] is False
    winner = doc["instruction_following"]["winner"]
    assert "fetcher/SKILL.md names references/forms.md at line 7; with_skill never opened it (0 of 15 runs)" \
        in winner["issues"]
    assert "fetcher/SKILL.md names scripts/retry.sh at line 10, which the skill folder lacks" in winner["issues"]
    assert winner["score"] == 1 + round(9 * 2 / 3)  # api_fetch and validate.py used, forms.md never
    suggestions = doc["improvement_suggestions"]
    assert [s["priority"] for s in suggestions] == sorted((s["priority"] for s in suggestions),
                                                          key=["high", "medium", "low"].index)
    assert any(s["category"] == "references" and "references/forms.md" in s["suggestion"] for s in suggestions)


def test_the_weaker_skill_gets_the_suggestions_with_their_impact(fetcher, capsys):
    workspace, folder = fetcher
    code, doc, _ = analyze(capsys, workspace, "--skill-path", folder, "--primary", "without_skill",
                           "--baseline", "with_skill")
    assert code == 0 and doc["comparison_summary"]["winner"] == "B"
    high = [s for s in doc["improvement_suggestions"] if s["priority"] == "high"]
    assert high and all("passes more often without it" in s["suggestion"] for s in high)
    assert any("points of without_skill's gated pass rate" in s["expected_impact"] for s in high)


def test_analysis_json_is_byte_identical_across_paths(tmp_path, capsys):
    for name in ("one", "two/deeper"):
        shutil.copytree(EXAMPLE, tmp_path / name / "ws")
        assert main(["analyze", str(tmp_path / name / "ws"), "--evals", str(EVALS)]) == 0
    capsys.readouterr()
    first = (tmp_path / "one/ws/comparison/analysis.json").read_bytes()
    assert first == (tmp_path / "two/deeper/ws/comparison/analysis.json").read_bytes()


def test_analyze_needs_the_skill(tmp_path, capsys):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    code, _, err = analyze(capsys, tmp_path / "ws")
    assert code == 2 and "--skill-path DIR" in err
    empty = tmp_path / "empty-skill"
    empty.mkdir()
    code, _, err = analyze(capsys, tmp_path / "ws", "--skill-path", empty)
    assert code == 2 and "no SKILL.md" in err


def test_analyze_and_validate_leave_the_comparison_files_alone(tmp_path, capsys):
    """analyze writes analysis.json into the folder compare wrote its comparisons
    to, and validate writes into the workspace (where `compare --out WS` puts them):
    neither removes a comparison file summary.json names."""
    workspace = shutil.copytree(EXAMPLE, tmp_path / "ws")
    rules = REPO / "examples" / "booking-skill" / "booking.rules"
    assert main(["compare", str(workspace), "--evals", str(EVALS)]) == 1
    assert main(["compare", str(workspace), "--evals", str(EVALS), "--out", str(workspace)]) == 1
    assert main(["analyze", str(workspace), "--evals", str(EVALS)]) == 0
    assert main(["validate", str(workspace), "--rules", str(rules), "--evals", str(EVALS), "--no-critique"]) == 0
    capsys.readouterr()
    for folder in (workspace / "comparison", workspace):
        named = json.loads((folder / "summary.json").read_text())["evals"]
        for name in (file for row in named for file in row["comparisons"]):
            assert (folder / name).is_file(), f"{folder.name}/{name} was removed"
