"""Grading the bundled example in shards, as CI jobs would: each shard in a copy of
its own (another host, another path), its reports and manifest copied back into
one workspace, then merged."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = REPO / "examples" / "booking-skill" / "booking.rules"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
RULE_ARGS = ["--rules", str(RULES), "--evals", str(EVALS)]
REPORTS = ("grading.json", "ground_truth.json")
SKIP = ("benchmark.json", "benchmark.md", *REPORTS)


def fresh(where: Path, name: str = "ws") -> Path:
    """A copy of the example workspace with none of its reports, at ``where/name``."""
    target = where / name
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(*SKIP))
    return target


def grade(workspace: Path, *extra: str) -> int:
    return main(["grade", str(workspace), *RULE_ARGS, *extra])


def grade_shard(workspace: Path, index: int, count: int, *extra: str) -> int:
    return grade(workspace, "--shard", f"{index}/{count}", *extra)


def copy_shard(source: Path, target: Path, index: int, count: int) -> None:
    """What a CI artifact of shard ``index`` holds: its manifest and its runs' reports."""
    import json

    name = f"shard-{index}-of-{count}.json"
    shutil.copy2(source / name, target / name)
    for entry in json.loads((source / name).read_text(encoding="utf-8"))["runs"]:
        for report in REPORTS:
            shutil.copy2(source / entry["path"] / report, target / entry["path"] / report)


def sharded(where: Path, count: int, hosts: dict[int, int] | None = None, order: list[int] | None = None,
            jobs: int = 1) -> Path:
    """The example graded as ``count`` shards, shard i on host ``hosts[i]`` (each
    host a copy at its own path), in ``order``, copied into ``where/merged/ws``."""
    hosts = hosts or {i: 1 for i in range(1, count + 1)}
    copies = {host: fresh(where / f"host-{host}") for host in set(hosts.values())}
    for index in order or range(1, count + 1):
        assert grade_shard(copies[hosts[index]], index, count, "--jobs", str(jobs)) == 0
    merged = fresh(where / "merged")
    for index in range(1, count + 1):
        copy_shard(copies[hosts[index]], merged, index, count)
    return merged


def files(workspace: Path, names: tuple[str, ...] = REPORTS) -> dict[str, bytes]:
    """Every file of these names under ``workspace``, by relative path."""
    return {p.relative_to(workspace).as_posix(): p.read_bytes() for name in names for p in workspace.rglob(name)}
