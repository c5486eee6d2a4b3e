"""What a status word says of a call: that it failed, that it succeeded, or neither.

The record format writes ``success`` or ``error``; harnesses and producers write
other words too (``failed``, ``ok``, ``completed``, ``timeout``, ``cancelled``).
The words below say one thing whatever the harness (``no_result``, which the
importers write for a call never answered, says it did neither); any other word
may mean either, so what it says of the call cannot be told.
"""

from __future__ import annotations

FAILED = ("error", "failed", "failure")
SUCCEEDED = ("success", "succeeded", "ok", "completed")
UNANSWERED = "no_result"  # the importers' status of a call never answered


def meaning(word: str) -> str | None:
    """``"error"`` or ``"success"`` for a word that says so (case aside),
    ``"no_result"`` for a call never answered; None for any other word."""
    folded = word.strip().casefold()
    if folded in FAILED:
        return "error"
    if folded in SUCCEEDED:
        return "success"
    if folded == UNANSWERED:
        return UNANSWERED
    return None
