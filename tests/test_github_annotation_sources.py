"""An imported run's annotation lands on its source in a ``--sources`` folder only when
the file there is the source it was imported from: its source map records the
source's SHA-256 (``origin``). skill-creator logs are all named ``transcript.md``; with
two runs' folders given, each run's annotation named the first ``transcript.md``
found, another run's log, at a line that says something else there."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

LOG = REPO / "tests" / "fixtures" / "import" / "skill-creator-log" / "outputs" / "transcript.md"


def _imported(tmp_path: Path) -> Path:
    """Two logs named transcript.md, the second five lines longer, imported as two runs."""
    for folder, config, text in (("a", "with_skill", LOG.read_text(encoding="utf-8")),
                                 ("b", "without_skill", "\n" * 5 + LOG.read_text(encoding="utf-8"))):
        (tmp_path / "srcs" / folder).mkdir(parents=True)
        (tmp_path / "srcs" / folder / "transcript.md").write_text(text, encoding="utf-8")
        assert main(["import", "skill-creator-log", str(tmp_path / "srcs" / folder / "transcript.md"),
                     "--out", str(tmp_path / "ws"), "--eval", "1", "--config", config]) == 0
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1\nexpect "no price": not response contains "189 EUR"\n', encoding="utf-8")
    assert main(["grade", str(tmp_path / "ws"), "--rules", str(rules)]) == 1
    return tmp_path / "ws"


def _annotations(tmp_path: Path, capsys, *folders: str) -> list[str]:
    capsys.readouterr()
    sources = [arg for folder in folders for arg in ("--sources", str(tmp_path / "srcs" / folder))]
    assert main(["report", str(tmp_path / "ws"), "--format", "github", "-o", "-", "--root", str(tmp_path),
                 *sources]) == 1
    return capsys.readouterr().out.splitlines()


def test_each_run_is_annotated_on_its_own_source(tmp_path: Path, capsys):
    # Input: runs imported from srcs/a/transcript.md and srcs/b/transcript.md, both failing
    # on their response (lines 25 and 30 of their logs); report --sources srcs/a --sources
    # srcs/b put the second run's error on srcs/a/transcript.md, line 30.
    _imported(tmp_path)
    lines = _annotations(tmp_path, capsys, "a", "b")
    assert lines[0].startswith("::error file=srcs/a/transcript.md,line=25,")
    assert lines[1].startswith("::error file=srcs/b/transcript.md,line=30,")


def test_a_source_of_the_same_name_with_other_bytes_is_not_named(tmp_path: Path, capsys):
    _imported(tmp_path)
    lines = _annotations(tmp_path, capsys, "a")
    assert lines[0].startswith("::error file=srcs/a/transcript.md,line=25,")
    assert lines[1].startswith("::error title=")  # srcs/b is not given: it stands on the job


def test_a_mistyped_place_is_refused_before_anything_is_reported(tmp_path: Path, capsys):
    # Input: report --format github --sources srcs/typo: every annotation stood on the
    # job (no file matched), exit 1 as decided, and nothing said the folder was not there.
    _imported(tmp_path)
    for extra in (["--sources", str(tmp_path / "srcs" / "typo")], ["--root", str(tmp_path / "nowhere")],
                  ["--rules", str(tmp_path / "typo.rules")]):
        capsys.readouterr()
        assert main(["report", str(tmp_path / "ws"), "--format", "github", "-o", "-", *extra]) == 2
        out, err = capsys.readouterr()
        assert out == "" and extra[1] in err and "nothing was reported" in err
