"""`referee suggest` drafts the language's forms for texts, end to end.

An evals.json that lists an input file, a workspace of two runs of a text skill (one
that does what the sentences say, one that does not): the drafted rules file passes
`referee check --evals` as written, names the input as the eval lists it, reads a
section with `section` because the runs' replies write it as a heading, and grades
the two runs as a careful author's rules would. The sentence with a literal half and
a judgement is failed by its rule part alone on the second run, and waits for the
grader on the first.
"""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee import dsl
from referee.engine.cli import main
from referee.engine.compile import check_rules
from test_conformance import render_steps

SENTENCES = [
    "The summary is under 40 words",
    "Every number in the summary appears in the input",
    "The response has a Summary section",
    'The Summary section mentions "Q3"',
    "Includes a Risks section naming the biggest risk",
    "Only Read is called",
    "Lists at least 2 bullet points",
]

DRAFTS = {
    1: "length(words(response)) <= 40",
    2: 'all numbers(response) have . in numbers(input "article.md")',
    3: 'exists section(response, "Summary")',
    4: 'section(response, "Summary") contains "Q3"',
    5: 'exists section(response, "Risks") and semantic "Includes a Risks section naming the biggest risk"',
    6: 'only [calls to "Read"]',
    7: r"count(lines(response) where . matches /^\s*[-*+•]\s/) >= 2",
}

GOOD = ("## Summary\nRevenue grew 12% to 1,250 units in Q3.\n- strong demand\n- new markets\n\n"
        "## Risks\nSupply may tighten.\n")
BAD = "## Overview\n" + "Revenue grew 15% this year, and the team is pleased with it. " * 5 + "\n"
STEPS = {"run-1": [{"tool": "Read", "args": {"file_path": "article.md"}, "return": "text"}],
         "run-2": [{"tool": "Read", "args": {"file_path": "article.md"}, "return": "text"},
                   {"tool": "Bash", "args": {"command": "wc -w article.md"}, "return": "9"}]}


def _skill(root: Path) -> Path:
    evals = root / "skill" / "evals"
    (evals / "files").mkdir(parents=True)
    article = "In Q3 revenue grew by 12 % to 1250 units.\n"
    (evals / "files" / "article.md").write_text(article, encoding="utf-8")
    (evals / "evals.json").write_text(json.dumps({"skill_name": "summarise", "evals": [
        {"id": 1, "prompt": "Summarise the article.", "files": ["evals/files/article.md"],
         "expectations": SENTENCES}]}), encoding="utf-8")
    return evals / "evals.json"


def _workspace(root: Path) -> Path:
    for run, response in (("run-1", GOOD), ("run-2", BAD)):
        outputs = root / "ws" / "eval-1" / "with_skill" / run / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(response, encoding="utf-8")
        (outputs / "transcript.md").write_text(render_steps(STEPS[run]), encoding="utf-8")
    return root / "ws"


def test_the_new_forms_are_drafted_checked_and_graded(tmp_path: Path):
    evals, workspace = _skill(tmp_path), _workspace(tmp_path)
    rules = tmp_path / "drafted.rules"
    assert main(["suggest", str(evals), "--workspace", str(workspace), "-o", str(rules)]) == 0
    text = rules.read_text(encoding="utf-8")
    drafted = {int(line.split(":")[0].split()[1]): line.split(": ", 1)[1]
               for line in text.splitlines() if line.startswith("expect ") and ": " in line}
    assert drafted == DRAFTS
    assert check_rules([dsl.parse_rules(text, "drafted.rules")], dsl.load_evals(evals)) == []

    outcomes = {}
    program = referee.compile(text, "drafted.rules", evals=evals)
    for result in referee.grade(program, workspace, evals=evals):
        outcomes[Path(result.path).name] = [item["outcome"] for item in result.expectations]
    assert outcomes["run-1"] == ["pass", "pass", "pass", "pass", "not_graded", "pass", "pass"]
    assert outcomes["run-2"] == ["fail"] * 7


def test_without_the_runs_a_section_is_its_title_and_without_the_input_numbers_stay_semantic(
        tmp_path: Path, capsys):
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": SENTENCES[1:3]}]}),
                     encoding="utf-8")
    assert main(["suggest", str(evals)]) == 0
    out = capsys.readouterr().out
    assert "expect 1\n" in out  # no input listed: "the input" names no file
    assert 'expect 2: response contains "Summary"' in out
    assert "exists section(response, ...) says more" in out  # the draft says why, and what --workspace does


def test_the_readme_shows_what_suggest_drafts():
    """The rules block of the README's "Drafting rules from sentences" is suggest's own
    output: each `# N. sentence` is drafted as the `expect N:` under it."""
    import re

    from conftest import REPO
    from referee.engine.suggest.draft import draft_sentence
    from referee.engine.suggest.facts import RunFacts
    from referee.engine.suggest.patterns import load

    section = (REPO / "README.md").read_text(encoding="utf-8").split("### Drafting rules from sentences")[1]
    block = re.search(r"^```rules\n(.*?)^```$", section, flags=re.S | re.M).group(1)
    shown = re.findall(r"^# (\d+)\. (.+)\nexpect \1: (.+)$", block, flags=re.M)
    assert len(shown) == 4
    parts, patterns = load()
    for _, sentence, check in shown:
        assert draft_sentence(1, sentence, RunFacts(), parts, patterns).check == check
