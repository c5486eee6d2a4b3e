"""Keep the API key out of everything referee writes or prints.

The key is read from the environment and sent in one header. A server may echo it
back (in an error body, or inside a reply), and a careless flag may carry it in
place of a variable name. ``Redactor`` knows the secrets of one judge and removes
them from any text before it reaches a verdict, a cassette, stdout or stderr:
the key itself, and any stretch of at least ``MIN_PIECE`` characters of it, so a
key echoed truncated (the first 40 characters, say) is removed too.

``variable_problem`` tells an environment variable's name from a value that looks
like a key, so ``--llm-api-key-env sk-...`` is refused without being printed.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.judging import JudgeResult
    from referee.engine.verdict import Verdict

MASK = "[redacted API key]"
MIN_PIECE = 16  # a stretch of the key this long is the key, as far as redaction goes
# Runs of the characters keys are made of; only such runs can hold a piece of a key.
RUN = re.compile(r"[A-Za-z0-9_\-.+/=~]{%d,}" % MIN_PIECE)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
# How providers' keys begin: OpenAI, Anthropic, Groq, xAI, Google, Hugging Face, GitHub.
KEY_PREFIXES = ("sk-", "sk_", "gsk_", "xai-", "AIza", "hf_", "ghp_", "github_pat_", "pk-",
                "Bearer ")


@dataclass
class Redactor:
    """The secrets of one judge, and the one function that removes them from text."""

    secrets: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, secret: str | None) -> None:
        if secret:
            with self._lock:
                self.secrets.add(secret)

    def __call__(self, text: str) -> str:
        return self.text(text)

    def text(self, text: str) -> str:
        if not self.secrets or not isinstance(text, str) or not text:
            return text
        with self._lock:
            secrets = sorted(self.secrets, key=len, reverse=True)
        for secret in secrets:
            text = text.replace(secret, MASK)
        long_ones = [s for s in secrets if len(s) >= MIN_PIECE]
        return _pieces(text, long_ones) if long_ones else text

    def value(self, value: Any) -> Any:
        """``value`` with every string inside it redacted (JSON-like data)."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        return value

    def result(self, result: JudgeResult):
        """A ``JudgeResult`` with every text in it redacted: verdicts, claims, feedback."""
        if not self.secrets:
            return result
        verdicts = {key: self.verdict(v) for key, v in result.verdicts.items()}
        claims = tuple(replace(c, claim=self.text(c.claim), evidence=self.text(c.evidence))
                       for c in result.claims)
        feedback = tuple(self.text(line) for line in result.feedback)
        return replace(result, verdicts=verdicts, claims=claims, feedback=feedback)

    def verdict(self, verdict: Verdict):
        evidence = tuple(replace(e, quote=self.text(e.quote)) for e in verdict.evidence)
        return replace(verdict, message=self.text(verdict.message), evidence=evidence,
                       details=tuple(self.text(d) for d in verdict.details),
                       expected=self.value(verdict.expected), observed=self.value(verdict.observed))


def _pieces(text: str, secrets: list[str]) -> str:
    """Mask every stretch of ``MIN_PIECE`` or more characters shared with a secret."""
    windows = {s[i:i + MIN_PIECE] for s in secrets for i in range(len(s) - MIN_PIECE + 1)}
    spans: list[tuple[int, int]] = []
    for run in RUN.finditer(text):
        chunk, base = run.group(0), run.start()
        for i in range(len(chunk) - MIN_PIECE + 1):
            if chunk[i:i + MIN_PIECE] in windows:
                start, end = base + i, base + i + MIN_PIECE
                if spans and start <= spans[-1][1]:
                    spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
                else:
                    spans.append((start, end))
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], MASK]
        last = end
    out.append(text[last:])
    return "".join(out)


def variable_problem(name: str) -> str | None:
    """Why ``name`` cannot be the name of the variable holding the key, or None.

    A value that looks like a key (a provider's prefix, a long mixed run of letters
    and digits, a character no variable name has, or the value of some variable) is
    refused with a message that does not repeat it.
    """
    looks_like_key = _looks_like_key(name)
    if NAME.fullmatch(name) and not looks_like_key:
        return None
    what = ("it looks like an API key itself" if looks_like_key
            else "it is not a variable name (letters, digits and _ only, not starting with a digit)")
    return ("--llm-api-key-env takes the NAME of the environment variable that holds the key "
            f"(such as OPENAI_API_KEY), and the value given is not one: {what}. It is not shown "
            "here. Put the key in a variable and give that variable's name")


def _looks_like_key(text: str) -> bool:
    if any(text.startswith(prefix) for prefix in KEY_PREFIXES):
        return True
    for part in re.split(r"[_\-.]", text):
        if len(part) >= 16 and re.search(r"\d", part) and re.search(r"[A-Za-z]", part):
            return True
    if len(text) >= 8 and text not in os.environ and \
            any(value == text for value in os.environ.values()):
        return True
    return False
