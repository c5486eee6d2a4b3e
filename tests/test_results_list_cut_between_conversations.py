"""A results file that holds conversations (tau-bench's list, here its real run
doubled) cut between two of them: each conversation read is whole, but those after the
cut are lost, so the import says so, as a conversation that gives no run (an error line,
exit 1), never a workspace that is silently one run short, whose pass rate would leave
the lost runs out."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

REAL = Path(__file__).parent / "fixtures" / "real" / "openai" / "tau-bench-retail" / "grok-3-retail-task-0.json"


def _two(tmp_path: Path) -> str:
    first = json.loads(REAL.read_text(encoding="utf-8"))[0]
    return json.dumps([first, {**first, "task_id": 1}], indent=2)


def _imported(tmp_path: Path, text: str, capsys) -> tuple[int, list[str], str]:
    source = tmp_path / "results.json"
    source.write_text(text, encoding="utf-8")
    code = main(["import", "openai", str(source), "--out", str(tmp_path / "ws")])
    runs = sorted(p.name for p in (tmp_path / "ws").iterdir() if not p.name.startswith("."))
    return code, runs, capsys.readouterr().err


def test_a_list_cut_between_conversations_says_the_rest_are_lost(tmp_path, capsys):
    text = _two(tmp_path)
    cut = text[:text.index('\n  {\n    "task_id": 1')]  # after the first conversation's "},"
    code, runs, err = _imported(tmp_path, cut, capsys)
    assert code == 1
    assert runs == ["results-1"]
    assert "conversation 2" in err and "the conversations after it are lost" in err


def test_the_whole_list_gives_both_runs(tmp_path, capsys):
    code, runs, err = _imported(tmp_path, _two(tmp_path), capsys)
    assert (code, runs) == (0, ["results-1", "results-2"])
    assert "lost" not in err
