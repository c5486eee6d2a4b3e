"""What an OpenAI message's content says: its text (a string, or the text of its
parts), the words it holds that ``text_of`` does not read (content of another shape:
the reader says so, and a reply among them leaves the response unknown), whether a
value holds an assistant's reply, and a tool message's answer as a value."""

from __future__ import annotations

from typing import Any

from referee.engine.run.importers.source import json_container, may_say, nested


def holds_reply(value: Any) -> bool:
    """Whether ``value`` holds an assistant message with words (a logged response's
    ``choices``, a Responses API ``output`` item), as it is or written as JSON text
    (a message stored as a string)."""
    for item in nested(value):
        if isinstance(item, dict) and item.get("role") == "assistant" and holds_words(item):
            return True
        if isinstance(item, str) and item.lstrip()[:1] in ("{", "["):
            found = json_container(item.strip())
            if found is not None and holds_reply(found[0]):
                return True
    return False


def text_of(content: Any) -> str:
    """Message content as text: a string, or the text of its parts (a ``text`` part,
    its text given as ``{"value": ...}`` too, or a ``refusal`` part). A reasoning part
    (``{"type": "reasoning", "text": ...}``: the model's reasoning, as a Responses API
    reasoning item holds it) is no part of what a message says."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and part.get("type") != "reasoning":
                text = part.get("text", part.get("refusal"))
                text = text.get("value") if isinstance(text, dict) else text
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    return ""


_TOOL_WORDS = ("tool", "call", "function")  # what a role that is a call, or a tool's answer, is named with


def names_a_tool(role: Any) -> bool:
    """Whether a role the format does not have names a tool or a call (smolagents'
    ``tool-call`` and ``tool-response``): such a message is a call, or answers one,
    whatever its text looks like (smolagents writes the calls as their Python repr)."""
    return isinstance(role, str) and any(word in role.casefold() for word in _TOOL_WORDS)


def holds_text(value: Any) -> bool:
    """Whether a value where a message stands that is no message (a JSON string, a
    list) holds words: it is text, or holds some."""
    return any(isinstance(item, str) and item.strip() for item in nested(value))


def holds_words(message: Any) -> bool:
    """Whether a message holds words: in its content or refusal, read or not, in
    ``audio``, or in a ``text`` member anywhere in it; or, for a message LangChain
    wrote with its fields wrapped (``messages_to_dict``: ``{"type": "ai", "data":
    {"content": ...}}``; ``dumpd``: ``{"lc": 1, "kwargs": {"content": ...}}``), in the
    fields it wraps (one level: LangChain wraps a message's fields once)."""
    return _says(message) or (isinstance(message, dict) and any(_says(message.get(key)) for key in _WRAPPERS))


_WRAPPERS = ("data", "kwargs")  # where LangChain's dicts keep a message's fields
# The types LangChain gives its messages (``model_dump``), chunks too.
_LANGCHAIN_TYPES = frozenset({"ai", "human", "system", "tool", "function", "chat", "remove", "AIMessageChunk",
                              "HumanMessageChunk", "SystemMessageChunk", "ToolMessageChunk",
                              "FunctionMessageChunk", "ChatMessageChunk"})


def langchain_message(value: Any) -> bool:
    """Whether a value with no role is a message in LangChain's own shape: what
    ``messages_to_dict`` writes (``{"type": "ai", "data": {...}}``), ``dumpd`` writes
    (``{"lc": 1, "kwargs": {...}}``) or ``model_dump()`` gives (``{"type": "ai",
    "content": ...}``)."""
    if not isinstance(value, dict) or "role" in value:
        return False
    kind = value.get("type")
    if not isinstance(kind, str):
        return value.get("lc") == 1 and isinstance(value.get("kwargs"), dict)
    return ((value.get("lc") == 1 and isinstance(value.get("kwargs"), dict))
            or (isinstance(value.get("data"), dict) and "content" in value["data"])
            or (kind in _LANGCHAIN_TYPES and "content" in value))


def _says(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    return (any(text_of(message.get(key)).strip() or words_unread(message.get(key)) for key in ("content", "refusal"))
            or message.get("audio") is not None or may_say(message))


def transcript_of(audio: Any) -> str | None:
    """The words of an assistant message's ``audio`` (Chat Completions audio output):
    its ``transcript``, or None when it gives none as text. Audio given by its ``id``
    alone (as a request sends back an earlier reply) was spoken all the same: its words
    are in the audio, not here, so they are words not read (``audio_unread``)."""
    transcript = audio.get("transcript") if isinstance(audio, dict) else None
    return transcript if isinstance(transcript, str) else None


def audio_unread(audio: Any) -> bool:
    """Whether an assistant message's ``audio`` holds words ``transcript_of`` does not give."""
    return audio is not None and transcript_of(audio) is None


def words_unread(content: Any) -> bool:
    """Whether message content (or a ``refusal``) holds words ``text_of`` does not read:
    content that is neither text nor parts (one part given as an object, a number),
    or a part that holds words ``text_of`` does not take (``_part_unread``)."""
    if content is None or isinstance(content, str):
        return False
    if isinstance(content, dict):  # one part, not in a list: not read even when it is text
        return text_of([content]).strip() != "" or _part_unread(content)
    if not isinstance(content, list):
        return True
    return any(_part_unread(part) for part in content)


def _part_unread(part: Any) -> bool:
    """Whether a part of message content holds words ``text_of`` does not read: a text
    of another shape (a list, a number), or words under a member of its own. A part
    with no words (an image) is no loss."""
    if part is None or isinstance(part, str):
        return False
    if not isinstance(part, dict):
        return True
    given = part.get("text", part.get("refusal"))
    text = given.get("value") if isinstance(given, dict) else given
    if isinstance(text, str):
        return False
    return given is not None or may_say({k: v for k, v in part.items() if k not in ("text", "refusal")})


def parts_unread(message: dict) -> bool:
    """Whether a message holds words its ``content`` does not in its ``parts`` or its
    ``blocks`` (``unread_member``)."""
    return unread_member(message) is not None


# Where a message may keep its words beside its content or instead of it, and how a
# text piece there is told: a Vercel AI SDK UI message's parts (AI SDK 4 beside its
# content, AI SDK 5 instead of it), a LlamaIndex ChatMessage's blocks (its
# ``model_dump()`` gives no content at all)
_WORD_MEMBERS = (("parts", "type"), ("blocks", "block_type"))


def unread_member(message: dict) -> str | None:
    """The member (``parts``, ``blocks``) whose text pieces hold words the message's
    ``content`` does not, or None. A text piece whose text the content does not hold,
    or that is no string, is words not read; pieces of other types (a tool's invocation
    or call, reasoning or thinking, an image, a step's start) are no reply."""
    said = text_of(message.get("content"))
    for member, typed in _WORD_MEMBERS:
        pieces = message.get(member)
        if pieces is None:
            continue
        if not isinstance(pieces, list):
            if may_say(pieces):
                return member
            continue
        for piece in pieces:
            text = piece if isinstance(piece, str) else piece.get("text") if _is_text(piece, typed) else None
            if text is not None and (not isinstance(text, str) or text.strip() not in said):
                return member
    return None


def _is_text(piece: Any, typed: str) -> bool:
    return isinstance(piece, dict) and piece.get(typed) == "text"


def result_of(content: Any) -> Any:
    """A tool message's content: the JSON it holds when it is JSON text (or a JSON
    object given as it is), else the text."""
    if isinstance(content, dict):
        return content
    text = text_of(content)
    found = json_container(text.strip())
    return found[0] if found is not None else text
