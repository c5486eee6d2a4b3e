"""Which runs were read only in part, for the release decision.

A run's verdicts are sound where they are PASS or FAIL: each check that needs what
was not read is an ERROR. But a run whose transcript or response could not be read,
whose calls may be incomplete, whose session log was never imported or whose outputs
cannot all be listed holds things no check saw, and a rule that no check wrote (the
agent deleted a file, called a tool it must not) may be broken there. So such a run
never makes a clean PASS: the release decision says which runs and why
(``release``'s ``unusable_runs``). A run without a tool-call record at all (a
skill-creator executor log, no transcript) is not read in part: there is nothing
more to read, and every check over its calls is an ERROR already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run


def read_in_part(run: Run) -> str | None:
    """Why ``run`` was not read in full; None when it was. Parses no transcript
    whose calls were not read yet (``Run.calls_incomplete``)."""
    for found in (run.transcript_file, run.response):
        problem = getattr(found, "unreadable", None)
        if problem is not None:
            return f"{problem.path} cannot be used: {problem.message}"
    log = run.unimported_log
    if log is not None:
        return f"{log.path} {log.message}"
    incomplete = run.calls_incomplete()
    if incomplete is not None:
        return incomplete
    unlisted = run.unlisted_outputs()
    return f"the outputs cannot all be listed: {unlisted[0]}" if unlisted else None
