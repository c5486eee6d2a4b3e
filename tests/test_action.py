"""action.yml: valid as GitHub documents a composite action, and its steps, run as the
documented workflow calls them, grade, decide and report on the bundled example in a
scratch git repository; then the workflow's comment step finds its own comment.

The steps run as GitHub runs a composite action's steps: each ``run`` in
``bash --noprofile --norc -eo pipefail``, the inputs and the steps' outputs put in
for ``${{ ... }}``, ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files, a failing
step ending the action. The one thing not run for real is ``pip install`` of the
action's folder (no package index, no network in a test): the ``python`` input is
a stand-in that logs that call and hands every other call to this interpreter,
where referee is installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")

# --------------------------------------------------------------------------- the schema
# The rules of SchemaStore's github-action.json (the schema of GitHub's "Metadata syntax
# for GitHub Actions") that apply to a composite action, restated as data.
NAME = r"^[_a-zA-Z][a-zA-Z0-9_-]*$"
STEP = {"type": "object",
        "properties": {"run": {"type": "string"}, "shell": {"type": "string"}, "uses": {"type": "string"},
                       "with": {"type": "object"}, "name": {"type": "string"}, "id": {"type": "string"},
                       "if": {"type": "string"}, "working-directory": {"type": "string"},
                       "env": {"type": "object", "additionalProperties": {"type": "string"}}},
        "additionalProperties": False, "oneOf": [{"required": ["run", "shell"]}, {"required": ["uses"]}]}
SCHEMA = {
    "type": "object", "required": ["name", "description", "runs"], "additionalProperties": False,
    "properties": {
        "name": {"type": "string"}, "author": {"type": "string"}, "description": {"type": "string"},
        "inputs": {"type": "object", "additionalProperties": False, "patternProperties": {NAME: {
            "type": "object", "required": ["description", "required"], "additionalProperties": False,
            "properties": {"description": {"type": "string"}, "deprecationMessage": {"type": "string"},
                           "required": {"type": "boolean"}, "default": {"type": "string"}}}}},
        "outputs": {"type": "object", "additionalProperties": False, "patternProperties": {NAME: {
            "type": "object", "required": ["description", "value"], "additionalProperties": False,
            "properties": {"description": {"type": "string"}, "value": {"type": "string"}}}}},
        "runs": {"type": "object", "required": ["using", "steps"], "additionalProperties": False,
                 "properties": {"using": {"const": "composite"}, "steps": {"type": "array", "items": STEP}}},
        "branding": {"type": "object", "additionalProperties": False, "properties": {
            "color": {"enum": ["white", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"]},
            # A few of the Feather icons the schema lists (this one among them).
            "icon": {"enum": ["check", "check-circle", "check-square", "activity", "award", "shield"]}}},
    },
}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def violations(value, schema: dict, where: str = "action.yml") -> list[str]:
    """What in ``value`` breaks ``schema`` (the subset of JSON Schema used above)."""
    found = []
    if "type" in schema and not isinstance(value, TYPES[schema["type"]]):
        return [f"{where}: expected {schema['type']}, found {type(value).__name__}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not violations(value, s, where)]
        if len(matching) != 1:
            found.append(f"{where}: matches {len(matching)} of the forms {schema['oneOf']}, not exactly one")
    if isinstance(value, dict):
        found += [f"{where}: {key} is required" for key in schema.get("required", ()) if key not in value]
        for key, item in value.items():
            sub = schema.get("properties", {}).get(key)
            sub = sub or next((s for p, s in schema.get("patternProperties", {}).items() if re.match(p, key)), None)
            extra = schema.get("additionalProperties", True)
            if sub is None and extra is False:
                found.append(f"{where}: {key} is not allowed")
            elif sub is not None or isinstance(extra, dict):
                found += violations(item, sub if sub is not None else extra, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for n, item in enumerate(value):
            found += violations(item, schema["items"], f"{where}[{n}]")
    return found


def test_the_action_is_a_composite_action_as_github_documents_it():
    assert violations(ACTION, SCHEMA) == []


def test_the_schema_check_finds_what_is_wrong():
    broken = {"name": "x", "runs": {"using": "composite", "steps": [{"run": "echo"}, {"uses": "a", "run": "b",
                                                                                      "shell": "bash"}]},
              "inputs": {"1bad": {"description": "d", "required": True}, "ok": {"required": "no"}},
              "outputs": {"out": {"description": "d"}}}
    found = violations(broken, SCHEMA)
    for expected in ("description is required", "steps[0]: matches 0", "steps[1]: matches 2",
                     "inputs: 1bad is not allowed", "inputs.ok.required: expected boolean", "out: value is required"):
        assert any(expected in line for line in found), (expected, found)


def test_inputs_reach_the_shell_through_the_environment_only():
    """A ``${{ inputs.x }}`` put into a script's text would let an input's value become
    commands; every input goes through ``env``, and each step says which shell runs it."""
    for step in ACTION["runs"]["steps"]:
        assert step["shell"] == "bash"
        assert "${{ inputs." not in step["run"], step["name"]
        assert set(re.findall(r"\$\{\{\s*([^}]*?)\s*\}\}", step["run"])) <= {"github.action_path"}


# --------------------------------------------------------------------------- running it

def _documented_inputs() -> dict[str, str]:
    workflow = yaml.safe_load(re.search(r"^```yaml\n(.*?)^```$", DOC, flags=re.S | re.M).group(1))
    step = next(s for s in workflow["jobs"]["grade"]["steps"] if "referee@" in s.get("uses", ""))
    assert step["uses"] == "OWNER/referee@vX"
    return {key: str(value) for key, value in step["with"].items()}


def _scratch_repo(tmp_path: Path) -> Path:
    """A skill's repository as the documented workflow expects it, committed to git."""
    repo = tmp_path / "skill-repo"
    example = REPO / "examples" / "booking-skill"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", repo / "evals" / "workspace",
                    ignore=shutil.ignore_patterns("benchmark.*"))
    shutil.copytree(example / "evals" / "files", repo / "evals" / "files")
    for name, target in (("booking.rules", "booking.rules"), ("evals/evals.json", "evals.json"),
                         ("judge.cassette.jsonl", "judge.cassette.jsonl"), ("SKILL.md", "../SKILL.md")):
        shutil.copy(example / name, repo / "evals" / target)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "skill and evals"]):
        subprocess.run(git + command, cwd=repo, check=True, capture_output=True)
    return repo


