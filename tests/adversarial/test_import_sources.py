"""Import never stalls, never writes outside its folder, never mixes two sources in
a run and never gives an empty run for a source that holds no conversation.

Each attack is built by code; each test asserts the exit status, the files or the
run's calls afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.cli import main
from referee.engine.run.workspace import discover

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
SESSION = FIXTURES / "claude-code" / "agents" / "main.jsonl"


def _import(*args) -> int:
    return main(["import", *map(str, args)])


def _session_copy(folder: Path, name: str = "main.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    target.write_bytes(SESSION.read_bytes())
    return target


# --- sources that are not regular files ---------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_beside_a_session_cannot_stall_import(tmp_path: Path):
    session = _session_copy(tmp_path / "src")
    os.mkfifo(tmp_path / "src" / "agent-ffff.jsonl")
    # In a child process: were the FIFO opened as a file, import would wait forever
    # for a writer; the timeout only keeps the suite from hanging then.
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "import", "claude-code", str(session),
                           "--out", str(tmp_path / "ws")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "agent-ffff.jsonl: warning[calls-may-be-missing]" in done.stdout
    assert "not a regular file" in done.stdout


def test_a_symlink_to_dev_zero_beside_a_session_is_refused_not_read(tmp_path: Path, capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    session = _session_copy(tmp_path / "src")
    os.symlink("/dev/zero", tmp_path / "src" / "agent-zero.jsonl")
    assert _import("claude-code", session, "--out", tmp_path / "ws") == 0
    out = capsys.readouterr().out
    assert "agent-zero.jsonl: warning[calls-may-be-missing]" in out and "not a regular file" in out


def test_a_fifo_named_as_the_source_is_an_error_for_it(tmp_path: Path, capsys):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "s.jsonl")
    assert _import("claude-code", tmp_path / "s.jsonl", "--out", tmp_path / "ws") == 2
    assert "not a regular file" in capsys.readouterr().err


# --- sources that hold no conversation ----------------------------------------------------


@pytest.mark.parametrize("fmt", ["auto", "claude-code", "openai"])
@pytest.mark.parametrize("text", ["", "\n\n", "Just some notes.\nNothing else.\n", '{"name": "x", "version": 3}\n',
                                  '[1, 2, 3]\n'])
def test_a_source_with_no_conversation_is_an_error_not_an_empty_run(tmp_path: Path, capsys, fmt: str, text: str):
    source = tmp_path / "thing.jsonl"
    source.write_text(text, encoding="utf-8")
    assert _import(fmt, source, "--out", tmp_path / "ws") == 2
    assert "thing.jsonl" in capsys.readouterr().err
    assert not (tmp_path / "ws").exists() or not list((tmp_path / "ws").iterdir())


@pytest.mark.parametrize("text", ["Just some notes.\nNothing else.\n", '{"name": "x", "version": 3}\n', "[1, 2, 3]\n"])
def test_a_file_with_no_section_is_no_skill_creator_log(tmp_path: Path, capsys, text: str):
    # Named as a log, text with no heading at all still holds none: an error, not a run of one note.
    source = tmp_path / "thing.md"
    source.write_text(text, encoding="utf-8")
    assert _import("skill-creator-log", source, "--out", tmp_path / "ws") == 2
    assert "thing.md: holds no skill-creator-log conversation" in capsys.readouterr().err
    assert not (tmp_path / "ws").exists() or not list((tmp_path / "ws").iterdir())


def test_a_bad_source_beside_a_good_one_is_reported_and_the_good_one_imported(tmp_path: Path, capsys):
    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    # exit 1: the good one is written, and a pipeline grading what was written is told of the other
    assert _import("auto", SESSION, tmp_path / "empty.json", "--out", tmp_path / "ws") == 1
    captured = capsys.readouterr()
    assert "empty.json" in captured.err and "imported 1 run" in captured.out
    assert [r.id.rel for r in discover(tmp_path / "ws").runs] == ["main"]


# --- nothing is written outside the folder given -------------------------------------------


def test_a_symlinked_outputs_folder_is_not_written_through(tmp_path: Path):
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 0
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "transcript.md").write_text("precious\n", encoding="utf-8")
    run = tmp_path / "ws" / "main"
    for child in sorted((run / "outputs").iterdir()):
        child.unlink()
    (run / "outputs").rmdir()
    os.symlink(victim, run / "outputs")
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 0
    assert [p.name for p in victim.iterdir()] == ["transcript.md"]
    assert (victim / "transcript.md").read_text(encoding="utf-8") == "precious\n"
    assert not (run / "outputs").is_symlink() and (run / "outputs" / "transcript.md").is_file()


def test_a_symlinked_eval_folder_is_refused(tmp_path: Path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "ws").mkdir()
    os.symlink(elsewhere, tmp_path / "ws" / "eval-1")
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws", "--eval", "1") == 2
    assert "symlink" in capsys.readouterr().err and not list(elsewhere.iterdir())


# --- a run folder never mixes two sources --------------------------------------------------


def test_importing_again_replaces_the_earlier_import_whole(tmp_path: Path):
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 0
    run = tmp_path / "ws" / "main"
    for stale in ("grading.json", "timing.json", "subagents/step-9.md", "outputs/old.csv"):
        (run / stale).parent.mkdir(parents=True, exist_ok=True)
        (run / stale).write_text("stale\n", encoding="utf-8")
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 0  # the same source again
    left = sorted(p.relative_to(run).as_posix() for p in run.rglob("*") if p.is_file())
    assert "grading.json" not in left and "outputs/old.csv" not in left and "subagents/step-9.md" not in left
    assert all((run / name).read_text(encoding="utf-8") != "stale\n" for name in left)
    assert not [p for p in (tmp_path / "ws").iterdir() if p.name.startswith(".")]


def test_another_source_of_the_same_name_never_replaces_an_earlier_import(tmp_path: Path, capsys):
    # Sessions imported one at a time, each named after its file: the second is not
    # the first one again, so it is named after its folder and the first stays.
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 0
    before = (tmp_path / "ws" / "main" / "outputs" / "transcript.md").read_text(encoding="utf-8")
    other = tmp_path / "src" / "main.jsonl"
    other.parent.mkdir()
    other.write_text(json.dumps({"type": "user", "sessionId": "z", "uuid": "u",
                                 "message": {"role": "user", "content": "hello"}}) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert _import("claude-code", other, "--out", tmp_path / "ws") == 0
    assert "main.jsonl: written as src, since main holds the import of another source" in capsys.readouterr().out
    assert (tmp_path / "ws" / "main" / "outputs" / "transcript.md").read_text(encoding="utf-8") == before
    assert "hello" in (tmp_path / "ws" / "src" / "outputs" / "transcript.md").read_text(encoding="utf-8")
    assert _import("claude-code", other, "--out", tmp_path / "ws") == 0  # again: its own run is replaced
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["main", "src"]


def test_a_folder_referee_did_not_write_is_never_replaced(tmp_path: Path, capsys):
    run = tmp_path / "ws" / "main"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text("a real run\n", encoding="utf-8")
    assert _import("claude-code", SESSION, "--out", tmp_path / "ws") == 2
    assert "not written by referee import" in capsys.readouterr().err
    assert (run / "outputs" / "transcript.md").read_text(encoding="utf-8") == "a real run\n"


def test_import_with_eval_twice_adds_runs(tmp_path: Path):
    for _ in range(2):
        assert _import("claude-code", SESSION, "--out", tmp_path / "ws", "--eval", "7") == 0
    runs = discover(tmp_path / "ws").runs
    assert [(r.id.eval_id, r.id.run_number) for r in runs] == [("7", 1), ("7", 2)]


# --- names ------------------------------------------------------------------------------------


def test_sources_with_one_name_take_their_folders_names(tmp_path: Path, capsys):
    sources = [_session_copy(tmp_path / "src" / f"session-{n}", "transcript.jsonl") for n in "abc"]
    assert _import("claude-code", *sources, "--out", tmp_path / "ws") == 0
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["session-a", "session-b", "session-c"]


def test_run_numbers_written_three_ways_are_three_runs(tmp_path: Path, capsys):
    sources = [_session_copy(tmp_path / "src", f"{name}.jsonl") for name in ("run-1", "run-01", "run-001")]
    assert _import("claude-code", *sources, "--out", tmp_path / "ws") == 0
    out = capsys.readouterr().out
    assert "run-01.jsonl: written as run-2" in out and "run-001.jsonl: written as run-3" in out
    assert sorted(r.id.run_number for r in discover(tmp_path / "ws").runs) == [1, 2, 3]


def test_a_source_name_never_reaches_the_terminal_or_a_folder_with_control_characters(tmp_path: Path, capsys):
    name = "s#\x1b]0;owned\x07\nimported 99 runs.jsonl"
    source = _session_copy(tmp_path / "src", name)
    (tmp_path / "src" / "agent-b7e1.jsonl").write_bytes((SESSION.parent / "agent-b7e1.jsonl").read_bytes())
    lines = (tmp_path / "src" / name).read_text(encoding="utf-8").split("\n")
    (tmp_path / "src" / name).write_text("\n".join(lines[:2] + ["not json"] + lines[2:]), encoding="utf-8")
    assert _import("claude-code", source, "--out", tmp_path / "ws") == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\nimported 99" not in out
    assert [p.name for p in (tmp_path / "ws").iterdir()] == ["s-0-owned-imported-99-runs"]


# --- limits: a clear error naming the file ----------------------------------------------------


def test_running_out_of_memory_is_an_error_naming_the_source(tmp_path: Path, capsys, monkeypatch):
    from referee.engine.run.importers import openai_sources

    def exhausted(source, error_when=None, late=False):
        raise MemoryError
        yield  # a generator, as the real one

    monkeypatch.setattr(openai_sources, "iter_conversations", exhausted)
    (tmp_path / "big.json").write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    assert _import("openai", tmp_path / "big.json", "--out", tmp_path / "ws") == 2
    err = capsys.readouterr().err
    assert "big.json: not enough memory to read it" in err and "Traceback" not in err


def test_running_out_of_memory_while_writing_the_run_is_an_error_naming_the_source(tmp_path: Path, capsys,
                                                                                   monkeypatch):
    # A 114 MB document read whole, then its 120 MB transcript joined under a 400 MB
    # address-space limit: "internal error: MemoryError" before.
    from referee.engine.run.importers import writer

    def exhausted(self):
        raise MemoryError

    monkeypatch.setattr(writer._Lines, "render", exhausted)
    (tmp_path / "big.json").write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    assert _import("openai", tmp_path / "big.json", "--out", tmp_path / "ws") == 2
    err = capsys.readouterr().err
    assert "big.json: not enough memory to write the run it holds" in err and "internal error" not in err
    assert not (tmp_path / "ws").exists() or not list((tmp_path / "ws").iterdir())


def test_a_source_over_the_size_limit_is_an_error_naming_it(tmp_path: Path, capsys, monkeypatch):
    from referee.engine.run.importers import source

    monkeypatch.setattr(source, "MAX_SOURCE_BYTES", 100)
    (tmp_path / "big.json").write_text(json.dumps([{"role": "user", "content": "x" * 200}]), encoding="utf-8")
    assert _import("openai", tmp_path / "big.json", "--out", tmp_path / "ws") == 2
    assert "big.json:" in capsys.readouterr().err


def test_a_document_cut_short_inside_a_call_makes_checks_on_calls_errors(tmp_path: Path):
    import referee
    from referee.engine.run.importers import conversations
    from referee.engine.run.importers.writer import render_run
    from referee.engine.run.memory import memory_run

    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "Bash", "arguments": '{"command": "ls"}'}}]},
                {"role": "tool", "tool_call_id": "c", "content": "ok"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "d", "type": "function", "function": {"name": "Bash", "arguments": '{"command": "rm -rf /"}'}}]}]
    text = json.dumps(messages, indent=2)
    (tmp_path / "cut.json").write_text(text[:text.index("rm -rf")], encoding="utf-8")
    (found,) = conversations("openai", [tmp_path / "cut.json"])
    (result,) = referee.grade('eval 1\nexpect: no calls where .args.command contains "rm"\n',
                              memory_run(render_run(found).files))
    assert result.expectations[0]["outcome"] == "error"
