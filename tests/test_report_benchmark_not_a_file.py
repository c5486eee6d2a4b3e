"""benchmark.json that is there but cannot be read (a FIFO, a folder, a file cut short)
is named, and nothing is reported: its release decision is unknown, and the grades
alone could decide a PASS where it decided otherwise."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_benchmark_that_is_not_a_file_is_named_as_unread(tmp_path: Path, capsys, kind: str):
    # Input: the example, whose benchmark.json decides CONDITIONAL PASS, with a FIFO
    # or a folder in its place. report skipped it without a word and decided from
    # the grades alone (FAIL, exit 1), as if aggregate had never run.
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    benchmark = workspace / "benchmark.json"
    benchmark.unlink()
    os.mkfifo(benchmark) if kind == "fifo" else benchmark.mkdir()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    err = capsys.readouterr().err
    assert code == 2
    assert "benchmark.json: cannot read (" in err and "Nothing was reported" in err


def test_a_benchmark_cut_short_never_leaves_the_grades_to_pass_alone(tmp_path: Path, capsys):
    # Input: the example (CONDITIONAL PASS, exit 3) with benchmark.json cut at 2000
    # bytes. report --primary with_skill warned "shown without it" and decided from
    # with_skill's gates alone, which all pass: PASS, exit 0.
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    args = ["report", str(workspace), "--primary", "with_skill", "--format", "junit", "-o", "-"]
    assert main(args) == 3
    benchmark = workspace / "benchmark.json"
    benchmark.write_bytes(benchmark.read_bytes()[:2000])
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "benchmark.json: cannot read (Unterminated string" in err and "--no-benchmark" in err
    assert main([*args, "--no-benchmark"]) == 0  # the grades alone, when asked for


@pytest.mark.parametrize("release", ["gone", None])
def test_a_benchmark_whose_release_was_taken_out_is_refused(tmp_path: Path, capsys, release):
    # Input: the example (CONDITIONAL PASS, exit 3) with benchmark.json's release block
    # removed or made null. report --primary with_skill said nothing and decided from
    # with_skill's gates alone: PASS, exit 0.
    import json

    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    benchmark = workspace / "benchmark.json"
    document = json.loads(benchmark.read_text(encoding="utf-8"))
    if release == "gone":
        del document["release"]
    else:
        document["release"] = release
    benchmark.write_text(json.dumps(document), encoding="utf-8")
    assert main(["report", str(workspace), "--primary", "with_skill", "--format", "junit", "-o", "-"]) == 2
    assert "has no release decision" in capsys.readouterr().err
