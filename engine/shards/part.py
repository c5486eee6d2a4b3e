"""Which shard a run belongs to: a hash of its identity, modulo the number of shards.

A run's identity is what its grading.json records of it: eval id, configuration
and run number. The hash is SHA-256 (never Python's ``hash``, which is salted per
process), so the shard of a run does not depend on the order runs are found in,
the host, the path of the workspace or how many processes grade it. Runs of two
iterations that share an identity fall in the same shard.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from referee.dsl.frozen import frozen
from referee.engine.text import ascii_digits

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

MAX_SHARDS = 10_000  # far above any CI matrix (GitHub Actions allows 256 jobs)

Identity = tuple[str, str, int]  # eval id, configuration, run number


@frozen
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def file_name(self) -> str:
        """The manifest's name: ``shard-i-of-n.json``."""
        return manifest_name(self.index, self.count)

    def holds(self, identity: Identity) -> bool:
        return shard_of(identity, self.count) == self.index


def manifest_name(index: int, count: int) -> str:
    return f"shard-{index}-of-{count}.json"


def parse_shard(text: str) -> Shard:
    """``i/n`` with 1 <= i <= n <= ``MAX_SHARDS``; ValueError saying what is wrong."""
    index_text, slash, count_text = text.strip().partition("/")
    if not slash or not ascii_digits(index_text.strip()) or not ascii_digits(count_text.strip()):
        raise ValueError(f"expected i/n, such as 2/8 (shard 2 of 8), got {text!r}")
    index, count = int(index_text), int(count_text)
    if count < 1 or count > MAX_SHARDS:
        raise ValueError(f"the number of shards must be from 1 to {MAX_SHARDS}, got {count}")
    if not 1 <= index <= count:
        raise ValueError(f"the shard must be from 1 to {count}, got {index}")
    return Shard(index, count)


def identity_of(run_id: Any) -> Identity:
    """A ``RunId``'s identity (as grading.json's ``run`` block records it)."""
    return (run_id.eval_id, run_id.configuration, run_id.run_number)


def shard_of(identity: Identity, count: int) -> int:
    """The shard (1-based) of a run of this identity among ``count`` shards."""
    text = json.dumps(list(identity), ensure_ascii=False, separators=(",", ":"))
    number = int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")
    return number % count + 1


def positions(runs: Sequence[Run], shard: Shard) -> list[int]:
    """The positions in ``runs`` (anything with a ``RunId`` as ``id``; a discovery's
    ``RunList`` builds each run only to read its id) of the runs in ``shard``."""
    return [number for number, run in enumerate(runs) if shard.holds(identity_of(run.id))]


def sorted_identities(items: Iterable[dict]) -> list[dict]:
    """Manifest entries in their one order: eval id, configuration, run number, path."""
    return sorted(items, key=lambda e: (e["eval_id"], e["configuration"], e["run_number"], e["path"]))
