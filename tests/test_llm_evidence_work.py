"""Cutting a transcript into the blocks the grader is shown takes work in proportion to
its size: a transcript of many tool calls (the parser reads 32 MiB) must not take hours
to show. Measured in lines of the evidence module run, not in seconds."""

from __future__ import annotations

import sys
from pathlib import Path

from llm_server import small_run

from referee.llm_adapter import evidence

CALL = "## [tool_calls] Step {n}: search\nTool: search\nArgs: {{}}\nReturn: {{}}\nStatus: success\n\n"


def lines_run(calls: int) -> int:
    """Lines of llm_adapter/evidence.py executed to collect a run of ``calls`` calls."""
    run = small_run({"transcript.md": "".join(CALL.format(n=n) for n in range(1, calls + 1)),
                     "response.md": "Done.\n"})
    run.transcript  # parsed first: only the evidence module's own work is counted
    here = str(Path(evidence.__file__))
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != here:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        segments = evidence.collect(run).of("tool_calls")
    finally:
        sys.settrace(None)
    assert len(segments) == calls
    return count


def test_collecting_the_blocks_is_linear_in_the_number_of_calls():
    small, large = lines_run(250), lines_run(2000)
    assert large < 12 * small  # 8 times the calls: about 8 times the work, not 64
