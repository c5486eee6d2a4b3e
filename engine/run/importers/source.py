"""Reading an import source without trusting it.

A source may be huge, cut short, not UTF-8, or hold lines that are not JSON. The
reader never raises on what it finds: each defect is a ``Problem`` naming the
source file and line, and every readable line is still returned.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

from referee.dsl.named_file import UTF16_BOMS
from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.exact import loads
from referee.engine.run.importers.jsondoc import Document, decoded_array
from referee.engine.run.model import Problem
from referee.engine.run.safeio import read_named_file
from referee.engine.run.safejson import MAX_JSON_DEPTH, depth_exceeded

# A session log holds every tool result in full, so it is allowed to be much
# larger than a transcript (safeio.MAX_TEXT_BYTES); what is written stays under it.
MAX_SOURCE_BYTES = 512 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
_OPENS_ARRAY = re.compile(rb"[ \t\r\n]*\[")


class Source:
    """A source file: its name (no folder, so nothing machine-specific is kept), its
    bytes (a UTF-8 byte order mark dropped), and the problems met while reading it.

    The text is decoded when first asked for, whole (``lines``, ``text``) or a line
    at a time (``numbered_lines``, for sources read as they go); either way bad
    UTF-8 is replaced and reported on its line (``not-utf8``), a NUL byte too.
    """

    def __init__(self, name: str, data: bytes, problems: tuple[Problem, ...] = ()) -> None:
        self.name = name
        self.data = _lone_cr_ends(_utf8(data).removeprefix(_BOM))
        self._read_problems = problems
        self._decode_problems: list[Problem] = []
        self._reported = 0  # lines 1 to this have had their decoding problems reported
        self.lossy: dict[int, Problem] = {}  # line -> why its text is not exactly the source's

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Reading's problems, and decoding's for what has been decoded."""
        return self._read_problems + tuple(self._decode_problems)

    @property
    def last_line(self) -> int:
        """The number of the file's last line: where a cut at its end is said."""
        return self.data.count(b"\n") + 1

    @property
    def unread(self) -> bool:
        """True when the file could not be read at all (a FIFO, a device, too large)."""
        return bool(self._read_problems) and not self.data

    @property
    def ends_with_newline(self) -> bool:
        return self.data.endswith(b"\n") or not self.data

    @cached_property
    def array(self) -> Document | None:
        """The source's top-level JSON array with each element's value, when it is one
        decoded whole (``jsondoc.decoded_array``): decoded once, for detection and for
        reading, not once for each."""
        return decoded_array(self.data) if _OPENS_ARRAY.match(self.data) else None

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """Every line, decoded (CRLF read as a line end)."""
        return tuple(line for _, line in self.numbered_lines())

    @cached_property
    def text(self) -> str:
        return "\n".join(self.lines)

    def head(self, size: int) -> str:
        """The first ``size`` bytes as text, for telling the format (problems not reported)."""
        return self.data[:size].decode("utf-8", errors="replace")

    def numbered_lines(self):
        """``(number, text)`` of each line, decoded one at a time; each line's
        decoding problems are reported once, the first time it is decoded."""
        data = self.data
        at, number, size = 0, 0, len(data)
        while at < size:
            end = data.find(b"\n", at)
            end = size if end < 0 else end
            number += 1
            yield number, self._decoded(data[at:end].removesuffix(b"\r"), number)
            at = end + 1

    def _decoded(self, raw: bytes, number: int) -> str:
        report = number > self._reported  # every pass starts at line 1
        self._reported = max(self._reported, number)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if report:
                message = f"byte 0x{raw[exc.start]:02x} is not UTF-8; kept with replacement characters"
                self._lossy(Problem("not-utf8", self.name, message, number))
            text = raw.decode("utf-8", errors="replace")
        if "\x00" in text:
            if report:
                self._lossy(Problem("nul-byte", self.name, "NUL byte in the source; replaced by U+FFFD", number))
            text = text.replace("\x00", "\ufffd")
        return text

    def _lossy(self, problem: Problem) -> None:
        self._decode_problems.append(problem)
        self.lossy.setdefault(problem.line or 0, problem)


def _utf8(data: bytes) -> bytes:
    """``data`` as UTF-8 when it is UTF-16 text behind its byte order mark (what
    Windows PowerShell's ``>`` writes), as a run's own files are read
    (``safeio.decode``); anything else as it is, to be decoded and reported line by
    line. Read as UTF-8, such a source held no conversation, and nothing was imported."""
    if not data.startswith(UTF16_BOMS) or len(data) % 2:
        return data
    try:
        return data.decode("utf-16").encode("utf-8")
    except UnicodeError:  # not UTF-16 after all (a lone surrogate too): read as it is, and reported
        return data


