"""Keeping an LLM grader's verdicts when a run is graded again without one.

A semantic assertion graded by the LLM grader records ``grader_input`` in
grading.json: a digest of the assertion's wording (and of the others asked with it),
of every file of the run the grader could see, of the grader's page, of the request
it is shown as it would be sent (``llm_adapter.prompt.request_digest``), of the
rules its reply was checked by (``llm_adapter.verify.rules_digest``), of what the
rule part of an assertion that is part rule, part judgement found, of who
judged (``judged_by``), and of the verdict the grader gave. Graded again without ``--llm``, an
earlier verdict whose ``grader_input`` is unchanged is kept, with method ``grader
(carried over)``;
one whose run or wording changed, or whose item was edited since, is dropped, and
the not-graded item says so.
A kept item records who gave the verdict (``judged_by``: the model, its backend,
the server that answered or that the reply was replayed, and referee's version), taken
from the earlier report: this grade asks no model, and its ``grader.llm`` is null.
Nothing here depends on the clock: the same files give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from referee.engine.facts.metrics import run_skill_type
from referee.engine.grader_page import page_digest
from referee.engine.judging import Awaiting, not_shown
from referee.engine.run.identity import SOURCE_MAP
from referee.engine.run.safeio import read_bytes
from referee.engine.verdict import Outcome, Precision, Verdict

if TYPE_CHECKING:
    from referee.engine.compile import CompiledAssertion
    from referee.engine.run.workspace import Run

CARRIED = "grader (carried over)"
LLM_METHODS = ("grader", CARRIED)  # a tuple: an earlier report's "method" may be any JSON value
DROPPED = ("an earlier LLM grader verdict was not kept: the run's files, the assertion or the rules "
           "that check the grader's quotes changed since; grade with --llm to judge it again")


def run_digest(run: Run) -> str | None:
    """A digest of every file the grader could see: ``outputs/`` (every file in it,
    symlinks inside the run read as the grader reads them, in path order), a
    ``transcript.md`` beside it (and ``source_map.json``, which places the evidence
    of an imported run in its source, and holds the digests its subagents' transcripts are
    checked against), the response it was shown as such (which file, or
    which part of one, and its text: ``--response`` may name a file outside
    ``outputs/``), and the skill type it judged by (``eval_metadata.json`` may
    declare another since). None when the run has no folder on disk.

    Each file is framed by its name's length and its content's length (or what kept
    it from being read), so two folders that differ never give the same stream."""
    folder = getattr(run, "path", None)
    if folder is None or not Path(folder).is_dir():
        return None
    digest = hashlib.sha256()
    for rel in _files(Path(folder)):
        data, found = read_bytes(Path(folder), rel, rel)
        digest.update(_framed(rel.encode("utf-8", "surrogateescape")))
        problem = found.problems[0].code if found.problems else "missing"
        if data is not None:
            digest.update(b"\x00" + _framed(data))
        elif problem == "too-large":  # a regular file inside the run, over the cap: its bytes, read in chunks
            digest.update(b"\x02" + _streamed(Path(folder, rel)))
        else:  # refused (a link leaving the run, a FIFO, ...): what the grader saw is that
            digest.update(b"\x01" + _framed(f"unreadable: {problem}".encode()))
    digest.update(b"\x03" + _response(run))
    # the standard the grader was told to judge by (its page names the skill type)
    digest.update(b"\x04" + _framed(run_skill_type(run).encode()))
    return digest.hexdigest()


def _response(run: Run) -> bytes:
    """The response the grader was shown, framed: where it was read from and its
    text (a file named ``--response`` may lie outside ``outputs/``; the same file
    may be the response or only an output file)."""
    response = getattr(run, "response", None)
    if response is None or response.text is None:
        return _framed(b"none")
    where = json.dumps([response.path, response.line, response.section], ensure_ascii=False)
    return _framed(where.encode("utf-8", "surrogateescape")) + _framed(response.text.encode("utf-8", "surrogateescape"))


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def _streamed(path: Path) -> bytes:
    """The SHA-256 of a file too large to read whole, and its size, framed."""
    inner, size = hashlib.sha256(), 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                inner.update(chunk)
                size += len(chunk)
    except OSError as err:
        return _framed(f"unreadable: {err.strerror}".encode())
    return _framed(size.to_bytes(8, "big") + inner.digest())


def _files(folder: Path) -> list[str]:
    """What ``Run.output_files`` lists (every file, symlinks too; symlinked folders
    are not walked into), under ``outputs/``, ``transcript.md`` beside it, and an
    imported run's ``source_map.json``: the verdict's evidence names the source's
    file and line through it, and a verdict carried over keeps that evidence."""
    found = [name for name in ("transcript.md", SOURCE_MAP) if (folder / name).is_file()]
    outputs = folder / "outputs"
    for top, dirs, files in os.walk(outputs):
        dirs.sort()
        rel_top = Path(top).relative_to(folder).as_posix()
        found.extend(f"{rel_top}/{name}" for name in sorted(files))
    return sorted(found)


def grader_input(digest: str, assertion: CompiledAssertion,
                 asked: Sequence[CompiledAssertion] = (), waiting: Verdict | None = None) -> str:
    """What the grader was asked about: the run's files and the assertion's wording,
    the wording of the other assertions ``asked`` with it, and the grader's page. A
    run's semantic assertions go to the grader in one request: with another one
    reworded, added or left out, the grader would be asked another question (and a
    cassette has no reply to it). An assertion asked alone digests as before. The
    page (instructions, standards) is referee's: an upgrade that rewords it shows the
    grader another page, and a verdict judged under the old one is not kept.
    ``waiting`` is the assertion's verdict before the grader judged it: for one with a
    rule part, what that part found (``_rule_part``)."""
    others = [_wording(a) for a in asked if a.key != assertion.key]
    wording = json.dumps(_wording(assertion) + ([others] if others else []), ensure_ascii=False)
    found = _rule_part(waiting)
    if found:
        wording += "\0" + found
    # "surrogatepass": a sentence of evals.json may hold a lone surrogate (the escape "\\ud800")
    material = f"{digest}\0{page_digest()}\0{wording}".encode("utf-8", "surrogatepass")
    return "sha256:" + hashlib.sha256(material).hexdigest()[:32]


def _rule_part(waiting: Verdict | None) -> str:
    """What the rule part of an assertion that is part rule, part judgement found
    (``judging.Awaiting``), and where: the grader's verdict is written after it, and
    carried over with it, so a rule part edited since (the sentence and the judgement
    part unchanged) must not leave an earlier finding standing for it. "" for an
    assertion with no rule part, which digests as before."""
    if not isinstance(waiting, Awaiting):
        return ""
    places = [[e.source, e.file, e.line, e.step, e.quote] for e in waiting.evidence]
    return json.dumps([waiting.rule_part, places], ensure_ascii=False)


def with_verdict(asked: str, outcome: Any, evidence: Any, places: Any) -> str:
    """The ``grader_input`` written on an item: the digest of what the grader was
    ``asked`` (``grader_input``) and of the verdict it gave, its outcome, evidence and
    places as the item holds them. An item edited after referee wrote it (a fail
    turned into a pass) no longer matches, and is not carried over as the grader's.
    Like a cassette's digest, it detects edits; it is not a signature."""
    verdict = json.dumps([outcome, evidence, places], ensure_ascii=True, sort_keys=True)
    return "sha256:" + hashlib.sha256(f"{asked}\0{verdict}".encode()).hexdigest()[:32]


