"""Whether a run's calls are whole is known without parsing its transcripts
(``engine.run.agents.calls_unknown``): every reason ``every_call`` gives lies in the
source map, in a view's digest or in a subagent file that cannot be read. Contamination
asks it of every run it finds clean (``Run.calls_incomplete``), so it must say what
``every_call`` says, on real imported runs and on each way they can be spoilt."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.workspace import discover

REAL = Path(__file__).parent / "fixtures" / "real" / "claude-code"
SOURCES = [REAL / "coverage-test-fix" / "transcript.jsonl", REAL / "python-to-rust-port" / "transcript.jsonl",
           REAL / "stream-json-diagnostic" / "claude-stream-json-simple.jsonl"]


def _imported(tmp_path: Path) -> list[Path]:
    out = tmp_path / "imported"
    for source in SOURCES:
        assert main(["import", "claude-code", str(source), "--out", str(out)]) == 0
    return sorted(run.path for run in discover(out).runs)


def _spoilt(run: Path) -> dict[str, callable]:
    """Ways to spoil an imported run folder, each a function of the copy."""
    subagents = sorted((run / "subagents").glob("*.md")) if (run / "subagents").is_dir() else []
    ways = {
        "as imported": lambda folder: None,
        "transcript edited": lambda folder: _append(folder / "outputs" / "transcript.md", "\nedited\n"),
        "source map unreadable": lambda folder: (folder / "source_map.json").write_text("{", encoding="utf-8"),
        "plain transcript": lambda folder: (folder / "source_map.json").unlink(),
    }
    for sub in subagents:
        rel = sub.relative_to(run)
        ways[f"{rel} missing"] = lambda folder, rel=rel: (folder / rel).unlink()
        ways[f"{rel} not UTF-8"] = lambda folder, rel=rel: _append(folder / rel, "\udcff")
        ways[f"{rel} edited"] = lambda folder, rel=rel: _append(folder / rel, "\nedited\n")
    return ways


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8", errors="surrogateescape") as out:
        out.write(text)


def test_calls_unknown_says_what_every_call_says(tmp_path: Path, capsys) -> None:
    checked, said = 0, set()
    for run in _imported(tmp_path):
        for way, spoil in _spoilt(run).items():
            folder = tmp_path / "copies" / str(checked) / run.name
            shutil.copytree(run, folder)
            spoil(folder)
            (fresh,) = discover(folder.parent).runs
            (parsed,) = discover(folder.parent).runs
            told = fresh.calls_incomplete()
            assert "transcript" not in fresh.__dict__, way  # nothing was parsed to tell it
            assert told == parsed.every_call.incomplete(), (run.name, way)
            checked, said = checked + 1, said | {way if told is None else None}
    assert checked >= 12 and said >= {"as imported", None}  # whole runs and runs that are not


def test_the_calls_of_a_subagent_not_read_are_incomplete_either_way(tmp_path: Path, capsys) -> None:
    runs = {run.name: run for run in _imported(tmp_path)}
    (fresh,) = [run for run in discover(tmp_path / "imported").runs if run.path == runs["python-to-rust-port"]]
    told = fresh.calls_incomplete()
    assert told is not None and "may be incomplete" in told
    assert told == fresh.every_call.incomplete()
