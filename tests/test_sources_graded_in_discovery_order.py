"""Sources graded in memory come in the order ``grade`` gives the runs of the folder
``import`` writes: by eval, configuration and run number, as discovery orders them,
then by folder; never by folder name alone (``b`` before ``eval-a``, whose eval is
``a``). The reports, console lines and exit code are then those of the import."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.importers.in_memory import source_runs

CHAT = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}]
RULES = 'eval "a"\nexpect 1: response contains "done"\neval "b"\nexpect 1: response contains "done"\n'


def _sources(tmp_path: Path) -> list[str]:
    paths = [tmp_path / "src" / name for name in ("b.json", "eval-a.json")]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(CHAT), encoding="utf-8")
    return [str(path) for path in paths]


def test_sources_are_graded_in_the_order_of_their_imported_runs(tmp_path: Path, capsys):
    sources = _sources(tmp_path)
    rules = tmp_path / "ab.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["import", "openai", *sources, "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"]) == 0
    imported = json.loads(capsys.readouterr().out)
    assert [run["path"] for run in imported["runs"]] == ["eval-a", "b"]
    assert main(["grade", *sources, "--rules", str(rules), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == imported  # was: b first


def test_the_runs_of_sources_come_in_that_order(tmp_path: Path):
    runs = source_runs([Path(source) for source in _sources(tmp_path)]).runs
    assert [run.id.rel for run in runs] == ["eval-a", "b"]
