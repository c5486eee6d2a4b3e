"""Reading a run as the harness left it: where its response is, and whether it
holds a tool-call record at all.

**The response.** A harness that delivers the answer as a file names it
(``--response PATH`` on ``grade``, ``show`` and ``import``, relative to the run
folder; ``response_file`` of an eval in evals.json): that file is the response,
and nothing else is taken for it. Else ``outputs/response.md``, unless it is empty.
Else, when the run folder holds a ``response.md`` beside ``outputs/``, the response
cannot be told (unusable, never missing): no harness puts it there.
Else, when the transcript is a skill-creator executor log, its ``## Final Result``
section, whole (``engine.run.executor_log``), read from the transcript with its lines;
a log with no such section has a response that cannot be used (its answer may stand
under another heading).
A tool-call record's own untagged ``## Final Result`` section is the agent's text:
with no response file beside it, the response cannot be told (unusable, never missing);
so it is with agent text in no format referee knows, where the answer may lie anywhere.

**The tool-call record.** A dual-section transcript is a record of the run's
calls, of zero calls or more: it has a ``[tool_calls]`` record or a tagged
``[agent_notes]``/``[harness]`` section. A run without a transcript, with an empty
one, with an executor log the agent wrote (graded as it lies, or imported from
one), or with text in no format referee knows has no record at all: a check over
its calls cannot be decided (``Run.no_record``), never a pass on nothing.

The answer read from the transcript (an executor log's ``## Final Result``, or why it
cannot be told) is ``engine.run.transcript_answer``; what an import wrote, checked
against its source map, is ``engine.run.import_views``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from referee.dsl.frozen import frozen
from referee.engine.run.executor_log import log_shaped
from referee.engine.run.model import JsonFile, Problem, RunId, TextFile, Transcript
from referee.engine.run.safeio import join_report, safe_relative

RESPONSE = "outputs/response.md"
RESPONSE_BESIDE = "response.md"  # in the run folder: no harness's place for the response
SKILL_CREATOR_LOG = "skill-creator-log"  # the import format of executor logs


@frozen
class ResponseFiles:
    """The response files harnesses name: ``default`` for every run (``--response``),
    ``per_eval`` as ``(eval id or name, path)`` pairs (evals.json's ``response_file``).
    Paths are relative to the run folder; ``--response`` wins over evals.json."""

    default: str | None = None
    per_eval: tuple[tuple[str, str], ...] = ()

    def named(self, run_id: RunId) -> tuple[str, str] | None:
        """``(path, who named it)`` for the run, or None when nothing names its response."""
        if self.default is not None:
            return self.default, "--response"
        for key, path in self.per_eval:
            if key in (run_id.eval_id, run_id.eval_name):
                return path, "response_file in evals.json"
        return None


NO_FILES = ResponseFiles()


def response_files(default: str | None, evals_path: str | os.PathLike[str] | None = None) -> ResponseFiles:
    """The response files named by ``--response`` (``default``) and by the
    ``response_file`` of each eval of the evals.json at ``evals_path``, if given
    (already checked: the rules were compiled with it)."""
    per_eval: list[tuple[str, str]] = []
    if evals_path is not None:
        from referee.dsl.evals_json import load_evals  # the language is loaded only for this

        for entry in load_evals(Path(evals_path)).evals:
            if entry.response_file is not None:
                per_eval += [(key, entry.response_file) for key in (entry.id, entry.name) if key]
    return ResponseFiles(default, tuple(per_eval))


def read_response(read: Callable[[str], TextFile | None], named: tuple[str, str] | None,
                  log: Callable[[], TextFile | None], base: str = "") -> TextFile | None:
    """The run's response (see the module's docstring); None when it has none.
    ``read`` reads a file of the run; ``log`` gives the executor log's answer;
    ``base``: the run's place, which prefixes the path of a problem."""
    if named is not None:
        rel = safe_relative(named[0])
        return _leaving(named, base) if rel is None else read(rel)
    found = read(RESPONSE)
    if found is not None and not _blank(found):
        return found
    beside = read(RESPONSE_BESIDE)
    if beside is not None and not _blank(beside):
        return _response_beside(beside, join_report(base, beside.path))
    # An empty response.md holds no answer, and hides none: the answer an executor log
    # beside it gives is the response. Taken as the response, the empty file made
    # 'not response contains "x"' pass over an answer the log shows.
    return log() or found


def response_elsewhere(found: TextFile | None, named: tuple[str, str] | None, outputs: Callable[[], list[str]],
                       base: str = "") -> TextFile | None:
    """The response ``read_response`` found, unless it is missing (or blank) while
    ``outputs/`` holds a file named ``response`` in another way (``response.txt``,
    ``Response.md``, ``actual_response.md``; ``outputs()`` lists its files): harnesses save the answer so, and
    whether that file is the response cannot be told, so it cannot be used; taken as
    missing, 'not response contains "x"' passed on the answer left unread. A response
    file named by the harness is the response, and nothing else is taken for it."""
    if found is not None and not _blank(found):
        return found
    named_rel = None if named is None else safe_relative(named[0])
    held = [name for name in outputs() if "/" not in name and f"outputs/{name}" != (named_rel or RESPONSE)
            and (_named_response(name) or (named is not None and name == "response.md"))]
    if not held:
        return found
    rel = f"outputs/{held[0]}"
    if named is not None:
        # The file the harness named is missing from this run, which holds another that
        # may be its answer: taken as missing, 'not response contains "x"' passed on it.
        message = (f"the response file {named[0]} named by {named[1]} is missing or empty in this run, which has "
                   f"{rel}: whether that is the response cannot be told")
    else:
        message = (f"the run has no outputs/response.md, but has {rel}: whether it is the response cannot be told "
                   f"(name it with --response {rel}, or move it to outputs/response.md)")
    return TextFile(rel, None, 0, (Problem("unreadable", join_report(base, rel), message),))


