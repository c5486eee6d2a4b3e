"""``import --eval ID`` writes ``eval-ID/CONFIG/run-k`` so that the rules of eval ID
apply: an ID (or CONFIG) that no folder name can hold as it is would be read back
as another eval (``a b`` as ``a-b``, ``é`` as ``x``, two ids as one, ``01`` as 1), so
it is refused, naming it, and nothing is written. ``3-book-flight`` is eval 3 named
book-flight, as skill-creator's folders are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.cli import main

LOG = """# Eval Execution Transcript

## Eval Prompt
Say hello.

## Final Result
Hello.
"""


def _log(tmp_path: Path) -> Path:
    source = tmp_path / "transcript.md"
    source.write_text(LOG, encoding="utf-8")
    return source


@pytest.mark.parametrize("flag,value", [("--eval", "a b"), ("--eval", "é"), ("--eval", "x/1"), ("--eval", "-1"),
                                        ("--eval", "01"), ("--eval", "007"), ("--config", "with skill")])
def test_an_id_no_folder_can_hold_is_refused(tmp_path: Path, capsys, flag: str, value: str):
    out = tmp_path / "ws"
    extra = [flag, value] if flag == "--eval" else ["--eval", "1", flag, value]
    assert main(["import", "skill-creator-log", str(_log(tmp_path)), "--out", str(out), *extra]) == 2
    assert repr(value) in capsys.readouterr().err
    assert not out.exists()


def test_two_ids_are_never_imported_as_one_eval(tmp_path: Path, capsys):
    out = tmp_path / "ws"
    main(["import", "skill-creator-log", str(_log(tmp_path)), "--out", str(out), "--eval", "é"])
    main(["import", "skill-creator-log", str(_log(tmp_path)), "--out", str(out), "--eval", "ü"])
    assert not (out / "eval-x").exists()


@pytest.mark.parametrize("value", ["1", "1.5", "book-flight", "3-book-flight", "eval_a"])
def test_an_id_a_folder_holds_as_it_is_is_imported(tmp_path: Path, value: str):
    out = tmp_path / "ws"
    assert main(["import", "skill-creator-log", str(_log(tmp_path)), "--out", str(out), "--eval", value]) == 0
    assert (out / f"eval-{value}" / "imported" / "run-1" / "outputs" / "response.md").is_file()


def test_grading_sources_refuses_a_number_with_leading_zeros_as_the_eval(tmp_path: Path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_text('eval "01"\nexpect 1: response contains "Hello"\n', encoding="utf-8")
    assert main(["grade", str(_log(tmp_path)), "--as-eval", "01", "--rules", str(rules)]) == 2
    assert "would be read back as eval 1" in capsys.readouterr().err
