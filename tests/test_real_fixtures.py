"""Real runs, graded as they lie and imported first (tests/fixtures/real/cases.yaml).

Every run of a case must give the verdicts the case lists; a run holding an
executor log must give the very same verdicts once imported into a workspace of
its own (same eval, same configuration), so the two front doors read it alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import referee
from referee.engine.run.importers import import_sources
from referee.engine.run.workspace import discover

REAL = Path(__file__).parent / "fixtures" / "real"
CASES = yaml.safe_load((REAL / "cases.yaml").read_text(encoding="utf-8"))


def _graded(case: dict, where: Path) -> dict[str, list[dict]]:
    rules = (REAL / case["rules"]).read_text(encoding="utf-8")
    evals = REAL / case["evals"] if case.get("evals") else None
    results = referee.grade(rules, where, evals=evals, response=case.get("response"))
    return {result.path: result.expectations for result in results}


def _outcomes(graded: dict[str, list[dict]]) -> dict[str, list[str]]:
    return {path: [item["outcome"] for item in items] for path, items in graded.items()}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_a_real_workspace_graded_as_it_lies(case: dict):
    graded = _graded(case, REAL / case["workspace"])
    assert _outcomes(graded) == case["runs"]
    for key in ("message_contains", "texts"):
        field = "evidence" if key == "message_contains" else "text"
        for path, wanted in (case.get(key) or {}).items():
            for position, part in wanted.items():
                assert part in graded[path][position - 1][field], (path, position)


@pytest.mark.parametrize("case", [c for c in CASES if c.get("import")], ids=lambda c: c["id"])
def test_an_imported_log_gives_the_verdicts_of_the_log_graded_as_it_lies(case: dict, tmp_path: Path):
    out = tmp_path / "imported"
    mapped = {}
    for run in discover(REAL / case["workspace"]).runs:
        log = run.path / "transcript.md"
        if not log.is_file():  # the executor wrote its log into outputs/
            log = run.path / "outputs" / "transcript.md"
        (imported,) = import_sources(case["import"], [log], out, run.id.eval_id, run.id.configuration,
                                     case.get("response")).written
        mapped[imported.name] = run.id.rel
    as_it_lies = _outcomes(_graded(case, REAL / case["workspace"]))
    imported = {mapped[path]: outcomes for path, outcomes in _outcomes(_graded(case, out)).items()}
    assert imported == as_it_lies == case["runs"]


@pytest.mark.parametrize("folder", sorted(path.name for path in REAL.iterdir() if path.is_dir()))
def test_each_real_workspace_names_its_source_and_license(folder: str):
    # A folder holds one real source (its SOURCE.md at the top) or several, each in
    # its own subfolder with its own SOURCE.md.
    sources = sorted((REAL / folder).rglob("SOURCE.md"))
    assert sources, folder
    for source in sources:
        lines = source.read_text(encoding="utf-8").splitlines()
        for field in ("- Repository:", "- License:"):
            assert any(line.startswith(field) for line in lines), (str(source.relative_to(REAL)), field)


def test_critique_reads_the_delivered_file_as_grade_does(capsys):
    """The word-count audit runs deliver outputs/audit-report.md: critique takes --response
    as grade does, so the assertions that pass in grade are critiqued, not "passed in no run"."""
    import json

    from referee.engine.cli import main

    where, rules = REAL / "word-count-audit-workspace", REAL / "word-count-audit-workspace" / "audit.rules"
    main(["critique", str(where), "--rules", str(rules), "--response", "outputs/audit-report.md", "--check",
          "--json"])
    found = {a["text"]: a for a in json.loads(capsys.readouterr().out)["assertions"]}
    opens = found["The report opens with its title"]
    assert len(opens["passing_runs"]) == 2 and opens["mutants"] and not opens["weak"]


def test_critique_takes_the_sentences_of_eval_metadata_as_grade_does(capsys):
    """audit-skill gives its sentences in eval_metadata.json alone (as {"id", "text"}
    assertions): `expect 4` is the fourth sentence to critique as to grade, under the
    same key and text."""
    import json

    import referee
    from referee.engine.cli import main

    where, rules = REAL / "audit-skill-workspace", REAL / "audit-skill-workspace" / "report.rules"
    main(["critique", str(where), "--rules", str(rules), "--response", "outputs/audit-report.md",
          "--check", "--json"])
    critiqued = {a["key"]: a["text"] for a in json.loads(capsys.readouterr().out)["assertions"]}
    (graded, _) = referee.grade(rules.read_text(encoding="utf-8"), where, response="outputs/audit-report.md")
    texts = {f"0#{n}": e["text"] for n, e in enumerate(graded.expectations, start=1)}
    assert list(critiqued) == [f"0#{n}" for n in range(2, 18) if n != 15]
    assert all(critiqued[key] == texts[key] for key in critiqued)


def test_a_grading_scripts_folder_with_no_outputs_is_no_run():
    """internalize-skill's with_skill/ holds only the run-1/grading.json a script wrote
    (its outputs were not committed): no run, said by a warning, never graded from
    that grade; without_skill/run-1/ is the grade folder beside a run's outputs/."""
    found = discover(REAL / "internalize-skill-workspace")
    assert [run.id.rel for run in found.runs] == ["iteration-1/eval-1/without_skill", "iteration-2/eval-2/with_skill"]
    warned = {(problem.code, problem.path) for problem in found.problems}
    assert ("no-outputs", "iteration-1/eval-1/with_skill/run-1") in warned
    assert ("grade-folder", "iteration-1/eval-1/without_skill/run-1") in warned
