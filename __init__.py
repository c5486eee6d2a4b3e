"""referee: an offline, deterministic grader for AI-agent and skill evaluations.

The front door, in two calls::

    import referee

    program = referee.compile(rules_text)            # raises referee.RulesError
    results = referee.grade(program, "workspace/")   # one RunResult per graded run
    results = referee.grade(rules_text, "workspace/iteration-1/eval-1/with_skill/run-1")

Nothing is written: ``grade`` returns the verdicts and grading.json as text;
the ``referee grade`` command is the one that writes files. Names are loaded on
first use so that ``import referee`` stays cheap.
"""

from __future__ import annotations

from referee.engine import __version__

# Not typing.TYPE_CHECKING: the command starts by importing this package, and a
# Ctrl-C while typing loads could not be answered yet (see engine/entry.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.api import RunResult, compile, grade
    from referee.dsl.errors import RulesError

__all__ = ["compile", "grade", "RunResult", "RulesError", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("compile", "grade", "RunResult"):
        from referee.engine import api

        return getattr(api, name)
    if name == "RulesError":
        from referee.dsl.errors import RulesError

        return RulesError
    raise AttributeError(f"module 'referee' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The names loaded on first use are listed too, so an editor or a REPL completes them."""
    return sorted(set(globals()) | set(__all__))
