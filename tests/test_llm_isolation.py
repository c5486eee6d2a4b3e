"""The deterministic path never loads the LLM adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

ENGINE_MODULES = ("referee.engine.compile", "referee.engine.evaluate", "referee.engine.run.workspace", "referee.engine.grade",
                  "referee.engine.run.transcript", "referee.engine.cli", "referee.engine.commands.check",
                  "referee.engine.commands.show", "referee.dsl")

PROBE = """
import importlib, json, sys
loaded = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        loaded.append(name)
    except ModuleNotFoundError as exc:
        if not name.startswith(exc.name or "?"):
            raise
print(json.dumps({"loaded": loaded,
                  "adapter": sorted(m for m in sys.modules if m.startswith("referee.llm_adapter"))}))
"""

GRADE = """
import contextlib, io, json, sys
from referee.engine.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:] + ["--json"])
graded = len(json.loads(out.getvalue())["runs"]) if out.getvalue() else 0
print(json.dumps({"code": code, "graded": graded,
                  "adapter": [m for m in sys.modules
                              if m == "referee.llm_adapter" or m.startswith("referee.llm_adapter.")]}))
"""


def _run(script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=REPO,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_engine_modules_do_not_import_the_adapter():
    report = _run(PROBE, *ENGINE_MODULES)
    assert "referee.engine.judging" not in ENGINE_MODULES  # the protocol lives in the engine
    assert report["loaded"], "no engine module could be imported"
    assert report["adapter"] == []


def test_a_grade_without_llm_imports_nothing_of_the_adapter(tmp_path):
    # A real grade of a small workspace, in a fresh interpreter: not even the
    # flag definitions may come from llm_adapter (they live in the engine).
    workspace = REPO / "examples" / "booking-skill-workspace"
    rules = REPO / "examples" / "booking-skill" / "booking.rules"
    evals = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
    report = _run(GRADE, "grade", str(workspace), "--rules", str(rules), "--evals", str(evals),
                  "--check")
    assert report["code"] in (0, 1)
    assert report["graded"] > 0, "the grade must really grade something"
    assert report["adapter"] == []


def test_the_adapter_cli_module_stays_light():
    # llm_adapter.cli builds a judge lazily: importing it must not pull in pydantic
    # or the HTTP, prompt and parsing modules. Nor does it import the flags back from
    # the engine: the engine declares them, the adapter only reads the namespace.
    report = _run("import json, sys, referee.llm_adapter.cli\n"
                  "print(json.dumps({'adapter': sorted(m for m in sys.modules "
                  "if m.startswith('referee.llm_adapter')), 'pydantic': 'pydantic' in sys.modules, "
                  "'flags': 'referee.engine.commands.llm_flags' in sys.modules}))")
    assert report == {"adapter": ["referee.llm_adapter", "referee.llm_adapter.cli"], "pydantic": False,
                      "flags": False}