def _lone_cr_ends(data: bytes) -> bytes:
    """``data`` with LF line ends where its lines end with lone CRs (as classic Mac OS
    wrote them) and no LF is there, so its lines are read and cited as an editor shows
    them, as a run's own files are read (``safeio``). A CR is no line end inside JSON
    (a string holds it escaped), so a file that holds an LF keeps its CRs as they are."""
    return data.replace(b"\r", b"\n") if b"\r" in data and b"\n" not in data else data


def read_source(path: Path, name: str | None = None) -> Source:
    """Read ``path`` (decoded when its text is asked for).

    Through the safe reader: a FIFO, a device or a file over ``MAX_SOURCE_BYTES`` is
    a problem of the source (nothing read), never a stall or a crash."""
    name = name or path.name
    data, problem = read_named_file(path, name, MAX_SOURCE_BYTES)
    if data is None:
        return Source(name, b"", (problem,) if problem is not None else ())
    return Source(name, data)


def json_container(text: str) -> tuple[Any] | None:
    """``(value,)`` when ``text`` starts (after whitespace) like a JSON object or
    array and :func:`loads` reads it, else None; never raises."""
    return loads(text) if text.lstrip()[:1] in ("{", "[") else None


def json_lines(source: Source, calls: tuple[str, ...] = ()) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """``(line number, value)`` for each JSON line, and the problems of the source
    (``each_json_line``, all at once)."""
    problems: list[Problem] = []
    values = [(number, value) for number, value, _ in each_json_line(source, problems, calls)]
    return values, list(source.problems) + problems


def each_json_line(source: Source, problems: list[Problem],
                   calls: tuple[str, ...] = ()) -> Iterator[tuple[int, Any, str]]:
    """``(line number, value, line)`` for each JSON line, one at a time; problems go
    to ``problems``.

    Blank lines are skipped. A line that is not JSON is reported (``bad-json``;
    ``too-deep`` past the nesting limit), or as ``truncated`` when it is the last
    line and has no line end (a log cut while being written), and skipped; the
    lines after it are still read. A skipped line holding one of ``calls`` (the
    words by which the format writes a tool call), or cut short, may have held a
    call: it is also reported as ``calls-may-be-missing``, which makes every check
    over the run's calls an ERROR (``engine.run.agents``).
    """
    last = source.data.count(b"\n") + (0 if source.ends_with_newline else 1)
    for number, line in source.numbered_lines():
        if not line.strip():
            continue
        found = loads(line)
        if found is not None:
            yield number, found[0], line
            continue
        cut = number == last and not source.ends_with_newline
        if cut:
            problems.append(Problem("truncated", source.name, "last line is cut short (not JSON); skipped", number))
        elif depth_exceeded(line, MAX_JSON_DEPTH) is not None:
            message = f"JSON nested deeper than {MAX_JSON_DEPTH} levels; skipped"
            problems.append(Problem("too-deep", source.name, message, number))
        else:
            problems.append(Problem("bad-json", source.name, "line is not JSON; skipped", number))
        if calls and (cut or may_hold(line, calls)):
            message = "this line could not be read and may hold a tool call: no check over the run's calls can be decided"
            problems.append(Problem(CALLS_MAY_BE_MISSING, source.name, message, number))


# The problems of a line or element that could not be read at all (``each_json_line``,
# and a document's elements, reported alike): whatever it held is lost.
SKIPPED = frozenset({"bad-json", "truncated", "too-deep"})


# What text that could not be read names when it may hold a call, in any format referee
# imports: Claude Code's tool_use, OpenAI's tool_calls and function_call, the Responses
# API's items (mcp_call, computer_call, custom_tool_call...), and the Vercel AI SDK's
# calls saved in a message list (toolInvocations, tool-invocation parts, toolCallId).
CALL_WORDS = ("tool_use", "tool_calls", "_call", "toolcallid", "toolinvocation", "tool_invocation", "tool-invocation")


def may_hold(text: str, calls: tuple[str, ...] = CALL_WORDS) -> bool:
    """Whether JSON text that could not be read may hold a call: it names one of
    ``calls`` (in any case, written plainly or with ``\\u`` escapes, as JSON allows),
    or it was cut short (a string or a bracket left open), so what was cut off may
    have been one."""
    text = unescaped(text)
    folded = text.casefold()
    return any(word in folded for word in calls) or _left_open(text)


