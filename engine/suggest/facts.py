"""What the runs of one eval actually contain: the names a draft is resolved against."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class RunFacts:
    """Tool names, argument fields per tool, and output file names seen in the runs."""

    tools: set[str] = field(default_factory=set)
    fields: dict[str, set[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    text_fields: set[str] = field(default_factory=set)  # fields the runs hold as text
    returns: dict[str, set[str]] = field(default_factory=dict)  # fields of each tool's returns

    @property
    def known(self) -> bool:
        return bool(self.tools or self.files)

    def add_run(self, run) -> None:
        for call in run.transcript.calls:
            if not call.tool:
                continue
            self.tools.add(call.tool)
            value = call.args.value if call.args is not None else None
            self.fields.setdefault(call.tool, set()).update(_field_names(value))
            self.text_fields.update(_text_fields(value))
            returned = call.result.value if call.result is not None else None
            self.returns.setdefault(call.tool, set()).update(_field_names(returned))
        self.files.update(run.output_files())

    def all_fields(self) -> set[str]:
        return set().union(*self.fields.values()) if self.fields else set()


def _field_names(value: object, depth: int = 0) -> Iterable[str]:
    if not isinstance(value, dict) or depth > 3:
        return ()
    names = []
    for key, inner in value.items():
        names.append(str(key))
        names += _field_names(inner, depth + 1)
    return names


def _text_fields(value: object, depth: int = 0) -> Iterable[str]:
    if not isinstance(value, dict) or depth > 3:
        return ()
    names = []
    for key, inner in value.items():
        if isinstance(inner, str):
            names.append(str(key))
        names += _text_fields(inner, depth + 1)
    return names


@dataclass(frozen=True)
class Resolved:
    """A name as the check should say it, and a note when it is not what the sentence said."""

    text: str
    note: str | None = None
    lowers: bool = False  # the draft is less sure


def resolve_tool(name: str, facts: RunFacts) -> Resolved:
    """``"name"`` when a run calls it, ``glob "*name"`` when runs call it with a
    prefix (an MCP server's), else the closest name the runs call, or as written."""
    if not facts.known:
        return Resolved(_quote(name))
    if name in facts.tools:
        return Resolved(_quote(name))
    prefixed = sorted(t for t in facts.tools if t.endswith(name) and not t[-len(name) - 1].isalnum())
    if prefixed:
        return Resolved(f'glob "*{name}"', f"the runs call it as {', '.join(prefixed)}")
    close = _closest(name, facts.tools)
    if close:
        return Resolved(_quote(close), f"no run calls {name}; the closest tool the runs call is {close}",
                        lowers=True)
    return Resolved(_quote(name), f"no run calls {name}; check the tool name", lowers=True)


def resolve_field(name: str, facts: RunFacts, tool: str | None = None) -> Resolved:
    """The argument field as the runs spell it (case corrected), else as written."""
    known = facts.fields.get(tool, set()) if tool else facts.all_fields()
    if not facts.known or name in known:
        return Resolved(name)
    folded = [f for f in sorted(known) if f.lower() == name.lower()]
    if folded:
        return Resolved(folded[0], f"the runs spell the field {folded[0]}")
    close = _closest(name, known)
    if close:
        return Resolved(close, f"no call has a field {name}; the closest is {close}", lowers=True)
    return Resolved(name, f"no call of the runs has a field {name}", lowers=True)


def resolve_return_field(name: str, facts: RunFacts, tool: str | None = None) -> Resolved:
    """A field of what the tool returned, as the runs spell it, with its path from the return."""
    if not facts.known:
        return Resolved(name)
    known = facts.returns.get(tool, set()) if tool else set().union(*facts.returns.values())
    if name in known:
        return Resolved(name)
    close = _closest(name, known)
    if close:
        return Resolved(close, f"no return has a field {name}; the closest is {close}", lowers=True)
    return Resolved(name, f"no return of the runs has a field {name}", lowers=True)


def resolve_file(name: str, facts: RunFacts) -> Resolved:
    name = name.removeprefix("outputs/")
    if not facts.known or name in facts.files:
        return Resolved(name)
    ends = sorted(f for f in facts.files if f.endswith("/" + name))
    if ends:
        return Resolved(ends[0], f"the runs write it as outputs/{ends[0]}")
    return Resolved(name, f"no run wrote outputs/{name}", lowers=True)


def tool_with_field(name: str, facts: RunFacts) -> str | None:
    """The one tool whose calls carry the field ``name``, when exactly one does."""
    owners = sorted(tool for tool, names in facts.fields.items() if name in names)
    return owners[0] if len(owners) == 1 else None


def _closest(name: str, choices: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.75)
    return found[0] if found else None


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
