"""Totality on real runs: a real public session or message list (tests/fixtures/real)
with a few of its values replaced by values of other JSON types, members dropped or
list items repeated, is graded in memory, or refused as no conversation (ValueError,
as ``referee.grade`` documents): never another exception. Random JSON seldom reaches
past a record's first member; a real run changed in one place reaches every reader of
its format. (A list as a Claude Code system record's ``subtype`` ended the import in
``TypeError: unhashable type``.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

import referee

REAL = Path(__file__).parent / "fixtures" / "real"
SOURCES = sorted(path for folder in ("claude-code", "openai") for path in (REAL / folder).rglob("*")
                 if path.suffix in (".json", ".jsonl") and path.is_file())
RULES = """eval "m"
expect 1: no calls to "Bash"
expect 2: no calls have .args.command contains "rm -rf"
expect 3: all calls have .status == "success"
expect 4: response contains "done"
expect 5: count(calls) >= 1
expect 6: calls to "Read" before calls to "Bash"
"""
OTHERS = [None, 0, -1, 1.5, 10**30, float("inf"), float("nan"), "", "x", [], {}, True, [[[]]], {"a": {}},
          ["x", 1, None], {"type": "text"}, {"type": "tool_use"}, {"type": "tool_result"}, "tool_use", "assistant",
          "user", "tool", "function", "## [tool_calls] Step 1: Bash\nTool: Bash"]

# The members a reader decides by: half the changes fall on one of them.
TELLING = frozenset({"type", "subtype", "role", "status", "name", "id", "content", "arguments", "message", "is_error",
                     "stop_reason", "tool_call_id", "tool_use_id", "tool_calls", "function", "input", "isSidechain",
                     "parentUuid", "uuid", "sessionId", "agentId", "toolUseResult", "usage", "model"})


def _records(path: Path) -> tuple[bool, list[Any]]:
    """(JSON lines?, the values): a file of one document is a list of one value."""
    text = path.read_text(encoding="utf-8")
    try:
        return False, [json.loads(text)]
    except ValueError:
        return True, [json.loads(line) if line.strip() else None for line in text.splitlines()]


def _places(value: Any, at: tuple = ()) -> list[tuple]:
    found = [at] if at else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _places(inner, at + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _places(inner, at + (index,))
    return found


def _mutated(records: list[Any], data: st.DataObject, lines: bool) -> list[Any]:
    """``records`` changed in one to three places (inside the document, for one)."""
    records = copy.deepcopy(records)
    for _ in range(data.draw(st.integers(1, 3))):
        places = [place for place in _places(records) if lines or len(place) > 1]
        telling = [place for place in places if place[-1] in TELLING]
        if telling and data.draw(st.booleans()):
            places = telling
        if not places:
            break
        place = places[data.draw(st.integers(0, len(places) - 1))]
        parent = records
        for key in place[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["replace", "replace", "replace", "drop", "repeat"]))
        if how == "drop":
            del parent[place[-1]]
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(place[-1], copy.deepcopy(parent[place[-1]]))
        else:
            parent[place[-1]] = copy.deepcopy(data.draw(st.sampled_from(OTHERS)))
    return records


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SOURCES), st.data())
def test_a_real_run_changed_in_a_few_places_is_graded_or_refused(tmp_path_factory, source, data):
    lines, records = _records(source)
    changed = _mutated(records, data, lines)
    folder = tmp_path_factory.mktemp("m")
    path = folder / source.name
    text = "\n".join("" if r is None else json.dumps(r) for r in changed) + "\n" if lines else json.dumps(changed[0])
    path.write_text(text, encoding="utf-8")
    try:
        results = referee.grade(RULES, path, as_eval="m")
    except ValueError:
        return  # no conversation in it: the documented refusal
    for result in results:
        assert {e["outcome"] for e in result.expectations} <= {"pass", "fail", "error"}
