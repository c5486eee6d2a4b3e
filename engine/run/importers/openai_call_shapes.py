"""The shapes in which producers write a tool call of an OpenAI-format conversation, and
where each keeps the call's name and its input (``openai_calls`` reads them).

- Chat Completions: ``{"id", "type": "function", "function": {"name", "arguments"}}``,
  its arguments JSON text; a custom tool's call (``"type": "custom"``) is
  ``{"id", "custom": {"name", "input"}}``, its input free-form text the tool takes as it is.
- tau2-bench: the name and arguments on the call itself (``flat``); Inspect AI: the
  tool's name as a string in ``function`` (``inspect``).
- The Responses API keeps a call as an item of its own (``function_call``,
  ``custom_tool_call``), naming it by ``call_id``, and its answer as another
  (``function_call_output``, ``custom_tool_call_output``): ``call_item``, ``answer_item``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

CALL_MEMBERS = frozenset({"id", "type", "function", "index"})  # what a tool call holds, read or not a call
# a custom tool's call: its name and free-form input under ``custom``
CUSTOM_MEMBERS = frozenset({"id", "type", "custom", "index"})
# tau2-bench writes a call's name and arguments on the call itself, beside who asked for it
FLAT_MEMBERS = frozenset({"id", "type", "name", "arguments", "index", "requestor"})
# Inspect AI names the tool by a string in ``function``, beside the arguments, how its viewer shows the
# call (``view``, drawn from the arguments) and why it could not parse them (``parse_error``)
INSPECT_MEMBERS = frozenset({"id", "type", "function", "arguments", "parse_error", "view"})
# the Responses API's call items and the items that answer them, by the member that holds the call's input
_CALL_ITEMS = {"function_call": "arguments", "custom_tool_call": "input"}
_ANSWER_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})
_ITEM_MEMBERS = frozenset({"type", "id", "call_id", "name", "arguments", "input", "status"})
_DONE = (None, "completed")  # an item's status once the model (or the tool) finished it


class Shape(NamedTuple):
    """Where one call keeps its name and input: ``function`` holds both, under ``name_key``
    and ``args_key``; ``at`` and ``name_at`` are the JSON Pointers (below the message) of
    that object and of the name; ``members``, what the call may hold beside them;
    ``free_form``: the input is text the tool takes as it is, never JSON to parse."""
    function: Any
    at: str
    name_key: str
    name_at: str
    args_key: str
    members: frozenset[str]
    free_form: bool = False


def shape_of(written: Any, nth: int, legacy: bool) -> Shape:
    """The shape of the ``nth`` call of a message, as ``written`` (``legacy``: its ``function_call``)."""
    if legacy:
        return Shape(written.get("function"), "/function_call", "name", "/function_call/name", "arguments",
                     CALL_MEMBERS)
    at = f"/tool_calls/{nth}"
    if flat(written):
        return Shape(written, at, "name", f"{at}/name", "arguments", FLAT_MEMBERS)
    if inspect(written):
        return Shape({"function": written["function"], "arguments": written["arguments"]}, at, "function",
                     f"{at}/function", "arguments", INSPECT_MEMBERS)
    if custom(written):
        return Shape(written["custom"], f"{at}/custom", "name", f"{at}/custom/name", "input", CUSTOM_MEMBERS, True)
    function = written.get("function") if isinstance(written, dict) else None
    return Shape(function, f"{at}/function", "name", f"{at}/function/name", "arguments", CALL_MEMBERS)


def custom(written: Any) -> bool:
    """Whether a tool call, as ``written``, is a custom tool's (``"type": "custom"``, its
    name and input in ``custom``, no ``function``)."""
    return (isinstance(written, dict) and written.get("type") == "custom" and "function" not in written
            and isinstance(written.get("custom"), dict))


def call_item(item: Any) -> str | None:
    """The member that holds the input of a Responses API call item read as a call (a
    ``function_call``'s ``arguments``, a ``custom_tool_call``'s ``input``), None for any
    other element: one that names no ``call_id`` or no tool, or that the model had not
    finished (its ``status`` ``in_progress`` or ``incomplete``: its input may be cut)."""
    kind = item.get("type") if isinstance(item, dict) and "role" not in item else None
    if not isinstance(kind, str) or kind not in _CALL_ITEMS:
        return None
    named = all(isinstance(item.get(key), str) and item[key] for key in ("call_id", "name"))
    return _CALL_ITEMS[kind] if named and item.get("status") in _DONE else None


def answer_item(item: Any) -> bool:
    """Whether an element is a Responses API item that answers a call item
    (``function_call_output``, ``custom_tool_call_output``) by its ``call_id``, holding
    its ``output``, finished."""
    return (isinstance(item, dict) and "role" not in item and isinstance(item.get("type"), str)
            and item["type"] in _ANSWER_ITEMS
            and isinstance(item.get("call_id"), str) and bool(item["call_id"]) and "output" in item
            and item.get("status") in _DONE)


def item_beside(item: dict) -> dict:
    """What a call item holds beside what is read of it (looked into for another call)."""
    return {key: value for key, value in item.items() if key not in _ITEM_MEMBERS}


def flat(written: Any) -> bool:
    """Whether a tool call, as ``written``, gives its name and arguments on itself, with no
    ``function`` (tau2-bench's ``{"id", "name", "arguments", "requestor"}``): only that
    shape, so a call of another shape (LangChain's ``args``) stays one that cannot be read."""
    return (isinstance(written, dict) and "function" not in written and isinstance(written.get("name"), str)
            and bool(written["name"]) and "arguments" in written and written.keys() <= FLAT_MEMBERS)


def inspect(written: Any) -> bool:
    """Whether a tool call, as ``written``, is in Inspect AI's shape: an ``id``, the tool's name
    as a string in ``function``, its ``arguments`` an object or JSON text, beside nothing but
    Inspect's own members (``INSPECT_MEMBERS``), so no other shape is read as one by a guess."""
    if not isinstance(written, dict) or not written.keys() <= INSPECT_MEMBERS:
        return False
    named = isinstance(written.get("function"), str) and bool(written["function"])
    identified = isinstance(written.get("id"), str) and bool(written["id"])
    return (named and identified and isinstance(written.get("arguments"), (dict, str))
            and written.get("type", "function") == "function")


def users(written: Any) -> bool:
    """A call, as ``written``, named on itself (``flat``) that the user asked for, by an id."""
    return (flat(written) and written.get("requestor") == "user" and isinstance(written.get("id"), str)
            and bool(written["id"]))


def without_echo(raw: Any, calls: list) -> Any:
    """A user simulator's completion kept beside its turn (tau2-bench's ``raw_data``) without
    its copy of the turn's calls, as chat completions give them (each ``function`` named as
    the call of the same id): the rest of it is looked at as any member is."""
    message = raw.get("message") if isinstance(raw, dict) else None
    if not isinstance(message, dict) or not isinstance(message.get("tool_calls"), list):
        return raw
    if [_id_and_name(copy) for copy in message["tool_calls"]] != [(call["id"], call["name"]) for call in calls]:
        return raw
    return {**raw, "message": {k: v for k, v in message.items() if k != "tool_calls"}}


def _id_and_name(copy: Any) -> tuple[Any, Any] | None:
    """A chat-completions call's id and its function's name."""
    function = copy.get("function") if isinstance(copy, dict) else None
    return (copy.get("id"), function.get("name")) if isinstance(function, dict) else None
