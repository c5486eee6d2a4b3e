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


def test_the_kubernetes_jobs_shard_by_the_completion_index():
    shards, merge = yaml.safe_load_all(blocks(CI, "yaml")[0])
    spec = shards["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == 8
    (container,) = spec["template"]["spec"]["containers"]
    assert '--shard "$((JOB_COMPLETION_INDEX + 1))/8"' in container["args"][0]
    (container,) = merge["spec"]["template"]["spec"]["containers"]
    assert "referee merge" in container["args"][0] and "exit $decision" in container["args"][0]
