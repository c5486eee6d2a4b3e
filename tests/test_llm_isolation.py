"""The deterministic path never loads the LLM adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

ENGINE_MODULES = ("engine.compile", "engine.evaluate", "engine.runs", "engine.grade",
                  "engine.transcript", "engine.cli", "engine.commands.check",
                  "engine.commands.show", "dsl")

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
                  "adapter": sorted(m for m in sys.modules if m.split(".")[0] == "llm_adapter")}))
"""

GRADE = """
import json, sys
from engine.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code,
                  "adapter": sorted(m for m in sys.modules if m.split(".")[0] == "llm_adapter")}))
"""


def _run(script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=REPO,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_engine_modules_do_not_import_the_adapter():
    report = _run(PROBE, *ENGINE_MODULES)
    assert "engine.judging" not in ENGINE_MODULES  # the protocol lives in the engine
    assert report["loaded"], "no engine module could be imported"
    assert report["adapter"] == []


def test_a_grade_without_llm_loads_at_most_the_flag_definitions(tmp_path):
    # `referee grade` registers the --llm flags from llm_adapter.cli, which imports
    # argparse alone; the judge, HTTP, prompt and parsing modules must stay unloaded.
    workspace = REPO / "examples" / "booking-skill-workspace"
    rules = tmp_path / "none.rules"
    rules.write_text("")
    evals = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
    report = _run(GRADE, "grade", str(workspace), "--rules", str(rules), "--evals", str(evals),
                  "--check")
    assert report["code"] in (0, 1)
    assert set(report["adapter"]) <= {"llm_adapter", "llm_adapter.cli"}


def test_the_adapter_cli_module_is_only_argparse():
    report = _run("import json, sys, llm_adapter.cli\n"
                  "print(json.dumps({'adapter': sorted(m for m in sys.modules "
                  "if m.startswith('llm_adapter')), 'pydantic': 'pydantic' in sys.modules}))")
    assert report == {"adapter": ["llm_adapter", "llm_adapter.cli"], "pydantic": False}
