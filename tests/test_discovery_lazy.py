"""Discovery's runs are built when asked for (``RunList``), never all held at once.

Whatever the layout, the lazy list must give exactly the runs that building every
Run at once and sorting them gives: the same ids, metadata and problems, in the
same order; and slicing, iteration, pickling and selection must behave as a list's.
"""

from __future__ import annotations

import json
import pickle
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from referee.engine.report.marker import GRADING, GROUND_TRUTH
from referee.engine.report.spill import Spill
from referee.engine.run.identity import (
    MetadataReader, _identity_parts, _metadata_base, _read_shape, _shape, eval_prefix, identify,
    natural_key,
)
from referee.engine.run.kept_apart import KeptApart, place_of
from referee.engine.run.select import Selection, select_runs
from referee.engine.run.workspace import RunList, _build_run, _may_hold_metadata, discover, run_folder

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "booking-skill-workspace"
RULES = Path(__file__).resolve().parents[1] / "examples" / "booking-skill" / "booking.rules"

# Folder names that collide, tie and mislead: numbers out of text order, eval ids that
# a metadata file can repeat, run folders with and without numbers, legacy levels.
NAMES = st.sampled_from(["eval-1", "eval-2", "eval-10", "eval-01", "eval-x", "eval-2-name", "sales",
                         "iteration-1", "iteration-2", "iteration10", "runs", "with_skill",
                         "without_skill", "run-1", "run-2", "run-10", "run_3", "run-a", "run-b", "a", "a-x", "B",
                         "eval-1-x"])
METADATA = st.one_of(st.none(), st.just("{not json"), st.just("[1]"),
                     st.fixed_dictionaries({"eval_id": st.sampled_from(["1", "2", 7, "", True, "x"])},
                                           optional={"eval_name": st.sampled_from(["n", "m", None]),
                                                     "extra": st.just([1, {"k": "v"}])}))


@st.composite
def layouts(draw) -> list[tuple[tuple[str, ...], object]]:
    """Run folders (paths of 1 to 4 names), each with maybe a metadata file, and maybe
    one on the folder above it (which several runs may share)."""
    paths = draw(st.lists(st.lists(NAMES, min_size=1, max_size=4).map(tuple), min_size=1, max_size=12))
    return [(path, draw(METADATA)) for path in paths]


def _make(root: Path, layout) -> None:
    for path, metadata in layout:
        folder = root.joinpath(*path)
        (folder / "outputs").mkdir(parents=True, exist_ok=True)  # a run below a run is not one
        for where, text in ((folder, metadata), (folder.parent, metadata)):
            if text is not None and where != root:
                data = text if isinstance(text, str) else json.dumps(text)
                (where / "eval_metadata.json").write_text(data, encoding="utf-8")


def _eager_order(run) -> tuple:
    # Discovery's order, as it was when every Run was built and sorted at once.
    rid = run.id
    iteration = (0, 0) if rid.iteration is None else (1, rid.iteration)
    return iteration, natural_key(rid.eval_id), natural_key(rid.configuration), rid.run_number, natural_key(rid.rel)


def _eager(root: Path, rels) -> list:
    """Every run built at once with one reader, sorted: what discovery gave before.
    An eval id found in two folders names an eval in each (``kept_apart.KeptApart``)."""
    reader, prefix = MetadataReader(), eval_prefix(root)
    built = [_build_run(run_folder(root, rel), rel, reader, prefix) for rel in rels]
    repeated = KeptApart.of(place_of(run.id) for run in built)
    built = [_build_run(run_folder(root, rel), rel, reader, prefix, repeated=repeated) for rel in rels]
    return sorted(built, key=_eager_order)


def _seen(run) -> tuple:
    return (run.id, run.id.extra, str(run.path), run.metadata, run.problems)


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(layouts(), st.sampled_from([(), ("eval-3",), ("eval-3", "with_skill")]))
def test_lazy_runs_are_the_eager_runs_in_the_same_order(layout, above):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).joinpath("ws", *above)
        root.mkdir(parents=True)
        _make(root, layout)
        runs = discover(root).runs
        assert isinstance(runs, RunList)
        expected = _eager(runs.root, runs.rels)
        assert [_seen(r) for r in runs] == [_seen(r) for r in expected]
        assert [_seen(runs[n]) for n in range(len(runs))] == [_seen(r) for r in expected]
        assert list(runs.rels) == [r.id.rel for r in expected]


