"""import writes nothing through a symlink: not where the run folder goes, not a folder
above it, not an earlier import's ``outputs/``; the error names the link as one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.engine.cli import main

CHAT = [{"role": "user", "content": "go"}, {"role": "assistant", "content": "done"}]


def _source(tmp_path: Path) -> Path:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(CHAT), encoding="utf-8")
    return source


def test_a_symlinked_run_folder_is_refused_as_a_symlink(tmp_path: Path, capsys):
    outside, out = tmp_path / "outside", tmp_path / "ws"
    outside.mkdir()
    out.mkdir()
    (out / "chat").symlink_to(outside, target_is_directory=True)
    assert main(["import", "openai", str(_source(tmp_path)), "--out", str(out)]) == 2
    assert f"{out / 'chat'}: a symlink; nothing is written through it" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_a_symlinked_folder_above_the_run_is_refused(tmp_path: Path, capsys):
    outside, out = tmp_path / "outside", tmp_path / "ws"
    outside.mkdir()
    (out / "eval-1").mkdir(parents=True)
    (out / "eval-1" / "base").symlink_to(outside, target_is_directory=True)
    assert main(["import", "openai", str(_source(tmp_path)), "--out", str(out), "--eval", "1",
                 "--config", "base"]) == 2
    assert "a symlink; nothing is written through it" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_an_earlier_imports_symlinked_outputs_is_replaced_not_written_through(tmp_path: Path):
    outside, out, source = tmp_path / "outside", tmp_path / "ws", _source(tmp_path)
    outside.mkdir()
    assert main(["import", "openai", str(source), "--out", str(out)]) == 0
    run = out / "chat"
    shutil.rmtree(run / "outputs")
    (run / "outputs").symlink_to(outside, target_is_directory=True)
    assert main(["import", "openai", str(source), "--out", str(out)]) == 0
    assert list(outside.iterdir()) == []
    assert not (run / "outputs").is_symlink() and (run / "outputs" / "response.md").read_text() == "done\n"
