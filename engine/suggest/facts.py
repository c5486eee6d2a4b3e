"""What the runs of one eval actually contain, and the files the eval gives the skill:
the names a draft is resolved against."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.dsl.errors import suggest
from referee.dsl.frozen import frozen
from referee.engine.checks.textparts import headings, section_lines
from referee.engine.values import Val

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run


@dataclass
class RunFacts:
    """Tool names, argument fields per tool, output file names and the titles of the
    responses' headings seen in the runs; the input files the eval lists."""

    tools: set[str] = field(default_factory=set)
    fields: dict[str, set[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    text_fields: set[str] = field(default_factory=set)  # fields the runs hold as text
    returns: dict[str, set[str]] = field(default_factory=dict)  # fields of each tool's returns
    headings: set[str] = field(default_factory=set)  # titles of the headings of the responses
    inputs: tuple[str, ...] = ()  # the eval's `files` in evals.json, as listed

    @property
    def known(self) -> bool:
        """Whether runs were read (the eval's inputs are not runs)."""
        return bool(self.tools or self.files or self.headings)

    def add_run(self, run: Run) -> None:
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
        self.headings.update(_response_headings(run))

    def all_fields(self) -> set[str]:
        return set().union(*self.fields.values()) if self.fields else set()


def _response_headings(run: Run) -> list[str]:
    """The titles of the headings of the run's response (none when it cannot be read)."""
    response = run.response
    if response is None or response.text is None or response.unreadable is not None:
        return []
    found = headings(Val(response.text))
    return list(found.value) if isinstance(found, Val) else []


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


@frozen
class Resolved:
    """A name as the check should say it, and a note when it is not what the sentence said."""

    text: str
    note: str | None = None
    lowers: bool = False  # the draft is less sure


def resolve_tool(name: str, facts: RunFacts) -> Resolved:
    """``"name"`` when a run calls it, ``glob "*name"`` when runs call it with a
    prefix (an MCP server's), else the name the runs call that it misspells (two
    letters apart at most), or as written, with the closest name in the note. A
    name further from it is another tool (cancelReservation is not
    bookReservation): a draft about it would check a tool the sentence does not name."""
    if not facts.known:
        return Resolved(_quote(name))
    if name in facts.tools:
        return Resolved(_quote(name))
    prefixed = sorted(t for t in facts.tools if t.endswith(name) and not t[-len(name) - 1].isalnum())
    if prefixed:
        return Resolved(f'glob "*{name}"', f"the runs call it as {', '.join(prefixed)}")
    close = _closest(name, facts.tools)
    if close and misspelt(name, close):
        return Resolved(_quote(close), f"no run calls {name}; the closest tool the runs call is {close}",
                        lowers=True)
    if close:
        return Resolved(_quote(name), f"no run calls {name}; the closest tool the runs call is {close}: "
                                      "check the tool name", lowers=True)
    return Resolved(_quote(name), f"no run calls {name}; check the tool name", lowers=True)


def resolve_field(name: str, facts: RunFacts, tool: str | None = None) -> Resolved:
    """The argument field as the runs spell it (case corrected, or misspelt: see
    ``misspelt``), else as written, with the closest field in the note."""
    known = facts.fields.get(tool, set()) if tool else facts.all_fields()
    if not facts.known or name in known:
        return Resolved(name)
    folded = [f for f in sorted(known) if f.lower() == name.lower()]
    if folded:
        return Resolved(folded[0], f"the runs spell the field {folded[0]}")
    close = _closest(name, known)
    if close and misspelt(name, close):
        return Resolved(close, f"no call has a field {name}; the closest is {close}", lowers=True)
    if close:  # another word (maxPrice is not minPrice): the field the sentence names
        return Resolved(name, f"no call has a field {name}; the closest is {close}: check the field name",
                        lowers=True)
    return Resolved(name, f"no call of the runs has a field {name}", lowers=True)


def resolve_return_field(name: str, facts: RunFacts, tool: str | None = None) -> Resolved:
    """A field of what the tool returned, as the runs spell it, with its path from the return."""
    if not facts.known:
        return Resolved(name)
    known = facts.returns.get(tool, set()) if tool else set().union(*facts.returns.values())
    if name in known:
        return Resolved(name)
    close = _closest(name, known)
    if close and misspelt(name, close):
        return Resolved(close, f"no return has a field {name}; the closest is {close}", lowers=True)
    if close:
        return Resolved(name, f"no return has a field {name}; the closest is {close}: check the field name",
                        lowers=True)
    return Resolved(name, f"no return of the runs has a field {name}", lowers=True)


def resolve_file(name: str, facts: RunFacts) -> Resolved:
    name = name.removeprefix("outputs/")
    if not facts.known or name in facts.files:
        return Resolved(name)
    ends = sorted(f for f in facts.files if f.endswith("/" + name))
    if ends:
        return Resolved(ends[0], f"the runs write it as outputs/{ends[0]}")
    return Resolved(name, f"no run wrote outputs/{name}", lowers=True)


def resolve_heading(title: str, facts: RunFacts) -> Resolved:
    """The title as written; a note when the runs were read and no response has a
    heading so titled (matched as ``section`` matches one), with the closest there is."""
    if not facts.known or has_heading(title, facts):
        return Resolved(title)
    near = suggest(title, facts.headings)
    return Resolved(title, f"no response of the runs has a heading {_quote(title)}"
                           + (f"; the closest is {_quote(near)}" if near else ""))


def has_heading(title: str, facts: RunFacts) -> bool:
    """Whether some response of the runs has a heading that ``section(response, title)``
    would find: the titles are put back as headings and asked as ``section`` asks them,
    so the two never disagree on case, emphasis or a trailing colon."""
    written = "\n".join(f"# {name}" for name in sorted(facts.headings))
    return bool(facts.headings) and section_lines(written, title) is not None


def resolve_input(name: str, facts: RunFacts) -> str | None:
    """How a check names one of the eval's input files: ``name`` when it is a file
    name (it must end a listed path), else the eval's only input; None when the eval
    lists no such file, or several and the sentence names none. The shortest end of
    the listed path that names it alone is used (``article.md`` for ``evals/files/article.md``)."""
    if "." in name:
        listed = [path for path in facts.inputs if path == name or path.endswith("/" + name)]
    else:
        listed = list(facts.inputs)
    if len(listed) != 1:
        return None
    pieces = listed[0].split("/")
    for start in range(len(pieces) - 1, -1, -1):
        end = "/".join(pieces[start:])
        if sum(1 for path in facts.inputs if path == end or path.endswith("/" + end)) == 1:
            return end
    return listed[0]


def tool_with_field(name: str, facts: RunFacts) -> str | None:
    """The one tool whose calls carry the field ``name``, when exactly one does."""
    owners = sorted(tool for tool, names in facts.fields.items() if name in names)
    return owners[0] if len(owners) == 1 else None


def misspelt(name: str, known: str, most: int = 2) -> bool:
    """Whether ``name`` is ``known`` misspelt: at most ``most`` letters inserted,
    dropped or changed, each word of it (``set``, ``Invoice``) the same word or that
    word misspelt. Two letters decide nothing alone: ``setInvoice`` is one letter
    from ``getInvoice``, and another verb, another tool."""
    return _near(name, known, most) and _same_words(name, known)


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_A-Za-z]+")
SHORTEST_MISSPELT = 4  # a shorter word one letter off is another word (set, get; add, and)


def _same_words(name: str, known: str) -> bool:
    """Whether the words of ``name`` (camelCase, snake_case, digits apart) are those of
    ``known``, each the same (case aside) or misspelt: its first letter kept, in a
    word of at least ``SHORTEST_MISSPELT`` letters."""
    if name.casefold() == known.casefold():
        return True
    ours, theirs = _WORD.findall(name), _WORD.findall(known)
    if len(ours) != len(theirs):
        return False
    return all(a.casefold() == b.casefold()
               or (a[0].casefold() == b[0].casefold() and max(len(a), len(b)) >= SHORTEST_MISSPELT)
               for a, b in zip(ours, theirs))


def _near(name: str, known: str, most: int) -> bool:
    """Whether ``name`` is ``known`` with at most ``most`` letters inserted, dropped or
    changed; a band of the edit distance's table, so the work grows with the names'
    length alone."""
    if abs(len(name) - len(known)) > most:
        return False
    far = most + 1
    previous = {j: j for j in range(0, min(len(known), most) + 1)}
    for i in range(1, len(name) + 1):
        current = {0: i} if i <= most else {}
        for j in range(max(1, i - most), min(len(known), i + most) + 1):
            current[j] = min(previous.get(j, far) + 1, current.get(j - 1, far) + 1,
                             previous.get(j - 1, far) + (name[i - 1] != known[j - 1]))
        if min(current.values(), default=far) > most:
            return False
        previous = current
    return previous.get(len(known), far) <= most


def _closest(name: str, choices: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.75)
    return found[0] if found else None


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