RUN_NAMES = st.from_regex(r"(?i)run[-_][0-9]{1,3}", fullmatch=True)


@settings(max_examples=300)
@given(st.lists(st.one_of(NAMES, RUN_NAMES), min_size=1, max_size=5).map(tuple))
def test_a_run_folder_is_read_as_its_whole_path_reads(parts):
    # _shape reads the folders above a run-<n> once per parent folder: that must be
    # exactly what reading the whole path gives, whatever the run's number.
    assert _shape(parts) == _read_shape(parts)


def _level_by_level(folder: Path, rel: str, prefix: tuple[str, ...]) -> tuple[dict, tuple]:
    """A run's metadata read folder by folder from the eval level down, the run's own last."""
    parts, inside = _identity_parts(folder, rel, prefix)
    reader, metadata, problems = MetadataReader(), {}, []
    depth = len(parts) - 1
    for pos in range(_read_shape(parts).eval_pos, depth + 1):
        where = folder.parents[depth - pos - 1] if pos < depth else folder
        found, found_problems = reader.read(where, _metadata_base(parts, pos, inside), shared=pos < depth)
        metadata.update(found)
        problems.extend(found_problems)
    return metadata, tuple(problems)


@st.composite
def layered_layouts(draw) -> list[tuple[tuple[str, ...], dict[int, object]]]:
    """Run folders, each with maybe a metadata file of its own and on each of the two
    folders above it, all drawn apart: which level wins shows."""
    paths = draw(st.lists(st.lists(NAMES, min_size=1, max_size=4).map(tuple), min_size=1, max_size=8))
    return [(path, {up: draw(METADATA) for up in range(3)}) for path in paths]


def _make_layered(root: Path, layout) -> None:
    for path, metadata in layout:
        folder = root.joinpath(*path)
        (folder / "outputs").mkdir(parents=True, exist_ok=True)
        for up, text in metadata.items():
            where = folder.parents[up - 1] if up else folder
            if text is not None and where != root and root in where.parents:
                data = text if isinstance(text, str) else json.dumps(text)
                (where / "eval_metadata.json").write_text(data, encoding="utf-8")


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(layered_layouts(), st.sampled_from([(), ("eval-3",), ("eval-3", "with_skill")]))
@example([(("eval-1", "with_skill", "run-1"), {0: None, 1: {"eval_id": "1"}, 2: {"eval_id": "2"}}),
          (("eval-1", "with_skill", "run-2"), {0: {"eval_name": "n"}, 1: None, 2: "[1]"})], ())
def test_metadata_merged_once_per_parent_is_what_each_level_gives(layout, above):
    # One reader for every run, as a discovery has: the levels above a run are merged
    # once per parent folder, and every run must still get what reading each level gives.
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).joinpath("ws", *above)
        root.mkdir(parents=True)
        _make_layered(root, layout)
        rels = discover(root).runs.rels
        reader, prefix = MetadataReader(), eval_prefix(root)
        for rel in rels + rels:  # the second time from the reader's merges
            folder = run_folder(root, rel)
            _, metadata, problems = identify(folder, rel, reader, prefix)
            assert (metadata, problems) == _level_by_level(folder, rel, prefix)


def test_a_run_folder_may_hold_metadata_by_any_case_of_its_name():
    # A case-insensitive file system opens EVAL_METADATA.JSON as eval_metadata.json:
    # discovery skips looking only when no name could be it.
    for names in (["outputs", "eval_metadata.json"], ["EVAL_METADATA.JSON", "outputs"], ["Eval_Metadata.Json"]):
        assert _may_hold_metadata(dict.fromkeys(names))
    for names in (["outputs"], ["outputs", "timing.json", "eval_metadata.json.bak", "x-eval_metadata.json"]):
        assert not _may_hold_metadata(dict.fromkeys(names))


def test_the_order_breaks_ties_by_the_whole_folder_path(tmp_path):
    # The legacy runs/ level names no eval: the two folders are the same run of the
    # same eval, and tie on everything but the folder, which orders them.
    for above in ("runs", "Runs", ""):
        (tmp_path / above / "eval-5" / "b" / "outputs").mkdir(parents=True)
    assert discover(tmp_path).runs.rels == ("Runs/eval-5/b", "eval-5/b", "runs/eval-5/b")


