"""Two eval folders of one iteration whose eval_metadata.json give the same eval id
(a metadata file copied and not edited, or ``eval-1`` beside ``eval-01``) are two
evals: each is graded by its own sentences and counted apart, never as runs of the
other."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.memory_workspace import memory_workspace
from referee.engine.run.metadata_evals import gathered
from referee.engine.run.workspace import discover


def _eval(root: Path, folder: str, metadata: dict, text: str) -> None:
    eval_dir = root / "iteration-1" / folder
    for config in ("with_skill", "without_skill"):
        outputs = eval_dir / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(f"{text}\n", encoding="utf-8")
    (eval_dir / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")


def _workspace(root: Path) -> Path:
    _eval(root, "eval-1-book", {"eval_id": 1, "eval_name": "book", "expectations": ["Names flight LX2084"]},
          "Booked LX2084.")
    _eval(root, "eval-1-export", {"eval_id": 1, "eval_name": "export",
                                  "expectations": ["Writes the CSV header", "Says which rows were left out"]},
          "Exported.")
    return root


def test_each_eval_folder_is_its_own_eval(tmp_path):
    found = discover(_workspace(tmp_path))
    ids = [(run.id.eval_id, run.id.configuration, run.id.rel) for run in found.runs]
    assert ids == [
        ("eval-1-book/1", "with_skill", "iteration-1/eval-1-book/with_skill/run-1"),
        ("eval-1-book/1", "without_skill", "iteration-1/eval-1-book/without_skill/run-1"),
        ("eval-1-export/1", "with_skill", "iteration-1/eval-1-export/with_skill/run-1"),
        ("eval-1-export/1", "without_skill", "iteration-1/eval-1-export/without_skill/run-1")]
    assert [(e.eval_id, e.sentences) for e in found.expectations] == [
        ("eval-1-book/1", ("Names flight LX2084",)),
        ("eval-1-export/1", ("Writes the CSV header", "Says which rows were left out"))]
    assert found.expectations == gathered(found.runs)
    assert "eval-1-export/1" in found.runs[2].id.extra["layout"]


def test_graded_by_its_own_sentences(tmp_path, capsys):
    main(["grade", str(_workspace(tmp_path)), "--check", "--json"])
    runs = json.loads(capsys.readouterr().out)["runs"]
    texts = {run["path"]: [a["text"] for a in run["expectations"]] for run in runs}
    assert texts["iteration-1/eval-1-export/with_skill/run-1"] == ["Writes the CSV header",
                                                                   "Says which rows were left out"]
    assert texts["iteration-1/eval-1-book/with_skill/run-1"] == ["Names flight LX2084"]


def test_the_same_folder_in_two_iterations_is_one_eval(tmp_path):
    for iteration in (1, 2):
        folder = tmp_path / f"iteration-{iteration}" / "eval-1-book"
        (folder / "with_skill" / "outputs").mkdir(parents=True)
        (folder / "eval_metadata.json").write_text('{"eval_id": 1}', encoding="utf-8")
    # A folder renamed between iterations still names the eval its metadata gives.
    (tmp_path / "iteration-2" / "eval-1-book").rename(tmp_path / "iteration-2" / "eval-1-book-flight")
    assert {run.id.eval_id for run in discover(tmp_path).runs} == {"1"}


def test_a_workspace_in_memory_reads_them_alike(tmp_path):
    root = _workspace(tmp_path)
    files = {path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
             for path in root.rglob("*") if path.is_file()}
    assert ([run.id.eval_id for run in memory_workspace(files)]
            == [run.id.eval_id for run in discover(root).runs])


def _selected(tmp_path: Path, capsys, value: str) -> tuple[int, list[str], str]:
    code = main(["grade", str(_workspace(tmp_path)), "--check", "--json", "--eval", value])
    out, err = capsys.readouterr()
    return code, sorted({run["path"].split("/")[1] for run in json.loads(out)["runs"]}) if code != 2 else [], err


def test_each_is_selected_by_its_folder_exactly(tmp_path, capsys):
    # Input: eval-1-book and eval-1-export, both eval 1. `--eval eval-1-book` (its
    # folder, as --help says) and `--eval 1-book` matched no run; now each picks that
    # folder's eval alone, as its name does.
    for value in ("eval-1-book", "1-book", "book"):
        code, folders, _ = _selected(tmp_path / value, capsys, value)
        assert folders == ["eval-1-book"], value
    assert _selected(tmp_path / "x", capsys, "1-export")[1] == ["eval-1-export"]


def test_the_id_they_share_names_neither_and_says_why(tmp_path, capsys):
    code, folders, err = _selected(tmp_path, capsys, "1")
    assert code == 2 and "eval folders that share an id are evals of their own: eval-1-book/1, eval-1-export/1" in err


def test_report_selects_by_the_folder_too(tmp_path, capsys):
    ws = _workspace(tmp_path)
    main(["grade", str(ws)])
    capsys.readouterr()
    assert main(["report", str(ws), "--format", "junit", "-o", "-", "--eval", "1-export"]) in (0, 1, 3)
    out = capsys.readouterr().out
    assert "eval-1-export" in out and "eval-1-book" not in out
    assert main(["report", str(ws), "--format", "markdown", "-o", "-", "--eval", "1"]) == 2
    assert "eval-1-book/1, eval-1-export/1" in capsys.readouterr().err
