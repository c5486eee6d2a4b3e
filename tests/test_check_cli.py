"""``referee check``: report format, summary line and exit codes."""

from __future__ import annotations

from pathlib import Path

from referee.engine.cli import main

GOOD = 'eval 1 "x"\nlet n = count(calls)\nexpect 1: n == 1\nexpect 2: response is not empty\n'
THREE_MISTAKES = (
    "eval 1\n"
    "expect 1: response = \"x\"\n"
    "expect 2: response contains \"abc\n"
    "expect 3: response matches /x/q\n"
)


def run(tmp_path: Path, capsys, *args: str) -> tuple[int, str, str]:
    import os
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        code = main(["check", *args])
    finally:
        os.chdir(old)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_clean_file(tmp_path, capsys):
    (tmp_path / "a.rules").write_text(GOOD, encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "a.rules")
    assert (code, out) == (0, "ok: 1 file, 2 assertions\n")


def test_three_mistakes_are_three_errors(tmp_path, capsys):
    (tmp_path / "bad.rules").write_text(THREE_MISTAKES, encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "bad.rules")
    assert code == 1
    assert out.count("error[") == 3
    assert out.splitlines()[0] == "bad.rules:2:20: error[syntax]: '=' is not a comparison"
    assert "  expect 1: response = \"x\"\n                     ^\n  = help: write '=='" in out
    assert out.rstrip().endswith("3 errors in 1 file")


def test_errors_across_files(tmp_path, capsys):
    (tmp_path / "a.rules").write_text("eval 1\nexpect 1: x = 1\n", encoding="utf-8")
    (tmp_path / "b.rules").write_text("eval 1\nlet order = 1\n", encoding="utf-8")
    (tmp_path / "c.rules").write_text(GOOD, encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "a.rules", "b.rules", "c.rules")
    assert code == 1
    assert out.rstrip().endswith("2 errors in 2 files")
    assert out.index("a.rules:2:") < out.index("b.rules:2:")


def test_missing_file_is_exit_2(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, "nope.rules")
    assert code == 2 and out == ""
    assert err == "referee check: error: cannot read nope.rules: no such file\n"


def test_not_utf8_is_exit_2(tmp_path, capsys):
    (tmp_path / "bin.rules").write_bytes(b"eval 1\n\xff\xfe")
    code, _, err = run(tmp_path, capsys, "bin.rules")
    assert code == 2 and "bin.rules" in err


def test_evals_json_errors_are_reported(tmp_path, capsys):
    (tmp_path / "a.rules").write_text(GOOD, encoding="utf-8")
    (tmp_path / "evals.json").write_text(
        '{"evals": [{"id": 1, "expectations": ["a", "b"],\n'
        '  "referee": {"checks": {"2": "response contains"}}}]}\n', encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "a.rules", "--evals", "evals.json")
    assert code == 1
    assert out.startswith("evals.json:2:49: error[syntax]: unexpected end of file")


def test_missing_evals_json_is_exit_2(tmp_path, capsys):
    (tmp_path / "a.rules").write_text(GOOD, encoding="utf-8")
    code, _, err = run(tmp_path, capsys, "a.rules", "--evals", "missing.json")
    assert code == 2 and "missing.json" in err


def test_syntax_and_static_errors_of_one_file_are_reported_together(tmp_path, capsys):
    (tmp_path / "mixed.rules").write_text(
        'eval 1\nexpect 1: cuont(calls) = 1\nlet a = respons\nexpect 2: response matches /(a+/\n',
        encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "mixed.rules")
    assert code == 1
    codes = [line.split("error[")[1].split("]")[0] for line in out.splitlines() if "error[" in line]
    assert codes == ["syntax", "unknown-name", "bad-regex"]
    assert "= help: did you mean 'response'?" in out


def test_a_duplicate_is_reported_once_with_the_caret_under_its_keyword(tmp_path, capsys):
    (tmp_path / "dup.rules").write_text(
        "eval 1\nexpect 1: response is not empty\nexpect 1: response contains \"x\"\n",
        encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "dup.rules")
    assert code == 1 and out.count("error[duplicate-expect]") == 1
    assert "  expect 1: response contains \"x\"\n  ^^^^^^\n  = help: the first one is on line 2" in out


def test_files_for_different_skills_are_checked_each_on_its_own(tmp_path, capsys):
    (tmp_path / "a.rules").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b.rules").write_text(GOOD, encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "a.rules", "b.rules")
    assert (code, out) == (0, "ok: 2 files, 4 assertions\n")


EMBEDDED = (
    '{"evals": [{"id": 1, "expectations": ["a", "b", "c", "d"],\n'
    '  "referee": {"let": {"s": "last(calls", "t": "respons"},\n'
    '              "checks": {"1": "response contains \\"\\\\q\\"", "2": "count(foo) == 1",\n'
    '                         "3": "s.args == {}", "4": "t is empty"}}}]}\n')


def test_a_bad_string_in_evals_json_hides_no_other_error(tmp_path, capsys):
    # was: the bad escape and the let that did not parse alone; the unknown names
    # of the other strings showed only once those were fixed
    (tmp_path / "evals.json").write_text(EMBEDDED, encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "--evals", "evals.json")
    assert code == 1
    found = [line.split(": ", 2)[:2] for line in out.splitlines() if "error[" in line]
    assert found == [["evals.json:2:39", "error[syntax]"], ["evals.json:2:48", "error[unknown-name]"],
                     ["evals.json:3:52", "error[bad-string]"], ["evals.json:3:72", "error[unknown-name]"]]
    assert "unknown name 's'" not in out  # the let that did not parse still names a value
    assert out.count("^") >= 4


def test_a_sentence_that_is_no_string_leaves_the_checks_uncompiled(tmp_path, capsys):
    """The sentences after it would take other numbers: a check would be compiled
    against the wrong sentence, and say so wrongly."""
    (tmp_path / "evals.json").write_text(
        '{"evals": [{"id": 1, "expectations": [3, "b"],\n'
        '  "referee": {"checks": {"2": "respons is empty"}}}]}\n', encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "--evals", "evals.json")
    assert code == 1
    assert "must be a string" in out and "unknown-name" not in out


def test_an_evals_json_that_is_no_json_is_not_also_said_to_be_missing(tmp_path, capsys):
    # was: 'input "a.md" is a file evals.json lists for the eval; no evals.json was given'
    (tmp_path / "a.rules").write_text('eval 1\nexpect 1: response contains input "a.md"\nexpect 2: foo\n',
                                      encoding="utf-8")
    (tmp_path / "evals.json").write_text('{"evals": [\n', encoding="utf-8")
    code, out, _ = run(tmp_path, capsys, "a.rules", "--evals", "evals.json")
    assert code == 1
    assert "not valid JSON" in out and "unknown name 'foo'" in out
    assert "no evals.json was given" not in out
