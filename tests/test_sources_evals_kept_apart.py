"""Two sources whose runs name one eval id in two eval folders (``eval-1-book.json``
and ``eval-1-hotel.json``, imported as ``eval-1-book`` and ``eval-1-hotel``, both eval
1) are graded in memory as ``grade`` reads the folders ``import`` writes: two evals,
kept apart as ``eval-1-book/1`` and ``eval-1-hotel/1``, never one eval 1 whose rules
grade both and whose counts hold both."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.importers.in_memory import source_runs

CHAT = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}]


def _sources(tmp_path: Path) -> list[str]:
    paths = [tmp_path / "src" / name for name in ("eval-1-book.json", "eval-1-hotel.json")]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(CHAT), encoding="utf-8")
    return [str(path) for path in paths]


def _graded(argv: list[str], capsys) -> tuple[int, dict | None, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_runs_of_one_eval_id_in_two_eval_folders_are_kept_apart(tmp_path: Path, capsys):
    sources = _sources(tmp_path)
    rules = tmp_path / "one.rules"
    rules.write_text('eval "1"\nexpect 1: response contains "done"\n'
                     'eval "eval-1-book/1"\nexpect 1: response contains "done"\n', encoding="utf-8")
    assert main(["import", "openai", *sources, "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    imported = _graded(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"], capsys)
    assert [run["eval_id"] for run in imported[1]["runs"]] == ["eval-1-book/1"]
    assert "'eval-1-hotel/1'" in imported[2]
    direct = _graded(["grade", *sources, "--rules", str(rules), "--json"], capsys)
    assert direct == imported  # was: both runs graded as eval 1, by its rules


def test_the_runs_of_the_sources_name_the_evals_kept_apart(tmp_path: Path):
    runs = source_runs([Path(source) for source in _sources(tmp_path)]).runs
    assert [run.id.eval_id for run in runs] == ["eval-1-book/1", "eval-1-hotel/1"]
