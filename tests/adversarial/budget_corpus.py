"""Hostile runs built by code, for the budget and write-phase tests.

A run is a directory with ``outputs/transcript.md`` in the dual-section form
(``## [tool_calls] Step N: ...`` blocks) and ``outputs/response.md``; files
under ``outputs/`` are given as a name-to-text mapping.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Sequence

Call = tuple[str, str, str, str]  # tool, args JSON text, return text, status


def call_block(step: int, call: Call) -> str:
    tool, args, result, status = call
    return (f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {args}\n"
            f"Return: {result}\nStatus: {status}\n")


def transcript(calls: Iterable[Call]) -> str:
    parts = ["## Eval Prompt\n\nDo the task.\n"]
    parts += [call_block(step, call) for step, call in enumerate(calls, 1)]
    parts.append("## Final Result\n\nDone.\n")
    return "\n".join(parts)


def make_run(workspace: Path, calls: Sequence[Call] = (), response: str = "Done.",
             files: dict[str, str] | None = None, eval_id: int = 1, run: str = "run-1",
             configuration: str = "with_skill") -> Path:
    """Write one run of eval ``eval_id`` under ``workspace``; returns the run directory."""
    eval_dir = workspace / "iteration-1" / f"eval-{eval_id}-task"
    run_dir = eval_dir / configuration / run
    outputs = run_dir / "outputs"
    outputs.mkdir(parents=True, exist_ok=True)
    metadata = {"eval_id": eval_id, "eval_name": "task", "prompt": "Do the task."}
    (eval_dir / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    (outputs / "transcript.md").write_text(transcript(calls), encoding="utf-8")
    (outputs / "response.md").write_text(response, encoding="utf-8")
    for name, text in (files or {}).items():
        (outputs / name).write_text(text, encoding="utf-8")
    return run_dir


def rules_for(*checks: str, eval_id: int = 1) -> str:
    """A rules file with one ``expect`` per check, numbered from 1."""
    lines = [f'eval {eval_id} "task"', ""]
    lines += [f"expect {n}: {check}" for n, check in enumerate(checks, 1)]
    return "\n".join(lines) + "\n"


def verdicts(workspace: Path, rules: str, limits=None) -> list:
    """Compile ``rules`` and evaluate the first run of ``workspace``: its verdicts."""
    from referee import dsl
    from referee.engine.budget import Limits
    from referee.engine.compile import compile_rules
    from referee.engine.evaluate import evaluate
    from referee.engine.run.workspace import discover

    program = compile_rules([dsl.parse_rules(rules, "hostile.rules")])
    run = discover(workspace).runs[0]
    compiled = program.for_run(run.id, run.metadata)
    assert compiled is not None
    return evaluate(compiled, run, limits or Limits())
