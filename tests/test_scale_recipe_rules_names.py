"""The Ray recipe of docs/scale.md compiles and names the rules as ``referee grade
--rules RULES --evals EVALS`` does, for files with Windows line ends too: its
``compiled()`` read them with ``Path.read_text``, which turns CRLF into LF, so the
rules were named by the digest of another text (``booking.rules@4768223f`` where
``referee grade`` writes ``booking.rules@bb9e80c5``) in every rules_location."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import referee
from conftest import REPO
from referee.engine.api import rules_name
from referee.engine.cli import main

DOC = (REPO / "docs" / "scale.md").read_text(encoding="utf-8")


def recipe_function(name: str, scope: dict):
    section = DOC.split("## Ray", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)
    (node,) = [n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == name]
    exec(compile(ast.Module([node], []), "docs/scale.md", "exec"), scope)
    return scope[name]


def test_the_recipe_names_crlf_rules_as_referee_grade_does(tmp_path: Path):
    rules, evals = tmp_path / "booking.rules", tmp_path / "evals.json"
    for source, target in ((REPO / "examples" / "booking-skill" / "booking.rules", rules),
                           (REPO / "examples" / "booking-skill" / "evals" / "evals.json", evals)):
        target.write_bytes(source.read_bytes().replace(b"\n", b"\r\n"))
    ws = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", ws)
    assert main(["grade", str(ws), "--rules", str(rules), "--evals", str(evals), "--force"]) in (0, 1)
    compiled = recipe_function("compiled", {"referee": referee, "rules_name": rules_name, "Path": Path,
                                            "RULES": str(rules), "EVALS": str(evals)})
    for result in referee.grade(compiled(), ws, evals=str(evals)):
        assert result.grading_json == (ws / result.path / "grading.json").read_text(encoding="utf-8")