def _named_response(name: str) -> bool:
    """Whether a file's name, up to its first dot, is the word ``response``, ``answer``
    or ``reply``, or ends in one after a space, ``_`` or ``-`` (``Response.md``,
    ``actual_response.md``, ``final-answer.txt``), or is ``final`` (``final.md``): names
    harnesses give the answer. A word after it (``response_schema.json``) names
    something else, but for a number or a part (``response-part1.md``, ``response_2.md``,
    ``response (1).md``): an answer saved in parts, or saved again; so may a number
    (``response1.md``). A plural (``responses.txt``) may list the tools' responses."""
    words = [word for word in re.split(r"[ _-]", name.split(".")[0].casefold()) if word]
    while len(words) > 1 and _PART_WORD.fullmatch(words[-1]):
        words.pop()
    return bool(words) and (_ANSWER_WORD.fullmatch(words[-1]) is not None or words == ["final"])


# The last word of a name that says the file holds the answer, and the words that may
# follow it when it is saved in parts or more than once (see ``_named_response``).
_ANSWER_WORD = re.compile(r"(?:response|answer|reply)[0-9]*")
_PART_WORD = re.compile(r"\(?[0-9]+\)?|part[0-9]*|copy")


def _leaving(named: tuple[str, str], base: str) -> TextFile:
    """The response of a run whose named response file leaves the run folder (an
    absolute path, one through ``..``, an evals.json ``response_file`` written so): the
    harness named a file as the answer, which is not read, so the response is unknown,
    never missing; taken as missing, 'not response contains "x"' passed on every run."""
    message = f"the response file {named[0]} named by {named[1]} leaves the run folder: not read, so the " \
              "response is unknown"
    return TextFile(named[0], None, 0, (Problem("bad-response", join_report(base, named[0]), message),))


def _response_beside(beside: TextFile, report: str) -> TextFile:
    """The response of a run with a response.md in the run folder, beside outputs/,
    and none in outputs/: no harness puts the response there, so whether that file
    is it cannot be told, and the response cannot be used; taken as missing,
    'not response contains "x"' passed on the file left unread."""
    message = ("the run has no outputs/response.md, but has response.md beside outputs/, where no harness "
               "puts the response: whether it is the response cannot be told (move it to "
               "outputs/response.md, or name it with --response response.md)")
    return TextFile(beside.path, None, beside.size, (Problem("unreadable", report, message),))


def _blank(found: TextFile) -> bool:
    """A file read whole that holds nothing but white space (one that could not be
    read is not: what it holds is unknown)."""
    return found.text is not None and found.unreadable is None and not found.text.strip()


def json_object(found: JsonFile | None, base: str) -> JsonFile | None:
    """``found`` (timing.json, metrics.json) unusable, with a warning, when it is JSON
    but no object (``[1]``, ``"x"``, ``null``): it holds no field one can read, and
    taken as a file without the field, ``not (timing.total_tokens > 100)`` passed on
    it. ``base``: the run's place, which prefixes the path of the problem."""
    if found is None or (found.value is None and found.problems) or isinstance(found.value, dict):
        return found
    kind = _JSON_KINDS.get(type(found.value), "a number")
    problem = Problem("bad-json", join_report(base, found.path), f"{kind}, not a JSON object: cannot be used", 1)
    return replace(found, value=None, problems=found.problems + (problem,))


_JSON_KINDS = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}


def missing_response(named: tuple[str, str] | None) -> str:
    """Why the run has no response, for a check that reads it."""
    if named is None:
        return "response.md is missing or empty"
    return f"{safe_relative(named[0]) or named[0]} ({named[1]}) is missing or empty"


def response_problems(base: str, named: tuple[str, str] | None, response: TextFile | None) -> tuple[Problem, ...]:
    """A named response file that is missing: a warning of the run whose problems are
    reported relative to ``base`` (one that leaves the run is the response's own
    problem, ``bad-response``)."""
    rel = None if named is None else safe_relative(named[0])
    if named is None or rel is None:
        return ()
    where = join_report(base, rel)
    if response is None:
        return (Problem("no-response", where, f"no such file: the response file named by {named[1]}"),)
    return ()


def no_record(source: TextFile | None, transcript: Transcript, imported: str | None) -> str | None:
    """Why the run holds no tool-call record (None when it holds one). ``imported``
    is the format the run was imported from, if any."""
    if imported == SKILL_CREATOR_LOG:
        return ("the run was imported from a skill-creator executor log, which the agent wrote: "
                "it has no tool-call record")
    if source is None:
        return "the run has no transcript, so no tool-call record"
    if source.text is None or not undecided(transcript):
        return None  # unreadable (checks say so) or a dual-section record
    name = source.path.removeprefix("outputs/")
    if not source.text.strip():
        return f"{name} is empty: the run has no tool-call record"
    if log_shaped(source.text):
        return (f"{name} is a skill-creator executor log, which the agent wrote: its tool lines are "
                "claims, not a tool-call record")
    if transcript.suspect_calls:
        return None  # records, none trusted: they still count against a call that must not happen
    return f"{name} has no [tool_calls] record and no tagged section: it is not a tool-call record"


def undecided(transcript: Transcript) -> bool:
    """No trusted record and no tagged section: nothing says the text is a dual-section
    record. Untrusted records do not: an executor log that quotes a record heading in a
    code block is still a log (its shape says so), as ``engine.run.run_warnings``
    reads it."""
    return not (transcript.calls or any(n.tagged for n in transcript.notes))
