"""Writing an imported conversation as a run folder that ``referee grade`` reads.

The run folder holds ``outputs/transcript.md`` (the dual-section view of the
source), ``outputs/response.md`` (the replies the user saw), ``outputs/metrics.json``
and ``timing.json`` where the source has the data, ``outputs/user_notes.md`` where a
skill-creator log has it beside, ``source_map.json`` (each written
line's origin, and the import's problems) and ``subagents/step-N.md`` for the work
of the subagent started by the call of step N (``step-N.K.md`` for one that
subagent started): the language's ``calls`` reads them too (``engine.run.agents``).

The structured source is the record; the transcript is a view of it, written so
that nothing in the source can change what it says:

- a call is exactly ``## [tool_calls] Step N: <tool>`` then ``Tool:``, ``Args:``,
  ``Return:`` and ``Status:`` lines, in that order; Args and Return are one-line
  JSON, so they cannot hold a line of their own; a value cut to fit, or that its
  source held in a form that could not be read, is named in the source map's
  ``unread``, so a check on it is an ERROR rather than a check on the cut text;
- text the agent wrote goes in ``## [agent_notes] Step N: <what>`` sections and
  text the harness or user wrote in ``## [harness] <kind>`` sections (the first
  user turn in ``## Eval Prompt``, which the parser also reads as harness text); the titles
  are the importer's words, and every line of the text is escaped
  (``engine.run.escape``), so it can form neither a heading nor a fence.

Rendering is a pure function of the conversation: the same source gives the same
bytes whatever its path, the machine or the time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.run.escape import escape_text
from referee.engine.run.importers.exact import dumps_file, dumps_told
from referee.engine.run.importers.homes import HOME, WINDOWS_PATH, scrub_homes, without_homes
from referee.engine.run.importers.record import EVAL_PROMPT, Call, Conversation, Origin, Text
from referee.engine.run.importers.source_map import SOURCE_MAP, SourceMap, dumps
from referee.engine.run.model import Problem
from referee.engine.run.safeio import MAX_TEXT_BYTES
from referee.engine.run.transcript_direct import AGENT, CALL, HARNESS, PROMPT, Held, Layout

TRANSCRIPT = "outputs/transcript.md"
RESPONSE = "outputs/response.md"
METRICS = "outputs/metrics.json"
TIMING = "timing.json"
USER_NOTES = "outputs/user_notes.md"
# A payload longer than this is cut (and the cut reported): the transcript must stay
# well under the size a run's transcript may have (safeio.MAX_TEXT_BYTES).
MAX_PAYLOAD_CHARS = 1_000_000
_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")
@frozen
class RunFiles:
    """The files of one run folder: the views of the source as UTF-8 (``encoded``,
    encoded once: the writer looks at those bytes and digests them, an import writes
    them and a run graded in memory holds them), keyed by path relative to it, and
    the source map as data (a run graded in memory takes it as it is; ``files``
    writes it as ``source_map.json``)."""

    encoded: dict[str, bytes]
    source_map: SourceMap
    problems: tuple[Problem, ...]
    # where the main transcript's headings stand (``engine.run.transcript_direct``);
    # None when it holds a value the writer could not show whole
    layout: Layout | None = None

    @property
    def views(self) -> dict[str, str]:
        """The views as text (each was encoded from a text without lone surrogates, so
        decoding gives that text back)."""
        return {name: data.decode("utf-8") for name, data in self.encoded.items()}

    @property
    def files(self) -> dict[str, str]:
        """Every file of the run folder as text, ``source_map.json`` included."""
        return {**self.views, SOURCE_MAP: dumps(self.source_map)}


class _Lines:
    """Lines of one written file, each with the origin it came from."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.origins: list[Origin | None] = []

    def add(self, line: str, origin: Origin | None = None) -> None:
        self.lines.append(line)
        self.origins.append(origin)

    def text(self, text: str, origin: Origin, per_line: bool) -> None:
        for offset, line in enumerate(text.split("\n")):
            self.add(line, Origin(origin.source, origin.line + offset) if per_line and offset else origin)

    def render(self) -> str:
        return "\n".join(self.lines) + "\n" if self.lines else ""


def plain_text(text: str) -> str:
    """Text with ``\\n`` line ends, no NUL, no trailing blank lines: what is written for it."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")
    return text.strip("\n")


def one_line(name: str) -> str:
    """A name that stays on its line: a control character is written as ``\\u`` and its
    four hex digits."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", name)


