"""A file of a run held in memory over the 32 MiB a run's file may have is read as the
same file in a folder is: ``too-large``, not read, so a check that reads it is an
ERROR. A source whose transcript is that large (import says ``transcript-too-large``:
grading will treat it as unreadable) is graded in memory as its imported folder is:
``no calls to "Bash"`` was a PASS on a transcript the folder's grade cannot read."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main
from referee.engine.run.memory import memory_run
from referee.engine.run.safeio import MAX_TEXT_BYTES
from referee.engine.run.workspace import load_run

RULES = 'eval "chat"\nexpect 1: no calls to "Bash"\nexpect 2: response contains "done"\n'


def _big_source(path: Path) -> Path:
    """A message list whose transcript is over the cap: 40 answers of 900,000 characters
    (each under the million a value may have)."""
    chat = [{"role": "user", "content": "read them"}]
    for n in range(40):
        call = {"id": f"c{n}", "type": "function", "function": {"name": "Read", "arguments": "{}"}}
        chat.append({"role": "assistant", "content": None, "tool_calls": [call]})
        chat.append({"role": "tool", "tool_call_id": f"c{n}", "content": "y" * 900_000})
    chat.append({"role": "assistant", "content": "done"})
    path.write_text(json.dumps(chat), encoding="utf-8")
    return path


def test_a_source_with_a_transcript_over_the_cap_is_graded_as_its_import(tmp_path: Path, capsys):
    source = str(_big_source(tmp_path / "chat.json"))
    rules = tmp_path / "chat.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["import", "openai", source, "--out", str(tmp_path / "ws")]) == 0
    assert "transcript-too-large" in capsys.readouterr().out
    code = main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check", "--json"])
    imported = json.loads(capsys.readouterr().out)
    assert code == 1 and imported["runs"][0]["expectations"][0]["outcome"] == "error"
    direct_code = main(["grade", source, "--rules", str(rules), "--json"])
    assert (direct_code, json.loads(capsys.readouterr().out)) == (code, imported)  # was: 0, a PASS


def test_a_file_held_in_memory_over_the_cap_is_not_read(tmp_path: Path):
    big = "## [tool_calls] Step 1: ls\nTool: ls\n" + "x" * MAX_TEXT_BYTES
    outputs = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "transcript.md").write_text(big, encoding="utf-8")
    on_disk = load_run(outputs.parent, tmp_path)
    held = memory_run({"outputs/transcript.md": big})
    for run in (on_disk, held):
        (result,) = referee.grade('eval 1\nexpect 1: no calls to "Bash"\n', run)
        assert result.grading["expectations"][0]["outcome"] == "error"
        assert "over the 33554432-byte limit; not read" in result.grading["expectations"][0]["evidence"]
