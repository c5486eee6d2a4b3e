"""``contains`` on a list asks for an item equal to the value. Where no item is, but an
item that is itself a list or an object holds the value (an item of it, a key, a value
at any depth, or text holding the words), whether the rule meant an item of the outer
list or something inside one cannot be told: an ERROR, never a pass of the negation.
A JSONPath result is such a list: ``jsonpath(x, "$.tags")`` is a list of one item, the
array ``tags``; a rule asking whether it contains "b" may mean that array.

Built on the real Claude Code session ``ask-user-question-answered`` (SOURCE.md): its
one AskUserQuestion call asks four questions, the fourth headed "License", the first
offering "Rust"."""

from __future__ import annotations

import json
from pathlib import Path

import referee

SESSION = (Path(__file__).parent / "fixtures" / "real" / "claude-code" / "ask-user-question-answered"
           / "038eda5e-b5fd-435b-bcc4-982f95f54f09.jsonl")
ASKED = 'first(calls to "AskUserQuestion").args.questions'


def _outcomes(source: Path, *checks: str) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))
    (result,) = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations]


def _messages(source: Path, *checks: str) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))
    (result,) = referee.grade(rules, source, as_eval="1")
    return [item["evidence"] for item in result.expectations]


def test_an_object_item_holding_the_text_leaves_a_list_contains_undecided():
    assert _outcomes(SESSION,
                     f'not ({ASKED} contains "License")',
                     f'{ASKED} contains "License"',
                     'no calls to "AskUserQuestion" have .args.questions contains "Rust"',
                     f'not ({ASKED} contains "Rust" ignoring case)') == ["error"] * 4
    (message,) = _messages(SESSION, f'not ({ASKED} contains "License")')
    assert 'is a list with no item "License", but its item 4 holds it' in message


def test_a_list_no_item_of_which_holds_the_text_decides():
    assert _outcomes(SESSION,
                     f'not ({ASKED} contains "Haskell")',
                     f'{ASKED} contains "Haskell"',
                     f'"License" in {ASKED}',
                     f'count({ASKED}) == 4') == ["pass", "fail", "fail", "pass"]


def _written(tmp_path: Path, name: str, text: str) -> Path:
    run = tmp_path / "eval-1" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / name).write_text(text, encoding="utf-8")
    return tmp_path


def _folder_outcomes(where: Path, *checks: str) -> list[str]:
    rules = "eval 1\n" + "".join(f"expect {n}: {check}\n" for n, check in enumerate(checks, 1))
    (result,) = referee.grade(rules, where)
    return [item["outcome"] for item in result.expectations]


def test_a_jsonpath_selecting_an_array_holding_the_value_is_undecided(tmp_path: Path):
    where = _written(tmp_path, "o.json", json.dumps({"c": ["secret", {"d": 7}], "e": {"k": "v"}}))
    picked = 'jsonpath(file "o.json" as json, "$.c")'
    assert _folder_outcomes(where,
                            f'not ({picked} contains "secret")',
                            f'not ({picked} contains 7)',
                            'not (jsonpath(file "o.json" as json, "$.e") contains "k")',
                            'not (jsonpath(file "o.json" as json, "$.e") contains "v")',
                            f'not ({picked} contains "zzz")',
                            f'not (jsonpath(file "o.json" as json, "$.c[*]") contains "secret")',
                            f'not (jsonpath(file "o.json" as json, "$.c[*]") contains "zzz")',
                            ) == ["error"] * 4 + ["pass", "fail", "pass"]
