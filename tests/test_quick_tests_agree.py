"""Quick tests that stand in for slower ones give exactly what the slower ones give.

- ``safejson.json_value`` calls the decoder's scanner itself; ``JSONDecoder.decode``
  (with the same depth limit) is the reference. It checks the depth limit on the
  value read (``_deeper``); the depth of the text it was read from is the reference.
- ``safejson.parse_json`` reads first and measures the depth after; measuring the
  text before reading it (``too-deep`` whatever else is wrong) is the reference.
- ``safejson.depth_exceeded`` measures the depth with its strings cut out; a walk
  over the text's strings and brackets (``walk_depth``) is the reference.
- The claim finder's pre-tests (``claims._Needs``, ``claims._has_field_sign``) are
  substring tests standing for regexes, the case-insensitive ones included, with
  the letters outside ASCII that such a regex folds to ASCII.
- ``ToolIndex.has_key`` and ``ToolIndex.leaves_with`` skip payloads by a substring
  test; walking every payload is the reference.
- ``claim_numbers.numbers_in`` finds the numbers a claim states without writing the
  path of every leaf; ``scalars`` then ``numbers_at`` on each leaf is the reference.
  ``numbers_at`` asks Decimal only about text that can be a number literal; asking
  Decimal about every text is the reference.
"""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.engine.facts import claims
from decimal import Decimal, InvalidOperation

from referee.engine.facts.claim_lookup import Leaf, ToolIndex, _keys_of, scalars
from referee.engine.facts.claim_numbers import numbers_at, numbers_in
from referee.engine.run import safeio, safejson
from referee.engine.run.transcript import parse_transcript

JSONISH = st.text(alphabet=st.sampled_from(list(' \t\n\r\x0b\x0c\xa0\u2028{}[]",:0123456789.eE-+truefalsnNI\\aub')),
                  max_size=30)


def _decoded(text: str):
    if safejson.depth_exceeded(text, safejson.MAX_JSON_DEPTH) is not None:
        return None
    try:
        return (safejson._DECODER.decode(text),)
    except (ValueError, RecursionError):
        return None


@settings(max_examples=300)
@given(st.one_of(JSONISH, st.builds(json.dumps, st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)))))
def test_json_value_is_what_the_decoder_reads(text):
    assert repr(safejson.json_value(text)) == repr(_decoded(text))


NESTED = st.recursive(st.none() | st.integers() | st.text(alphabet="[]{}\"\\ab", max_size=4),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("[{]}\"", max_size=2), inner,
                                                                                max_size=3), max_leaves=12)


@settings(max_examples=300)
@given(NESTED, st.integers(min_value=0, max_value=5), st.sampled_from([None, 1]))
def test_the_depth_of_a_value_read_is_the_depth_of_its_text(value, limit, indent):
    """Brackets inside strings and keys, empty containers, spread JSON: the nesting of
    the containers read is the nesting of the brackets written."""
    text = json.dumps(value, indent=indent)
    assert safejson._deeper(value, limit) == (safejson.walk_depth(text, limit) is not None)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=3), st.integers(min_value=-3, max_value=3), JSONISH, JSONISH)
def test_parse_json_refuses_what_is_too_deep_before_anything_else(lines, depth, inner, outer):
    """Around the depth limit, valid or not, deep JSON deeper than the decoder's own
    recursion: too deep is what parse_json says when the text is, else what the decoder says."""
    limit = safejson.MAX_JSON_DEPTH
    nested = (limit + depth) if depth <= 1 else limit * (depth + 1)  # up to 4 times the limit
    text = "\n" * lines + "[" * nested + inner + "]" * nested + outer
    found = safejson.parse_json(text, "r.json", 3)
    deep_at = safejson.walk_depth(text, limit)
    if deep_at is not None:
        assert found.problem == safejson.Problem("too-deep", "r.json", f"JSON nested deeper than {limit} levels; not "
                                                 "parsed", 3 + text.count("\n", 0, deep_at))
    else:
        assert repr((found.ok, found.value)) == repr((True, _decoded(text)[0]) if _decoded(text) else (False, None))
        assert found.ok or found.problem.code == "bad-json"


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(list('[]{}"\\\nab')), max_size=40), st.integers(min_value=0, max_value=5))
@example('[["]"[', 2)  # a closing bracket in a string: not one that closes
@example('["]"[[', 1)  # a bracket in a string, a string cut short
@example('\\"[[\\"]"[', 1)  # a backslash outside a string; an escaped quote inside one
def test_depth_exceeded_is_the_walk_over_strings_and_brackets(text, limit):
    assert safejson.depth_exceeded(text, limit) == safejson.walk_depth(text, limit)


