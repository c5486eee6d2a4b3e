"""``referee import`` exits 1 when a source (or a conversation of one) gave no run while
others were imported: before it exited 0, so ``referee import auto runs/*.jsonl --out ws
&& referee grade ws`` passed its gate over a run file nobody read. The runs read are
still written, and each source not read is an error line."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover

SESSION = Path(__file__).parent / "fixtures" / "import" / "claude-code" / "session.jsonl"


def test_a_source_not_read_beside_one_read_exits_1(tmp_path: Path, capsys):
    (tmp_path / "notes.txt").write_text("no conversation here\n", encoding="utf-8")
    assert main(["import", "auto", str(SESSION), str(tmp_path / "notes.txt"), "--out", str(tmp_path / "ws")]) == 1
    captured = capsys.readouterr()
    assert "referee import: error: " in captured.err and "notes.txt" in captured.err
    assert "imported 1 run" in captured.out and len(discover(tmp_path / "ws").runs) == 1


def test_every_source_read_exits_0(tmp_path: Path, capsys):
    assert main(["import", "auto", str(SESSION), "--out", str(tmp_path / "ws")]) == 0
