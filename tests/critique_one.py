"""Critique one assertion on one run held in memory: what the tests of what the
critique reads off a rule share."""

from __future__ import annotations

import json
from collections.abc import Mapping

import referee
from referee.engine.critique.assess import critique_run
from referee.engine.run.memory import memory_run


def transcript(*calls: tuple[str, dict]) -> str:
    """A dual-section transcript of ``calls`` (tool, args), each a success returning "ok"."""
    return "\n".join(f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {json.dumps(args)}\n"
                     f"Return: \"ok\"\nStatus: success\n" for n, (tool, args) in enumerate(calls, start=1))


def critique(check: str, files: Mapping[str, str], lets: str = ""):
    """The critique of ``expect: check`` on the run of ``files``, which it must pass."""
    (ev,) = referee.compile(f"eval 1\n{lets}expect: {check}\n").evals
    found: dict = {}
    critique_run(ev, memory_run(files), {}, found)
    (result,) = found.values()
    assert result.passing_runs, "the assertion passes on the run"
    return result
