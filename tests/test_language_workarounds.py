"""What authors wrote before the language could say it, against the form that says it.

Each case pairs an old workaround (a lookahead regex fitted to one response, a chain
of ``exactly N``, an input pasted into the rules, parentheses around a negation)
with the new form, and grades both on the same runs: they must give the same
verdict on every run, and the runs must make them pass and fail, so an agreement
that holds only because both always pass cannot hide.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.workspace import load_run
from test_conformance import write_evals, write_run

SHELL_RUNS = [
    {"steps": [{"tool": "Bash", "args": {"command": "git status"}, "return": "clean"},
               {"tool": "Read", "args": {"path": "a.md"}, "return": "text"}]},
    {"steps": [{"tool": "Bash", "args": {"command": "git push origin main"}, "return": "ok"}]},
    {"steps": [{"tool": "Read", "args": {"path": "a.md"}, "return": "text"}]},
]

REPORTS = [{"response": "Sales rose to 1,250 units in 2024.\n"},
           {"response": "Sales rose sharply this year.\n"},
           {"response": "See table 3 (2023).\n"}]

LISTS = [{"response": "Options:\n- walk\n- bus\n- train\n"},
         {"response": "Options:\n- walk\n- bus\n"},
         {"response": "- a\n- b\n- c\n- d\n- e\n- f\n"},
         {"response": "- a\n- b\n- c\n- d\n- e\n"}]
BULLET = '. starts with "- "'

ARTICLES = [{"response": "I removed the word \"very\".\n\n## Article\n\nSales grew.\n\n## Notes\nnone\n"},
            {"response": "## Article\n\nSales grew very fast.\n\n## Notes\nI kept \"very\".\n"},
            {"response": "## Notes\nThe article is below.\n\n## Article\nSales grew.\nIt was very good.\n"}]

SNIPPETS = [{"response": "Run this:\n```python\nprint(total)\n```\nIt prints the total.\n"},
            {"response": "Call print(total) yourself.\n```\nls\n```\n"},
            {"response": "No code.\n"}]

TRIPS = [{"steps": [{"tool": "search", "args": {"flights": [{"from": "ZRH", "to": "LIS"},
                                                         {"from": "LIS", "to": "ZRH"}]}}]},
         {"steps": [{"tool": "search", "args": {"flights": [{"from": "LIS", "to": "ZRH"},
                                                         {"from": "ZRH", "to": "LIS"}]}}]},
         {"steps": [{"tool": "search", "args": {"flights": [{"from": "ZRH", "to": "LIS"}]}}]},
         {"steps": [{"tool": "search", "args": {"flights": [{"from": "ZRH"}, {"from": "LIS"},
                                                         {"from": "GVA"}]}}]}]
SEARCH = 'first(calls to "search").args'

CASES = [
    # The issue's own workaround: a length and one `includes` per item.
    pytest.param(f'length({SEARCH}.flights) == 2 and {SEARCH}.flights[0] includes {{"from": "ZRH"}}'
                 f' and {SEARCH}.flights[1] includes {{"from": "LIS"}}',
                 f'{SEARCH} matches {{"flights": [{{"from": "ZRH"}}, {{"from": "LIS"}}]}}',
                 TRIPS, id="shape"),
    pytest.param(r"response matches /```[a-z]*\n(?:(?!```)[\s\S])*print\(/",
                 'any code(response) have . contains "print("', SNIPPETS, id="code-blocks"),
    # What authors wrote: a lookahead regex fitted to the response's headings.
    pytest.param(r"not (response matches /## Article\n(?:(?!\n## )[\s\S])*very/)",
                 'not (section(response, "Article") contains "very")', ARTICLES, id="section"),
    pytest.param(" or ".join(f"exactly {n} lines(response) have {BULLET}" for n in (3, 4, 5)),
                 f"count(lines(response) where {BULLET}) between 3 and 5", LISTS, id="count-where"),
    pytest.param(f"not (exactly 0 lines(response) have {BULLET} or exactly 1 lines(response) have {BULLET}"
                 f" or exactly 2 lines(response) have {BULLET})",
                 f"count(lines(response) where {BULLET}) >= 3", LISTS, id="at-least-where"),
    pytest.param("response matches /\\b(?:19|20)\\d\\d\\b/ and not response matches /\\(\\d+\\)/",
                 "eval 1\nlet year = /\\b(?:19|20)\\d\\d\\b/\nlet in_brackets = /\\(\\d+\\)/\n"
                 "expect: response matches year and not response matches in_brackets\n",
                 REPORTS, id="named-pattern"),
    pytest.param('any calls to "Bash" have (.args.command contains "git push" and .status == "success")',
                 'eval 1\nlet pushed = .args.command contains "git push" and .status == "success"\n'
                 'expect: any calls to "Bash" have pushed\n', SHELL_RUNS, id="named-condition"),
    pytest.param('all calls to "Bash" have (not (.args.command contains "git push"))',
                 'all calls to "Bash" have not .args.command contains "git push"',
                 SHELL_RUNS, id="have-not"),
    pytest.param('all calls have (.tool == "Read" or .tool == "Grep")',
                 'all calls have .tool in ["Read", "Grep"]', SHELL_RUNS, id="membership"),
    pytest.param('no calls where (.tool != "Read" and .tool != "Grep")',
                 'only [calls to "Read", calls to "Grep"]', SHELL_RUNS, id="only-these-tools"),
    pytest.param('calls to "Bash" before calls to "Read"',
                 'eval 1\nlet shell = calls to "Bash"\nlet reads = calls to "Read"\n'
                 'expect: shell before reads\n', SHELL_RUNS, id="before-let-names"),
    pytest.param('count(calls where (not (.tool == "Bash"))) == 1',
                 'count(calls where not .tool == "Bash") == 1',
                 SHELL_RUNS, id="where-not"),
]


def outcomes(rule: str, runs: list[dict], tmp: Path, inputs: dict | None = None) -> list[str]:
    """The outcome of ``rule`` on each run, graded as ``referee grade`` grades (with
    an evals.json listing ``inputs`` for eval 1, when given)."""
    text = rule if rule.startswith("eval") else f"eval 1\nexpect: {rule}\n"
    evals = write_evals({"inputs": inputs}, tmp) if inputs else None
    program = compile_rules([dsl.parse_rules(text, "case.rules")], evals)
    found = []
    for number, run in enumerate(runs):
        run_dir = write_run(run, tmp / str(number))
        found.append(evaluate(program.evals[0], load_run(run_dir))[0].outcome.value)
    return found


@pytest.mark.parametrize("old, new, runs", CASES)
def test_the_new_form_gives_the_old_verdicts(old, new, runs, tmp_path):
    before, after = outcomes(old, runs, tmp_path / "old"), outcomes(new, runs, tmp_path / "new")
    assert before == after
    assert {"pass", "fail"} <= set(after), after


ARTICLE = {"article.md": "# Quarterly report\nRevenue grew by 12 % to 1250.50 units in 2024.\n"}
SUMMARIES = [{"response": "# Quarterly report\nRevenue grew 12% to 1,250.5 units (2024).\n"},
             {"response": "# Quarterly report\nRevenue grew 15% in 2024.\n"},
             {"response": "# Report\nRevenue grew.\n"}]


@pytest.mark.parametrize("old, new", [
    # What authors wrote: the input's figures and title pasted into the rules.
    ("all numbers(response) have . in [12, 1250.50, 2024]",
     'all numbers(response) have . in numbers(input "article.md")'),
    ('first(headings(response)) == "Quarterly report"',
     'first(headings(response)) == first(headings(input "article.md"))'),
])
def test_an_input_gives_the_verdicts_of_its_pasted_text(old, new, tmp_path):
    before = outcomes(old, SUMMARIES, tmp_path / "old")
    after = outcomes(new, SUMMARIES, tmp_path / "new", ARTICLE)
    assert before == after
    assert {"pass", "fail"} <= set(after), after