def _python_stand_in(tmp_path: Path) -> Path:
    shim = tmp_path / "python-stand-in"
    shim.write_text(f'#!/bin/sh\nif [ "$1" = "-m" ] && [ "$2" = "pip" ]; then\n'
                    f'  printf "%s\\n" "$*" >> "{tmp_path / "pip.log"}"\n  exit 0\nfi\n'
                    f'exec "{sys.executable}" "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return shim


def _expand(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    def value(match: re.Match) -> str:
        expression = match.group(1)
        if expression == "github.action_path":
            return str(REPO)
        found = re.fullmatch(r"inputs\.([\w-]+)", expression)
        if found:
            return inputs.get(found.group(1), ACTION["inputs"][found.group(1)].get("default", ""))
        found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        assert found, f"an expression the test cannot evaluate: {expression}"
        return outputs.get(found.group(1), {}).get(found.group(2), "")

    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", value, text)


def run_action(repo: Path, inputs: dict[str, str], tmp_path: Path, annotated: int | None = None
               ) -> tuple[int, dict, str, str]:
    """The action's steps, as GitHub runs them: (exit code of the last step run,
    outputs by step id, the job's log, the step summary). ``annotated``: the
    annotations earlier uses of the action printed in the same job."""
    summary = tmp_path / "step-summary.md"
    summary.write_text("", encoding="utf-8")
    outputs: dict[str, dict[str, str]] = {}
    runner_temp = tmp_path / "runner-temp"  # the runner empties it at the start of each job
    runner_temp.mkdir(exist_ok=True)
    if annotated is not None:
        (runner_temp / "referee-annotations").write_text(f"{annotated}\n", encoding="utf-8")
    log, code = "", 0
    for number, step in enumerate(ACTION["runs"]["steps"]):
        output = tmp_path / f"output-{number}"
        output.write_text("", encoding="utf-8")
        script = tmp_path / f"step-{number}.sh"
        script.write_text(_expand(step["run"], inputs, outputs), encoding="utf-8")
        env = {k: _expand(v, inputs, outputs) for k, v in step.get("env", {}).items()}
        # The stand-in skips `pip install` of the action: the steps import the referee
        # under test, as the test itself does, not one installed earlier.
        env.update({k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ})
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=repo,
                              capture_output=True, text=True,
                              env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_OUTPUT": str(output),
                                   "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTION_PATH": str(REPO),
                                   "RUNNER_TEMP": str(runner_temp), **env})
        log += done.stdout + done.stderr
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        code = done.returncode
        if code:
            break
    return code, outputs, log, summary.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def documented_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("action")
    repo = _scratch_repo(tmp_path)
    inputs = {**_documented_inputs(), "python": str(_python_stand_in(tmp_path))}
    return repo, tmp_path, run_action(repo, inputs, tmp_path)


