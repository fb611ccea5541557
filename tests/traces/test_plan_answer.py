"""A traced profile's answer (model/traces/plan_answer.py): the plan, its ceiling and each optimization alone are
``what_if``'s on the same events; the Monte Carlo through the dependency model is, draw by draw, ``what_if`` at
that draw's k; ``report`` and ``whatif PROFILE`` give the same figures; a lost trace falls back to the sum, said."""

from __future__ import annotations

import json
import math
import shutil

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.plan_answer import answer_profile, dependency_draws, sum_answer
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import expect

PATTERNS = (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn"), ("aten ops", "pattern:aten::"))
PATTERN = {name: matcher.removeprefix("pattern:") for name, matcher in PATTERNS}


@pytest.fixture(scope="module")
def one_gpu():
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    return pt, TracePlanner(pt, PATTERNS)


def _profile(*optimizations: Optimization, ranged: bool = False) -> Profile:
    comps = [Component("gemm kernels", 10.0), Component("cudnn kernels", 20.0), Component("aten ops", 30.0)]
    if ranged:
        comps[1] = Component("cudnn kernels", 20.0, time_low=15.0, time_high=30.0)
    return Profile(comps, list(optimizations))


def test_the_answer_is_what_if_on_the_same_events(one_gpu):
    pt, planner = one_gpu
    profile = _profile(
        Optimization("gemm", ("gemm kernels",), 2.0),
        Optimization("cudnn", ("cudnn kernels",), 3.0),
        Optimization("ops", ("aten ops",), 1.5, enabled=False),
    )
    analysis = analyse(profile)
    answer = answer_profile(profile, analysis, planner)
    plan = what_if(pt, [Speedup(PATTERN["gemm kernels"], 2.0), Speedup(PATTERN["cudnn kernels"], 3.0)])
    assert answer.usable and answer.speedup == pytest.approx(plan.speedup, rel=1e-12)
    assert answer.ceiling == pytest.approx(plan.ceiling, rel=1e-12)
    assert answer.new_total == pytest.approx(60.0 / plan.speedup, rel=1e-12)  # the table's baseline, path's ratio
    assert answer.step_before == pytest.approx(plan.baseline) and answer.step_after == pytest.approx(plan.predicted)
    for o, got in zip(profile.optimizations, answer.options, strict=True):
        alone = what_if(pt, [Speedup(PATTERN[o.targets[0]], o.speedup)])
        assert got.speedup == pytest.approx(alone.speedup, rel=1e-12)
        assert got.ceiling == pytest.approx(alone.ceiling, rel=1e-12)
    # the sum beside it is the plain Amdahl of the table: 1 / (10/60/2 + 20/60/3 + 30/60)
    assert answer.sum_speedup == pytest.approx(1 / (10 / 60 / 2 + 20 / 60 / 3 + 30 / 60), rel=1e-12)
    assert answer.edited  # the table's 60 is not the trace's step


def test_each_draw_through_the_dependencies_is_what_if_at_that_draws_k(one_gpu):
    pt, planner = one_gpu
    profile = _profile(
        Optimization("gemm", ("gemm kernels",), 2.0, speedup_low=1.2, speedup_high=4.0),
        Optimization("cudnn", ("cudnn kernels",), 3.0, confidence=0.5),
    )
    draws = make_draws(profile, seed=3, count=6)
    lengths, baselines = dependency_draws(profile, planner, draws)
    assert baselines == pytest.approx([pt.mean(pt.baseline.length)] * 6)
    k_gemm = 1 / draws.reciprocal[0]
    k_cudnn = 1 / draws.reciprocal[1]
    assert len({round(float(k), 9) for k in k_gemm}) > 1 and {float(k) for k in k_cudnn} <= {1.0, 3.0}
    for d in range(6):
        expected = what_if(
            pt,
            [Speedup(PATTERN["gemm kernels"], float(k_gemm[d])), Speedup(PATTERN["cudnn kernels"], float(k_cudnn[d]))],
        )
        assert lengths[d] == pytest.approx(expected.predicted, rel=1e-9)


def test_a_drawn_time_scales_its_components_events(one_gpu):
    """A component's drawn time r× its measured one: its events take r× as long — what_if at k / r."""
    pt, planner = one_gpu
    profile = _profile(Optimization("cudnn", ("cudnn kernels",), 2.0), ranged=True)
    draws = make_draws(profile, seed=1, count=4)
    lengths, baselines = dependency_draws(profile, planner, draws)
    members = list(draws.class_members)
    drawn = draws.class_times[members.index((0,))]
    assert not isinstance(drawn, float)
    for d in range(4):
        r = float(drawn[d]) / 20.0
        expected = what_if(pt, [Speedup(PATTERN["cudnn kernels"], 2.0 / r)]).predicted
        assert lengths[d] == pytest.approx(expected, rel=1e-9)
        assert baselines[d] == pytest.approx(what_if(pt, [Speedup(PATTERN["cudnn kernels"], 1.0 / r)]).predicted)


def test_without_a_usable_trace_the_answer_is_the_sums_and_says_why():
    profile = _profile(Optimization("gemm", ("gemm kernels",), 2.0))
    analysis = analyse(profile)
    answer = sum_answer(profile, analysis, "gone")
    assert not answer.usable and answer.problem == "gone"
    assert answer.speedup == analysis.combined.overall_speedup and answer.new_total == analysis.combined.new_total


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    """A workbook imported from the 1-GPU trace (grouped by annotation), backward at k = 2, its trace beside it."""
    folder = tmp_path_factory.mktemp("traced")
    trace = folder / "trace.json.gz"
    shutil.copy(expect.ONE_GPU, trace)
    profile = import_trace(trace).to_profile()
    # without the import's time ranges: nothing is uncertain, so report runs no draws (those are held above)
    profile.set_components([c._replace(time_low=None, time_high=None) for c in profile.components])
    profile.set_optimizations(
        [Optimization("bw", ("## backward ##",), 2.0), Optimization("fw", ("## forward ##",), 1.5, enabled=False)]
    )
    save_profile(profile, folder / "p.xlsx")
    return folder


def _json(capsys, *argv: str) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_report_and_whatif_profile_give_the_same_dependency_answer(workbook, capsys):
    path = str(workbook / "p.xlsx")
    report = _json(capsys, "report", path, "--json")
    whatif = _json(capsys, "whatif", path, "--json")
    c = report["combined"]
    assert report["dependencies"]["used"] and not report["dependencies"]["times_edited"]
    assert c == whatif["combined"] and report["optimizations"] == whatif["optimizations"]
    # held against the planner computed here on its own: the events of backward at k = 2, the path recomputed
    planner = TracePlanner(
        prepare(load_rank_graph(workbook / "trace.json.gz").trace), (("## backward ##", "annotation:## backward ##"),)
    )
    path_speedup = planner.baseline.length / planner.plan(((("## backward ##",), 2.0),)).predicted.length
    assert c["overall_speedup"] == pytest.approx(path_speedup, rel=1e-9)
    assert c["new_total"] == pytest.approx(report["baseline_total"] / path_speedup, rel=1e-9)
    # the sum stays beside it: Amdahl on the table's times
    times = {x["name"]: x["time"] for x in report["components"]}
    f = times["## backward ##"] / sum(times.values())
    assert c["sum_speedup"] == pytest.approx(1 / ((1 - f) + f / 2), rel=1e-9)
    assert c["sum_new_total"] == pytest.approx(report["baseline_total"] * ((1 - f) + f / 2), rel=1e-9)
    assert not math.isclose(c["overall_speedup"], c["sum_speedup"], rel_tol=1e-3)
    fw = report["optimizations"][1]
    assert fw["sum_overall_speedup"] == pytest.approx(
        1 / ((1 - times["## forward ##"] / sum(times.values())) + times["## forward ##"] / sum(times.values()) / 1.5)
    )
    capsys.readouterr()
    assert main(["report", path]) == 0
    text = capsys.readouterr().out
    assert "with the trace's dependencies" in text and "The sum of the components' times promises" in text


def test_a_lost_trace_falls_back_to_the_sum_visibly(workbook, tmp_path, capsys):
    shutil.copy(workbook / "p.xlsx", tmp_path / "p.xlsx")
    (workbook / "trace.json.gz").rename(workbook / "away.json.gz")
    try:
        data = _json(capsys, "whatif", str(tmp_path / "p.xlsx"), "--json")
        capsys.readouterr()
        assert main(["whatif", str(tmp_path / "p.xlsx")]) == 0
        text = capsys.readouterr().out
    finally:
        (workbook / "away.json.gz").rename(workbook / "trace.json.gz")
    assert not data["dependencies"]["used"] and "no such file" in data["dependencies"]["problem"]
    assert data["combined"]["overall_speedup"] == data["combined"]["sum_speedup"]
    assert any("without the trace's dependencies" in w for w in data["warnings"])
    assert "cannot be used" in text and "by the sum" in text


def test_whatif_of_a_profile_without_a_trace_is_refused(tmp_path, capsys):
    save_profile(_profile(Optimization("gemm", ("gemm kernels",), 2.0)), tmp_path / "plain.xlsx")
    assert main(["whatif", str(tmp_path / "plain.xlsx")]) == 2
    assert "names no trace" in capsys.readouterr().err


def test_the_summary_sheet_leads_with_the_dependency_answer_and_keeps_the_sums(workbook, tmp_path):
    from python_calamine import CalamineWorkbook

    from amdahl_desk.files import load_profile
    from amdahl_desk.files.traces.linked import linked_answer

    profile = load_profile(workbook / "p.xlsx").profile
    analysis = analyse(profile)
    answer, _ = linked_answer(profile, analysis, workbook)
    assert answer is not None and answer.usable
    out = tmp_path / "out.xlsx"
    save_profile(profile, out, analysis, trace=answer)
    rows = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Summary").to_python()
    speedups = [r[1] for r in rows if r and r[0] == "End-to-end speedup"]
    assert speedups[0] == pytest.approx(answer.speedup)  # the first: the answer's
    cells = [str(c) for r in rows for c in r]
    assert any("faster with the trace's dependencies" in c for c in cells)
    assert any(c.startswith("The sum of the components' times promises") for c in cells)
    assert len(speedups) == 2 and speedups[-1] == pytest.approx(analysis.combined.overall_speedup)  # the sum's, beside
