"""Speedup against k on the critical path (model/traces/plan_curves.py): each point is the step recomputed at that
k, held to the path worked out by hand on a tiny trace and to the planner's own answers on the real one."""

from __future__ import annotations

import numpy as np
import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.profile import Optimization
from amdahl_desk.model.traces.plan_curves import k_grid, plan_curves
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare

from . import expect, synthetic


def _planner(trace, tmp_path, matchers):
    return TracePlanner(prepare(load_rank_graph(trace.write(tmp_path / "t.json")).trace), matchers)


def test_a_gpu_bound_step_by_hand(tmp_path):
    """synthetic.gpu_bound: 4 kernels of 200 µs queued behind 15 µs of CPU and launch, then the sync's return 5 and
    a 10 µs op: the step is 30 + 800/k µs while the kernels still end after the sync began (k ≤ 22.8), so the
    curve is 830 / (30 + 800/k) there; the sum of the kernels' 800 of 830 µs says 830 / (30 + 800/k) too."""
    planner = _planner(synthetic.gpu_bound(), tmp_path, (("gemm", "pattern:gemm"),))
    curves = plan_curves(planner, [Optimization("g", ("gemm",), 2.0)])
    c = curves[(("gemm",), 2.0)]
    assert c is not None and c.combined is None  # no other enabled optimization
    assert 2.0 in c.ks and c.ks[0] == 1.0 and c.ks[-1] == 100.0
    low = c.ks <= 20
    assert c.alone[low] == pytest.approx(830 / (30 + 800 / c.ks[low]), rel=1e-9)
    assert c.alone[list(c.ks).index(2.0)] == pytest.approx(830 / 430, rel=1e-9)
    # beyond, the CPU's launches and the sync bound it: never past the kernels-free step's 830/65
    assert np.all(np.diff(c.alone) >= -1e-12) and c.alone[-1] <= 830 / 65 + 1e-9


def test_launch_bound_k_on_the_kernels_buys_nothing(tmp_path):
    """synthetic.launch_bound: the CPU's 1,000 µs of launches is the path; relu kernels k× faster: 1.0× at every k
    (the sum says up to 1/(1 − 0.25) = 1.333×)."""
    planner = _planner(synthetic.launch_bound(), tmp_path, (("relu", "pattern:relu"),))
    c = plan_curves(planner, [Optimization("r", ("relu",), 4.0)])[(("relu",), 4.0)]
    assert c is not None and c.alone == pytest.approx(np.ones(len(c.ks)))


@pytest.fixture(scope="module")
def one_gpu():
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    return TracePlanner(pt, (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn")))


def test_every_point_is_the_planner_s_answer_at_that_k(one_gpu):
    """Alone: :meth:`TracePlanner.alone` at each k; with the other enabled one: :meth:`TracePlanner.plan`."""
    opts = [
        Optimization("g", ("gemm kernels",), 2.0),
        Optimization("c", ("cudnn kernels",), 1.5),
        Optimization("off", ("cudnn kernels",), 3.0, enabled=False),
        Optimization("new", ("typed by hand",), 2.0),
    ]
    curves = plan_curves(one_gpu, opts, points=9)
    assert curves[(("typed by hand",), 2.0)] is None
    g = curves[(("gemm kernels",), 2.0)]
    off = curves[(("cudnn kernels",), 3.0)]
    assert g is not None and off is not None
    # a target the trace does not know is enabled: no combined curve can be said
    assert g.combined is None and off.combined is None
    curves = plan_curves(one_gpu, opts[:3], points=9)
    g, off = curves[(("gemm kernels",), 2.0)], curves[(("cudnn kernels",), 3.0)]
    for i, k in enumerate(g.ks):
        assert g.alone[i] == pytest.approx(one_gpu.alone(("gemm kernels",), k).speedup, rel=1e-9)
        both = one_gpu.plan(((("gemm kernels",), float(k)), (("cudnn kernels",), 1.5))).speedup
        assert g.combined[i] == pytest.approx(both, rel=1e-9)
    for i, k in enumerate(off.ks):  # not enabled: the plan with it added at each k
        plan = ((("gemm kernels",), 2.0), (("cudnn kernels",), 1.5), (("cudnn kernels",), float(k)))
        assert off.combined[i] == pytest.approx(one_gpu.plan(plan).speedup, rel=1e-9)


def test_the_grid_holds_k_and_spans_what_the_sum_s_curve_spans():
    grid = k_grid(250.0, 11)
    assert grid[0] == 1.0 and grid[-1] == pytest.approx(500.0) and 250.0 in grid
    grid = k_grid(0.5, 11)
    assert grid[0] == pytest.approx(0.25) and grid[-1] == pytest.approx(100.0) and 0.5 in grid