def test_eval_folders_that_metadata_gives_one_id_are_ordered_by_their_qualified_ids(tmp_path):
    # Metadata gives these folders the same eval id: each is its own eval, kept apart
    # by its folder ("a/5", "a-x/5": "-" < "/", not the walk's order, "a" before "a-x").
    for name in ("a", "a-x", "eval-10", "eval-9"):
        (tmp_path / name / "b" / "outputs").mkdir(parents=True)
        (tmp_path / name / "eval_metadata.json").write_text('{"eval_id": "5"}', encoding="utf-8")
    (tmp_path / "eval-6" / "b" / "outputs").mkdir(parents=True)
    runs = discover(tmp_path).runs
    assert runs.rels == ("eval-6/b", "a-x/b", "a/b", "eval-9/b", "eval-10/b")
    assert [run.id.eval_id for run in runs] == ["6", "a-x/5", "a/5", "eval-9/5", "eval-10/5"]


def test_the_metadata_reader_keeps_no_entry_per_run(tmp_path):
    # The reader lives as long as the RunList: it may remember the eval and
    # configuration folders, never each run's own folder (memory flat in the runs).
    for number in range(1, 31):
        (tmp_path / "eval-1" / "with_skill" / f"run-{number}" / "outputs").mkdir(parents=True)
    (tmp_path / "eval-1" / "with_skill" / "run-4" / "eval_metadata.json").write_text('{"eval_id": "9"}')
    runs = discover(tmp_path).runs
    assert len(runs._reader._cache) <= 2
    assert runs[-1].id.rel == "eval-1/with_skill/run-4" and runs[-1].metadata == {"eval_id": "9"}


def test_a_run_list_indexes_slices_and_iterates_as_a_list():
    runs = discover(EXAMPLE).runs
    eager = _eager(runs.root, runs.rels)
    assert len(runs) == len(eager) > 2 and bool(runs)
    assert [r.id for r in runs[1:3]] == [r.id for r in eager[1:3]]
    assert [r.id for r in runs[::-2]] == [r.id for r in eager[::-2]]
    assert runs[-1].id == eager[-1].id and isinstance(runs[0:0], list)
    assert [r.id.rel for r in reversed(runs)] == [r.id.rel for r in reversed(eager)]
    first, again = runs[0], runs[0]
    assert first is not again and first.id == again.id and first.metadata is not again.metadata
    assert not RunList(runs.root, (), MetadataReader())


def test_a_run_list_and_its_runs_pickle():
    runs = discover(EXAMPLE).runs
    back = pickle.loads(pickle.dumps(runs))
    assert isinstance(back, RunList) and back.rels == runs.rels
    assert [_seen(r) for r in back] == [_seen(r) for r in runs]
    run = pickle.loads(pickle.dumps(runs[3]))
    assert _seen(run) == _seen(runs[3])


def test_selecting_from_a_run_list_stays_lazy():
    runs = discover(EXAMPLE).runs
    assert select_runs(runs, Selection()) is runs
    for selection in (Selection(configs=("with_skill",)), Selection(runs=(2,)), Selection(evals=("nothing",))):
        chosen = select_runs(runs, selection)
        assert isinstance(chosen, RunList)
        assert [r.id for r in chosen] == [r.id for r in select_runs(list(runs), selection)]
    assert isinstance(select_runs(iter(list(runs)), Selection(runs=(1,))), list)


def test_grading_a_run_list_gives_what_grading_a_list_gives(tmp_path):
    from referee.engine.grade import RulesSource, grade_spilled, grader_info

    source = RulesSource(((RULES.name, RULES.read_text(encoding="utf-8")),))
    program = source.compile()
    found = []
    for given in (lambda: discover(EXAMPLE).runs, lambda: list(discover(EXAMPLE).runs)):
        with Spill(tmp_path) as spill:
            stored = grade_spilled(program, given(), source, grader_info(), spill, 1)
            found.append([(s.place.rel, s.place.path, s.files[GRADING], s.files[GROUND_TRUTH]) for s in stored])
    assert found[0] == found[1]
    assert [path for _, path, _, _ in found[0]] == [r.path for r in discover(EXAMPLE).runs]