def payload(value: Any, origin: Origin | None, problems: list[Problem]) -> str:
    """One-line JSON for an Args or Return value; a very long one is cut and reported."""
    return _payload(value, origin, problems)[0]


def _payload(value: Any, origin: Origin | None, problems: list[Problem]) -> tuple[str, bool, Held]:
    """``payload``, whether it was cut, and ``(value, plain)`` for the in-memory reader
    (``transcript_direct``: ``plain``, written by json.dumps alone), None when cut."""
    text, plain = dumps_told(value)
    if len(text) <= MAX_PAYLOAD_CHARS:
        return text, False, (value, plain)
    where = "" if origin is None else f"; the whole value is in {origin.source}:{origin.line}"
    if origin is not None:
        message = (f"value of {len(text)} characters cut to {MAX_PAYLOAD_CHARS} in the transcript; "
                   "a check on it is an error")
        problems.append(Problem("value-cut", origin.source, message, origin.line))
    return json.dumps(text[:MAX_PAYLOAD_CHARS] + f"... [cut: {len(text)} characters{where}]", ensure_ascii=False), True, None


class _Transcript:
    """Writes the entries of one agent as dual-section Markdown; ``name`` is the
    agent's (``main``, or ``step-N`` for a subagent), ``unread`` maps the heading
    line of each call whose Args or Return it could not show whole to those fields."""

    def __init__(self, problems: list[Problem], name: str = "main") -> None:
        self.out = _Lines()
        self.step = 0
        self.problems = problems
        self.name = name
        self.subagents: list[tuple[str, Conversation]] = []
        self.unread: dict[int, tuple[str, ...]] = {}
        self.headings: list[tuple[int, str, int]] = []  # (line, kind, step) of each heading written
        # (args, return) of each call as written: ``(value, plain)``, None where cut
        self.values: list[tuple[Held, Held]] = []

    def entry(self, entry: Call | Text) -> None:
        if self.out.lines:
            self.out.add("")
        if isinstance(entry, Call):
            self.call(entry)
        else:
            self.note(entry)

    def call(self, call: Call) -> None:
        self.step += 1
        tool = one_line(call.tool)
        named = call.tool_origin or call.origin
        self.out.add(f"## [tool_calls] Step {self.step}: {tool}", named)
        heading = len(self.out.lines)
        self.headings.append((heading, CALL, self.step))
        self.out.add(f"Tool: {tool}", named)
        args, args_cut, args_held = _payload(call.args, call.origin, self.problems)
        self.out.add(f"Args: {args}", call.origin)
        result_origin = call.result_origin or call.origin
        result, result_cut, result_held = _payload(call.result, call.result_origin, self.problems)
        self.values.append((args_held, result_held))
        self.out.add(f"Return: {result}", result_origin)
        self.out.add(f"Status: {one_line(call.status)}", result_origin)
        unread = set(call.unread) | ({"args"} if args_cut else set()) | ({"return"} if result_cut else set())
        if unread:
            self.unread[heading] = tuple(sorted(unread))
        if call.subagent is not None:
            self.subagent(call, call.subagent)

    def subagent(self, call: Call, work: Conversation) -> None:
        agent = f"step-{self.step}" if self.name == "main" else f"{self.name}.{self.step}"
        name = f"subagents/{agent}.md"
        self.subagents.append((name, work))
        counts = tool_counts(work.calls)
        listed = ", ".join(f"{tool} x{n}" for tool, n in counts.items()) or "none"
        text = (f"The subagent started by step {self.step} made {len(work.calls)} tool calls "
                f"(calls of the run, whose .agent is \"{agent}\"; out of this agent's counts): {listed}. "
                f"Its transcript: {name}")
        self.out.add("")
        self.out.add("## [harness] subagent", call.origin)
        self.headings.append((len(self.out.lines), HARNESS, self.step))
        self.out.add("")
        self.out.text(escape_text(one_line(text)), call.origin, False)

    def note(self, text: Text) -> None:
        body = escape_text(plain_text(text.text))
        if text.kind == "agent":
            self.out.add(f"## [agent_notes] Step {self.step}: {one_line(text.title)}", text.origin)
            kind = AGENT
        elif text.kind == EVAL_PROMPT:  # the heading the parser reads as the eval prompt (harness text)
            self.out.add("## Eval Prompt", text.origin)
            kind = PROMPT
        else:
            self.out.add(f"## [harness] {one_line(text.kind)}", text.origin)
            kind = HARNESS
        self.headings.append((len(self.out.lines), kind, self.step))
        self.out.add("", text.origin)
        self.out.text(body, text.origin, text.per_line)


