"""``referee --help`` loads the command line and nothing of the engine behind it.

Every subcommand's parser is built for ``--help``; a command module that imported
the grader, the report models (pydantic) or the rules parser (lark) at its top
would make every call of ``referee`` pay for them. What is imported is checked
here, in a fresh interpreter; how long it takes is a benchmark's business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.cli import WORDS

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("pydantic", "pydantic_core", "lark", "regex", "jsonpath_ng", "referee.engine.grade",
         "referee.engine.compile", "referee.dsl.parser", "referee.engine.report.models")

PROBE = """
import contextlib, io, json, sys
from referee.engine.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("argv", [["--help"], ["grade", "--help"], ["check", "--help"], ["--version"]])
def test_help_imports_nothing_heavy(argv):
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=REPO, capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "referee.engine.cli" in loaded
    assert sorted(name for name in HEAVY if name in loaded) == []


LEAN_CHECK = """
import contextlib, io, json, sys
from referee.engine.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""


def loaded_by_referee(loaded: list[str]) -> set[str]:
    """The modules of ``loaded`` that referee itself brought in: less those the
    third-party packages among them load on their own, which their version decides
    (pydantic_core 2.46 loads concurrent.futures, 2.50 does not)."""
    stdlib = sys.stdlib_module_names | {"__main__"}
    packages = sorted({name.split(".")[0] for name in loaded} - stdlib - {"referee"})
    alone = (f"import importlib, json, sys\nfor name in {packages!r}:\n"
             "    try:\n        importlib.import_module(name)\n    except ImportError:\n        pass\n"
             "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True, check=True)
    return set(loaded) - set(json.loads(done.stdout))


# What ``referee check`` on a clean file has no use for: the other commands, the
# grader and its report models, the evals.json loader (no --evals), the spelling
# suggestions (no error), lark (dsl.lalr parses from the saved tables).
NOT_FOR_CHECK = (
    "referee.engine.commands.grade", "referee.engine.commands.report",
    "referee.engine.commands.aggregate", "referee.engine.commands.show",
    "referee.engine.commands.suggest", "referee.engine.commands.critique",
    "referee.engine.commands.import_cmd", "referee.engine.grade", "referee.engine.report.inert",
    "referee.engine.report.models", "pydantic", "referee.dsl.evals_json", "difflib", "lark",
    "jsonpath_ng",  # loaded by the first jsonpath query
)


def test_check_of_a_clean_file_imports_only_what_it_uses(tmp_path):
    rules = tmp_path / "ok.rules"
    rules.write_text('eval 1\nexpect 1: response contains "x"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LEAN_CHECK, "check", str(rules)], cwd=REPO,
                          capture_output=True, text=True, check=True)
    code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0
    assert "referee.engine.commands.check" in loaded
    assert sorted(name for name in NOT_FOR_CHECK if name in loaded_by_referee(loaded)) == []


def test_help_lists_the_modes_the_decision_knows():
    from referee.engine.commands.aggregate import MODE_NAMES
    from referee.engine.decision.stability import MODES

    assert sorted(MODE_NAMES) == sorted(MODES)


@pytest.mark.parametrize("word", list(WORDS))
def test_each_command_registers_the_help_that_referee_help_lists(word):
    from referee.engine.cli import build_parser

    assert build_parser(word).format_help() == build_parser().format_help()


def test_referee_help_is_the_same_with_every_command_loaded():
    from referee.engine.cli import WORDS, build_parser

    assert build_parser(*WORDS).format_help() == build_parser().format_help()


@pytest.mark.parametrize("argv", [["check", "--help"], ["grade", "-h"], ["nonsense"], [],
                                  ["--debug", "check", "--bogus"], ["check", "a.rules", "--version"]])
def test_the_two_passes_answer_as_one_parser_of_every_command(argv, capsys):
    from referee.engine.cli import WORDS, build_parser, parse_args

    def answer(parse):
        try:
            return ("parsed", vars(parse(argv)))
        except SystemExit as stop:
            return ("exit", stop.code)

    mine = answer(parse_args), capsys.readouterr()
    whole = answer(build_parser(*WORDS).parse_args), capsys.readouterr()
    assert mine == whole


@pytest.mark.parametrize("argv", [["--help"], ["--version"], []])
def test_listing_the_commands_imports_none_of_them(argv):
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=REPO, capture_output=True, text=True)
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "referee.engine.cli" in loaded
    assert sorted(name for name in loaded if name.startswith("referee.engine.commands.")) == []


def test_a_deterministic_grade_does_not_load_the_report_models(tmp_path):
    # pydantic validates reports read back (aggregate, report) and LLM replies; writing
    # grading.json needs only its fast encoder, pydantic_core.
    workspace = REPO / "examples" / "booking-skill-workspace"
    rules = REPO / "examples" / "booking-skill" / "booking.rules"
    done = subprocess.run([sys.executable, "-c", LEAN_CHECK, "grade", str(workspace), "--rules", str(rules),
                           "--check"], cwd=tmp_path, capture_output=True, text=True, check=True)
    code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 1  # the example's runs without the skill fail
    assert sorted(name for name in ("pydantic", "referee.engine.report.models") if name in loaded) == []



# What a grade that writes nothing has no use for: the claims of a run (only a written
# grading.json records them), the process pool's executor (one process grades),
# what a check claims (asked only about a check that passed in a run that made no call)
# and the evals.json loader (no --evals).
NOT_FOR_A_CHECK_GRADE = ("referee.engine.facts.claims", "concurrent.futures", "referee.engine.critique.claims",
                         "referee.dsl.evals_json")


@pytest.mark.parametrize("shown", [["--json"], []])
def test_a_grade_that_writes_nothing_loads_only_what_it_shows(tmp_path, shown):
    run = tmp_path / "ws" / "iteration-1" / "eval-1-demo" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Saved record id=0badcafe\n", encoding="utf-8")
    rules = tmp_path / "demo.rules"
    rules.write_text('eval 1\nexpect 1: response contains "Saved"\nexpect 2: not response contains "{id}"\n',
                     encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LEAN_CHECK, "grade", str(tmp_path / "ws"), "--rules", str(rules),
                           "--check", *shown], cwd=tmp_path, capture_output=True, text=True, check=True)
    code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0
    assert "referee.engine.grade" in loaded
    assert sorted(name for name in NOT_FOR_A_CHECK_GRADE if name in loaded_by_referee(loaded)) == []
    # The report encoder prints --json; the terminal's lines need none of it.
    assert ("pydantic_core" in loaded) == bool(shown)


def test_a_run_in_the_transcript_format_loads_no_importer(tmp_path):
    """The importers tell a log's format; a run written as a transcript, with no source
    map and no file that may be a log, needs none of them to be graded."""
    run = tmp_path / "ws" / "iteration-1" / "eval-1-demo" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Saved.\n", encoding="utf-8")
    (run / "outputs" / "transcript.md").write_text(
        "## [tool_calls] Step 1: read\nTool: Read\nArgs: {\"path\": \"a.txt\"}\nReturn: {\"ok\": true}\n"
        "Status: success\n", encoding="utf-8")
    rules = tmp_path / "demo.rules"
    rules.write_text('eval 1\nexpect 1: count(calls to "Read") == 1\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LEAN_CHECK, "grade", str(tmp_path / "ws"), "--rules", str(rules),
                           "--check"], cwd=tmp_path, capture_output=True, text=True, check=True)
    code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0
    assert [name for name in loaded if name.startswith("referee.engine.run.importers")] == []
    # a file in outputs/ that may be a log is read, and then they are
    (run / "outputs" / "claude.jsonl").write_text('{"type": "user", "sessionId": "s1"}\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LEAN_CHECK, "grade", str(tmp_path / "ws"), "--rules", str(rules),
                           "--check"], cwd=tmp_path, capture_output=True, text=True)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])[1]
    assert "referee.engine.run.importers.detect" in loaded
