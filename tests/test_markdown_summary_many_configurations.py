"""The Markdown summary fits in a pull-request comment (GitHub refuses one over 65,536
characters) however many configurations a workspace holds and whatever their names:
past what fits, the configuration and benchmark tables, the context lines, the
release reasons and the hints are cut, each saying how many rows it leaves out, and
the failures still have room."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

GITHUB_COMMENT_LIMIT = 65_536
# A name that each of Markdown's escapes makes longer: every "$" becomes an element of
# its own, every ":" before a word a shortcode broken by a zero-width space.
NAME = "$a:b:" * 48


def _graded(tmp_path: Path, configs: int) -> Path:
    ws = tmp_path / "ws"
    for number in range(configs):
        outputs = ws / "eval-1-x" / f"cfg{number:02d}-{NAME}" / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text("nope\n", encoding="utf-8")
    rules = tmp_path / "x.rules"
    rules.write_text('eval 1 "x"\nexpect "says done": response contains "done"\n', encoding="utf-8")
    assert main(["grade", str(ws), "--rules", str(rules)]) == 1
    return ws


def test_sixty_configurations_fit_in_a_comment(tmp_path, capsys):
    # Input: 60 configurations named as above, every run failing. The summary was
    # 69,737 characters (129,774 with one of them as the primary, the others as
    # context lines): GitHub refuses the comment.
    ws = _graded(tmp_path, 60)
    first = sorted(p.name for p in (ws / "eval-1-x").iterdir())[0]
    for flags in ([], ["--primary", first]):
        capsys.readouterr()
        assert main(["report", str(ws), "--format", "markdown", "-o", "-", *flags]) == 1
        text = capsys.readouterr().out
        assert len(text) <= GITHUB_COMMENT_LIMIT
        assert "<details><summary><b>FAIL</b>" in text  # a failure is still shown
        assert "more configurations (see the HTML report)." in text


def test_a_few_configurations_are_all_listed(tmp_path, capsys):
    ws = _graded(tmp_path, 3)
    capsys.readouterr()
    main(["report", str(ws), "--format", "markdown", "-o", "-"])
    text = capsys.readouterr().out
    assert "more configurations" not in text and text.count("| cfg0") == 3