def tool_counts(calls: Iterable[Call]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.tool] = counts.get(call.tool, 0) + 1
    return dict(sorted(counts.items()))


def render_run(conversation: Conversation) -> RunFiles:
    """Every file of the run folder for ``conversation`` (pure)."""
    problems = list(conversation.problems)
    files: dict[str, str] = {}
    encoded: dict[str, bytes] = {}
    lines: dict[str, tuple] = {}
    unread: dict[str, dict[int, tuple[str, ...]]] = {}
    sources = list(conversation.sources)
    layout = None
    pending = [(TRANSCRIPT, conversation, "main")]
    while pending:  # the main transcript, then each subagent's, theirs after them
        name, work, agent = pending.pop(0)
        written = _transcript(work, problems, agent)
        count = len(written.out.lines)
        as_rendered = _put(files, encoded, lines, sources, name, written.out, conversation.placeholders)
        if agent == "main" and not written.unread:  # a value cut or not read: its transcript is parsed
            # a text changed after rendering (a home folder, a placeholder, a lone surrogate's
            # escape) may hold other values than the calls': they are read from it
            layout = (count, tuple(written.headings), tuple(written.values) if as_rendered else ())
        if written.unread:
            unread[name] = written.unread
        pending.extend((sub, nested, sub.removeprefix("subagents/").removesuffix(".md"))
                       for sub, nested in written.subagents)
    response = _Lines()
    for reply in conversation.response:
        if response.lines:
            response.add("")
        if reply.unsure:  # the response cannot be used (``Run.response``)
            unread.setdefault(RESPONSE, {})[len(response.lines) + 1] = ("text",)
        response.text(plain_text(reply.text), reply.origin, reply.per_line)
    _put(files, encoded, lines, sources, RESPONSE, response, conversation.placeholders)
    digests = _digests(encoded, lines)
    size = len(encoded[TRANSCRIPT])
    if size > MAX_TEXT_BYTES:  # the run would read as unreadable: say so now, at import
        message = (f"the transcript written is {size} bytes, over the {MAX_TEXT_BYTES}-byte limit a run's "
                   "transcript may have: grading will treat it as unreadable")
        problems.append(Problem("transcript-too-large", conversation.sources[0] if conversation.sources else TRANSCRIPT, message))
    metrics = conversation.metrics
    if metrics is None and conversation.format != "skill-creator-log":
        metrics = computed_metrics(conversation, files[TRANSCRIPT], files[RESPONSE])
    for name, value in ((METRICS, metrics), (TIMING, conversation.timing)):
        if value is not None:
            clashed: list[str] = []
            files[name] = _json_file(without_homes(value, clashed))
            if clashed:  # two values that became one name: which one the file means is not known
                unread[name] = {1: ("text",)}
                problems.append(Problem("home-clash", conversation.sources[0] if conversation.sources else name,
                                        f"{name}: {len(clashed)} name(s) hold different values once home folders "
                                        f"are made {HOME} (first: {clashed[0]!r}): a check on it is an error"))
    for name in conversation.unread_files:  # the source's file could not be read: no value stands for it
        files[name] = _json_file(None)
        unread[name] = {1: ("text",)}
    if conversation.user_notes is not None:  # the executor's notes beside its log, as written
        files[USER_NOTES] = scrub_homes(conversation.user_notes)
    encoded.update((name, text.encode("utf-8")) for name, text in files.items() if name not in encoded)
    # metrics.json and timing.json too: one removed or changed since is found (``Run.metrics``)
    digests.update(_digests(encoded, [name for name in (METRICS, TIMING, USER_NOTES) if name in files]))
    # A problem quotes the source (an id used twice, a role not read): its homes go too.
    scrubbed = {replace(p, message=scrub_homes(p.message)) for p in problems}
    found = tuple(sorted(scrubbed, key=lambda p: (p.path, p.line or 0, p.code, p.message)))
    # In the order source_map.json holds them, so the map is the one read back from it.
    source_map = SourceMap(conversation.format, tuple(sources), dict(sorted(lines.items())), found,
                           dict(sorted(digests.items())), dict(sorted(unread.items())),
                           dict(sorted(conversation.options)), conversation.origin, columns=conversation.columns)
    return RunFiles(encoded, source_map, found, layout)