def test_json_value_keeps_the_depth_limit_and_json_whitespace():
    limit = safejson.MAX_JSON_DEPTH
    for depth in (limit - 1, limit, limit + 1, 2 * limit, 3 * limit):
        for text in ("[" * depth + "]" * depth, "[" * depth, '{"a":' * depth + "1" + "}" * depth):
            assert repr(safejson.json_value(text)) == repr(_decoded(text))
    assert safejson.json_value("[" * limit + "]" * limit) is not None
    # long and bracket-heavy, its strings and keys too: only the containers' nesting counts
    wide = json.dumps([{"k[": ["[{" * 300, {"a": [[]]}]} for _ in range(400)])
    deep = json.dumps({"[": [{"{": "]" * 600}] * 400, "d": json.loads("[" * (limit - 1) + "]" * (limit - 1))})
    deeper = deep.replace('"d": [[', '"d": [[[', 1).replace("]]}", "]]]}")  # one more level: the limit's
    for text in (wide, deep, deeper):
        assert len(text) > 2 * limit and repr(safejson.json_value(text)) == repr(_decoded(text))
    assert safejson.json_value(wide) is not None and safejson.json_value(deep) is not None
    assert safejson.json_value(deeper) is None and json.loads(deeper)  # valid, but too deep
    assert safejson.json_value("[" * (limit + 1) + "]" * (limit + 1)) is None
    assert safejson.json_value(" \n[1]\r\t") == ([1],)
    assert safejson.json_value("[1]\xa0") is None and safejson.json_value("\x0b[1]") is None
    assert safejson.json_value("") is None and safejson.json_value("   ") is None


# ---- the claim finder's pre-tests --------------------------------------------------------

_OLD_TOOL_NEEDS = (re.compile("调用|执行|运行"),
                   re.compile("called|invoked|ran|executed|used|calling|invoking", re.IGNORECASE),
                   re.compile("with|using|via", re.IGNORECASE),
                   re.compile("成功|succeeded|was successful"))
_OLD_FIELD_NEEDS = re.compile(r"[=:：为是]|\bis\b|\bwas set to\b")
_OLD_STATUS_NEEDS = re.compile("状态|status", re.IGNORECASE)
_PIECES = st.one_of(
    st.sampled_from(list("cdeilnorstuvwaCALUSWIK =:：为是调用执行运行成功状态值_\u0130\u0131\u017f\u212a")),
    st.sampled_from(["called", "RAN", "Used", "with", "VIA", "using", "invoking", "is", "this", "was set to",
                     "Status", "uſed", "wİth", "ıs", "ſtatus", "invoKed", "succeeded", "was successful"]),
)


@settings(max_examples=300)
@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_pre_tests_agree_with_their_regexes(line):
    folded = claims._folded(line)
    for (needs, _), old in zip(claims._TOOL_PATTERNS, _OLD_TOOL_NEEDS):
        assert needs.found(line, folded) == (old.search(line) is not None)
        assert needs.found(line, None) == (old.search(line) is not None)
    assert claims._has_field_sign(line) == (_OLD_FIELD_NEEDS.search(line) is not None)
    assert claims._STATUS_NEEDS.found(line, folded) == (_OLD_STATUS_NEEDS.search(line) is not None)


# ---- the tool index ------------------------------------------------------------------------

KEYS = ["status", "docStatus", "id", r"st\u0061tus", r'a\"b']  # as written in JSON
VALUES = st.recursive(st.sampled_from(['"x"', "1", '"status"', "null"]),
                      lambda inner: st.one_of(
                          st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
                          st.lists(st.tuples(st.sampled_from(KEYS), inner), max_size=3).map(
                              lambda pairs: "{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}")),
                      max_leaves=6)


@st.composite
def transcripts(draw):
    count = draw(st.integers(min_value=0, max_value=5))
    blocks = []
    for step in range(1, count + 1):
        args, result = draw(VALUES), draw(st.one_of(VALUES, st.just("plain text")))
        blocks.append(f"## [tool_calls] Step {step}: call\nTool: t\nArgs: {args}\nReturn: {result}\nStatus: success\n\n")
    return "".join(blocks)


def _has_key(calls, name: str) -> bool:
    quoted = f'"{name}"'
    return any(payload is not None and payload.is_json and isinstance(payload.value, (dict, list))
               and quoted in payload.text and name in _keys_of(payload.value)
               for call in calls for payload in (call.args, call.result))


def _leaves_with(calls, keys: tuple[str, ...], before: float) -> list[Leaf]:
    found = []
    for call in calls:
        if call.index >= before:
            continue
        for name, payload in (("args", call.args), ("return", call.result)):
            if payload is not None and payload.is_json and isinstance(payload.value, (dict, list)):
                found.extend(Leaf(call, path, item, payload.line) for path, item in scalars(payload.value, name)
                             if path.rsplit(".", 1)[-1] in keys)
    return found


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(transcripts(), st.lists(st.tuples(st.sampled_from([("status",), ("id",), ("docStatus", "status"), ("x",)]),
                                         st.integers(min_value=0, max_value=6)), max_size=4))
