"""What kind of item an OpenAI-format message list holds beside the messages
``openai`` reads: a Responses API ``reasoning`` item, a tool's item (a call or its
output), and a message holding a call, or a tool's answer, where none is read."""

from __future__ import annotations

from typing import Any

from referee.engine.run.importers.source import holds_call

_CALLS = frozenset({"tool_calls", "function_call"})  # the members of an assistant message whose calls are read
_CALL_SHAPED = frozenset({"type", "arguments", "input", "tool_calls", "function_call"})  # see holds_call
_TOOL_ITEM_ENDINGS = ("_call", "_call_output", "_call_result")  # how the type of a tool's item ends


def is_reasoning(item: Any) -> bool:
    """A Responses API ``reasoning`` item (no role; ``"type": "reasoning"``)."""
    return isinstance(item, dict) and item.get("type") == "reasoning" and "role" not in item


def is_compaction(item: Any) -> bool:
    """A Responses API ``compaction`` item (no role; ``"type": "compaction"``, its
    ``encrypted_content`` the items the API compacted, which only the API can open)."""
    kind = item.get("type") if isinstance(item, dict) and "role" not in item else None
    return isinstance(kind, str) and kind.casefold() == "compaction"


def is_tool_item(item: Any) -> bool:
    """A Responses API item that is a tool call or a tool's answer (its type ends in
    ``_call`` or ``_call_output``: ``file_search_call``, ``function_call_output``; or
    ``_call_result``, as the Agents SDK for JavaScript names a tool's answer in a run's
    history: ``function_call_result``): what text it holds is the tool's (results,
    output), never a reply."""
    kind = item.get("type") if isinstance(item, dict) and "role" not in item else None
    return isinstance(kind, str) and kind.casefold().endswith(_TOOL_ITEM_ENDINGS)


def is_call_item(item: Any) -> bool:
    """A Responses API item that is a tool call (``function_call``, ``mcp_call``...),
    not its output."""
    return is_tool_item(item) and item["type"].casefold().endswith("_call")


def holds_other_call(message: dict, role: str) -> bool:
    """Whether the message holds a call where ``openai`` reads none: anywhere but an
    assistant's ``tool_calls`` and ``function_call`` (in its content parts, under another
    role, as a Responses API item). A message of plain members is looked at no further."""
    taken = _CALLS if role == "assistant" else ()
    for key, value in message.items():
        if key not in taken and (key in _CALL_SHAPED or isinstance(value, (dict, list))):
            return holds_call({k: _COPIES[k](v, message) if role == "assistant" and k in _COPIES else v
                               for k, v in message.items() if k not in taken})
    return False


def content_calls(content: Any) -> bool:
    """Whether message content holds a call as one of its parts (an Anthropic
    ``tool_use`` block, a Vercel AI SDK ``tool-call`` part): the message is a step that
    made a call, so its text is sent with it, as with ``tool_calls``."""
    return isinstance(content, list) and any(isinstance(part, dict) and holds_call(part) for part in content)


def holds_other_answer(message: dict) -> bool:
    """Whether the message's content holds a tool's answer where ``openai`` reads none:
    a block typed ``tool_result`` (Anthropic's Messages API; ``..._tool_result`` for a
    server's tool) or ``tool-result`` (the Vercel AI SDK). It answers a call by an id
    the reader never pairs: a call read would be left with no answer, whatever the
    answer says (an error)."""
    content = message.get("content")
    return any(isinstance(part, dict) and isinstance(part.get("type"), str)
               and part["type"].casefold().endswith(_ANSWER_TYPES)
               for part in (content if isinstance(content, list) else [content]))


_ANSWER_TYPES = ("tool_result", "tool-result")


def _without_copies(kwargs: Any, message: dict) -> Any:
    """LangChain's ``additional_kwargs`` without its copy of the message's own calls."""
    if not isinstance(kwargs, dict):
        return kwargs
    return {k: v for k, v in kwargs.items() if not (k in _CALLS and v == message.get(k))}


def _without_completion(extra: Any, message: dict) -> Any:
    """mini-swe-agent 2's ``extra`` without the provider's raw completion kept in it
    (``response``, as LiteLLM returns it) when each choice's message holds the message's
    own calls again, the same objects, and no other: that response is where the message
    came from, not a call beside it. A choice that holds other calls (or a call where
    the message has none) is kept, and looked at as any member is."""
    response = extra.get("response") if isinstance(extra, dict) else None
    if not isinstance(response, dict):
        return extra
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not all(_copies_calls(choice, message) for choice in choices):
        return extra
    kept = [{**choice, "message": {k: v for k, v in choice["message"].items() if k not in _CALLS}}
            for choice in choices]
    return {**extra, "response": {**response, "choices": kept}}


def _copies_calls(choice: Any, message: dict) -> bool:
    """Whether a completion's choice holds, as its message's calls, exactly the message's own."""
    copied = choice.get("message") if isinstance(choice, dict) else None
    return isinstance(copied, dict) and all(copied.get(k) == message.get(k) for k in _CALLS)


# The members of an assistant message that may keep a copy of its own calls: what a copy is taken off
_COPIES = {"additional_kwargs": _without_copies, "extra": _without_completion}


def tool_names(tools: Any) -> frozenset[str]:
    """The names a request's ``tools`` list declares: a chat-completions function
    (``{"type": "function", "function": {"name": ...}}``) or a tool named at its top
    (the Responses API's, Anthropic's). Anything else declares none."""
    if not isinstance(tools, list):
        return frozenset()
    named = (tool.get("function") if isinstance(tool, dict) and isinstance(tool.get("function"), dict) else tool
             for tool in tools)
    return frozenset(tool["name"] for tool in named if isinstance(tool, dict) and isinstance(tool.get("name"), str))