def unescaped(text: str) -> str:
    """``text`` with its ``\\u`` escapes read, as JSON reads them (for telling what
    text that could not be read names)."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text) if "\\u" in text else text


def holds_call(value: Any) -> bool:
    """Whether a value read holds what reads as a tool call, in any format referee
    imports: an object typed ``...tool_use`` or ``...call`` (in any case:
    ``server_tool_use``, ``function_call``, ``mcp_call``), an object with a ``name``
    that is text and an ``input``, ``arguments`` or ``args``, a non-empty ``tool_calls`` list, or a
    ``function_call`` object with a name, or a call as the Vercel AI SDK saves it
    (``_is_ai_sdk_call``). Text that only mentions one is not one, nor
    is a tool's definition (its name beside ``parameters``) or ``"function_call":
    "auto"``. Walked as ``nested`` walks, inline: it runs on every record a reader
    skips a part of, and the generator costs it 40 % (2.5 against 3.6 µs a record)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if _is_call(item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def holds_call_as_text(value: Any) -> bool:
    """Whether a text inside ``value`` is JSON holding a call: a message, or a whole
    logged response, written as a string."""
    for item in nested(value):
        if isinstance(item, str) and item.lstrip()[:1] in ("{", "["):
            found = json_container(item.strip())
            if found is not None and holds_call(found[0]):
                return True
    return False


def nested(value: Any) -> Iterator[Any]:
    """``value`` and everything inside it (the values of objects, the items of lists),
    each parent before what it holds. Walked without recursion: a value read may be
    512 levels deep."""
    pending = [value]
    while pending:
        item = pending.pop()
        yield item
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def may_say(value: Any) -> bool:
    """Whether a part of an agent's message that a reader does not read holds words: it
    is text itself, or holds a ``text`` member that is (a block of a type the reader
    does not know, content given as one block; a redacted_thinking block's ``data``
    is no words), or something typed ``text`` whose words lie under another member: a
    plain-text source (a ``document`` block's, whose words are its ``data``), or a text
    block as AgentDojo writes its messages' (``{"type": "text", "content": ...}``)."""
    if isinstance(value, str):
        return value.strip() != ""
    return any(isinstance(item, dict) and (_words(item.get("text"))
                                           or (item.get("type") == "text"
                                               and any(_words(item.get(key)) for key in _TEXT_ELSEWHERE)))
               for item in nested(value))


_TEXT_ELSEWHERE = ("data", "content")  # where a text-typed block may keep its words instead of ``text``


def _words(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _is_call(item: dict) -> bool:
    kind = item.get("type")
    kind = kind.casefold() if isinstance(kind, str) else ""
    legacy = item.get("function_call")
    return (kind.endswith("tool_use") or kind.endswith("call")
            or (isinstance(item.get("name"), str) and any(key in item for key in _CALL_VALUES))
            or (isinstance(item.get("tool_calls"), list) and bool(item["tool_calls"]))
            or (isinstance(legacy, dict) and isinstance(legacy.get("name"), str))
            or _is_ai_sdk_call(item, kind))


# What a call's values are named beside its name: Anthropic's input, OpenAI's arguments,
# LangChain's and Gemini's args.
_CALL_VALUES = ("input", "arguments", "args")


def _is_ai_sdk_call(item: dict, kind: str) -> bool:
    """A call as the Vercel AI SDK saves it in a message: a tool invocation (its tool
    named ``toolName``, or ``tool_name``, beside its args, input or call id), or a
    message part typed as one (``tool-invocation``, ``dynamic-tool``, or AI SDK 5's
    ``tool-<name>`` with its ``toolCallId``)."""
    named = any(isinstance(item.get(key), str) for key in ("toolName", "tool_name"))
    return ((named and any(key in item for key in ("args", "input", "toolCallId", "tool_call_id")))
            or kind in ("tool-invocation", "dynamic-tool")
            or (kind.startswith("tool-") and "toolCallId" in item))


_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
# A JSON string (its closing quote, group 2, empty when the text was cut inside it):
# split on these, the text outside strings is every third piece. The match cannot
# fail once a quote is met (the closing quote is optional), so nothing backtracks.
_STRING = re.compile(r'("(?:[^"\\]+|\\.)*)("?)', re.S)


def _left_open(text: str) -> bool:
    """True when ``text`` ends inside a string or with a bracket still open."""
    pieces = _STRING.split(text)
    if len(pieces) > 1 and not pieces[-2]:  # only the last string can be open: it runs to the end
        return True
    outside = "".join(pieces[0::3])
    return outside.count("{") + outside.count("[") > outside.count("}") + outside.count("]")
