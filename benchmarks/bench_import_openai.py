"""How ``referee import openai`` grows with the parallel calls of one message, and
how much memory it takes against the source's size.

Time: one pretty-printed message list whose assistant message makes N parallel
calls (each answered), for N = 1,000 .. 8,000; the import (read, parse, render, no
writing) is timed against ``json.loads`` of the same file in the same run, and
the ratio per call printed: flat when the import is linear in N.
Memory: the peak of Python's allocations (``tracemalloc``) while importing (a) one
document of about 30 MB and (b) JSON lines of 300 conversations (about 50 MB),
against the source's size: (a) holds one conversation and its view at a time, (b)
the source's bytes and one conversation.
Run by hand: ``python benchmarks/bench_import_openai.py``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine.run.importers import import_sources, read_sources  # noqa: E402
from referee.engine.run.importers.writer import render_run  # noqa: E402


def parallel(path: Path, n: int) -> None:
    calls = [{"id": f"c{i}", "type": "function",
              "function": {"name": "lookup", "arguments": json.dumps({"i": i, "q": "fare"})}} for i in range(n)]
    messages = [{"role": "user", "content": "go"}, {"role": "assistant", "content": None, "tool_calls": calls}]
    messages += [{"role": "tool", "tool_call_id": f"c{i}", "content": f"result {i}"} for i in range(n)]
    path.write_text(json.dumps(messages, indent=2), encoding="utf-8")


def one_document(path: Path, rounds: int = 7000) -> None:
    messages = [{"role": "user", "content": "go"}]
    for i in range(rounds):
        arguments = json.dumps({"text": "x" * 2000, "i": i})
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "write", "arguments": arguments}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": "y" * 2000})
    path.write_text(json.dumps(messages), encoding="utf-8")


def many_lines(path: Path, conversations: int = 300) -> None:
    with path.open("w", encoding="utf-8") as out:
        for _ in range(conversations):
            messages = [{"role": "user", "content": "go"}]
            for j in range(30):
                arguments = json.dumps({"text": "x" * 3000})
                messages.append({"role": "assistant", "content": None, "tool_calls": [
                    {"id": f"c{j}", "type": "function", "function": {"name": "write", "arguments": arguments}}]})
                messages.append({"role": "tool", "tool_call_id": f"c{j}", "content": "y" * 3000})
            out.write(json.dumps({"messages": messages}) + "\n")


def timed(root: Path) -> None:
    print("parallel calls in one message: import (in memory) vs json.loads of the file")
    for n in (1000, 2000, 4000, 8000):
        path = root / f"parallel-{n}.json"
        parallel(path, n)
        start = time.perf_counter()
        json.loads(path.read_text(encoding="utf-8"))
        plain = time.perf_counter() - start
        start = time.perf_counter()
        (conversation,) = read_sources("openai", [path]).conversations
        render_run(conversation)
        imported = time.perf_counter() - start
        print(f"  N={n:5d}: import {imported:.2f} s, json.loads {plain:.3f} s, "
              f"ratio {imported / plain:.0f}x, {imported / n * 1e6:.0f} us per call")


def peak(root: Path, name: str, make) -> None:
    path = root / name
    make(path)
    size = path.stat().st_size
    tracemalloc.start()
    import_sources("openai", [path], root / f"ws-{name}")
    high = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  {name}: source {size / 1e6:.1f} MB, peak {high / 1e6:.1f} MB, {high / size:.1f}x the source")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        timed(root)
        print("peak memory of a written import")
        peak(root, "document.json", one_document)
        peak(root, "lines.jsonl", many_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
