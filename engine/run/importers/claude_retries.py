"""Claude Code's own reports of an API request that failed and that it retries.

A session log keeps one ``system`` record of subtype ``api_error`` for each retry (its
``error`` an object: the status and the API's error, or the connection's; older versions
name the connection's failure as ``cause``); a stream (``--output-format stream-json``)
prints one of subtype ``api_retry`` (its ``error`` a word such as ``overloaded`` or
``rate_limit``, the HTTP status in ``error_status``). Neither is given to the agent, but
both are the harness telling of a problem it met: harness text (``system``), so
``no harness where .text contains "overloaded"`` fails on a run that met an overload,
whatever else it left of it.
"""

from __future__ import annotations

from referee.engine.run.importers import exact

RETRY_SUBTYPES = ("api_error", "api_retry")  # a tuple: a record's "subtype" may be any JSON value
# the members that tell what failed; the others count attempts and time, or name the record
_TELLING = ("error", "cause", "error_status", "message")


def retry_words(rec: dict) -> str | None:
    """The text of a retry record (``RETRY_SUBTYPES``): its ``content`` when that is
    text, then the members that tell what failed as one line of JSON, as the record
    gives them (``{"error_status": 529, "error": "overloaded"}``); "" when it tells
    nothing. None for any other record."""
    if rec.get("type") != "system" or rec.get("subtype") not in RETRY_SUBTYPES:
        return None
    content = rec.get("content")
    told = {key: value for key, value in rec.items()
            if value is not None and (key in _TELLING or (key == "content" and not isinstance(value, str)))}
    lines = [content] if isinstance(content, str) and content.strip() else []
    if told:
        lines.append(exact.dumps(told))
    return "\n".join(lines)
