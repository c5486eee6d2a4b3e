"""Mutants of one run for one assertion: exactly the evidence it relied on, removed or altered,
or what it forbids added.

Each mutant says whether it makes the assertion's sentence false (``must_fail``),
from what the rule claims (``engine.critique.claims``): dropping the call an
assertion cites makes false a sentence that needs the call, never one that forbids
something; calling the tool more often than a count bounded from above allows
falsifies only that count; swapping two calls only a claim about order; adding a
call that does what a rule forbids (built from the rule) falsifies that rule's
sentence. A mutant that must fail and still passes shows a weak assertion, and
its ``reason`` says so in the author's terms.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.checks.textparts import section_lines
from referee.engine.critique.claims import CallWitness, Claims, TextWitness
from referee.engine.critique.image import Call, RunImage, Text, dumps, with_call
from referee.engine.verdict import Evidence, Verdict

_SAID = {"contains": "contains", "starts_with": "starts with", "ends_with": "ends with"}
MOST_COPIES = 10  # a bound above this is not tested by copies of a call
GENERIC_REPLY = ("Thanks for your request. The task has been completed and the results are "
                 "shown above. Let me know if there is anything else I can help with.")
_CONTAINS = re.compile(r'contains\s+"((?:[^"\\]|\\.)*)"')
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


@frozen
class Mutant:
    name: str  # the operator: drop-call, status-error, ...
    image: RunImage
    must_fail: bool
    reason: str  # said when it must fail and the assertion still passes


@frozen
class Shape:
    """What an assertion reads (from the text of its check and the lets it uses, its
    quoted texts left out: a note that must say "status success" reads no status)
    and what it claims (from its syntax tree)."""

    text: str
    claims: Claims
    ordering: bool
    reads_args: bool
    reads_return: bool
    existence: bool
    code: str = ""  # ``text`` with every quoted text emptied

    @classmethod
    def of(cls, text: str, existence: bool, claims: Claims) -> "Shape":
        code = _QUOTED.sub('""', text)
        return cls(text, claims, claims.ordering, ".args" in code or " includes " in code,
                   ".return" in code, existence, code)

    @property
    def needs(self) -> bool:
        """The sentence needs something there: taking it away makes it false."""
        return self.claims.presence

    @property
    def values(self) -> bool:
        """The sentence claims values of what is there: changing them makes it false.
        An existence check is held to it too: it is weak by design, since "a
        reservation is made" passes on any reservation, right or wrong."""
        return self.claims.values or (self.existence and self.claims.presence)


def mutants_for(image: RunImage, verdict: Verdict, shape: Shape) -> list[Mutant]:
    """Every mutant of ``image`` that bears on the evidence of ``verdict``, and those
    that add what the assertion forbids."""
    found: list[Mutant] = []
    cited = _cited_calls(image, verdict.evidence)
    if cited:
        found += _call_mutants(image, cited, shape)
    if any(e.source == "response" for e in verdict.evidence):
        found += _response_mutants(image, verdict, shape)
    for name in sorted({e.file for e in verdict.evidence if e.source == "outputs" and e.file}):
        found += _file_mutants(image, name, verdict, shape)
    return found + _inject_mutants(image, shape.claims)


def _cited_calls(image: RunImage, evidence: tuple[Evidence, ...]) -> list[int]:
    steps = {e.step for e in evidence if e.source == "tool_calls" and e.step is not None}
    return [i for i, call in enumerate(image.calls) if call.step in steps]


