"""Optional LLM grader for semantic assertions.

The deterministic path never loads this package: ``referee grade`` declares the
``--llm`` flags itself and imports ``llm_adapter.cli`` only when ``--llm`` is
given. ``make_judge`` is resolved lazily so that importing the package stays cheap.
"""

from __future__ import annotations

__all__ = ["make_judge"]


def __getattr__(name: str):
    if name == "make_judge":
        from referee.llm_adapter.factory import make_judge

        return make_judge
    raise AttributeError(f"module 'referee.llm_adapter' has no attribute {name!r}")
