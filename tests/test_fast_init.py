"""The frozen dataclasses that write their own __init__ (engine.values, "Fast
construction") build exactly what the generated one would: the same parameters,
in the same order, with the same defaults, each stored as its field."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from referee.engine.values import Prov, Val
from referee.engine.verdict import Evidence, Outcome, Verdict

WRITTEN_OUT = (Prov, Val, Evidence, Verdict)


@pytest.mark.parametrize("cls", WRITTEN_OUT)
def test_the_signature_is_the_fields(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for param, field in zip(params, fields):
        assert field.default_factory is dataclasses.MISSING
        expected = inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        assert param.default == expected and type(param.default) is type(expected), field.name


@pytest.mark.parametrize("cls", WRITTEN_OUT)
def test_every_field_is_stored_and_nothing_else(cls):
    fields = dataclasses.fields(cls)
    given = {f.name: object() for f in fields}
    made = cls(**given)
    assert vars(made) == given
    assert made == cls(*given.values()) and hash(made) == hash(cls(*given.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, fields[0].name, None)


def test_replace_and_defaults_read_as_before():
    verdict = Verdict(Outcome.PASS, "ok")
    assert dataclasses.replace(verdict, message="no").message == "no"
    assert (verdict.evidence, verdict.details, verdict.vacuous) == ((), (), False)
    assert Val(1).prov is None and Prov("response", "r").anchor is None
    assert Evidence("response").quote == ""
