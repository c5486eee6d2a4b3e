"""A source is imported into a folder that ``grade`` reads as a run of its own. A name
discovery reads otherwise is written ``eval-<name>``, as ``run-a`` is: ``outputs``
(``out/outputs/`` would make the workspace itself the run, and the runs beside it runs
inside a run) and ``__pycache__`` (a folder discovery does not walk). So ``grade``
given the sources, in memory, and ``grade`` of the folder ``import`` wrote agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

CHAT = [{"role": "user", "content": "list the files"},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "Bash", "arguments": '{"command": "ls"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "a b"},
        {"role": "assistant", "content": "done"}]


def _source(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(CHAT, indent=1), encoding="utf-8")
    return path


def _graded(argv: list[str], capsys) -> tuple[int, dict | None, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


@pytest.mark.parametrize("names", [["outputs.json"], ["__pycache__.json"], ["x/outputs/chat.json", "y/chat.json"]])
def test_a_source_named_like_a_folder_discovery_reads_otherwise_is_a_run(names: list[str], tmp_path: Path, capsys):
    sources = [str(_source(tmp_path / "src" / name)) for name in names]
    rules = tmp_path / "any.rules"
    rules.write_text("".join(f'eval "{name}"\nexpect 1: no calls to "Bash"\nexpect 2: response contains "done"\n'
                             for name in ("outputs", "__pycache__", "y")), encoding="utf-8")
    assert main(["import", "openai", *sources, "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    code, imported, err = _graded(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"], capsys)
    assert imported is not None, err  # was: no run found, or a run inside the run "."
    assert code == 1 and len(imported["runs"]) == len(names)
    assert all(run["path"].startswith("eval-") or run["path"] == "y" for run in imported["runs"])
    direct = _graded(["grade", *sources, "--rules", str(rules), "--json"], capsys)
    assert direct[:2] == (code, imported)
