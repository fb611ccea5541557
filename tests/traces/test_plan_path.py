"""The window's plan on a trace (model/traces/plan_path.py), held to ``what_if`` on the same events, to answers
derived by hand, and the trace a profile names found again (files/traces/linked.py)."""

from __future__ import annotations

import shutil

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.files.traces.linked import linked_figures, open_linked, trace_paths
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.traces import ImportOptions, TraceError
from amdahl_desk.model.traces.import_paths import grouping_options, grouping_text
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.plan_path import TracePlanner, answers, plan_of
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import expect, synthetic

PATTERNS = (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn"), ("aten ops", "pattern:aten::"))


@pytest.fixture(scope="module")
def one_gpu():
    """The real 1-GPU trace's steps and a planner whose components are what three patterns match."""
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    return pt, TracePlanner(pt, PATTERNS)


@pytest.mark.parametrize(
    "plan",
    [
        ((("gemm kernels",), 2.0),),
        ((("cudnn kernels",), 2.0), (("gemm kernels",), 3.0)),
        ((("aten ops",), 1.5),),
        ((("gemm kernels", "cudnn kernels"), 4.0),),
        ((("cudnn kernels",), 0.5),),  # a slowdown
    ],
)
def test_a_plan_is_what_if_on_the_events_its_targets_match(one_gpu, plan):
    """Each target's events are what its pattern matches: the plan's path is ``what_if``'s for those patterns
    (a target named by two optimizations takes the product of their k, as an event two patterns match)."""
    pt, planner = one_gpu
    pattern = dict(PATTERNS)
    speedups = [Speedup(pattern[t].removeprefix("pattern:"), k) for targets, k in plan for t in targets]
    expected = what_if(pt, speedups)
    got = planner.plan(plan)
    assert got.baseline.length == pytest.approx(expected.baseline, rel=1e-12)
    assert got.predicted.length == pytest.approx(expected.predicted, rel=1e-12)
    assert got.speedup == pytest.approx(expected.speedup, rel=1e-12)
    assert got.ceiling == pytest.approx(expected.ceiling, rel=1e-12)
    assert dict(got.predicted.by_kind) == pytest.approx(expected.predicted_by_kind, rel=1e-9, abs=1e-9)
    assert sum(v for _, v in got.predicted.by_kind) == pytest.approx(got.predicted.length, rel=1e-9)
    assert sum(v for _, v in got.predicted.components) <= got.predicted.length * (1 + 1e-9)


def test_each_optimization_alone_is_what_if_of_its_targets(one_gpu):
    pt, planner = one_gpu
    alone = planner.alone(("gemm kernels",), 2.0)
    direct = what_if(pt, [Speedup("gemm", 2.0)])
    assert alone.speedup == pytest.approx(direct.speedup, rel=1e-12)
    assert alone.ceiling == pytest.approx(direct.ceiling, rel=1e-12)
    assert planner.alone(("GEMM kernels",), 2.0) is alone  # names as the profile spells them, kept once


def test_the_plan_is_the_enabled_optimizations_and_k_1_changes_nothing(one_gpu):
    _pt, planner = one_gpu
    opts = [
        Optimization("a", ("gemm kernels",), 1.0),
        Optimization("b", ("cudnn kernels",), 2.0, enabled=False),
    ]
    key = plan_of(opts)
    assert key == ((("gemm kernels",), 1.0),)
    path = planner.plan(key)
    assert path.speedup == pytest.approx(1.0, abs=1e-12)
    assert planner.plan(()).speedup == 1.0 and planner.plan(()).ceiling == 1.0


def test_a_target_the_trace_does_not_know_gets_no_figure(one_gpu):
    _pt, planner = one_gpu
    key = ((("gemm kernels", "typed by hand"), 2.0), (("cudnn kernels",), 2.0))
    got = answers(planner, key, [(("typed by hand",), 2.0), (("cudnn kernels",), 2.0)])
    assert got.unknown == ("typed by hand",) and got.path is None
    assert got.alone[(("typed by hand",), 2.0)] is None
    assert got.alone[(("cudnn kernels",), 2.0)] is not None


def test_an_annotated_step_as_derived_by_hand(tmp_path):
    """tests/traces/synthetic.py:phases: forward's path is 205 + max(95u + 5, 510u + 10) µs, the tail's 525 + 200u."""
    path = synthetic.phases().write(tmp_path / "phases.json")
    profile = import_trace(path).to_profile()
    planner = open_linked(profile.settings)
    assert planner.baseline.length == pytest.approx(0.725)
    forward = planner.plan(((("## forward ##",), 2.0),))
    assert forward.predicted.length == pytest.approx(0.470)
    assert forward.ceiling == pytest.approx(725 / 215)
    assert dict(forward.baseline.components)["## forward ##"] == pytest.approx(0.51)
    assert planner.plan(((("## tail ##",), 2.0),)).predicted.length == pytest.approx(0.625)
    paths = planner.components()
    assert paths is not None and paths["## forward ##"].on_path == pytest.approx(0.51)
    assert paths["## forward ##"].k_moves is None


@pytest.mark.parametrize(
    "options, rank",
    [
        (ImportOptions(group_by="annotation"), 0),
        (ImportOptions(group_by="op", top=None, exclude_flagged=True), None),
        (ImportOptions(group_by="gpu", device=1, total=True), 3),
        (ImportOptions(group_by="annotation", exclude_steps=frozenset({"ProfilerStep#1", "ProfilerStep#4"})), 2),
    ],
)
def test_the_grouping_text_is_read_back_as_written(options, rank):
    text = grouping_text(options.group_by or "", options, rank)
    back, back_rank = grouping_options(text)
    assert back_rank == rank
    assert back == ImportOptions(
        group_by=options.group_by,
        total=options.total,
        top=options.top,
        rank=rank,
        exclude_steps=options.exclude_steps,
        exclude_flagged=options.exclude_flagged,
        device=options.device,
    )


@pytest.mark.parametrize("text, says", [("annotation; rank x", "rank and a whole number"), ("op; sideways", "none of")])
def test_a_grouping_that_cannot_be_read_is_refused_by_its_part(text, says):
    with pytest.raises(TraceError, match=says):
        grouping_options(text)


def test_the_steps_the_import_left_out_stay_out():
    options = ImportOptions(exclude_steps=frozenset({"ProfilerStep#1"}))
    profile = import_trace(expect.ONE_GPU, options).to_profile()
    planner = open_linked(profile.settings)
    names = [s.name for s in planner.pt.steps]
    assert "ProfilerStep#1" not in names and names
    assert planner.baseline.length == pytest.approx(import_trace(expect.ONE_GPU, options).step_time, rel=1e-9)


def test_the_trace_is_found_beside_the_workbook_or_said_missing(tmp_path):
    copy = tmp_path / "runs" / "trace.json.gz"
    copy.parent.mkdir()
    shutil.copy(expect.ONE_GPU, copy)
    assert trace_paths("runs/trace.json.gz", tmp_path) == [tmp_path / "runs" / "trace.json.gz"]
    with pytest.raises(TraceError, match="no such file") as err:
        trace_paths("gone/trace.json.gz", tmp_path)
    assert "gone/trace.json.gz" in str(err.value)


def test_a_whole_trace_import_or_a_profile_without_events_is_refused_calmly(tmp_path):
    whole = import_trace(expect.ONE_GPU, ImportOptions(total=True)).to_profile()
    figures = linked_figures(whole)
    assert "whole trace" in figures.problem and not figures.ready
    bare = Profile([Component("a", 1.0)], settings=Settings(trace_source=str(expect.ONE_GPU)))
    assert "which events" in linked_figures(bare).problem
    assert linked_figures(Profile([Component("a", 1.0)])).source == ""


def test_a_trace_with_no_steps_at_all_says_so_not_that_the_import_left_them_out():
    """HTA's AlexNet trace has no ProfilerStep annotation: the import took the whole trace by itself."""
    profile = import_trace(expect.FIXTURES / "critical_path" / "alexnet.json.gz").to_profile()
    figures = linked_figures(profile)
    assert figures.problem.startswith('the trace has no profiler steps (annotations named "ProfilerStep#…")')
    assert "the figures are the sum's" in figures.problem and not figures.ready
