"""A folder named to write into (``aggregate --output DIR``, ``compare --out DIR``,
``analyze --out DIR``, the folder of ``report -o FILE``) must be there already, and a
folder: all four refuse what is not, the same way, before any work. aggregate made any
missing folder (``--output typo/dir`` wrote there and exited as decided) while report
refused one; ``compare --out FILE`` stopped after the whole comparison with
"cannot write into FILE: File exists"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
SKILL = REPO / "examples" / "booking-skill"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("front") / "ws"
    shutil.copytree(EXAMPLE, ws)
    return ws


def _commands(ws: Path, place: Path) -> dict[str, list[str]]:
    return {
        "aggregate": ["aggregate", str(ws), "--output", str(place)],
        "compare": ["compare", str(ws), "--out", str(place)],
        "analyze": ["analyze", str(ws), "--skill-path", str(SKILL), "--out", str(place)],
        "report": ["report", str(ws), "--format", "markdown", "-o", str(place / "summary.md")],
    }


@pytest.mark.parametrize("command", ["aggregate", "compare", "analyze", "report"])
def test_a_missing_folder_is_refused_and_not_made(workspace, tmp_path, capsys, command):
    place = tmp_path / "typo" / "dir"
    assert main(_commands(workspace, place)[command]) == 2
    err = capsys.readouterr().err
    assert "typo/dir does not exist" in err and "must be there already" in err, err
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("command", ["aggregate", "compare", "analyze", "report"])
def test_a_file_where_the_folder_goes_is_refused_naming_it(workspace, tmp_path, capsys, command):
    place = tmp_path / "taken"
    place.write_text("mine\n", encoding="utf-8")
    assert main(_commands(workspace, place)[command]) == 2
    err = capsys.readouterr().err
    assert "taken is not a folder" in err and "File exists" not in err, err
    assert place.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("command, written", [("aggregate", "benchmark.json"), ("compare", "summary.json"),
                                              ("analyze", "analysis.json"), ("report", "summary.md")])
def test_a_folder_that_is_there_is_written_into(workspace, tmp_path, command, written):
    place = tmp_path / "out"
    place.mkdir()
    assert main(_commands(workspace, place)[command]) != 2
    assert (place / written).is_file()


@pytest.mark.parametrize("target", ["iteration-1/eval-1-book-flight/with_skill/run-1/grading.json",
                                    "iteration-1/eval-1-book-flight/with_skill/run-1/outputs/response.md",
                                    "benchmark.json"])
def test_report_never_writes_over_what_it_reports_on(tmp_path, capsys, target):
    # report -o ws/.../run-1/grading.json wrote the Markdown summary in place of the
    # run's grade (exit 3), and the next aggregate left the run out as not JSON.
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    before = (ws / target).read_bytes()
    link = tmp_path / "summary.md"
    link.symlink_to(ws / target)
    for place in (ws / target, link):
        assert main(["report", str(ws), "--format", "markdown", "-o", str(place)]) == 2
        assert "give another place with -o" in capsys.readouterr().err
    assert (ws / target).read_bytes() == before
    assert main(["report", str(ws), "--format", "markdown", "-o", str(ws / "summary.md")]) == 3


def test_suggest_never_writes_its_draft_over_the_evals_it_reads(tmp_path, capsys):
    # suggest evals.json -o evals.json replaced the evals with the drafted rules (exit 0).
    evals = tmp_path / "evals.json"
    shutil.copy(SKILL / "evals" / "evals.json", evals)
    before = evals.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(evals)
    for place in (evals, link):
        assert main(["suggest", str(evals), "-o", str(place)]) == 2
        assert "is read by this command" in capsys.readouterr().err
    assert evals.read_bytes() == before
    assert main(["suggest", str(evals), "-o", str(tmp_path / "draft.rules")]) == 0


RUN = "iteration-1/eval-1-book-flight/with_skill/run-1"


@pytest.mark.parametrize("command", ["aggregate", "compare", "analyze", "report"])
def test_nothing_is_written_among_a_runs_own_files(tmp_path, capsys, command):
    # aggregate --output RUN/outputs wrote benchmark.json among the agent's outputs
    # (exit 3); the run's grade was stale from then on ("its files changed since it
    # was graded"), and a grade again would have taken the file for the agent's.
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    place = ws / RUN / "outputs"
    assert main(_commands(ws, place)[command]) == 2
    assert "would stand among the files of a run" in capsys.readouterr().err
    assert sorted(p.name for p in place.iterdir()) == sorted(p.name for p in (EXAMPLE / RUN / "outputs").iterdir())
    assert main(["report", str(ws), "--no-benchmark", "--format", "markdown", "-o", "-"]) == 1  # not stale


def test_aggregate_never_replaces_the_blessed_benchmark_it_diffs_against(tmp_path, capsys):
    # aggregate ws --against ws/benchmark.json --fail-on-regression read the blessed
    # benchmark, then wrote the new one in its place: the next diff was against itself.
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    blessed = ws / "benchmark.json"
    before = blessed.read_bytes()
    assert main(["aggregate", str(ws), "--against", str(blessed), "--fail-on-regression"]) == 2
    assert "is read by this command (--against)" in capsys.readouterr().err
    assert blessed.read_bytes() == before
    assert main(["aggregate", str(ws), "--against", str(blessed), "--check"]) == 3
    kept = tmp_path / "blessed.json"
    shutil.copy(blessed, kept)
    assert main(["aggregate", str(ws), "--against", str(kept), "--fail-on-regression"]) == 3


def test_the_four_refusals_of_a_folder_word_for_word(tmp_path):
    # named_folder and folder_of_file share how a folder is judged; each keeps its words
    from referee.engine.report.folders import folder_of_file, named_folder
    from referee.engine.usage import UsageError

    (tmp_path / "taken").write_text("", encoding="utf-8")
    missing, taken = tmp_path / "typo", tmp_path / "taken"
    said = []
    for check in (lambda: named_folder(missing, "--out"), lambda: named_folder(taken, "--out"),
                  lambda: folder_of_file(missing / "r.md", "-o"), lambda: folder_of_file(taken / "r.md", "-o")):
        with pytest.raises(UsageError) as refused:
            check()
        said.append(str(refused.value))
    assert said == [
        f"{missing} does not exist: --out names a folder that must be there already (referee creates none, so a "
        "mistyped path writes nothing); create it first, or give another place with --out (nothing was done)",
        f"{taken} is not a folder: --out names the folder to write into; give a folder with --out (nothing was "
        "done)",
        f"{missing} does not exist, so {missing / 'r.md'} cannot be written there: -o writes into a folder that "
        "must be there already (referee creates none, so a mistyped path writes nothing); create it first, or "
        "give another place with -o (nothing was done)",
        f"{taken} is not a folder, so {taken / 'r.md'} cannot be written there; give another place with -o "
        "(nothing was done)",
    ]
    assert named_folder(tmp_path, "--out") == tmp_path and folder_of_file(tmp_path / "r.md", "-o") == tmp_path / "r.md"
