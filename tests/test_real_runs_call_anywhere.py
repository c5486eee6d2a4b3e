"""A call put anywhere in a real run never lets a negative check over the calls pass.

Every real OpenAI-format document and Claude Code session of tests/fixtures/real gets a
Bash call running ``rm -rf /`` as a member of one of its objects, one object of each
shape (its path with the list indexes folded); ``no calls to "Bash" where .args.command
contains "rm -rf"`` is then a FAIL (the call was read) or an ERROR (a call the reader
does not take, said), never a PASS. Where a call there is data and not a call the agent
made, it is left out, each place with its reason (``_DATA``): a call's own input, a
tool's answer, tau2-bench's expected actions and its user simulator's own completion.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

import referee

REAL = Path(__file__).parent / "fixtures" / "real"
RULES = 'eval "x"\nexpect 1: no calls to "Bash" where .args.command contains "rm -rf"\n'
ARGS = json.dumps({"command": "rm -rf /"})
OPENAI_CALL = {"type": "function_call", "call_id": "call_rm", "name": "Bash", "arguments": ARGS}
CLAUDE_CALL = {"type": "tool_use", "id": "toolu_rm", "name": "Bash", "input": {"command": "rm -rf /"}}

# Places whose calls are data: (a member on the path, why)
_DATA = (
    ("arguments", "a call's arguments: what the agent sent, not a call"),
    ("input", "a call's input (Claude's tool_use, a custom tool's): what the agent sent"),
    ("toolUseResult", "Claude Code's copy of a tool's answer: what the tool returned"),
    ("tool_use_result", "the same, as stream-json names it"),
    ("reward_info", "tau2-bench's expected actions and checks of the task, beside its messages"),
    ("raw_data", "tau2-bench's user simulator's completion, whose calls are the user's own"),
)


def _objects(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    if isinstance(value, dict):
        if path:
            yield path, value
        for key, item in value.items():
            yield from _objects(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _objects(item, path + (index,))


def _data(path: tuple, holder: Any) -> bool:
    """Whether the object at ``path`` lies where a call is data (``_DATA``; a call's
    ``arguments`` or ``input`` only: a request log keeps its messages under ``input``), or
    in a tool's answer (a Claude ``tool_result`` block)."""
    names = {member for member, _ in _DATA}
    for depth, part in enumerate(path):
        if part in names and (part not in _CALL_VALUES or _is_call(_at(holder, path[:depth]))):
            return True
        found = _at(holder, path[:depth + 1])
        if isinstance(found, dict) and found.get("type") == "tool_result":
            return True
    return False


_CALL_VALUES = ("arguments", "input")


def _is_call(value: Any) -> bool:
    """A call, as the fixtures hold one: named (``name``, or Inspect's ``function``), or typed so."""
    kind = value.get("type") if isinstance(value, dict) else None
    return isinstance(value, dict) and ("name" in value or "function" in value
                                        or (isinstance(kind, str) and kind.endswith(("call", "tool_use"))))


def _at(value: Any, path: tuple) -> Any:
    for part in path:
        value = value[part]
    return value


def _shapes(document: Any) -> Iterator[tuple]:
    """The path of one object of each shape (list indexes folded) outside ``_DATA``."""
    seen = set()
    for path, _ in _objects(document):
        shape = tuple(0 if isinstance(part, int) else part for part in path)
        if shape not in seen and not _data(path, document):
            seen.add(shape)
            yield path


def _outcome(source: Path) -> str:
    results = referee.grade(RULES, source, as_eval="x")
    outcomes = {json.loads(result.grading_json)["expectations"][0]["outcome"] for result in results}
    return "pass" if "pass" in outcomes else "/".join(sorted(outcomes))


OPENAI = sorted((REAL / "openai").rglob("*.json"))


@pytest.mark.parametrize("source", OPENAI, ids=[p.parent.name for p in OPENAI])
def test_a_call_anywhere_in_a_real_openai_document_is_never_passed_over(tmp_path: Path, source: Path):
    document = json.loads(source.read_text(encoding="utf-8"))
    passed = []
    for n, path in enumerate(_shapes(document)):
        changed = copy.deepcopy(document)
        _at(changed, path)["injected"] = copy.deepcopy(OPENAI_CALL)
        out = tmp_path / str(n) / source.name
        out.parent.mkdir()
        out.write_text(json.dumps(changed), encoding="utf-8")
        try:
            outcome = _outcome(out)
        except ValueError:  # no conversation left to read: said, nothing graded
            continue
        if outcome == "pass":
            passed.append(path)
    assert passed == []


def _sessions() -> list[Path]:
    return sorted(p for p in (REAL / "claude-code").rglob("*.jsonl") if p.parent.name != "subagents")


@pytest.mark.parametrize("source", _sessions(), ids=[f"{p.parent.name}/{p.stem[:12]}" for p in _sessions()])
def test_a_call_anywhere_in_a_real_claude_code_session_is_never_passed_over(tmp_path: Path, source: Path):
    lines = source.read_text(encoding="utf-8").split("\n")
    seen: set = set()
    passed = []
    for at, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        for path in _shapes(record):
            shape = (record.get("type"), record.get("subtype"), tuple(0 if isinstance(p, int) else p for p in path))
            if shape in seen:
                continue
            seen.add(shape)
            changed = copy.deepcopy(record)
            _at(changed, path)["injected"] = copy.deepcopy(CLAUDE_CALL)
            folder = tmp_path / str(len(seen))
            shutil.copytree(source.parent, folder)  # with its subagents' files beside it
            out = folder / source.name
            out.write_text("\n".join(lines[:at] + [json.dumps(changed)] + lines[at + 1:]), encoding="utf-8")
            try:
                outcome = _outcome(out)
            except ValueError:
                continue
            if outcome == "pass":
                passed.append((at + 1, path))
    assert passed == []

