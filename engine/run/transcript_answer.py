"""The response of a run with no response file, read from its transcript
(``engine.run.reading`` says when): an executor log's ``## Final Result`` section,
or, where the answer may lie in the transcript but cannot be placed (a log with no
such section, text in no format referee knows, a record's own final section, a
record cut while it was written), a response that cannot be used, never a missing one.
"""

from __future__ import annotations

from referee.engine.run.executor_log import Answer, final_result, is_final, log_shaped
from referee.engine.run.model import Problem, TextFile, Transcript
from referee.engine.run.reading import undecided
from referee.engine.run.safeio import join_report
from referee.engine.run.uncounted import open_record


def log_answer(source: TextFile | None, transcript: Transcript, base: str = "") -> TextFile | None:
    """The ``## Final Result`` section of an executor log, as the response. From a
    transcript that could not be read exactly it is unusable (a check on it is an
    ERROR), never missing: the answer may be in it. ``base``: the run's place, which
    prefixes the path of a problem."""
    if source is None:
        return None
    unreadable = source.unreadable
    if source.text is None:
        # what kind of text it is cannot be told: it may be a log holding the answer
        return None if unreadable is None else TextFile(source.path, None, source.size, (unreadable,))
    if not undecided(transcript):
        return _answer_beside_record(source, transcript, join_report(base, source.path))
    answer = final_result(source.text)
    shaped = log_shaped(source.text)
    if answer is None:
        if not _agent_wrote(transcript):
            return None
        report = join_report(base, source.path)
        return _log_without_answer(source, report) if shaped else _unknown_text(source, report)
    if not shaped:
        return _unplaced_answer(source, answer, join_report(base, source.path))
    return TextFile(source.path, answer.text, len(answer.text.encode("utf-8")),
                    () if unreadable is None else (unreadable,), line=answer.first, section=answer.heading)


def _agent_wrote(transcript: Transcript) -> bool:
    """Whether the transcript holds text of the agent's (not only the harness's eval
    prompt): only there can an answer lie."""
    return any(note.kind == "agent_notes" and note.text.strip() for note in transcript.notes)


def _unknown_text(source: TextFile, report: str) -> TextFile:
    """The response of a run whose transcript is text in no format referee knows, with
    no section it can name as the answer (its headings may be in another language:
    ``## 最终结果``): the answer may be anywhere in it, so the response cannot be used;
    taken as missing, a negative check on it passed on the answer left unread."""
    message = (f"the run has no response file, and {source.path.removeprefix('outputs/')} is in no format "
               "referee knows: the answer may be in it, so the response cannot be told (write "
               "outputs/response.md, or name the response file with --response)")
    return TextFile(source.path, None, source.size, (Problem("unreadable", report, message),))


def _log_without_answer(source: TextFile, report: str) -> TextFile:
    """The response of a run with no response file whose transcript is an executor log
    with no ``## Final Result`` section: its answer may stand under a heading of
    another wording or language (``## Summary``, ``## 最终结果``), so the response
    cannot be used; taken as missing, a negative check on it passed on the answer the
    log shows."""
    message = (f"the run has no response file, and {source.path.removeprefix('outputs/')} is an executor log with "
               "no '## Final Result' section: its answer may stand under another heading, so the response cannot "
               "be told (write outputs/response.md, or name the response file with --response)")
    return TextFile(source.path, None, source.size, (Problem("unreadable", report, message),))


def _unplaced_answer(source: TextFile, answer: Answer, report: str) -> TextFile:
    """The response of a run whose transcript is text in no format referee knows, with
    a section that may hold the answer (``## Final Result``): whether it is the answer
    cannot be told, so the response cannot be used; taken as missing, a negative check
    on it would pass on the answer left unread."""
    message = (f"the run has no response file, and {source.path.removeprefix('outputs/')} is in no format "
               f"referee knows: its section {answer.heading.lstrip('#').strip()!r} may hold the answer, so the "
               "response cannot be told (write outputs/response.md, or name the response file with --response)")
    return TextFile(source.path, None, source.size, (Problem("unreadable", report, message, answer.line),))


def _answer_beside_record(source: TextFile, transcript: Transcript, report: str) -> TextFile | None:
    """The response of a run with no response file whose transcript is a tool-call
    record with an untagged final section (``## Final Result``): the agent's text,
    which may or may not be what the user was shown, so the response cannot be used;
    taken as missing, a negative check on it passed over the answer left unread.
    None when the transcript has no such section."""
    final = next((note for note in transcript.notes if note.kind == "agent_notes" and not note.tagged
                  and is_final(note.title) and note.text.strip()), None)
    if final is None:
        return _cut_before_answer(source, transcript, report)
    message = (f"the run has no response file, and {source.path.removeprefix('outputs/')} has a section "
               f"{final.title!r} outside its record, which may hold the answer: the agent wrote it, so the "
               "response cannot be told (write outputs/response.md, or name the response file with --response)")
    return TextFile(source.path, None, source.size, (Problem("unreadable", report, message, final.location.line),))


def _cut_before_answer(source: TextFile, transcript: Transcript, report: str) -> TextFile | None:
    """The response of a run with no response file whose transcript ends inside a
    record (``uncounted.open_record``): cut while it was written, so the answer the
    agent gave after the cut is lost and the response cannot be told; taken as
    missing, a negative check on it passed over it. None for a transcript not cut so."""
    cut = open_record(transcript)
    if cut is None:
        return None
    message = (f"the run has no response file, and {source.path.removeprefix('outputs/')} ends inside the record "
               f"at line {cut.location.line}, which has no Status line: it was cut while it was written, and the "
               "answer given after the cut cannot be told (write outputs/response.md, or name the response file "
               "with --response)")
    return TextFile(source.path, None, source.size, (Problem("unreadable", report, message, cut.location.line),))
