"""Properties of evaluation over generated runs: it never raises, it is
deterministic, and order-insensitive checks ignore the order of the calls."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.critique.image import Call, RunImage, Text, dumps, transcript_text
from referee.engine.run.memory import memory_run
from referee.engine.run.uncounted import CUT
from referee.engine.verdict import Outcome

RULES = r'''
eval 1
let saved = last(calls to glob "*save*" with status success)
let n = count(calls)
expect: count(calls to glob "*save*") == 1
expect: any calls to glob "*save*" have .args.docStatus == "10"
expect: saved.args.amount == first(calls to "read").return.amount
expect: number(saved.args.amount) >= 100
expect: not response contains "{fdId}"
expect: response matches /id=[a-z0-9]+/i
expect: all calls have .status == "success"
expect: no calls have .status == "error"
expect: exactly 2 calls to glob "*save*"
expect: each of [calls to "read", calls to glob "*save*", calls to glob "*"]
expect: in order [calls to "read", calls to glob "*save*"]
expect: exactly in order [calls to "read", calls to glob "*save*"]
expect: any calls to "read" before response
expect: first(calls).args includes {"docStatus": "10"}
expect: any calls have .args includes {"tags": ["a", "b"]}
expect: n between 1 and 3 or semantic "fine?"
expect: count(jsonpath(first(calls), "$..amount")) > 0
expect: metrics.total == n
expect: lower(text(saved.args.docStatus)) == "10"
expect: any notes have .text contains "save"
expect: length(saved.args) > keys(saved.args)
expect: response is not empty and exists file "x.csv"
expect: any file "x.csv" as csv where .a == "1" have number(.b) > 0
'''

# Each generated call is permuted as a whole; none of these checks depends on order.
ORDER_FREE = (0, 1, 4, 5, 6, 7, 8, 9, 14, 15, 17, 21, 22)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                      st.decimals(allow_nan=False, allow_infinity=False, places=2),
                      st.sampled_from(["10", "20", "168", "168.00", "", "abc"]), st.text(max_size=8))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["docStatus", "amount", "tags", "x"]), inner, max_size=3)),
    max_leaves=8)


@st.composite
def calls(draw):
    return Call(tool=draw(st.sampled_from(["read", "mcp_save", "saveDoc", "x"])),
                title=draw(st.sampled_from(["read", "save", ""])),
                args=draw(st.one_of(st.none(), json_value)), result=draw(st.one_of(st.none(), json_value)),
                status=draw(st.one_of(st.none(), st.sampled_from(["success", "error", "odd"]))), order=0)


def build(call_list, notes, response, files, metrics):
    """The generated content as a run in memory, its transcript written as a harness would."""
    image = RunImage([replace(c, order=i) for i, c in enumerate(call_list)],
                     [replace(n, order=len(call_list) + i) for i, n in enumerate(notes)], response, {})
    content = {"outputs/transcript.md": transcript_text(image)}
    content.update({f"outputs/{name}": text for name, text in files.items()})
    if response is not None:
        content["outputs/response.md"] = response
    if metrics is not None:
        content["outputs/metrics.json"] = dumps(metrics)
    return memory_run(content)


@st.composite
def runs(draw):
    call_list = draw(st.lists(calls(), max_size=5))
    notes = [Text("agent_notes", "n", text, None, 0)
             for text in draw(st.lists(st.sampled_from(["save done", "x"]), max_size=2))]
    response = draw(st.one_of(st.none(), st.text(max_size=30), st.just("see id=AB12")))
    csv_texts = st.sampled_from(["a,b\n1,2\n", "a\n1\n", "", "a,b\n1,x\n"])
    files = draw(st.dictionaries(st.just("x.csv"), csv_texts))
    metrics = draw(st.one_of(st.none(), st.dictionaries(st.just("total"), json_leaf)))
    return build(call_list, notes, response, files, metrics), (call_list, notes, response, files, metrics)


PROGRAM = compile_rules([dsl.parse_rules(RULES, "props.rules")])
EV = PROGRAM.evals[0]


def summary(verdicts):
    return [(v.outcome, v.message, v.vacuous, v.notes_only) for v in verdicts]


@settings(max_examples=60, deadline=None)
@given(runs())
def test_evaluate_never_raises_and_is_deterministic(generated):
    run, _ = generated
    first = evaluate(EV, run)
    assert len(first) == len(EV.assertions)
    assert all(isinstance(v.outcome, Outcome) for v in first)
    internal = [v.message for v in first if v.message.startswith("error while evaluating")]
    assert not internal, internal
    assert summary(evaluate(EV, run)) == summary(first)


def _cut(run) -> bool:
    return run.uncounted_calls is not None and run.uncounted_calls.code == CUT


@settings(max_examples=50, deadline=None)
@given(runs(), st.randoms(use_true_random=False))
def test_order_free_checks_ignore_the_order_of_calls(generated, rnd):
    run, (call_list, notes, response, files, metrics) = generated
    shuffled = list(call_list)
    rnd.shuffle(shuffled)
    permuted = build(shuffled, notes, response, files, metrics)
    # A transcript whose last record has no Status line was cut while it was written
    # (its calls unknown): where the cut falls is a matter of order, by nature.
    assume(not any(_cut(r) for r in (run, permuted)))
    before, after = evaluate(EV, run), evaluate(EV, permuted)
    for index in ORDER_FREE:
        assert before[index].outcome == after[index].outcome, EV.assertions[index].check_source

