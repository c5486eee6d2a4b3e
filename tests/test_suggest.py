"""`referee suggest`: sentence patterns kept as data, drafts resolved against the runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from referee import dsl
from referee.engine.cli import main
from referee.engine.compile import check_rules
from referee.engine.suggest.draft import draft_sentence
from referee.engine.suggest.facts import RunFacts
from referee.engine.suggest.patterns import PatternError, load

CASES = yaml.safe_load((REPO / "tests" / "conformance" / "suggest" / "sentences.yaml").read_text(encoding="utf-8"))
BOOKING = REPO / "examples" / "booking-skill"
BOOKING_WS = REPO / "examples" / "booking-skill-workspace"


def _facts(spec: dict | None) -> RunFacts:
    spec = spec or {}
    facts = RunFacts()
    for tool, fields in spec.get("tools", {}).items():
        facts.tools.add(tool)
        facts.fields[tool] = set(fields)
    facts.returns = {tool: set(fields) for tool, fields in spec.get("returns", {}).items()}
    facts.files = set(spec.get("files", []))
    facts.text_fields = set(spec.get("text_fields", []))
    facts.headings = set(spec.get("headings", []))
    facts.inputs = tuple(spec.get("inputs", []))
    return facts


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_sentence_gives_the_expected_draft(case):
    parts, patterns = load()
    draft = draft_sentence(1, case["sentence"], _facts(case.get("facts")), parts, patterns)
    assert draft.check == case["check"]
    if "pattern" in case:
        assert draft.pattern == case["pattern"]
    if "sure" in case:
        assert draft.sure == case["sure"]
    if draft.check is not None:
        dsl.parse_condition(draft.check)  # every draft is valid language


def test_every_language_is_covered():
    languages = {c["id"].split("-")[0] for c in CASES}
    assert {"en", "zh", "ja"} <= languages
    _, patterns = load()
    assert {p.language for p in patterns} >= {"en", "zh", "ja"}


def test_drafts_pass_check_as_written_and_agree_with_the_example(tmp_path: Path, capsys):
    rules = tmp_path / "drafted.rules"
    code = main(["suggest", str(BOOKING / "evals" / "evals.json"), "--workspace", str(BOOKING_WS),
                 "-o", str(rules)])
    assert code == 0
    tree = dsl.parse_rules(rules.read_text(encoding="utf-8"), "drafted.rules")
    assert check_rules([tree], dsl.load_evals(BOOKING / "evals" / "evals.json")) == []
    drafted = _verdicts(rules)
    written = _verdicts(BOOKING / "booking.rules")
    for key, outcome in drafted.items():
        if outcome != "not_graded":
            assert outcome == written[key], key  # a draft that is graded agrees with the hand-written rule


def _verdicts(rules: Path) -> dict:
    import referee

    program = referee.compile(rules.read_text(encoding="utf-8"), rules.name,
                              evals=BOOKING / "evals" / "evals.json")
    found = {}
    for result in referee.grade(program, BOOKING_WS):
        for item in result.expectations:
            found[(result.path, item["key"])] = item["outcome"]
    return found


def test_json_output_lists_every_sentence(capsys):
    assert main(["suggest", str(BOOKING / "evals" / "evals.json"), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema_version"] == 1
    assert len(document["drafts"]) == 11
    semantic = [d for d in document["drafts"] if d["check"] is None]
    assert any("polite" in d["sentence"] for d in semantic)


def test_user_patterns_extend_without_python(tmp_path: Path, capsys):
    folder = tmp_path / "patterns"
    shutil.copytree(REPO / "rules" / "patterns", folder)
    (folder / "xx.toml").write_text(
        'language = "xx"\n[[pattern]]\nid = "xx.polite"\nmatch = \'^the response is polite.*$\'\n'
        'check = \'response contains "please"\'\nsure = "low"\n', encoding="utf-8")
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": [
        "The response is polite and tells the traveller what happens next"]}]}), encoding="utf-8")
    assert main(["suggest", str(evals), "--patterns", str(folder)]) == 0
    out = capsys.readouterr().out
    assert 'expect 1: response contains "please"' in out and "xx.polite (sure: low)" in out


def test_a_broken_pattern_file_is_a_usage_error_naming_it(tmp_path: Path, capsys):
    folder = tmp_path / "patterns"
    shutil.copytree(REPO / "rules" / "patterns", folder)
    (folder / "bad.toml").write_text('[[pattern]]\nid = "bad"\nmatch = "^(unclosed$"\ncheck = "x"\n',
                                     encoding="utf-8")
    load.cache_clear()
    evals = BOOKING / "evals" / "evals.json"
    assert main(["suggest", str(evals), "--patterns", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "'bad'" in err and "Traceback" not in err
    with pytest.raises(PatternError):
        load(str(folder))


def test_every_bundled_pattern_has_a_conformance_case():
    _, patterns = load()
    named = {case.get("pattern") for case in CASES}
    assert sorted(p.id for p in patterns if p.id not in named) == []


def _evals(tmp_path: Path, *sentences: str) -> Path:
    evals = tmp_path / "evals.json"
    evals.write_text(json.dumps({"evals": [{"id": 1, "prompt": "p", "expectations": list(sentences)}]}),
                     encoding="utf-8")
    return evals


def test_patterns_folders_add_to_the_bundled_ones_and_may_replace_one_by_id(tmp_path: Path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "team.toml").write_text(
        'language = "en"\n'
        '[[pattern]]\nid = "team.polite"\nmatch = \'^the response is polite.*$\'\n'
        'check = \'response contains "please"\'\nsure = "low"\n'
        '[[pattern]]\nid = "en.no-edits"\nmatch = \'^does not make code edits$\'\n'
        'check = \'no calls to /^(Write|Edit|MultiEdit|NotebookEdit)$/\'\nsure = "high"\n', encoding="utf-8")
    evals = _evals(tmp_path, "The response is polite", "Does not make code edits", "Mentions --dry-run")
    assert main(["suggest", str(evals), "--patterns", str(mine)]) == 0
    out = capsys.readouterr().out
    assert 'expect 1: response contains "please"' in out  # the user's own phrasing
    assert "expect 2: no calls to /^(Write|Edit|MultiEdit|NotebookEdit)$/" in out  # replaced by id
    assert 'expect 3: response contains "--dry-run"' in out  # the bundled ones still there
    assert main(["suggest", str(evals), "--patterns", str(mine), "--no-bundled-patterns"]) == 0
    out = capsys.readouterr().out
    assert 'expect 1: response contains "please"' in out and "expect 3\n" in out


def test_a_users_parts_file_adds_parts(tmp_path: Path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "parts.toml").write_text(
        '[part.ticket]\nkind = "text"\nregex = \'[A-Z]+-[0-9]+\'\n', encoding="utf-8")
    (mine / "team.toml").write_text(
        '[[pattern]]\nid = "team.ticket"\nmatch = \'^the reply links {ticket}{end}$\'\n'
        'check = \'response contains {ticket}\'\n', encoding="utf-8")
    assert main(["suggest", str(_evals(tmp_path, "The reply links OPS-42.")), "--patterns", str(mine)]) == 0
    assert 'expect 1: response contains "OPS-42"' in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--patterns", "missing-folder"], "missing-folder: no such folder of pattern files"),
    (["--no-bundled-patterns"], "--no-bundled-patterns needs at least one --patterns folder"),
])
def test_pattern_folder_mistakes_are_usage_errors(args, message, tmp_path: Path, capsys):
    assert main(["suggest", str(_evals(tmp_path, "x")), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_list_part_names_an_item_that_exists(tmp_path: Path):
    (tmp_path / "parts.toml").write_text('[part.many]\nkind = "list"\nitem = "nothing"\n', encoding="utf-8")
    with pytest.raises(PatternError, match="'many' names the item 'nothing'"):
        load(None, (str(tmp_path),))


@pytest.mark.parametrize("part, message", [
    ('[part.x]\nkind = "text"\n', "part 'x' needs kind and regex"),
    ('[part.x]\nkind = "colour"\nregex = "x"\n', "part 'x' has the kind 'colour'"),
    ('[part.x]\nkind = "text"\nregex = "x"\nform = 3\n', "part 'x': form is a text"),
    ('[part.x]\nkind = "verbatim"\nregex = "x"\n', "part 'x': a verbatim part needs words"),
    ("x = " + "[" * 100_000 + "\n", "not valid TOML: nested too deeply"),
])
def test_a_broken_part_is_named_with_its_file(part, message, tmp_path: Path):
    (tmp_path / "parts.toml").write_text(part, encoding="utf-8")
    with pytest.raises(PatternError, match=message) as caught:
        load(None, (str(tmp_path),))
    assert str(tmp_path / "parts.toml") in str(caught.value)


def test_defaults_name_parts(tmp_path: Path):
    (tmp_path / "team.toml").write_text(
        '[[pattern]]\nid = "team.x"\nmatch = \'^x$\'\ncheck = \'response is not empty\'\n'
        'defaults = {nothing = "y"}\n', encoding="utf-8")
    with pytest.raises(PatternError, match="'team.x': defaults is a table of parts"):
        load(None, (str(tmp_path),))
