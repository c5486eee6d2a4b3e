"""Text that ``str.isdigit()`` takes for a number and ``int()`` does not read: digits
such as ² or ①, and a run of more than 4,300 digits. Where referee reads a number from
a file or a command line, such text is no number, said as any other text that is none.
Before, an eval id or a shard's selection so written ended in "internal error:
ValueError", `suggest` wrote it as no rules text, and `--run` took ten digits, which no
run folder has."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, strategies as st
from sharded import EVALS, RULE_ARGS, fresh, sharded

from referee.engine.cli import main
from referee.engine.run.identity import natural_key

NOT_READ = ["²", "①", "٣x²", "9" * 5000]


def _int_key(text: str) -> tuple:
    """natural_key as it was: each run of digits compared by int()."""
    return tuple((0, int(part), part) if part.isdigit() else (1, part) for part in re.split(r"([0-9]+)", text) if part)


@given(st.lists(st.text(alphabet="0123456789-ab_", max_size=12), min_size=2, max_size=8))
def test_names_sort_as_they_did_where_int_read_them(names):
    assert sorted(names, key=natural_key) == sorted(names, key=_int_key)


def test_names_int_cannot_read_sort_too():
    names = ["eval-10", "eval-2", "eval-²", "eval-" + "9" * 5000, "eval-" + "1" + "0" * 5000, "eval-02"]
    assert sorted(names, key=natural_key) == ["eval-02", "eval-2", "eval-10", "eval-" + "9" * 5000,
                                              "eval-" + "1" + "0" * 5000, "eval-²"]


@pytest.mark.parametrize("eval_id", NOT_READ, ids=["superscript", "circled", "arabic-and-superscript", "5000-digits"])
def test_an_eval_id_int_cannot_read_is_shown_graded_and_aggregated(tmp_path, capsys, eval_id):
    workspace = fresh(tmp_path)
    metadata = workspace / "iteration-1" / "eval-2-fare-export" / "eval_metadata.json"
    value = json.loads(metadata.read_text(encoding="utf-8"))
    value["eval_id"] = eval_id
    metadata.write_text(json.dumps(value), encoding="utf-8")
    for command in (["show", str(workspace)], ["grade", str(workspace), *RULE_ARGS], ["aggregate", str(workspace)]):
        main(command)
        assert "internal error" not in capsys.readouterr().err, command


@pytest.mark.parametrize("run", ["²", "9" * 5000], ids=["superscript", "5000-digits"])
def test_a_shard_selection_naming_a_run_int_cannot_read_is_refused_by_the_merge(tmp_path, capsys, run):
    workspace = sharded(tmp_path, 2)
    for manifest in workspace.glob("shard-*.json"):
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["options"]["selection"] = f"--run {run}"
        manifest.write_text(json.dumps(value), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", str(workspace), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "is none that `referee grade` records" in err


@pytest.mark.parametrize("run", ["²", "1" * 10], ids=["superscript", "ten-digits"])
def test_a_run_number_int_cannot_read_or_no_folder_has_is_a_usage_error(tmp_path, capsys, run):
    with pytest.raises(SystemExit) as ended:  # argparse's usage error
        main(["grade", str(fresh(tmp_path)), *RULE_ARGS, "--run", run])
    assert ended.value.code == 2
    assert "expected a run number (3 or run-3)" in capsys.readouterr().err


def test_suggest_writes_an_eval_id_int_cannot_read_as_text(tmp_path, capsys):
    evals = json.loads(EVALS.read_text(encoding="utf-8"))
    evals["evals"][0]["id"] = "²"
    source = tmp_path / "evals.json"
    source.write_text(json.dumps(evals), encoding="utf-8")
    drafted = tmp_path / "drafted.rules"
    assert main(["suggest", str(source), "-o", str(drafted)]) == 0
    assert 'eval "²"' in drafted.read_text(encoding="utf-8")  # `eval ²` is no rules text
    capsys.readouterr()
    assert main(["check", str(drafted), "--evals", str(source)]) == 0, capsys.readouterr().err
