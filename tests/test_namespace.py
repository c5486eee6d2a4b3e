"""referee installs under one import root and works beside packages named like its folders."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import REPO

FOLDERS = ("engine", "dsl", "grammars", "llm_adapter")
SKIPPED = {".git", "build", "dist", ".venv", "__pycache__", ".hypothesis", ".pytest_cache"}


def _python_files() -> list[Path]:
    found = []
    for top, dirs, files in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.endswith(".egg-info"))
        found += [Path(top) / name for name in sorted(files) if name.endswith(".py")]
    return found


def _bare_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    bare = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        bare += [f"{path.relative_to(REPO)}:{node.lineno}: import {name}"
                 for name in names if name.split(".")[0] in FOLDERS]
    return bare


def test_no_module_imports_a_folder_by_its_bare_name():
    # pytest puts the checkout on sys.path, so `import engine` would quietly load a
    # second copy of the code instead of failing: every import goes through referee.
    bare = [line for path in _python_files() for line in _bare_imports(path)]
    assert bare == []


def test_every_package_folder_is_installed():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {"referee"} | {
        "referee." + ".".join(init.parent.relative_to(REPO).parts)
        for folder in FOLDERS for init in (REPO / folder).rglob("__init__.py")}
    assert listed == on_disk


def _install_dummy(site: Path) -> None:
    """An installed distribution, as pip lays one out: top-level ``engine`` and ``dsl``
    packages and a dist-info whose RECORD lists them (so uninstalling it would remove
    them). Built by hand: an install from source would need a build backend online."""
    record = []
    for package in ("engine", "engine/cli", "dsl"):
        (site / package).mkdir(parents=True)
        init = site / package / "__init__.py"
        init.write_text("raise ImportError('the dummy distribution was imported')\n")
        record.append(f"{package}/__init__.py,,")
    info = site / "dummy_shadow-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dummy-shadow\nVersion: 1.0\n")
    (info / "top_level.txt").write_text("dsl\nengine\n")
    (info / "INSTALLER").write_text("pip\n")
    names = record + [f"{info.name}/{n}," for n in ("METADATA", "top_level.txt", "INSTALLER", "RECORD")]
    (info / "RECORD").write_text("\n".join(names) + "\n")


def test_referee_works_beside_a_distribution_with_top_level_engine_and_dsl(tmp_path: Path):
    site = tmp_path / "site"
    _install_dummy(site)
    probe = subprocess.run([sys.executable, "-c", "from importlib.metadata import distribution as d; "
                            "print(d('dummy-shadow').read_text('top_level.txt'))"],
                           env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert probe.stdout.split() == ["dsl", "engine"], probe.stderr
    project = tmp_path / "project"  # a user's project with its own engine/ package
    (project / "engine").mkdir(parents=True)
    (project / "engine" / "__init__.py").write_text("raise ImportError('the project was imported')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), "."])}
    rules = REPO / "rules" / "expense-draft.rules"
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "check", str(rules)], cwd=project,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok:")


def test_the_public_api_grades_in_memory_and_on_disk(tmp_path: Path):
    import referee
    from referee.engine.run.memory import memory_run

    rules = 'eval 1\nexpect: exactly 1 calls to "save" with status success\n'
    transcript = ("## [tool_calls] Step 1: save\nTool: save\nArgs: {}\nReturn: {}\nStatus: {status}\n")
    program = referee.compile(rules)
    ok = memory_run({"outputs/transcript.md": transcript.replace("{status}", "success")})
    bad = memory_run({"outputs/transcript.md": transcript.replace("{status}", "error")}, run_number=2)
    results = referee.grade(program, [ok, bad])
    assert [(r.path, r.passed) for r in results] == [("eval-1/with_skill/run-1", True),
                                                      ("eval-1/with_skill/run-2", False)]
    run_dir = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    run_dir.mkdir(parents=True)
    (run_dir / "transcript.md").write_text(transcript.replace("{status}", "success"), encoding="utf-8")
    (on_disk,) = referee.grade(rules, tmp_path)
    (alone,) = referee.grade(program, ok)  # the eval's feedback looks at every run graded together
    assert on_disk.grading_json == alone.grading_json, "memory and disk give the same report"


def test_compile_reports_every_mistake():
    import referee

    with pytest.raises(referee.RulesError) as caught:
        referee.compile('eval 1\nexpect: cuont(calls) == 1\nexpect: exists calls to /(/\n')
    assert len(caught.value.diagnostics) == 2


def test_a_run_in_memory_reads_as_the_same_run_on_disk(tmp_path: Path):
    from referee.engine.run.memory import memory_run
    from referee.engine.run.workspace import load_run

    files = {"transcript.md": "## [tool_calls] Step 1: save\nTool: save\nArgs: {\"a\": 1}\nReturn: {}\n"
                              "Status: success\n",
             "outputs/transcript.md": "## [tool_calls] Step 1: deploy\nTool: deploy\n",
             "outputs/response.md": b"done \xff", "outputs/metrics.json": "{\"total_tool_calls\": 1",
             "timing.json": "{\"total_tokens\": 5}"}
    run_dir = tmp_path / "eval-1" / "with_skill" / "run-1"
    for name, content in files.items():
        (run_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (run_dir / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    on_disk, in_memory = load_run(run_dir, tmp_path).load(), memory_run(files).load()
    assert in_memory.transcript == on_disk.transcript
    assert in_memory.response == on_disk.response and in_memory.metrics == on_disk.metrics
    assert in_memory.timing == on_disk.timing
    assert in_memory.output_files() == on_disk.output_files()
    assert [p.code for p in in_memory.problems] == [p.code for p in on_disk.problems]
    assert "two-transcripts" in [p.code for p in in_memory.problems]


def test_the_readme_layout_names_every_room():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    layout = readme.split("- Layout: one line per room.", 1)[1]
    rooms = {init.parent.relative_to(REPO).as_posix() for folder in FOLDERS
             for init in (REPO / folder).rglob("__init__.py")}
    missing = sorted(room for room in rooms if f"`{room}/" not in layout and f"`{room}`" not in layout)
    assert missing == [], f"the README's layout does not name {missing}"