def test_the_tool_index_skips_only_payloads_without_the_key(text, asks):
    calls = parse_transcript(text).calls
    index = ToolIndex(calls)
    for name in ("status", "docStatus", "id", 'a"b', "x"):
        assert index.has_key(name) == _has_key(calls, name)
    for keys, before in sorted(asks, key=lambda ask: ask[1]):  # claims come in transcript order
        assert index.leaves_with(keys, before) == _leaves_with(calls, keys, before)
        assert index.status_keys(before) == _status_keys(calls, before)


def _status_keys(calls, before: float) -> tuple[str, ...]:
    keys = set()
    for call in calls:
        for payload in (call.args, call.result):
            if (call.index < before and payload is not None and payload.is_json
                    and isinstance(payload.value, (dict, list))):
                keys |= _keys_of(payload.value)
    return tuple(sorted(key for key in keys if key.lower().endswith("status")))


# ---- the model's constructors -------------------------------------------------


def test_a_location_is_a_frozen_value():
    """Location (made by ``dsl.frozen.frozen``; its constructor's parameters are held to
    its fields in tests/test_verdict_constructors.py) is equal, hashed, shown and
    replaced by value, and stays frozen."""
    import dataclasses

    import pytest

    from referee.engine.run import model

    where = model.Location("a.md", 3)
    assert where == model.Location(file="a.md", line=3) and hash(where) == hash(model.Location("a.md", 3))
    assert vars(where) == {"file": "a.md", "line": 3} and repr(where) == "Location(file='a.md', line=3)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        where.line = 4  # type: ignore[misc]
    assert dataclasses.replace(where, line=4) == model.Location("a.md", 4)


# ---- safe_relative without pathlib -----------------------------------------------------------


def _safe_relative_by_pathlib(rel: str) -> str | None:
    from pathlib import PurePosixPath

    if not rel or "\x00" in rel:
        return None
    unified = rel.replace("\\", "/")
    pure = PurePosixPath(unified)
    if pure.is_absolute() or re.match(r"^[A-Za-z]:", unified):
        return None
    parts = [p for p in pure.parts if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["a", "b.csv", ".", "..", "", "/", "//", "\\", "C:", "c:", "x:y", "...", " ", "\x00",
                                 ".hidden", "a.", "~"]), max_size=8).map("".join))
def test_safe_relative_splits_as_pathlib_does(rel):
    assert safeio.safe_relative(rel) == _safe_relative_by_pathlib(rel)


# ---- numbers in the calls ------------------------------------------------------------------

# Digits of other scripts, "_", exponents and the words Decimal reads among text.
_NUMBERISH = st.text(alphabet=st.sampled_from(list("0123456789١٢.,_-+eE xINfinityaNs%\n")), max_size=12)
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**25, 10**25), _NUMBERISH,
                    st.decimals(allow_nan=True, allow_infinity=True), st.floats())
_PAYLOADS = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["a", "b", "1", "x.y", ""]), inner, max_size=4), max_leaves=16)


def _reference_numbers_at(value):
    """Every number of a leaf, asking Decimal about the whole text whatever it holds."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float, Decimal)):
        number = _decimal(str(value))
        return [(number, 0)] if number is not None else []
    if not re.search("[0-9]", str(value)):
        return []
    whole = _decimal(str(value).strip())
    if whole is not None:
        return [(whole, 0)]
    return [(n, m.start()) for m in re.finditer(r"-?\d+(?:\.\d+)?", str(value))
            if (n := _decimal(m.group(0))) is not None]


def _decimal(text):
    try:
        number = Decimal(text)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


@settings(max_examples=500)
@given(_LEAVES)
@example("1_000")
@example(" ١2 ")
@example("1e3")
@example("-1.5E-3")
@example("+5")
@example("Infinity 1")
@example("1,250.50")
@example("12%")
def test_numbers_at_asks_decimal_only_what_it_could_read(value):
    assert [(str(n), at) for n, at in numbers_at(value)] == [(str(n), at) for n, at in _reference_numbers_at(value)]


@settings(max_examples=300)
@given(_PAYLOADS, st.sets(st.sampled_from([Decimal(x) for x in ("1", "12", "12.0", "-3", "1E+1", "0", "10")])))
def test_numbers_in_finds_what_every_leaf_walked_finds(payload, wanted):
    wanted = frozenset(wanted)
    expected = [(path, repr(item), str(number), at) for path, item in scalars(payload, "return")
                for number, at in numbers_at(item) if number in wanted]
    found = [(path, repr(item), str(number), at) for path, item, number, at in numbers_in(payload, "return", wanted)]
    assert [(p, i, Decimal(n), a) for p, i, n, a in found] == [(p, i, Decimal(n), a) for p, i, n, a in expected]
