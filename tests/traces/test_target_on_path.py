"""What a target asks of a traced profile's plan on the trace's critical path: the least k of the plan's events at
once that meets it (``TracePlanner.required``), held to a step derived by hand, to single what-if passes on the
real 1-GPU trace, and carried into ``report``'s verdict and JSON with the sum's beside."""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import replace

import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.profile import Optimization
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import expect, synthetic

GEMM = ((("gemm kernels",), 2.0),)


@pytest.fixture(scope="module")
def gpu_bound(tmp_path_factory):
    path = synthetic.gpu_bound().write(tmp_path_factory.mktemp("bound") / "bound.json")
    return TracePlanner(prepare(load_rank_graph(path).trace), (("gemm kernels", "pattern:gemm"),))


@pytest.mark.parametrize("need", [1.2, 1.5, 10.0])
def test_the_least_k_on_a_step_derived_by_hand(gpu_bound, need):
    """synthetic.gpu_bound: four queued 200 µs kernels behind 30 µs of the step that no k touches; with the
    kernels k× faster (k ≤ 24, while they stay queued) the step is 30 + 800/k µs of 830, so a step speedup s
    needs k = 800 / (830/s − 30)."""
    expected = 800 / (830 / need - 30)
    got = gpu_bound.required(GEMM, [need])[need]
    assert got is not None
    assert got == pytest.approx(expected, rel=5e-4)
    assert got >= expected * (1 - 1e-9)  # never less than enough


def test_what_no_k_reaches_and_what_is_already_reached(gpu_bound):
    """With the kernels free the step is 65 µs (the launches and the sync's return stay): 830/65 is the most."""
    ceiling = 830 / 65
    found = gpu_bound.required(GEMM, [ceiling * 1.01, 1.0, 0.5])
    assert found[ceiling * 1.01] is None
    assert found[1.0] == 1.0 and found[0.5] == 1.0


@pytest.fixture(scope="module")
def one_gpu():
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    return pt, TracePlanner(pt, (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn")))


def test_on_the_real_trace_k_meets_the_need_and_a_hair_less_does_not(one_gpu):
    """Each k is checked by single what-if passes (``what_if``, not the vectorised replay that found it)."""
    pt, planner = one_gpu
    plan = ((("gemm kernels", "cudnn kernels"), 2.0),)
    ceiling = planner.plan(plan).ceiling
    needs = [1.05, (1 + ceiling) / 2, ceiling * 0.999]
    found = planner.required(plan, needs)
    for need in needs:
        k = found[need]
        assert k is not None and math.isfinite(k)
        at_k = what_if(pt, [Speedup("gemm", k), Speedup("cudnn", k)]).speedup
        below = what_if(pt, [Speedup("gemm", k / 1.001), Speedup("cudnn", k / 1.001)]).speedup
        assert at_k >= need * (1 - 1e-9) > below


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    """The 1-GPU trace grouped by annotation, backward at 2× and a 50 ms target: backward's 2× leaves the step at
    about 53.5 ms on the path, so the target is missed with the dependencies."""
    folder = tmp_path_factory.mktemp("target")
    trace = folder / "trace.json.gz"
    shutil.copy(expect.ONE_GPU, trace)
    profile = import_trace(trace).to_profile()
    profile.set_optimizations([Optimization("bw", ("## backward ##",), 2.0)])
    profile.set_settings(replace(profile.settings, target_time=50.0))
    save_profile(profile, folder / "p.xlsx")
    planner = TracePlanner(prepare(load_rank_graph(trace).trace), (("bw", "annotation:## backward ##"),))
    return folder, profile, planner


def test_report_gives_the_k_on_the_path_and_the_sums_beside(workbook, capsys):
    folder, profile, planner = workbook
    base = profile.total
    bw = next(c.time for c in profile.components if c.name == "## backward ##")
    need = base / 50.0
    assert planner.plan(((("bw",), 2.0),)).speedup < need  # the premise: missed on the path

    capsys.readouterr()
    assert main(["report", str(folder / "p.xlsx"), "--json"]) == 0
    target = json.loads(capsys.readouterr().out)["target"]
    k = target["required_speedup"]
    assert planner.plan(((("bw",), k),)).speedup >= need * (1 - 1e-9)
    assert planner.plan(((("bw",), k / 1.001),)).speedup < need
    assert target["met_by_plan"] is False and target["feasible"] is True
    assert target["floor"] == pytest.approx(base / planner.plan(((("bw",), 2.0),)).ceiling, rel=1e-9)
    f = bw / base  # the sum's: k = f·T / (target − (1 − f)·T)
    assert target["sum_required_speedup"] == pytest.approx(f * base / (50.0 - (1 - f) * base), rel=1e-9)
    assert target["sum_met_by_plan"] is False

    assert main(["report", str(folder / "p.xlsx")]) == 0
    text = capsys.readouterr().out
    assert f"it takes the enabled optimizations' events {k:.2f}× faster, all at once" in text
    assert f"(it asks their components {target['sum_required_speedup']:.2f}× faster)" in text


def test_the_end_to_end_objective_says_the_same_k(workbook, capsys):
    folder, _profile, _planner = workbook
    capsys.readouterr()
    assert main(["report", str(folder / "p.xlsx"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    whole = data["objectives"][0]["target"]
    assert whole["required_speedup"] == pytest.approx(data["target"]["required_speedup"], rel=1e-12)
    assert whole["sum_required_speedup"] == pytest.approx(data["target"]["sum_required_speedup"], rel=1e-12)
