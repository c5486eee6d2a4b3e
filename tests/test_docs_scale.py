"""docs/scale.md and the sharded grading of docs/ci.md: every referee command in them
parses (shell variables given example values), every YAML is valid, and the jobs do
what the text says (an Indexed Job reading JOB_COMPLETION_INDEX, a matrix of shards
and a merge after them)."""

from __future__ import annotations

import re
import shlex

import yaml

from conftest import REPO
from referee.engine.cli import parse_args

SCALE = (REPO / "docs" / "scale.md").read_text(encoding="utf-8")
CI = "## Grading in shards" + (REPO / "docs" / "ci.md").read_text(encoding="utf-8").split("\n## Grading in shards", 1)[1]
EXAMPLES = {r'"$((JOB_COMPLETION_INDEX + 1))/8"': "3/8", "$I/$N": "3/8", '"$SLURM_ARRAY_TASK_ID/8"': "3/8",
            "${{ matrix.shard }}/${{ strategy.job-total }}": "3/8", "${{ matrix.shard }}/8": "3/8",
            "requests-$I.jsonl": "requests-3.jsonl", "$((JOB_COMPLETION_INDEX + 1))/8": "3/8"}


def blocks(doc: str, kinds: str) -> list[str]:
    return re.findall(rf"^```(?:{kinds})\n(.*?)^```$", doc, flags=re.S | re.M)


def commands(doc: str) -> list[str]:
    found = []
    for block in blocks(doc, "sh|yaml"):
        joined = re.sub(r"\\\n\s*", " ", block)  # a shell line continued
        joined = re.sub(r"\n\s+(--|\"\$)", r" \1", joined)  # a folded YAML line continues a command
        for line in joined.splitlines():
            for part in re.split(r"&&|;|\|\|", line):
                part = part.strip().removeprefix("exec ").removeprefix("- ").removeprefix("run: ")
                if part.startswith("referee "):
                    for example, value in EXAMPLES.items():
                        part = part.replace(example, value)
                    found.append(part.split("  #")[0])
    return found


def test_every_referee_command_parses():
    found = commands(SCALE) + commands(CI)
    assert {"grade", "merge", "aggregate", "report"} <= {shlex.split(c)[1] for c in found}
    for command in found:
        parse_args(shlex.split(command)[1:])


def yaml_block(key: str) -> list:
    """The documents of the one YAML block of docs/ci.md's section holding ``key``."""
    (block,) = [b for b in blocks(CI, "yaml") if key in b]
    return list(yaml.safe_load_all(block))


def test_the_kubernetes_jobs_shard_by_the_completion_index():
    shards, merge = yaml_block("JOB_COMPLETION_INDEX")
    spec = shards["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == 8
    (container,) = spec["template"]["spec"]["containers"]
    assert '--shard "$((JOB_COMPLETION_INDEX + 1))/8"' in container["args"][0]
    (container,) = merge["spec"]["template"]["spec"]["containers"]
    assert "referee merge" in container["args"][0] and "exit $decision" in container["args"][0]


def github_workflow() -> dict:
    (workflow,) = yaml_block("matrix.shard")
    return workflow


def test_the_github_matrix_grades_every_shard_and_uploads_its_files():
    shard = github_workflow()["jobs"]["shard"]
    assert shard["strategy"]["matrix"]["shard"] == list(range(1, 9))
    assert shard["strategy"]["fail-fast"] is False
    (grade,) = [s["run"] for s in shard["steps"] if "referee grade" in s.get("run", "")]
    assert '--shard "${{ matrix.shard }}/8"' in grade
    (upload,) = [s["with"] for s in shard["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["name"] == "referee-shard-${{ matrix.shard }}"
    # the manifest at the root and each report: the paths below the workspace survive the round trip
    assert upload["path"].split() == ["evals/workspace/shard-*-of-8.json", "evals/workspace/**/grading.json",
                                      "evals/workspace/**/ground_truth.json"]


def test_the_github_merge_job_merges_every_shard_then_gates_with_the_action():
    jobs = github_workflow()["jobs"]
    merge = jobs["merge"]
    assert merge["needs"] == "shard"
    (download,) = [s["with"] for s in merge["steps"] if s.get("uses", "").startswith("actions/download-artifact")]
    assert download == {"pattern": "referee-shard-*", "merge-multiple": True, "path": "evals/workspace"}
    (merging,) = [s["run"] for s in merge["steps"] if "referee merge" in s.get("run", "")]
    assert merging.rstrip().endswith("|| [ $? = 1 ]")  # a refused merge (2) fails the job
    steps = merge["steps"]
    at = {name: n for n, name in enumerate(s.get("uses", s.get("name", "")).split("@")[0] for s in steps)}
    assert at["actions/download-artifact"] < at["Merge"] < at["OWNER/referee"]
    action = steps[at["OWNER/referee"]]["with"]
    # the merge wrote the grade: the action decides and reports on it without grading again
    assert action == {"workspace": "evals/workspace", "rules": "evals/skill.rules", "evals": "evals/evals.json",
                      "grade": "false"}
    # every job runs the referee of the action's ref (the merge refuses mixed versions)
    for job in jobs.values():
        (checkout,) = [s["with"] for s in job["steps"] if s.get("with", {}).get("repository") == "OWNER/referee"]
        assert checkout["ref"] == "vX"


ACTION = REPO / "action.yml"


def test_the_merge_job_gives_the_action_inputs_it_declares():
    declared = yaml.safe_load(ACTION.read_text(encoding="utf-8"))["inputs"]
    steps = github_workflow()["jobs"]["merge"]["steps"]
    (given,) = [s["with"] for s in steps if s.get("uses", "").startswith("OWNER/referee@")]
    assert set(given) <= set(declared)
    assert {name for name, spec in declared.items() if spec.get("required")} <= set(given)