def _call_mutants(image: RunImage, cited: list[int], shape: Shape) -> list[Mutant]:
    tools = ", ".join(sorted({image.calls[i].tool for i in cited}))
    made = [Mutant("drop-call", _without(image, cited), shape.needs,
                   f"passes even without the call to {tools}"),
            Mutant("notes-only", _into_notes(image, cited), shape.needs,
                   f"passes when the call to {tools} is only claimed in agent notes")]
    if any(image.calls[i].status != "error" for i in cited) and "status error" not in shape.code:
        failed = image.copy()
        for i in cited:
            failed.calls[i] = replace(failed.calls[i], status="error")
        # Only an assertion about what the call achieved must notice that it failed;
        # "X is called before Y" still holds for a call that failed.
        achieved = "status success" in shape.code or shape.reads_return or shape.existence
        made.append(Mutant("status-error", failed, achieved and (shape.needs or shape.values),
                           f"passes even when {tools} fails"))
    first = cited[0]
    call = image.calls[first]
    if call.args is not None:
        made.append(Mutant("alter-args", with_call(image, first, args=alter(call.args)),
                           (shape.reads_args or shape.existence) and shape.values,
                           f"passes whatever arguments {call.tool} is called with"))
    if call.result is not None:
        made.append(Mutant("alter-return", with_call(image, first, result=alter(call.result)),
                           (shape.reads_return or shape.existence) and shape.values,
                           f"passes whatever {call.tool} returns"))
    made.append(_duplicate_mutant(image, first, shape.claims.most))
    neighbour = first + 1 if first + 1 < len(image.calls) else first - 1
    if 0 <= neighbour != first:
        other = image.calls[neighbour].tool
        # With other calls of the same tools left in place, a swap may keep the order true.
        alone = sum(c.tool in (call.tool, other) for c in image.calls) == 2 and other != call.tool
        made.append(Mutant("swap-calls", _swapped(image, first, neighbour), shape.ordering and alone and shape.needs,
                           f"passes even when {call.tool} and {other} swap places"))
    return made


def _response_mutants(image: RunImage, verdict: Verdict, shape: Shape) -> list[Mutant]:
    if image.response is None:
        return []
    made = []
    lines = sorted({e.line for e in verdict.evidence if e.source == "response" and e.line})
    if lines:
        kept = [text for number, text in enumerate(image.response.split("\n"), 1) if number not in lines]
        cut = image.copy()
        cut.response = "\n".join(kept)
        made.append(Mutant("delete-span", cut, shape.needs, _span_reason(shape, image.response)))
    generic = image.copy()
    generic.response = GENERIC_REPLY
    literal = _CONTAINS.search(shape.text)
    reason = "passes on a generic reply that names nothing from the task"
    if literal and literal.group(1).lower() in GENERIC_REPLY.lower():
        reason = f"any text containing '{literal.group(1)}' satisfies it, a generic reply too"
    made.append(Mutant("generic-response", generic, shape.needs, reason))
    empty = image.copy()
    empty.response = ""
    made.append(Mutant("empty-response", empty, shape.needs, "passes on an empty response"))
    return made


def _span_reason(shape: Shape, response: str) -> str:
    literal = _CONTAINS.search(shape.text)
    if literal and response.lower().count(literal.group(1).lower()) > 1:
        return f"any text containing '{literal.group(1)}' satisfies it"
    return "passes even without the lines of the response it cites"


def _file_mutants(image: RunImage, name: str, verdict: Verdict, shape: Shape) -> list[Mutant]:
    data = image.files.get(name)
    if data is None:
        return []
    short = name.removeprefix("outputs/")
    gone = image.copy()
    del gone.files[name]
    made = [Mutant("delete-file", gone, shape.needs, f"passes even without {short}")]
    lines = sorted({e.line for e in verdict.evidence if e.file == name and e.line})
    text = data.decode("utf-8", errors="replace").split("\n")
    if lines:
        altered = image.copy()
        altered.files[name] = "\n".join(alter(t) if n in lines else t
                                        for n, t in enumerate(text, 1)).encode("utf-8")
        made.append(Mutant("alter-line", altered, shape.values, f"passes whatever {short} contains"))
    placeholder = image.copy()
    placeholder.files[name] = b"placeholder\n"
    made.append(Mutant("generic-file", placeholder, shape.needs, f"passes whatever {short} contains"))
    return made


