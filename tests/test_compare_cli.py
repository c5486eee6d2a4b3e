"""``referee compare``: on the bundled example and on generated workspaces whose
better configuration is known; blinding, schema, determinism, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compare_workspace import better_plan, build, grade, graded, rules
from conftest import REPO
from referee.engine.cli import main
from skill_creator_schemas import analysis_problems, comparison_problems

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    return code, capsys.readouterr().out


def documents(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


@pytest.fixture()
def example(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    return tmp_path / "ws"


@pytest.fixture(scope="module")
def better(tmp_path_factory) -> Path:
    return graded(tmp_path_factory.mktemp("better"), better_plan())


def test_the_bundled_example_with_skill_wins_every_pair_but_two_evals_are_underpowered(example, capsys):
    code, out = run(capsys, "compare", example, "--evals", EVALS)
    assert code == 1  # not significant: two evals can never pass a sign test
    found = documents(example / "comparison")
    summary = found.pop("summary.json")
    assert [(r["eval_id"], r["wins"], r["losses"], r["vote"]) for r in summary["evals"]] == [
        ("1", 4, 0, "primary"), ("2", 1, 0, "primary")]
    assert summary["sign_test"]["result"] == "underpowered" and summary["sign_test"]["min_non_tie"] == 5
    assert "UNDERPOWERED" in out
    for name, doc in found.items():
        assert comparison_problems(doc) == [], name
        winner = doc["referee"]["assignment"].get(doc["winner"])
        assert winner == "with_skill", name
        assert doc["referee"]["decided_by"] == "rules_score"


def test_a_known_better_configuration_wins_the_sign_test(better, tmp_path, capsys):
    (tmp_path / "out").mkdir()
    code, out = run(capsys, "compare", better, "--out", tmp_path / "out")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert code == 0, out
    assert summary["sign_test"]["votes"] == {"primary": 6, "baseline": 0, "tie": 0}
    assert summary["sign_test"]["p_primary_exact"] == "1/64" and summary["sign_test"]["result"] == "primary better"
    # the same workspace, the roles swapped: the baseline is better, and the exit code says no
    code, _ = run(capsys, "compare", better, "--primary", "without_skill", "--baseline", "with_skill", "--check")
    assert code == 1


def test_equal_configurations_are_ties_never_a_coin_flip(tmp_path, capsys):
    plan = {"with_skill": [["good", "bad"]] * 5, "without_skill": [["good", "bad"]] * 5}
    workspace = graded(tmp_path, plan)
    code, _ = run(capsys, "compare", workspace)
    summary = json.loads((workspace / "comparison" / "summary.json").read_text(encoding="utf-8"))
    assert code == 1
    assert summary["sign_test"]["votes"] == {"primary": 0, "baseline": 0, "tie": 5}
    assert all(row["wins"] == row["losses"] == 1 and row["ties"] == 2 for row in summary["evals"])


def test_nothing_outside_the_assignment_names_a_side(example, capsys):
    run(capsys, "compare", example, "--evals", EVALS, "--seed", "3")
    secrets = ("with_skill", "without_skill", "flight-booking", "booking-skill", "iteration-1/")
    for name, doc in documents(example / "comparison").items():
        if name == "summary.json":
            continue
        assignment = doc["referee"].pop("assignment")
        assert set(assignment.values()) == {"with_skill", "without_skill"}
        text = json.dumps(doc, ensure_ascii=False).lower()
        assert not [s for s in secrets if s in text], name


def test_the_seed_changes_the_letters_never_the_winner(example, capsys):
    seen = {}
    for seed in range(4):
        out = example.parent / f"seed-{seed}"
        out.mkdir()
        run(capsys, "compare", example, "--seed", seed, "--out", out)
        for name, doc in documents(out).items():
            if name != "summary.json":
                letters = doc["referee"]["assignment"]
                seen.setdefault(name, set()).add((letters["A"], letters.get(doc["winner"])))
    assert all(len({winner for _, winner in pairs}) == 1 for pairs in seen.values())
    assert any(len({a for a, _ in pairs}) == 2 for pairs in seen.values()), "some pair is shown both ways"


def test_outputs_are_byte_identical_across_runs_paths_and_jobs(example, tmp_path, capsys):
    other = tmp_path / "elsewhere" / "copy"
    shutil.copytree(example, other)
    run(capsys, "compare", example)
    first = {n: p.read_bytes() for n, p in ((p.name, p) for p in (example / "comparison").iterdir())}
    run(capsys, "compare", other, "--jobs", "3")
    run(capsys, "compare", example)
    assert {p.name: p.read_bytes() for p in (other / "comparison").iterdir()} == first
    assert {p.name: p.read_bytes() for p in (example / "comparison").iterdir()} == first


def test_files_of_an_earlier_larger_comparison_are_removed(example, capsys):
    run(capsys, "compare", example)
    (example / "comparison" / "comparison-9.json").write_text(
        json.dumps({"winner": "A", "referee": {"assignment": {}}}), encoding="utf-8")
    (example / "comparison" / "comparison-10.json").write_text("not ours", encoding="utf-8")
    (example / "comparison" / "comparison-11.json").write_text("[" * 100_000, encoding="utf-8")
    assert run(capsys, "compare", example)[0] == 1
    names = sorted(p.name for p in (example / "comparison").iterdir())
    assert "comparison-9.json" not in names and {"comparison-10.json", "comparison-11.json"} <= set(names)


def test_usage_errors_exit_2(example, tmp_path, capsys):
    assert main(["compare", str(tmp_path / "missing")]) == 2
    assert main(["compare", str(example), "--primary", "nope"]) == 2
    assert main(["compare", str(example), "--iteration", "7"]) == 2
    lone = build(tmp_path / "lone", {"with_skill": [["good"]]})
    grade(lone, rules(tmp_path / "lone.rules", 1))
    capsys.readouterr()
    assert main(["compare", str(lone)]) == 2
    assert "only one configuration" in capsys.readouterr().err


def test_the_validator_catches_what_the_schema_forbids():
    good = {"winner": "A", "reasoning": "A is complete.",
            "rubric": {s: {"content": {"correctness": 4, "completeness": 5}, "structure": {"formatting": 3},
                           "content_score": 4.5, "structure_score": 3.0, "overall_score": 7.5} for s in "AB"},
            "output_quality": {s: {"score": 8, "strengths": ["x"], "weaknesses": []} for s in "AB"},
            "expectation_results": {s: {"passed": 1, "total": 2, "pass_rate": 0.5,
                                        "details": [{"text": "a", "passed": True}, {"text": "b", "passed": False}]}
                                    for s in "AB"}}
    assert comparison_problems(good) == []
    bad = json.loads(json.dumps(good))
    bad["winner"] = "C"
    bad["rubric"]["A"]["content_score"] = 3.0
    bad["rubric"]["B"]["content"]["correctness"] = 6
    bad["output_quality"]["A"]["score"] = 3
    bad["expectation_results"]["B"]["pass_rate"] = 1.0
    bad["rubric"]["B"]["colour"] = "red"
    problems = comparison_problems(bad)
    assert len(problems) >= 6, problems
    del good["reasoning"]
    assert comparison_problems(good) == ["$: lacks 'reasoning'"]
    assert analysis_problems({"comparison_summary": {}}) != []


def test_a_benchmark_older_than_the_grades_stops_none_of_the_readers_of_runs(example, capsys):
    """compare, analyze, validate and diff read the runs, never benchmark.json: one
    made before a run was graded again is aggregate's to redo, not a reason to refuse."""
    run_dir = example / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1"
    response = run_dir / "outputs" / "response.md"
    response.write_text(response.read_text(encoding="utf-8").replace("QX7K2M", "QX0000"), encoding="utf-8")
    rules = REPO / "examples" / "booking-skill" / "booking.rules"
    assert run(capsys, "grade", run_dir, "--rules", rules, "--evals", EVALS)[0] == 1
    assert run(capsys, "report", example, "--format", "markdown")[0] == 2  # what it would show is stale
    assert run(capsys, "compare", example, "--check")[0] == 1  # underpowered, as before
    assert run(capsys, "analyze", example, "--evals", EVALS, "--check")[0] == 0
    code, out = run(capsys, "diff", example / "benchmark.json", example)
    assert code == 0 and "eval 1 with_skill: 2/2 runs succeeded" in out and "one run flipped" in out
    code, out = run(capsys, "validate", example, "--rules", rules, "--evals", EVALS, "--no-critique", "--check")
    assert code == 0 and "power: 2 evals with both configurations" in out