def _digests(encoded: dict[str, bytes], names: Iterable[str]) -> dict[str, str]:
    """The SHA-256 of each written view's UTF-8."""
    return {name: hashlib.sha256(encoded[name]).hexdigest() for name in names}


def _transcript(conversation: Conversation, problems: list[Problem], agent: str = "main") -> _Transcript:
    writer = _Transcript(problems, agent)
    for entry in conversation.entries:
        writer.entry(entry)
    return writer


def _put(files: dict, encoded: dict, lines: dict, sources: list[str], name: str, written: _Lines,
         placeholders: tuple[tuple[str, str], ...]) -> bool:
    """Puts the text of ``written`` in ``files[name]`` and its UTF-8 in ``encoded[name]``;
    whether it is the text as rendered."""
    rendered = written.render()
    written.lines.clear()  # the text is all that is kept of them: one copy, not two
    text, data = _written(rendered)  # a lone surrogate ("\ud800" in the source's JSON): kept as that escape
    if placeholders:  # before anything counts characters
        replaced = _replacer(placeholders).sub(lambda m: _placeholder(placeholders, m), text)
        if replaced != text:
            text, data = replaced, replaced.encode("utf-8")
    scrubbed = scrub_homes(text, data)
    files[name], encoded[name] = scrubbed, data if scrubbed == text else scrubbed.encode("utf-8")
    lines[name] = tuple(None if o is None else (_index(sources, o.source), o.line) if not o.pointer
                        else (_index(sources, o.source), o.line, o.pointer, o.column) for o in written.origins)
    return files[name] == rendered


def _placeholder(placeholders: tuple[tuple[str, str], ...], match: re.Match) -> str:
    """What replaces ``match`` of ``_replacer(placeholders)``: its group ``tN`` names the text."""
    name = match.lastgroup
    assert name is not None  # the pattern's groups are all named, and one matched
    return placeholders[int(name[1:])][1]


@functools.lru_cache(maxsize=64)
def _replacer(placeholders: tuple[tuple[str, str], ...]) -> re.Pattern:
    """One pattern for every machine-specific text, longest first, ending where a
    path segment ends (so ``/home/ana`` is not replaced inside ``/home/anabel``);
    group ``tN`` is the N-th text. A Windows path matches in any case, as Windows
    names one folder so (``d:\\work`` is ``D:\\Work``); a POSIX one only as written."""
    texts = (f"(?P<t{n}>{'(?i:' if WINDOWS_PATH.match(text) else '(?:'}{re.escape(text)}))"
             for n, (text, _) in enumerate(placeholders))
    return re.compile("(?:" + "|".join(texts) + r")(?![A-Za-z0-9_.\-])")


def _index(sources: list[str], name: str) -> int:
    if name not in sources:
        sources.append(name)
    return sources.index(name)


def computed_metrics(conversation: Conversation, transcript: str, response: str) -> dict:
    """metrics.json from the source's own calls (the main agent's; subagents apart)."""
    calls = conversation.calls
    nested = [c for call in calls if call.subagent is not None for c in call.subagent.calls]
    metrics = {
        "tool_calls": tool_counts(calls),
        "total_tool_calls": len(calls),
        "total_steps": len(calls),
        "errors_encountered": sum(1 for call in calls if call.status == "error"),
        "output_chars": len(response),
        "transcript_chars": len(transcript),
    }
    if nested:
        metrics["subagent_tool_calls"] = tool_counts(nested)
    return metrics


def _json_file(value: Any) -> str:
    # a lone surrogate (a tool named "Bash\ud800" in the source's JSON): that escape
    return _written(dumps_file(value))[0] + "\n"


def _written(text: str) -> tuple[str, bytes]:
    """``text`` with each lone surrogate written as its escape (``\\ud800``), which no
    UTF-8 file holds, and its UTF-8. UTF-8 encodes every other character, so only text
    that fails to encode holds one: one pass in C, where a search for them tried every
    character, and the bytes it gives are the file's."""
    try:
        return text, text.encode("utf-8")
    except UnicodeEncodeError:
        data = text.encode("utf-8", errors="backslashreplace")
        return data.decode("utf-8"), data