def test_the_documented_job_grades_decides_and_reports_the_example(documented_run):
    repo, tmp_path, (code, outputs, log, summary) = documented_run
    assert (tmp_path / "pip.log").read_text().split() == ["-m", "pip", "install", "--quiet", str(REPO)]
    assert outputs["grade"]["exit-code"] == "0"  # with_skill passes; the runs without it fail, by design, as context
    assert outputs["aggregate"]["exit-code"] == "3"  # too few runs for standard mode: CONDITIONAL PASS
    assert outputs["gate"]["decision"] == "CONDITIONAL PASS" and code == 0  # allow-conditional: "true"
    reports = repo / "referee-report"
    assert sorted(p.name for p in reports.iterdir()) == ["junit.xml", "report.html", "report_files", "summary.md"]
    assert summary == (reports / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("<!-- referee report -->\n## referee: CONDITIONAL PASS")
    assert "ok not_graded: with_skill: 0 semantic assertions not graded" in summary  # the cassette replayed them
    junit = (reports / "junit.xml").read_text(encoding="utf-8")
    assert 'failures="0" errors="0" skipped="' in junit  # the baseline's failures are context
    assert 'skipped message="baseline without_skill: this FAIL is context' in junit


def test_the_documented_job_annotates_only_files_of_the_repository(documented_run):
    repo, _, (_, _, log, _) = documented_run
    annotations = [line for line in log.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    assert any(line.startswith("::notice title=referee context::without_skill") for line in annotations)
    assert not any(line.startswith(("::error file=", "::warning file=")) and "without_skill" in line
                   for line in annotations)
    for file in re.findall(r"file=([^,:]+)", "\n".join(annotations)):
        assert (repo / file).is_file(), file


def _strict_inputs(tmp_path: Path, **changes: str) -> dict[str, str]:
    return {**_documented_inputs(), "python": str(_python_stand_in(tmp_path)), "allow-conditional": "false",
            "formats": "junit markdown", **changes}  # the reports these tests read


def test_a_strict_gate_fails_the_job_after_every_report_is_written(tmp_path: Path):
    repo = _scratch_repo(tmp_path)
    code, outputs, _, _ = run_action(repo, _strict_inputs(tmp_path), tmp_path)
    assert code == 1 and outputs["gate"]["decision"] == "CONDITIONAL PASS"
    assert (repo / "referee-report" / "summary.md").is_file() and (repo / "referee-report" / "junit.xml").is_file()


def test_the_primary_gate_counts_the_primary_alone_and_the_reports_say_so(tmp_path: Path):
    repo = _scratch_repo(tmp_path)
    code, outputs, _, _ = run_action(repo, _strict_inputs(tmp_path, gate="primary"), tmp_path)
    assert code == 0 and outputs["gate"]["decision"] == "PASS"  # every gated assertion of with_skill passed
    assert outputs["aggregate"] == {}  # the release decision is not this gate's
    assert "## referee: PASS" in (repo / "referee-report" / "summary.md").read_text(encoding="utf-8")


def test_broken_rules_fail_the_job_whatever_the_gate(tmp_path: Path):
    repo = _scratch_repo(tmp_path)
    (repo / "evals" / "booking.rules").write_text("eval 1\nexpect 1: cuont(calls) == 1\n", encoding="utf-8")
    inputs = {**_documented_inputs(), "python": str(_python_stand_in(tmp_path)), "gate": "none"}
    code, outputs, log, _ = run_action(repo, inputs, tmp_path)
    assert outputs["grade"]["exit-code"] == "2" and code == 2 and outputs["gate"]["decision"] == "ERROR"
    assert "error[" in log


# --------------------------------------------------------------------------- the comment step

GH = """#!{python}
# gh api, as far as the comment step uses it: list a pull request's comments (from
# comments.json) through a --jq filter of the one form the step writes, create one
# (POST) or edit one (PATCH); each call is logged.
import json, re, sys
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(" ".join(args) + "\\n")
if "--method" in args:
    sys.exit(0)
wanted = re.fullmatch(r'\\.\\[\\] \\| select\\(\\.body \\| startswith\\("(.*)"\\)\\) \\| \\.id', args[args.index("--jq") + 1])
if wanted is None:
    sys.exit("the fake gh knows one --jq filter; the step wrote another")
for comment in json.load(open({comments!r})):
    if comment["body"].startswith(wanted.group(1)):
        print(comment["id"])
"""


def _comment_step() -> dict:
    workflow = yaml.safe_load(re.search(r"^```yaml\n(.*?)^```$", DOC, flags=re.S | re.M).group(1))
    return next(s for s in workflow["jobs"]["grade"]["steps"] if s.get("name") == "Comment on the pull request")


def _run_comment_step(repo: Path, tmp_path: Path, comments: list[dict]) -> list[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "gh.log"
    log.write_text("", encoding="utf-8")
    (tmp_path / "comments.json").write_text(json.dumps(comments), encoding="utf-8")
    gh = bin_dir / "gh"
    gh.write_text(GH.format(python=sys.executable, log=str(log), comments=str(tmp_path / "comments.json")),
                  encoding="utf-8")
    gh.chmod(0o755)
    step = _comment_step()
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "GH_TOKEN": "t", "REPO": "o/skill", "PR": "7"}
    script = tmp_path / "comment.sh"
    script.write_text(step["run"], encoding="utf-8")
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=repo, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return log.read_text(encoding="utf-8").splitlines()


def test_the_comment_step_edits_its_own_earlier_comment_and_is_skipped_on_forks(documented_run, tmp_path: Path):
    repo = documented_run[0]
    step = _comment_step()
    condition = " ".join(step["if"].split())
    assert "github.event.pull_request.head.repo.full_name == github.repository" in condition  # not on forks
    assert "hashFiles('referee-report/summary.md') != ''" in condition  # nor without a summary
    ours = {"id": 42, "body": "<!-- referee report -->\n## referee: FAIL\n"}
    other = {"id": 41, "body": "LGTM, but <!-- referee report --> is quoted here"}
    calls = _run_comment_step(repo, tmp_path, [other, ours])
    assert calls[-1] == "api --method PATCH repos/o/skill/issues/comments/42 -F body=@referee-report/summary.md"
    calls = _run_comment_step(repo, tmp_path, [other])
    assert calls[-1] == "api --method POST repos/o/skill/issues/7/comments -F body=@referee-report/summary.md"


def test_with_grade_false_the_action_decides_on_the_reports_already_written(tmp_path: Path):
    """After `referee merge` the reports are there: the action does not grade again (the
    rules broken since would make a grade exit 2) and aggregate decides on them."""
    repo = _scratch_repo(tmp_path)
    inputs = _strict_inputs(tmp_path, grade="false")
    command = [sys.executable, "-m", "referee", "grade", inputs["workspace"], "--rules", inputs["rules"],
               "--evals", inputs["evals"], "--llm", inputs["llm"]]  # as the shards' merge left it
    graded = subprocess.run(command, cwd=repo, capture_output=True, text=True)
    assert graded.returncode in (0, 1), graded.stderr
    rules = repo / inputs["rules"]
    rules.write_text("eval 1\nexpect 1: cuont(calls) == 1\n", encoding="utf-8")
    code, outputs, log, _ = run_action(repo, inputs, tmp_path)
    assert outputs["grade"]["exit-code"] == "skipped" and "not graded here" in log
    assert outputs["aggregate"]["exit-code"] == "3" and outputs["gate"]["decision"] == "CONDITIONAL PASS"
    assert code == 1  # allow-conditional false
    assert (repo / "referee-report" / "junit.xml").is_file()
    code, outputs, log, _ = run_action(repo, {**inputs, "gate": "primary"}, tmp_path)
    assert code == 2 and "needs grade true" in log


def test_a_second_use_of_the_action_in_a_job_keeps_the_job_within_50_annotations(tmp_path: Path):
    """GitHub shows 50 annotations per job, over its steps. Input: the documented job,
    with the action used twice (a workspace per skill): the second use's annotations
    went past 50 and GitHub dropped the last of them, the decision first. The action
    counts the job's annotations in RUNNER_TEMP and keeps the decision."""
    repo = _scratch_repo(tmp_path)
    inputs = {**_documented_inputs(), "python": str(_python_stand_in(tmp_path))}
    _, _, fresh, _ = run_action(repo, inputs, tmp_path, annotated=0)
    count = tmp_path / "runner-temp" / "referee-annotations"
    printed = [line for line in fresh.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    assert len(printed) >= 3 and int(count.read_text()) == len(printed)
    _, _, log, _ = run_action(repo, inputs, tmp_path, annotated=48)
    annotations = [line for line in log.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    assert len(annotations) == 2 and int(count.read_text()) == 50
    assert "more annotations not shown: GitHub shows 50 annotations per job" in annotations[0]
    assert annotations[1].startswith("::warning title=referee CONDITIONAL PASS::")
    _, _, log, _ = run_action(repo, inputs, tmp_path, annotated=50)
    assert not any(line.startswith("::") for line in log.splitlines())
    assert "annotations not shown: GitHub shows 50 per job" in log
