"""Ways referee used to end in "internal error", a traceback or a wrong exit code, each now fixed.

- A lone surrogate in the grader's reply (``"\\ud800"`` in its JSON) gave "internal
  error in the LLM grader (UnicodeEncodeError)": the reply is now refused by name,
  and asked for again, like any malformed reply; recording it cannot fail either.
- A full disk, or a file-size limit, gave "internal error: OSError": every
  ``OSError`` that reaches the command line is now one sentence saying what the
  system said, exit 2. The limit here is a real one (``RLIMIT_FSIZE``), set in the
  child process, so the write fails where it really happens.
- A Ctrl-C while the command was still loading printed Python's traceback: the
  command now starts in ``engine/entry.py``, which loads the rest inside its handler.
- A standard output closed before referee wrote all of it (``referee grade ... | head``)
  exited 0, a failed grade too, so a CI step with ``set -o pipefail`` passed its gate;
  it exits 141, as a program that SIGPIPE stopped.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

from llm_server import ScriptedServer, small_run, verdicts

from budget_corpus import make_run, rules_for
from referee.engine.judging import SemanticItem
from referee.engine.verdict import Outcome
from referee.engine.usage import system_error
from referee.llm_adapter import make_judge
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.cassette import CassetteBackend, load
from referee.llm_adapter.judge import LLMJudge

REPO = Path(__file__).resolve().parents[2]
RESPONSE = "Booked LX2084 for you.\nTotal: 168.00 EUR\n"
ITEMS = (SemanticItem("1#1", "The response confirms the booking", "confirms"),
         SemanticItem("1#2", "The total is stated", "total"))
GOOD = ("Stated.", [("response", "Total: 168.00 EUR")], "PASS")


def _escaped(reply: str) -> str:
    """The reply as a model's JSON would carry it: lone surrogates as ``\\udXXX`` escapes."""
    return json.dumps(json.loads(reply))


def _run():
    return small_run({"response.md": RESPONSE})


def _lone_surrogate_said(result) -> None:
    for verdict in result.verdicts.values():
        assert verdict.outcome is Outcome.ERROR, verdict.message
        assert "internal error" not in verdict.message
        assert "holds a lone surrogate (\\ud800), which is no text" in verdict.message


def test_a_lone_surrogate_anywhere_in_the_reply_is_refused_by_name(monkeypatch):
    replies = [
        verdicts(("Conf\ud800irmed.", [("response", "Booked LX2084 for you.")], "PASS"), GOOD),
        json.dumps({"assertions": [{"id": "A1\ud800", "reasoning": "r", "evidence": [], "verdict": "PASS"}]}),
        verdicts(("Confirmed.", [("response", "Booked \ud800LX2084")], "PASS"), GOOD),
    ]
    monkeypatch.setenv("REFEREE_TEST_KEY", "sk-test")
    for reply in replies:
        with ScriptedServer(default=_escaped(reply)) as server:
            judge = make_judge("openai:scripted", base_url=server.url, timeout=5.0,
                               api_key_env="REFEREE_TEST_KEY")
            _lone_surrogate_said(judge.grade(_run(), ITEMS))
            assert len(server.requests) == 2  # asked again once, as for any malformed reply


class _Surrogates:
    """A backend whose reply text holds a raw lone surrogate, as a decoded API body can."""

    name, model = "scripted", "surrogates"

    def params(self) -> dict:
        return {}

    def cancel(self) -> None:
        pass

    def complete(self, request, about: str = "") -> Completion:
        return Completion(verdicts(("Conf\ud800irmed.", [("response", "Booked LX2084 for you.")], "PASS"), GOOD))


def test_a_reply_with_a_lone_surrogate_is_recorded_and_replayed(tmp_path):
    path = tmp_path / "grader.cassette.jsonl"
    result = LLMJudge(CassetteBackend(path, "record", inner=_Surrogates())).grade(_run(), ITEMS)
    _lone_surrogate_said(result)
    path.read_bytes().decode("utf-8")  # valid UTF-8: a text that can be read back
    _, entries = load(path)
    assert entries and all("\\ud800" in e["reply"] for e in entries.values())
    _lone_surrogate_said(LLMJudge(CassetteBackend(path, "replay")).grade(_run(), ITEMS))


def _limited(size: int):
    def limit() -> None:  # in the child: writing past ``size`` bytes fails with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_file_size_limit_while_grading_is_a_clear_error(tmp_path):
    workspace = tmp_path / "ws"
    padding = "x" * 2000
    # Enough runs that what grading keeps of them (about 1.4 KB a run) passes the limit.
    for n in range(1, 61):
        make_run(workspace, calls=[("save", '{"n": %d, "pad": "%s"}' % (n, padding), "{}", "success")] * 3,
                 run=f"run-{n}")
    (tmp_path / "r.rules").write_text(rules_for('any calls to "save"'), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "grade", str(workspace), "--rules",
                           str(tmp_path / "r.rules")], capture_output=True, text=True,
                          preexec_fn=_limited(60_000))
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    said = "".join(line for line in done.stderr.splitlines(True) if not line.startswith("grading: "))  # progress
    assert said.startswith("referee grade: error: a file grew past the size this process may write "
                           "(File too large); free some space")
    assert not list(workspace.rglob("grading.json"))


def test_a_full_disk_says_so():
    full = OSError(errno.ENOSPC, "No space left on device", "ws/run-1/.grading.json.x.tmp")
    assert system_error(full) == (
        "the disk is full (No space left on device) (ws/run-1/.grading.json.x.tmp); free some space "
        "(or raise the limit) and run it again. The files referee replaces are replaced whole or not at all")
    assert system_error(OSError(errno.EIO, "Input/output error")) == "Input/output error"


# Raises KeyboardInterrupt where the command line is first imported, as a Ctrl-C
# while it loads would, then starts the command the way ``how`` says.
_INTERRUPT_WHILE_LOADING = """
import builtins, sys
real = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name == "referee.engine.cli":
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = interrupted
{how}
"""
_ENTRY = "from referee.engine.entry import main\nsys.exit(main())"
_DASH_M = "import runpy\nsys.argv = ['referee', '--version']\nrunpy.run_module('referee', run_name='__main__')"


def test_ctrl_c_while_the_command_loads_is_one_line():
    for how in (_ENTRY, _DASH_M):
        done = subprocess.run([sys.executable, "-c", _INTERRUPT_WHILE_LOADING.format(how=how), "--version"],
                              capture_output=True, text=True)
        assert (done.returncode, done.stderr) == (130, "referee: interrupted; nothing was done\n"), how


def test_the_console_script_starts_where_ctrl_c_is_handled():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["referee"] == "referee.engine.entry:main"
    source = (REPO / "engine" / "entry.py").read_text(encoding="utf-8")
    assert [line for line in source.splitlines() if line.startswith(("import ", "from "))] == ["import sys"]


def test_a_closed_standard_output_is_no_pass(tmp_path):
    session = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
    rules = tmp_path / "r.rules"
    rules.write_text('eval "session"\nexpect 1: no calls to "Read"\n', encoding="utf-8")  # the session reads
    args = [sys.executable, "-m", "referee", "grade", str(session), "--rules", str(rules)]
    assert subprocess.run(args, capture_output=True).returncode == 1
    read, write = os.pipe()
    os.close(read)  # the reader gone before the first line, as ``| head -0`` leaves it
    try:
        done = subprocess.run(args, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, b"")
