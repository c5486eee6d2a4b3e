"""A sentence that eval_metadata.json gives twice (no evals.json: the runs' metadata
gives the eval's sentences) is a ``duplicate-text`` error at the repeat: the message
names the file by its place in the workspace, and the line and column of the second
sentence, as it does for a sentence of evals.json. It pointed at
``eval_metadata.json:0:0``, naming neither the folder nor the line."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

METADATA = '{\n  "eval_id": 0,\n  "eval_name": "x",\n  "prompt": "p",\n  "assertions": [\n    "says done",\n    "says done"\n  ]\n}\n'


def _workspace(tmp_path: Path, metadata: str, where: str = "eval") -> Path:
    eval_folder = tmp_path / "ws" / "iteration-1" / "eval-0-x"
    run = eval_folder / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("done\n", encoding="utf-8")
    ((eval_folder if where == "eval" else run) / "eval_metadata.json").write_text(metadata, encoding="utf-8")
    return tmp_path / "ws"


def test_a_repeated_sentence_of_an_eval_folder_metadata_is_placed(tmp_path, capsys):
    assert main(["grade", str(_workspace(tmp_path, METADATA))]) == 2
    err = capsys.readouterr().err
    assert "iteration-1/eval-0-x/eval_metadata.json:7:5: error[duplicate-text]" in err, err
    assert "expectation 1 of eval_metadata.json" in err


def test_a_repeated_sentence_of_a_run_metadata_is_placed(tmp_path, capsys):
    # The run's own eval_metadata.json gives the sentences (as objects), the eval folder none.
    metadata = '{"eval_id": 0,\n "expectations": [{"text": "says done"},\n  {"text": "says done"}]}\n'
    assert main(["grade", str(_workspace(tmp_path, metadata, where="run"))]) == 2
    err = capsys.readouterr().err
    assert "iteration-1/eval-0-x/with_skill/run-1/eval_metadata.json:3:12: error[duplicate-text]" in err, err


def test_the_run_level_sentences_are_the_ones_placed(tmp_path, capsys):
    # Both levels give sentences: the run's win (as they do when graded), and are placed there.
    ws = _workspace(tmp_path, '{"eval_id": 0, "assertions": ["other", "says done"]}\n')
    run = ws / "iteration-1" / "eval-0-x" / "with_skill" / "run-1"
    (run / "eval_metadata.json").write_text('{"assertions": ["says done",\n "says done"]}\n', encoding="utf-8")
    assert main(["grade", str(ws)]) == 2
    err = capsys.readouterr().err
    assert "iteration-1/eval-0-x/with_skill/run-1/eval_metadata.json:2:2: error[duplicate-text]" in err, err


def test_a_run_graded_on_its_own_names_the_file_above_it(tmp_path, capsys):
    ws = _workspace(tmp_path, METADATA)
    assert main(["grade", str(ws / "iteration-1" / "eval-0-x" / "with_skill" / "run-1")]) == 2
    err = capsys.readouterr().err
    assert "../../eval_metadata.json:7:5: error[duplicate-text]" in err, err


def test_distinct_sentences_still_grade(tmp_path):
    ws = _workspace(tmp_path, METADATA.replace('"says done"\n', '"says something else"\n'))
    assert main(["grade", str(ws)]) in (0, 1)
    assert list(ws.rglob("grading.json"))
