"""Generated workspaces with a known better configuration, for compare, analyze,
validate and diff: real run folders (transcript, response), graded by referee itself.

Each eval ``i`` asks the agent to fetch item ``E<i>`` with the ``api_fetch`` tool and
reply with its value in a table. A ``good`` run does all of it; a ``partial`` run
fetches the right item but replies in prose; a ``bad`` run fetches the wrong item
and replies without the value; a ``null`` run does nothing at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping, Sequence

from referee.engine.cli import main

RULES = """\
# Generated rules: one block per eval.
{blocks}"""
BLOCK = """
eval {i} "task-{i}"
expect "fetches item E{i}": any calls to "api_fetch" have .args.id == "E{i}"
expect "replies with value-{i}": response contains "value-{i}"
expect "replies with a table": response matches /\\|\\s*E{i}\\s*\\|/
"""
# A block a run that did nothing passes: its only gated check is a negative one.
NEGATIVE_BLOCK = """
eval {i} "task-{i}"
expect "never says error": not response contains "error"
"""


def transcript(item: str, value: str | None, status: str = "success") -> str:
    returned = json.dumps({"value": value}) if value is not None else json.dumps({"error": "not found"})
    return ("## Eval Prompt\n\nFetch the item and reply with its value.\n\n"
            "## [tool_calls] Step 1: fetch\n"
            f"Tool: api_fetch\nArgs: {json.dumps({'id': item})}\nReturn: {returned}\nStatus: {status}\n")


def run_files(i: int, quality: str) -> dict[str, str]:
    """The files of one run of eval ``i``, under ``outputs/``."""
    if quality == "validated":
        validate = ("\n## [tool_calls] Step 2: validate\nTool: Bash\n"
                    'Args: {"command": "python scripts/validate.py outputs/response.md"}\nReturn: "ok"\nStatus: success\n')
        return {**run_files(i, "good"), "transcript.md": transcript(f"E{i}", f"value-{i}") + validate}
    if quality == "good":
        return {"transcript.md": transcript(f"E{i}", f"value-{i}"),
                "response.md": f"| id | value |\n|----|-------|\n| E{i} | value-{i} |\n"}
    if quality == "partial":
        return {"transcript.md": transcript(f"E{i}", f"value-{i}"), "response.md": f"The value is value-{i}.\n"}
    if quality == "bad":
        return {"transcript.md": transcript(f"E{i + 100}", None, "error"), "response.md": "I could not find it.\n"}
    if quality == "null":
        return {}
    raise ValueError(quality)


def build(root: Path, plan: Mapping[str, Sequence[Sequence[str]]], *, iteration: int | None = 1,
          extra: Mapping[str, str] | None = None) -> Path:
    """``plan``: configuration -> per eval (1-based, in order) -> the qualities of its runs.
    ``extra`` adds files to every run's outputs/ (``{"notes.md": ...}``)."""
    base = root / f"iteration-{iteration}" if iteration is not None else root
    for config, evals in plan.items():
        for i, qualities in enumerate(evals, 1):
            for k, quality in enumerate(qualities, 1):
                outputs = base / f"eval-{i}-task-{i}" / config / f"run-{k}" / "outputs"
                outputs.mkdir(parents=True, exist_ok=True)
                for name, text in {**run_files(i, quality), **(extra or {})}.items():
                    (outputs / name).write_text(text, encoding="utf-8")
    return root


def rules(path: Path, evals: int, negative: Sequence[int] = ()) -> Path:
    """A rules file for ``evals`` evals; those in ``negative`` hold only a negative check."""
    blocks = "".join((NEGATIVE_BLOCK if i in negative else BLOCK).format(i=i) for i in range(1, evals + 1))
    path.write_text(RULES.format(blocks=blocks), encoding="utf-8")
    return path


def grade(workspace: Path, rules_file: Path) -> None:
    code = main(["grade", str(workspace), "--rules", str(rules_file)])
    assert code in (0, 1), code


def graded(root: Path, plan: Mapping[str, Sequence[Sequence[str]]], **kwargs) -> Path:
    """A workspace built from ``plan`` and graded with the generated rules."""
    workspace = build(root / "ws", plan, **kwargs)
    evals = max(len(evals) for evals in plan.values())
    grade(workspace, rules(root / "gen.rules", evals))
    return workspace


SKILL = """\
---
name: fetcher
description: Fetch items and report their values.
---
# Fetching items

1. Read references/forms.md for the reply's layout.
2. Call `api_fetch` with the item's id, as `E<n>`.
3. Run scripts/validate.py on the reply before sending it.
4. If a call fails, scripts/retry.sh retries it.
"""


def skill(root: Path) -> Path:
    """A skill folder whose SKILL.md names a reference, a tool, a script and a missing script."""
    folder = root / "fetcher"
    (folder / "scripts").mkdir(parents=True, exist_ok=True)
    (folder / "references").mkdir(exist_ok=True)
    (folder / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (folder / "scripts" / "validate.py").write_text("print('ok')\n", encoding="utf-8")
    (folder / "references" / "forms.md").write_text("| id | value |\n", encoding="utf-8")
    return folder


def better_plan(evals: int = 6, runs: int = 2) -> dict[str, list[list[str]]]:
    """with_skill good everywhere; without_skill bad or partial: the primary is better."""
    return {"with_skill": [["good"] * runs for _ in range(evals)],
            "without_skill": [["bad" if k % 2 == 0 else "partial" for k in range(runs)] for _ in range(evals)]}