def _inject_mutants(image: RunImage, claims: Claims) -> list[Mutant]:
    """The run with what the sentence forbids added: a call built from the rule, or
    the banned words in the response (in the section the rule reads)."""
    made = []
    order = max([c.order for c in image.calls] + [n.order for n in image.notes], default=-1) + 1
    for witness in claims.calls:
        extra = image.copy()
        extra.calls.append(Call(witness.tool, witness.tool, witness.args if witness.args is not None else {},
                                witness.result if witness.result is not None else {}, witness.status, order))
        made.append(Mutant("inject-call", extra, True, f"passes even when {_described(witness)}"))
    for words in claims.texts:
        said = _with_words(image, words)
        if said is not None:
            where = f" under \"{words.section}\"" if words.section is not None else ""
            made.append(Mutant("inject-text", said, True,
                               f"passes even when the response {_SAID[words.op]} '{words.text}'{where}"))
    return made


def _described(witness: CallWitness) -> str:
    shown = f"{witness.tool} is called"
    if witness.args:
        shown += f" with {dumps(witness.args)}"
    return shown if witness.status == "success" else f"{shown} (status {witness.status})"


def _with_words(image: RunImage, words: TextWitness) -> RunImage | None:
    """The image with ``words`` on a line of their own where the rule looks for them:
    first in the response (or right under the heading of the section they are banned
    from) for ``starts with``, last in it for ``ends with``; for ``contains``, at the
    end of the response or right under the heading."""
    if image.response is None:
        return None
    lines = image.response.split("\n")
    if words.section is None:
        at: int | None = 0 if words.op == "starts_with" else len(lines)
    else:
        at = _in_section(lines, words.section, words.op == "ends_with")
    if at is None:
        return None
    said = image.copy()
    said.response = "\n".join(lines[:at] + [words.text] + lines[at:])
    return said


def _in_section(lines: list[str], title: str, last: bool) -> int | None:
    """The line right under the heading ``section(x, title)`` would find (with
    ``last``, the line after its body), or None when there is no such section."""
    found = section_lines("\n".join(lines), title)
    return None if found is None else found[1] if last else found[0]


def _without(image: RunImage, positions: list[int]) -> RunImage:
    kept = image.copy()
    kept.calls = [c for i, c in enumerate(image.calls) if i not in positions]
    return kept


def _into_notes(image: RunImage, positions: list[int]) -> RunImage:
    moved = _without(image, positions)
    for i in positions:
        call = image.calls[i]
        moved.notes.append(Text("agent_notes", call.title or call.tool,
                                f"I called {call.tool} with {call.args!s}; it returned {call.result!s} "
                                f"({call.status or 'no status'}).", None, call.order))
    return moved


def _duplicate_mutant(image: RunImage, position: int, most: int | None) -> Mutant:
    """The call made once more than a count bounded from above allows (its ``most``):
    one more call only breaks "at most 3" when there were 3. Past ``MOST_COPIES``
    the call is made twice, and need not fail it."""
    tool = image.calls[position].tool
    copies = most if most is not None and 1 <= most <= MOST_COPIES else 1
    shown = "twice" if copies == 1 else f"{copies + 1} times"
    return Mutant("duplicate-call", _duplicated(image, position, copies), copies == most,
                  f"passes even when {tool} is called {shown}")


def _duplicated(image: RunImage, position: int, copies: int = 1) -> RunImage:
    more = image.copy()
    call = image.calls[position]
    more.calls[position + 1:position + 1] = [replace(call, order=call.order) for _ in range(copies)]
    return more


def _swapped(image: RunImage, a: int, b: int) -> RunImage:
    swapped = image.copy()
    first, second = image.calls[a], image.calls[b]
    swapped.calls[a] = replace(second, order=first.order)
    swapped.calls[b] = replace(first, order=second.order)
    return swapped


def alter(value: Any) -> Any:
    """A different value of the same shape: every leaf changed, keys kept."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, Decimal)):
        return value + 1
    if isinstance(value, float):
        return value + 1.0
    if isinstance(value, str):
        return value[::-1] + "~" if value else "~"
    if isinstance(value, dict):
        return {k: alter(v) for k, v in value.items()}
    if isinstance(value, list):
        return [alter(v) for v in value]
    return value
