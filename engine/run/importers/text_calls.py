"""Tool calls a model wrote as text in its reply.

An open-weight model served without a tool parser (or whose parser failed on its
output) leaves its calls in the assistant's content, in its chat template's markup:
Hermes and Qwen's ``<tool_call>{"name": ..., "arguments": ...}</tool_call>``, Llama's
``<|python_tag|>`` (or, in its JSON tool calling, a message that is one bare JSON call,
and in Llama 3.2's pythonic one, a message that is a Python list of calls, fenced or not),
Mistral's ``[TOOL_CALLS]``, ``<function=name>``, DeepSeek's and Kimi's call tokens, Gemma 4's
``<|tool_call>call:name{...}`` and FunctionGemma's ``<start_function_call>call:name{...}``,
Qwen-Agent's ``✿FUNCTION✿: name`` and ``✿ARGS✿: {...}`` lines,
``<function_calls><invoke name=...>`` XML,
gpt-oss's ``to=functions.name``; and smolagents' renderings of its calls in an assistant
turn (``Calling tools:`` and the calls as a Python list, as it sends them to a model
that takes no tool role). Trajectories of such runs are
kept that way. Whether the harness parsed and ran such a call is not in the record,
and how to parse it is the serving stack's, so it is never read as a call; but the
message shows a call the run's calls may lack, so they are incomplete.

A harness may also take commands from the agent's text by a convention of its own
(OpenHands' CodeAct runs an ``<execute_bash>`` block, which is markup as above;
mini-swe-agent a fenced ``bash`` block): the user turn that answers one says so
(``answer_markup``), and the run's calls are just as incomplete. A ReAct agent
(LangChain's ReAct prompt, LlamaIndex's ReActAgent) writes an ``Action:`` line and an
``Action Input:`` line, which prose may write too (a message that explains the format),
or tau-bench's ReAct and Act agents an ``Action:`` line and a JSON ``{"name": ...,
"arguments": ...}``: only the user turn after it that opens with ``Observation:`` (tau-bench's
``API output:``) shows it was run
(``react_action``, ``observation``), or the run ending on it, the input its message's last
words, whatever follows ``Action Input:`` (``react_action_at_end``): whether it was run is then unknown. Some harnesses keep the whole scratchpad in one
assistant message instead (``Action:``, ``Action Input:``, then an ``Observation:`` line
and what follows): the observation may be the result the harness ran the command for and
appended, or one the model made up, and nothing in the record tells which, so such a
message shows a call the run's calls may lack (``react_trace``).

Only markup that opens a call is looked for (a tag followed by what a call holds, or
a token no prose writes): words that name the tags (``wrap it in <tool_call>
tags``) are no call.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from referee.engine.run.importers.source import json_container

_MARKUP = re.compile("|".join((
    # Hermes, Qwen (JSON or Qwen3-Coder's <function=...>), GLM (name, then <arg_key>),
    # MiniMax (<minimax:tool_call><invoke ...>), LongCat, and <tool_calls> lists
    r"<(?:[a-z]+:)?[a-z_]*tool_calls?>\s*(?:[\[{<]|[\w.-]+\s*<arg_key>)",
    r"<function=[\w.-]+>\s*[{<]",  # Llama 3.1's custom format, Qwen3-Coder
    r"<\|python_tag\|>",  # Llama 3.1 and 3.2
    r"<\|python_start\|>",  # Llama 4, around its pythonic calls
    # Mistral: a list of calls, or (newer tokenizers) a name, then its [ARGS] or [CALL_ID]
    r"\[TOOL_CALLS\]\s*(?:[\[{]|[\w.-]+\s*\[(?:ARGS|CALL_ID)\])",
    "<\uff5ctool\u2581calls?\u2581begin\uff5c>",  # DeepSeek V3 and R1 (full-width bars)
    r"<\|tool_calls_section_begin\|>|<\|tool_call_begin\|>",  # Kimi K2
    r"<\|tool_call\|>",  # Granite, Phi-4-mini
    # Gemma 4 (<|tool_call>) and FunctionGemma (<start_function_call>): "call:", the name, its arguments
    r"(?:<\|tool_call>|<start_function_call>)\s*call:[\w.-]+\s*\{",
    # Qwen-Agent's text format (Qwen 1.5 and 2): a tool's name, then its arguments, on lines of their own
    r"\u273fFUNCTION\u273f[ \t]*:[^\n]*\n\s*\u273fARGS\u273f[ \t]*:",
    # the XML of prompt-based tool use that models write (and proxies leave) in the text:
    # <function_calls>, then an <invoke name="..."> per call
    r"<function_calls>\s*<invoke\s+name=",
    r"<\|action_start\|>\s*<\|plugin\|>",  # InternLM
    # gpt-oss (harmony): the recipient, maybe a content type, then the message's header token
    r"to=functions\.[\w.-]+(?:\s+\w+)?\s*<\|(?:constrain|message|channel)\|>",
    r"```mswea_bash_command\b",  # mini-swe-agent 2's command block (text-based)
    # smolagents' renderings of a call the model made, as assistant turns: the "tool-call" turn
    # of its memory (what the model is sent, its role made "assistant"), and the step's own words
    r"(?m:^)Calling tools:[ \t]*\r?\n\[\{'id': '[^'\n]*', 'type': 'function', 'function': \{'name': '",
    r"(?m:^)Tool call [\w.:-]+: calling '[\w.-]+' with arguments: ",
    # OpenHands' CodeAct (before function calling): a block closed by its own tag, so
    # words that only name the tags (``in <execute_bash> tags``) are none
    r"<(?P<codeact>execute_(?:bash|ipython|browse))>\s*(?!</?execute_)\S(?:(?!</?execute_)[\s\S])*?</(?P=codeact)>",
)))

# How a harness that runs the commands it takes from the agent's text answers them in a
# user turn: mini-swe-agent's observation (its command's return code first, or after an
# exception its environment met, as its version 2 writes it), the same under its bare
# template (``Observation: {{output}}``: the environment's result as a Python dict) and its
# answer to a command that timed out, OpenHands' result of a call it converted from text,
# AutoGen's result of the code blocks it ran (its exit code, then the code's output).
_ANSWER = re.compile("|".join((
    r"\s*(?:<exception>.*?</exception>\s*)?<returncode>-?\d+</returncode>",
    r"\s*Observation:\s*\{'(?:output|returncode)': (?=.*'returncode': -?\d+)",
    r"\s*The last command <command>.*?</command> timed out and has been killed\.",
    r"\s*EXECUTION RESULT of \[[\w.-]+\]:",
    r"\s*exitcode: -?\d+ \(execution (?:succeeded|failed)\)\r?\nCode output:",
)), re.DOTALL)


# ToolBench's depth-first search, back at a state it tried before, tells the model the
# calls the earlier trials made from there (each with its output): calls that ran, in
# trials the chain it keeps does not hold
_RETRIED = re.compile(r"\s*(This is not the first time you try this task, all previous trails failed\.)"
                      r"\s.*?Here are some previous actions candidates:\s*\[\s*\{", re.DOTALL)


def call_markup(text: str) -> str | None:
    """The markup of a tool call written in ``text`` (as found, for saying where), or
    None when it writes none."""
    found = _MARKUP.search(text)
    if found is not None:
        return found.group(0)
    return _json_calls(text) or _python_calls(text)


def class_list(text: str) -> tuple[str, ...] | None:
    """The names of the pythonic list that is all the call markup ``text`` holds, when
    every one is capitalised as a class's is (``[Point(x=1, y=2)]``: objects as Python
    shows them, which a reply may end with), else None. Tools may be named so too
    (``Bash``): whether such a list is data is for the tools the run declares to say."""
    if _MARKUP.search(text) is not None or _json_calls(text) is not None:
        return None
    found = _python_calls(text)
    if found is None:
        return None
    tree = ast.parse(found, mode="eval").body
    calls = tree.elts if isinstance(tree, ast.List) else []
    names = tuple(call.func.id for call in calls if isinstance(call, ast.Call) and isinstance(call.func, ast.Name))
    return names if names and all(name[:1].isupper() for name in names) else None


def _json_calls(text: str) -> str | None:
    """``text`` (stripped) when the whole of it is a call written as a bare JSON object,
    as Llama 3.1's and 3.2's JSON tool calling writes one (``{"name": ..., "parameters":
    {...}}``, no markup around it), or a list of such calls, or one fenced block holding
    that (```` ```json ````: Llama 3 fences its JSON calls now and then, which no parser
    of its format reads, so the harness may have run it or not); else None. JSON in
    prose, or JSON of another shape, is the agent's words."""
    fenced = _FENCED.fullmatch(text)
    found = json_container(fenced.group("body") if fenced is not None else text)
    if found is None:
        return None
    calls = found[0] if isinstance(found[0], list) else [found[0]]
    return text.strip() if calls and all(_is_json_call(call) for call in calls) else None


# A message that is all one fenced code block (its language named or not): its body; its
# lines may end in CRLF, as text written on Windows does
_FENCED = re.compile(r"\s*```[\w+-]*[ \t]*\r?\n(?P<body>.*?)\r?\n[ \t]*```\s*", re.DOTALL)


def _python_calls(text: str) -> str | None:
    """The Python list of calls ``text`` writes, as Llama 3.2's, 3.3's and 4's pythonic
    tool format writes them (``[bash(command="ls"), now()]``: each a bare name given
    only keyword arguments whose values are literals), or None: the whole text, a
    fenced block's whole body anywhere in it, or lines that run to its end after words.
    No prose parses as such a list; code that computes its arguments, calls a method or
    passes positional arguments (``[print("hi")]``) is the agent's words. A model may
    fence the list (```` ```python ````), as it fences code, and write words before it
    (Llama 4 does, and vLLM's parser then leaves the whole in the content); SGLang's
    parser looks for ``[name(`` wherever it is. Whether such a list among words was run
    is not in the record, so it is read as written: the run's calls are unknown."""
    for body in _fenced_bodies(text):
        if _python_list(body) is not None:
            return body.strip()
    starts = [found.start() for found in _LIST_LINE.finditer(text)]
    # the list's own first line is the last such line but one at most (a string in it may open another)
    return next((written for start in reversed(starts[-_TRIED:]) if (written := _python_list(text[start:]))), None)


def _fenced_bodies(text: str) -> list[str]:
    """The bodies of the fenced blocks of ``text``, in one pass over its lines: a line
    of ```` ``` ```` (and a language, maybe) opens a block, the next bare one closes it."""
    bodies: list[str] = []
    opened: int | None = None  # the line that opened the block being read
    lines = text.splitlines()
    for at, line in enumerate(lines):
        fence = _FENCE_LINE.fullmatch(line)
        if fence is None:
            continue
        if opened is None:
            opened = at
        elif not fence.group("language"):
            bodies.append("\n".join(lines[opened + 1:at]))
            opened = None
    return bodies


_FENCE_LINE = re.compile(r"[ \t]*```(?P<language>[\w+-]*)[ \t]*")
# a line that opens a pythonic list
_LIST_LINE = re.compile(r"^[ \t]*\[\s*[A-Za-z_]\w*\s*\(", re.MULTILINE)
_TRIED = 4  # the lines looked at, the last ones: a list that runs to the end opens on one of them


def _python_list(text: str) -> str | None:
    """``text`` (stripped) when the whole of it is a Python list of pythonic calls, else None."""
    stripped = text.strip()
    # a call's closing bracket, then the list's (a comma and lines between them or not)
    if not (stripped.startswith("[") and stripped[:-1].rstrip().removesuffix(",").endswith(")")
            and stripped.endswith("]")):
        return None
    try:
        tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python (ValueError: a NUL in it)
        return None
    calls = tree.body.elts if isinstance(tree.body, ast.List) else []
    return stripped if calls and all(_is_python_call(call) for call in calls) else None


_JSON_NAMES = ("true", "false", "null")  # what a model used to JSON may write as a value


def _is_python_call(node: ast.expr) -> bool:
    """A call of the pythonic format: a bare name, keyword arguments only, each a literal."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args
            and all(keyword.arg is not None and _is_literal(keyword.value) for keyword in node.keywords))


def _is_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in _JSON_NAMES
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_is_literal(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(key is not None and _is_literal(key) for key in node.keys) and all(map(_is_literal, node.values))
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def _is_json_call(value: Any) -> bool:
    """A call's JSON: a name, and its arguments as an object (``parameters``, or
    ``arguments``, which may also be JSON text). A tool's definition, whose parameters
    are a JSON schema (``{"type": "object", "properties": ...}``), is none."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return False
    given = value["parameters"] if "parameters" in value else value.get("arguments")
    if isinstance(given, str) and "parameters" not in value:  # arguments as JSON text, as OpenAI gives them
        found = json_container(given)
        given = found[0] if found is not None else None
    return isinstance(given, dict) and not (given.get("type") == "object" and isinstance(given.get("properties"), dict))


# ReAct's call: the tool named on an ``Action:`` line, its input on the next line (LangChain
# also reads ``Action 1:`` and ``Action 1 Input:``, as the ReAct paper numbers steps), or
# LangChain's chat and structured chat agents' JSON blob after ``Action:`` (fenced or not),
# or tau-bench's ReAct and Act agents' ``{"name": ..., "arguments": ...}`` after it
_REACT_ACTION = re.compile("|".join((
    r"^[ \t]*Action[ \t]*\d*[ \t]*:[^\n]*\n\s*Action[ \t]*\d*[ \t]*Input[ \t]*\d*[ \t]*:",
    r'^[ \t]*Action[ \t]*:\s*(?:```[\w-]*\s*)?\{\s*"(?:action|name)"\s*:',
)), re.MULTILINE)
# the answer: ``Observation:``, or tau-bench's ``API output:`` to an action of a tool
_OBSERVATION = re.compile(r"\s*(?:Observation[ \t]*\d*|API output)[ \t]*:")


def react_action(text: str) -> str | None:
    """The ``Action:`` and ``Action Input:`` lines of a ReAct call written in ``text``
    (as found), or None. Alone they are no call (words may explain the format): the
    user turn that answers them (``observation``) shows one was made."""
    found = _REACT_ACTION.search(text)
    return found.group(0).strip() if found is not None else None


def react_action_at_end(text: str) -> str | None:
    """The ``Action:`` and ``Action Input:`` lines of a ReAct call that ``text`` ends on
    (as found), or None. A ReAct harness stops the model at ``Observation:``, so the
    message it runs a call from ends with the call's input. After ``Action Input:`` that
    is all that follows, whatever it is: LangChain's parser takes every line after it as
    the input (code over several lines, as its Python tools are given), and
    LlamaIndex's the JSON it finds there, words after it or not, so no words there can
    be told from the input. LangChain's JSON blob after ``Action:`` is its first fenced
    block, words after it or not (its parser looks no further), or an unfenced JSON value
    that runs to the end: words after that (tau-bench's parser then reads the whole as
    the reply) make it none."""
    found = None
    for found in _REACT_ACTION.finditer(text):
        pass
    if found is None:
        return None
    written = found.group(0)
    # the input: after ``Action Input:``, or the JSON blob after ``Action:``
    given = text[found.end():] if _INPUT_LINE.search(written) else text[found.start():].split(":", 1)[1]
    if _tool_named(written, given).lower() in _REPLIES:
        return None  # how LangChain's chat agents (and tau-bench's) answer the user: the reply, no call
    return written.strip() if _INPUT_LINE.search(written) or _runs_to_the_end(given) else None


_INPUT_LINE = re.compile(r"Input[ \t]*\d*[ \t]*:$")
_ACTION_LINE = re.compile(r"[ \t]*Action[ \t]*\d*[ \t]*:(?P<name>[^\n]*)")
_BLOB_ACTION = re.compile(r'"(?:action|name)"\s*:\s*"(?P<name>[^"\\]*)"')
_REPLIES = ("final answer", "respond")  # LangChain's action that ends a run, tau-bench's that answers the user


def _tool_named(written: str, given: str) -> str:
    """The tool a ReAct call names (``written``: its lines as found; ``given``: its
    input): on its ``Action:`` line, or as its JSON blob's ``"action"``."""
    found = _ACTION_LINE.match(written) if _INPUT_LINE.search(written) else _BLOB_ACTION.search(given)
    return found.group("name").strip() if found is not None else ""


def _runs_to_the_end(given: str) -> bool:
    """Whether a JSON blob's input is all of ``given`` (what follows ``Action:`` in its
    message): one line, a JSON value, or a fenced block, all that LangChain's parser
    reads of a message that opens one."""
    stripped = given.strip()
    if stripped.startswith("```") and "```" in stripped[3:]:
        return True
    return "\n" not in stripped or json_container(stripped) is not None


# An ``Observation:`` line of the scratchpad, after the call it answers
_OBSERVATION_LINE = re.compile(r"^[ \t]*Observation[ \t]*\d*[ \t]*:", re.MULTILINE)


def react_trace(text: str) -> str | None:
    """The ``Action:`` and ``Action Input:`` lines of a ReAct call written in ``text``
    and answered in it by a later ``Observation:`` line (a ReAct scratchpad kept as one
    message), or None. An explanation of the format that writes no observation after a
    call stays words; answered there, the call may have been run, whoever wrote the
    observation."""
    for found in _REACT_ACTION.finditer(text):
        if _OBSERVATION_LINE.search(text, found.end()) is not None:
            return found.group(0).strip()
    return None


def observation(text: str) -> str | None:
    """How a user turn opens when it is a ReAct harness's answer (``Observation:``, or
    tau-bench's ``API output:``), or
    None; it answers a call only after a message that wrote one (``react_action``), before
    the next assistant message."""
    found = _OBSERVATION.match(text)
    return found.group(0).strip() if found is not None else None


def earlier_trials(text: str) -> str | None:
    """How a user turn opens when it is ToolBench's prompt to try a state again, which
    lists calls of earlier trials (``This is not the first time you try this task,
    ...``), or None: those calls ran, and the chain that holds the turn does not."""
    found = _RETRIED.match(text)
    return found.group(1) if found is not None else None


def answer_markup(text: str) -> str | None:
    """How a user turn opens when it is a harness's answer to a command it took from
    the agent's text (``<returncode>0</returncode>``), or None. The command answered
    may be in a block no markup tells from an example (mini-swe-agent 1's fenced
    ``bash`` block), so the answer is what shows that a call was made."""
    found = _ANSWER.match(text)
    return found.group(0).strip() if found is not None else None
