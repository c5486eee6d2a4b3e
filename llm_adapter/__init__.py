"""Optional LLM grader for semantic assertions.

Import cost matters: the deterministic path never loads this package, and the
command line only loads ``llm_adapter.cli`` (argparse alone) until ``--llm`` is
given. ``make_judge`` is therefore resolved lazily.
"""

from __future__ import annotations

__all__ = ["make_judge"]


def __getattr__(name: str):
    if name == "make_judge":
        from llm_adapter.factory import make_judge

        return make_judge
    raise AttributeError(f"module 'llm_adapter' has no attribute {name!r}")
