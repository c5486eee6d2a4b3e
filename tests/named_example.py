"""The bundled example graded with names a workspace may hold, for the tests that
what a report shows of a name is the name as written: no markup, link, mention or
hidden text of its own."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Callable

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
# Code in a Markdown report: fenced text blocks, <code> spans, code spans.
CODE = re.compile(r"(`{3,})text\n.*?\n\1|<code>.*?</code>|(`+).+?\2", re.DOTALL)


def outside_code(text: str) -> str:
    return CODE.sub("", text)


def named_example(tmp_path: Path, baseline: str, eval_name: str | None = None, sentence: str | None = None,
                  edit: Callable[[Path], None] | None = None, primary: str | None = None) -> tuple[Path, Path]:
    """``tmp_path/ws``: the example with its baseline configuration named ``baseline``
    (and its primary ``primary``, when given), eval 1 named ``eval_name`` and eval 1's
    fourth expectation written ``sentence`` (in ``tmp_path/evals.json``), each when
    given; ``edit(ws)`` changes the runs before they are graded. Returns the
    workspace, graded, and the evals.json it was graded with."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink()
    for eval_dir in sorted((ws / "iteration-1").iterdir()):
        (eval_dir / "without_skill").rename(eval_dir / baseline)
        if primary is not None:
            (eval_dir / "with_skill").rename(eval_dir / primary)
    if eval_name is not None:
        metadata = ws / "iteration-1" / "eval-1-book-flight" / "eval_metadata.json"
        document = json.loads(metadata.read_text(encoding="utf-8"))
        metadata.write_text(json.dumps({**document, "eval_name": eval_name}), encoding="utf-8")
    if edit is not None:
        edit(ws)
    evals = json.loads(EVALS.read_text(encoding="utf-8"))
    if sentence is not None:
        evals["evals"][0]["expectations"][3] = sentence
    (tmp_path / "evals.json").write_text(json.dumps(evals), encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(RULES), "--evals", str(tmp_path / "evals.json")]) in (0, 1)
    return ws, tmp_path / "evals.json"


def summary_md(tmp_path: Path, ws: Path, primary: str) -> str:
    """``report --format markdown`` of ``ws`` with ``primary`` (the renamed baseline, so
    that its failures, the eval's and assertion's names, are listed)."""
    out = tmp_path / "summary.md"
    main(["report", str(ws), "--format", "markdown", "-o", str(out), "--primary", primary])
    return out.read_text(encoding="utf-8")


def benchmark_md(tmp_path: Path, ws: Path, baseline: str) -> str:
    """benchmark.md of ``ws`` aggregated with ``baseline`` as the baseline."""
    main(["aggregate", str(ws), "--evals", str(tmp_path / "evals.json"), "--primary", "with_skill",
          "--baseline", baseline])
    return (ws / "benchmark.md").read_text(encoding="utf-8")
