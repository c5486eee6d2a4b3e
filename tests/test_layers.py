"""Facts sit below the report: no module under engine/facts imports engine.report.
And a run's skill type is decided once, the same in grading.json and the grader's prompt."""

from __future__ import annotations

import ast
from pathlib import Path

from referee.engine.facts.metrics import run_skill_type
from referee.engine.run.agents import Calls
from referee.engine.run.transcript import parse_transcript

FACTS = Path(__file__).resolve().parents[1] / "engine" / "facts"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_fact_module_imports_the_report():
    modules = sorted(FACTS.glob("*.py"))
    assert modules
    for path in modules:
        bad = {m for m in imported_modules(path) if m.startswith("referee.engine.report")}
        assert not bad, f"{path.name} imports {sorted(bad)}"


class _Run:
    def __init__(self, tools: list[str], metadata: dict | None = None) -> None:
        text = "".join(f"## [tool_calls] Step {n}: x\nTool: {t}\nArgs: {{}}\nReturn: {{}}\nStatus: success\n\n"
                       for n, t in enumerate(tools, 1))
        self.transcript = parse_transcript(text)
        self.every_call = Calls(self.transcript.calls)
        self.metadata = metadata or {}


def test_the_prompt_and_the_report_agree_on_the_skill_type():
    from referee.llm_adapter.evidence import collect

    for tools, expected in ((["Read", "Write"], "text_generation"), (["Read", "Bash"], "code_execution"),
                            (["expense-mcp_saveDoc"], "mcp_based"), (["github__create_issue"], "text_generation")):
        run = _Run(tools)
        assert run_skill_type(run) == expected
        assert collect(run).skill_type == expected, tools


def test_declared_skill_type_wins_everywhere():
    from referee.llm_adapter.evidence import collect

    run = _Run(["Read"], {"skill_type": "code_execution"})
    assert run_skill_type(run) == collect(run).skill_type == "code_execution"