def _wording(assertion: CompiledAssertion) -> list:
    return [assertion.text or "", getattr(assertion, "semantic_rubric", None) or ""]


def grader_inputs(run: Run, assertions: Sequence[CompiledAssertion], keys: frozenset[str],
                  asked: frozenset[str] = frozenset(), judge: dict[str, Any] | None = None,
                  waiting: Sequence[Verdict] = ()) -> dict[str, str]:
    """``grader_input`` of each assertion in ``keys`` (the ones the grader judged),
    all of ``asked`` (the run's assertions handed to the grader) asked together, by
    ``judge`` (``grader_identity`` of the grade's ``grader`` block); ``waiting`` are
    the verdicts of ``assertions`` before the grader judged them."""
    wanted = [a for a in assertions if a.key in keys]
    digest = run_digest(run) if wanted else None
    if digest is None:
        return {}
    together = [a for a in assertions if a.key in asked]
    shown = _shown(run, digest, together)
    before = {a.key: v for a, v in zip(assertions, waiting)}
    return {a.key: by_judge(grader_input(shown, a, together, before.get(a.key)), judge) for a in wanted}


def by_judge(asked: str, judge: dict[str, Any] | None) -> str:
    """``asked`` (``grader_input``) bound to who judged (``judged_by``'s fields): the
    next grade copies ``judged_by`` into the item it carries over, so a name edited
    into grading.json (its ``grader.llm`` or an item's ``judged_by``) no longer matches,
    and is not handed on as the one that gave the verdict."""
    who = json.dumps(judge, ensure_ascii=True, sort_keys=True)
    return "sha256:" + hashlib.sha256(f"{asked}\0{who}".encode()).hexdigest()[:32]


