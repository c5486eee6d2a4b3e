"""``referee grade SOURCE...``: sessions and message lists graded in memory give what
``referee import`` then ``referee grade`` gives (the reference), on every real
source (tests/fixtures/real/imports.yaml) and every import fixture
(tests/fixtures/import/cases.yaml): the same verdicts, evidence, warnings and exit
code, and the same grading.json through ``referee.grade``; nothing is written. The
source map is handed over as data, and is the map its file would give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import referee
from referee.engine.cli import main
from referee.engine.report.freshness import files_digest
from referee.engine.run.importers import read_sources
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import MemoryRun
from referee.engine.run.model import RunId

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = [(FIXTURES / "real", case) for case in yaml.safe_load((FIXTURES / "real" / "imports.yaml").read_text())]
CASES += [(FIXTURES / "import", case) for case in yaml.safe_load((FIXTURES / "import" / "cases.yaml").read_text())]


def _graded(argv: list[str], capsys) -> tuple[int, dict]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def _options(case: dict) -> list[str]:
    return ["--error-when", case["error_when"]] if "error_when" in case else []


@pytest.mark.parametrize("root, case", CASES, ids=[c["id"] for _, c in CASES])
def test_sources_graded_in_memory_are_graded_as_imported_runs(root: Path, case: dict, tmp_path: Path, capsys):
    sources = [str(root / s) for s in case["sources"]]
    rules = ["--rules", str(root / case["rules"])]
    out = tmp_path / "ws"
    assert main(["import", case["format"], *sources, "--out", str(out), *_options(case)]) == 0
    capsys.readouterr()
    code, imported = _graded(["grade", str(out), *rules, "--check", "--json"], capsys)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    direct_code, direct = _graded(["grade", *sources, *rules, "--json", *_options(case)], capsys)
    assert direct_code == code
    assert direct == imported
    assert [run["path"] for run in direct["runs"]] == sorted(case["runs"])
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written


@pytest.mark.parametrize("root, case", [c for c in CASES if len(c[1]["sources"]) == 1],
                         ids=[c["id"] for _, c in CASES if len(c["sources"]) == 1])
def test_the_library_grades_a_source_as_the_command_writes_its_import(root: Path, case: dict, tmp_path: Path,
                                                                      capsys):
    out = tmp_path / "ws"
    assert main(["import", case["format"], str(root / case["sources"][0]), "--out", str(out), *_options(case)]) == 0
    main(["grade", str(out), "--rules", str(root / case["rules"])])
    capsys.readouterr()
    rules = (root / case["rules"]).read_text(encoding="utf-8")
    program = referee.compile(rules, Path(case["rules"]).name)
    written = {r.path: r.grading_json for r in referee.grade(program, out)}
    direct = referee.grade(program, root / case["sources"][0], error_when=case.get("error_when"))
    assert {r.path: r.grading_json for r in direct} == written


@pytest.mark.parametrize("root, case", CASES, ids=[c["id"] for _, c in CASES])
def test_sources_shown_in_memory_are_shown_as_imported_runs(root: Path, case: dict, tmp_path: Path, capsys):
    """``referee show SOURCE...`` shows the runs ``referee import`` writes, as ``show`` of
    that workspace does, and writes nothing."""
    sources = [str(root / s) for s in case["sources"]]
    out = tmp_path / "ws"
    assert main(["import", case["format"], *sources, "--out", str(out), *_options(case)]) == 0
    capsys.readouterr()
    code, imported = _graded(["show", str(out), "--json"], capsys)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    direct_code, direct = _graded(["show", *sources, "--json", *_options(case)], capsys)
    assert (direct_code, direct["runs"]) == (code, imported["runs"])
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_runs_of_one_eval_as_import_eval_makes_them(tmp_path: Path, capsys):
    root = FIXTURES / "import" / "openai"
    sources = [str(root / "chat.json"), str(root / "batch.jsonl")]
    rules = tmp_path / "one.rules"
    rules.write_text('eval "chats"\nexpect 1: count(calls) >= 1\n', encoding="utf-8")
    assert main(["import", "openai", *sources, "--out", str(tmp_path / "ws"), "--eval", "chats"]) == 0
    capsys.readouterr()
    code, imported = _graded(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"], capsys)
    direct_code, direct = _graded(["grade", *sources, "--as-eval", "chats", "--rules", str(rules), "--json"], capsys)
    assert (direct_code, direct) == (code, imported)
    assert [run["path"] for run in direct["runs"]] == [f"eval-chats/imported/run-{k}" for k in (1, 2, 3)]


def test_what_grade_says_of_sources(tmp_path: Path, capsys):
    session = FIXTURES / "import" / "claude-code" / "session.jsonl"
    rules = ["--rules", str(FIXTURES / "import" / "claude-code" / "session.rules")]
    main(["grade", str(session), *rules])
    assert "nothing was written: the sources were graded in memory" in capsys.readouterr().out
    empty = tmp_path / "notes.txt"
    empty.write_text("no conversation here\n", encoding="utf-8")
    assert main(["grade", str(empty), *rules]) == 2
    err = capsys.readouterr().err
    assert "notes.txt: not a format referee imports" in err and "nothing graded" in err
    assert main(["grade", str(session), str(tmp_path / "missing.jsonl"), *rules]) == 2
    assert "missing.jsonl: no such file" in capsys.readouterr().err
    assert main(["grade", str(session), str(tmp_path), *rules]) == 2
    assert "is a folder: give one folder, or source files" in capsys.readouterr().err
    assert main(["grade", str(tmp_path), "--as-eval", "x", *rules]) == 2
    assert "apply to source files" in capsys.readouterr().err
    assert main(["grade", str(session), "--error-when", "(", *rules]) == 2
    assert "--error-when" in capsys.readouterr().err
    assert main(["show", str(empty)]) == 2
    err = capsys.readouterr().err
    assert "notes.txt: not a format referee imports" in err and "nothing shown" in err


@pytest.mark.parametrize("root, case", CASES, ids=[c["id"] for _, c in CASES])
def test_a_map_given_as_data_is_the_map_read_back_from_its_file(root: Path, case: dict):
    """A run graded in memory takes its source map as data, never written as JSON and
    read back: it is the map (and the files digest) the written file gives."""
    for _, _, conversation in read_sources(case["format"], [root / s for s in case["sources"]],
                                           error_when=case.get("error_when")).found:
        written = render_run(conversation)
        run_id = RunId("eval-1/imported/run-1", "1", None, "imported", 1)
        from_file = MemoryRun(written.files, run_id)
        given = MemoryRun(written.views, run_id, source_map=written.source_map)
        assert given.source_map == from_file.source_map
        assert list(given.source_map[0].lines) == list(from_file.source_map[0].lines)
        assert files_digest(given) == files_digest(from_file)
