"""Evidence, Verdict, Prov and Val are made many times for each assertion of every run,
ToolCall, Payload, Location, Problem and Note for each record of every transcript;
they are made by ``dsl.frozen.frozen``, whose ``__init__`` fills the instance dict in
one step. Their constructors take exactly the fields, in order, with the same
defaults, and the instances behave as the dataclass's own would (equal, hashed,
shown, replaced and pickled alike, and frozen)."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from referee.engine.run.model import Location, Note, Payload, Problem, ToolCall
from referee.engine.values import Prov, Val
from referee.engine.verdict import Evidence, Outcome, Verdict

CLASSES = (Evidence, Verdict, Prov, Val, ToolCall, Payload, Location, Problem, Note)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_the_constructors_take_exactly_the_fields(cls):
    fields = dataclasses.fields(cls)
    required = [f.name for f in fields if f.default is dataclasses.MISSING]
    cls(*required)  # the first call compiles the class's __init__
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING
                                           else f.default for f in fields]


def test_the_instances_are_those_a_dataclass_makes():
    evidence = Evidence("tool_calls", "outputs/transcript.md", 3, 2, "Tool: Read")
    assert vars(evidence) == {"source": "tool_calls", "file": "outputs/transcript.md", "line": 3, "step": 2,
                              "quote": "Tool: Read"}
    assert evidence == Evidence(source="tool_calls", file="outputs/transcript.md", line=3, step=2, quote="Tool: Read")
    assert hash(evidence) == hash(Evidence("tool_calls", "outputs/transcript.md", 3, 2, "Tool: Read"))
    assert repr(evidence) == ("Evidence(source='tool_calls', file='outputs/transcript.md', line=3, step=2, "
                              "quote='Tool: Read')")
    verdict = Verdict(Outcome.PASS, "holds", (evidence,))
    assert vars(verdict) == {"outcome": Outcome.PASS, "message": "holds", "evidence": (evidence,), "expected": None,
                             "observed": None, "vacuous": False, "notes_only": False, "details": ()}
    assert dataclasses.replace(verdict, message="x") == Verdict(Outcome.PASS, "x", (evidence,))
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    prov = Prov("tool_calls", "step 2 Read", "outputs/transcript.md", 3, 2)
    val = Val("text", prov)
    assert vars(val) == {"value": "text", "prov": prov, "items": None, "claims": (), "support": (), "empty": ""}
    assert val == Val(value="text", prov=prov) and hash(val) == hash(Val("text", prov))
    assert pickle.loads(pickle.dumps(val)) == val
    for instance in (evidence, verdict, prov, val):
        with pytest.raises(dataclasses.FrozenInstanceError):
            instance.file = "x"  # type: ignore[misc, union-attr]