def _shown(run: Run, digest: str, asked: Sequence[CompiledAssertion]) -> str:
    """``digest`` (of the run's files), a digest of the request the grader is
    shown for ``asked``, as it would be sent, and of the rules its reply is checked
    by: how that request is laid out (its headings, the lines of the expectations,
    what is cut) and how a quote is found are the adapter's, and a change there
    shows the grader another request, or would find the quotes of its reply
    otherwise, so an earlier verdict is not kept. The adapter is loaded here only
    when an LLM verdict is at stake."""
    from referee.engine.judging import semantic_item
    from referee.llm_adapter.prompt import request_digest
    from referee.llm_adapter.verify import rules_digest

    return f"{digest}\0{request_digest(run, [semantic_item(a) for a in asked])}\0{rules_digest()}"


def earlier_verdicts(run: Run, assertions: Sequence[CompiledAssertion],
                     verdicts: Sequence[Verdict]) -> tuple[dict[str, dict], frozenset[str]]:
    """``(kept, dropped)``: the earlier grading.json items to keep, by assertion key,
    for semantic assertions left not graded now; and the keys whose earlier LLM
    verdict cannot be kept because the run or the assertion changed."""
    open_keys = {a.key: a for a, v in zip(assertions, verdicts)
                 if a.precision == Precision.SEMANTIC and v.outcome is Outcome.NOT_GRADED}
    now = {a.key: v for a, v in zip(assertions, verdicts)}
    earlier = _earlier_items(run) if open_keys else {}
    # Only a verdict can be kept; an earlier error was none, and nothing changed for it to be dropped.
    judged = {key: item for key, item in earlier.items() if key in open_keys
              and item.get("method") in LLM_METHODS and item.get("outcome") in ("pass", "fail")}
    if not judged:
        return {}, frozenset()
    if not_shown(run) is not None:
        # The grader would not be asked now (``judging.not_shown``): a verdict kept would rest
        # on text referee cannot read, though the copy it keeps for display may read the same,
        # or on calls that may be incomplete.
        return {}, frozenset(judged)
    digest = run_digest(run)
    together = list(open_keys.values())  # what the grader would be handed now, in order
    shown = _shown(run, digest, together) if digest is not None else None
    kept: dict[str, dict] = {}
    for key, item in judged.items():
        asked = by_judge(grader_input(shown, open_keys[key], together, now[key]),
                         item.get("judged_by")) if shown is not None else None
        if asked is not None and item.get("grader_input") == with_verdict(
                asked, item.get("outcome"), item.get("evidence"), item.get("evidence_location")):
            kept[key] = item
    return kept, frozenset(judged) - set(kept)


def _earlier_items(run: Run) -> dict[str, dict[str, Any]]:
    """The expectations of the run's grading.json, when referee wrote it; {} else.
    Each item holds who judged it (``judged_by``), None when the report does not say."""
    from referee.engine.report.run_report import read_report  # here: it builds on build, which needs CARRIED

    folder = getattr(run, "path", None)
    document = read_report(Path(folder)) if folder is not None else None
    if not isinstance(document, dict) or not isinstance(document.get("expectations"), list):
        return {}
    return {item["key"]: {**item, "judged_by": judged_by(document.get("grader"), item)}
            for item in document["expectations"] if isinstance(item, dict) and isinstance(item.get("key"), str)}


def judged_by(grader: Any, item: dict[str, Any]) -> dict[str, Any] | None:
    """Who gave ``item``'s LLM verdict, as grading.json's ``judged_by`` holds it: for a
    verdict judged by that grade, its ``grader.llm`` without the usage (tokens, cost,
    time: that grade's, not the next one's) and its referee version; for one it carried
    over itself, the ``judged_by`` it wrote. None when the report does not say, or says
    it in another shape than referee writes (it is copied into the new report)."""
    if item.get("method") == CARRIED:
        return _identity(item.get("judged_by"))
    return grader_identity(grader)


def grader_identity(grader: Any) -> dict[str, Any] | None:
    """Who judged the verdicts a grade's LLM grader gave, from its ``grader`` block
    (``grader.llm`` and the version); None when it asked no model."""
    if not isinstance(grader, dict) or not isinstance(grader.get("llm"), dict):
        return None
    llm = grader["llm"]
    return _identity({"model": llm.get("model"), "backend": llm.get("backend"), "endpoint": llm.get("endpoint"),
                      "replayed": llm.get("replayed"), "referee_version": grader.get("version")})


def _identity(found: Any) -> dict[str, Any] | None:
    """``found`` when it has exactly ``JudgedBy``'s fields, of its types (in its order); None else."""
    if not isinstance(found, dict) or set(found) != set(_IDENTITY):
        return None
    if not all(isinstance(found[name], kinds) for name, kinds in _IDENTITY.items()):
        return None
    return {name: found[name] for name in _IDENTITY}


# ``models.JudgedBy``'s fields, in its order, and the JSON types each may hold.
_IDENTITY: dict[str, tuple[type, ...]] = {"model": (str,), "backend": (str,), "endpoint": (str, type(None)),
                                          "replayed": (bool,), "referee_version": (str,)}
