"""Build a judge from a spec: ``openai:gpt-4o-mini``, ``replay:judge.cassette.jsonl`` ..."""

from __future__ import annotations

import math
from pathlib import Path

from referee.llm_adapter.backends import make_backend
from referee.llm_adapter.cassette import MODES, CassetteBackend
from referee.llm_adapter.judge import LLMJudge
from referee.llm_adapter.redact import Redactor
from referee.llm_adapter.transport import Transport

BACKENDS = ("openai", "anthropic")
MAX_TIMEOUT = 86_400.0  # a day: far beyond any reply, far within what a timer can wait


def split_spec(spec: str) -> tuple[str, str]:
    """``kind:rest`` split at the first colon; model names may hold more colons."""
    kind, sep, rest = (spec or "").partition(":")
    kind = kind.strip().lower()
    if not sep or not rest.strip() or kind not in BACKENDS + MODES:
        raise ValueError(f"bad grader spec {spec!r}: use openai:MODEL, anthropic:MODEL, "
                         "replay:PATH, record:PATH or auto:PATH")
    return kind, rest.strip()


def make_judge(spec: str, *, base_url: str | None = None, api_key_env: str | None = None,
               timeout: float = 60.0, concurrency: int = 4, seed: int | None = 0,
               inner: str | None = None, batch: bool = True,
               price: tuple[float, float] | None = None, note: str = "",
               attempts: int = 3) -> LLMJudge:
    """The judge for ``spec``. Raises ``ValueError`` with a user-facing message.

    ``inner`` is the backend spec a ``record:``/``auto:`` cassette asks
    (``openai:MODEL`` or ``anthropic:MODEL``); ``note`` goes into a new cassette's
    metadata line to say what produced it. ``price`` is USD per million input and
    output tokens; without it the cost is reported as unknown.
    """
    redactor = Redactor()
    try:
        return _make(spec, redactor, base_url=base_url, api_key_env=api_key_env,
                     timeout=timeout, concurrency=concurrency, seed=seed, inner=inner,
                     batch=batch, price=price, note=note, attempts=attempts)
    except ValueError as exc:
        raise ValueError(redactor.text(str(exc))) from None


def _make(spec: str, redactor: Redactor, *, base_url, api_key_env, timeout: float, concurrency: int, seed,
          inner: str | None, batch: bool, price: tuple[float, float] | None, note: str, attempts: int) -> LLMJudge:
    kind, rest = split_spec(spec)
    if not (timeout > 0 and math.isfinite(timeout)) or concurrency < 1 or attempts < 1:
        raise ValueError("--llm-timeout must be a positive number of seconds, "
                         "--llm-concurrency at least 1")
    if timeout > MAX_TIMEOUT:  # a deadline timer cannot wait 1e300 s: it would fail in its thread
        raise ValueError(f"--llm-timeout must be at most {MAX_TIMEOUT:.0f} seconds (a day), got {timeout:g}")
    transport = Transport(timeout=timeout, attempts=attempts, concurrency=concurrency,
                          redactor=redactor)
    options = {"base_url": base_url, "api_key_env": api_key_env, "transport": transport,
               "seed": seed}
    if kind in BACKENDS:
        return LLMJudge(make_backend(kind, rest, **options), batch=batch, price_per_million=price,
                        redactor=redactor)
    backend = None
    if inner:
        inner_kind, model = split_spec(inner)
        if inner_kind not in BACKENDS:
            raise ValueError("--llm-backend must be openai:MODEL or anthropic:MODEL, "
                             f"not {inner!r}")
        backend = make_backend(inner_kind, model, **options)
    cassette = CassetteBackend(Path(rest), kind, backend, note=redactor.text(note))
    if backend is None:
        same_seed(cassette, seed)
    return LLMJudge(cassette, batch=batch, price_per_million=price, redactor=redactor)


def same_seed(cassette: CassetteBackend, seed: int | None) -> None:
    """ValueError unless an OpenAI cassette was recorded with ``seed``. The seed is
    sent with each OpenAI request, so a reply recorded for one seed answers another
    request: a cassette with a backend behind it refuses another seed when it is
    opened (``_adopt_inner``); one that replays alone is checked here. The Anthropic
    API takes no seed, so its cassettes answer whatever seed is asked."""
    # A seed in the params is checked whatever backend the metadata names: that line has
    # no digest, and naming another backend in it must not let the replies answer a seed
    # they were not recorded with. An Anthropic cassette's params hold no seed.
    if cassette.name != "openai" and "seed" not in cassette.params():
        return
    had = cassette.params().get("seed")
    if had != seed:
        recorded = "without a seed" if had is None else f"with seed {had}"
        asked = "no seed" if seed is None else f"--llm-seed {seed}"
        raise ValueError(f"{cassette.path} was recorded {recorded}; {asked} asks other requests: "
                         "replay it with the seed it was recorded with, or record them")
