"""The analysis beyond the lessons: combined effects, targets, scaling with overhead, edge cases."""

import math

import numpy as np
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.laws import communication_time
from amdahl_desk.model.profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings
from amdahl_desk.present.analysis_warnings import warning_texts

from ..helpers import TRAINING, llm, profile_of, training


def test_disabled_optimization_has_own_figures_but_not_in_combined():
    p = training()
    p.set_optimizations([Optimization("Reduced precision", ("GPU matrix multiplications",), 4, enabled=False)])
    a = analyse(p)
    assert a.optimizations.overall_speedup[0] == pytest.approx(1 / 0.55)
    assert a.combined.enabled == 0
    assert a.combined.overall_speedup == 1
    assert a.combined.new_total == 1000


def test_optimizations_on_one_component_multiply_and_are_noted():
    p = profile_of(
        TRAINING,
        [
            Optimization("A", ("GPU matrix multiplications",), 4),
            Optimization("B", ("GPU matrix multiplications",), 2),
        ],
    )
    a = analyse(p)
    assert a.new_times[1] == pytest.approx(600 / 8)
    assert a.combined.fraction == pytest.approx(0.6)  # the union, counted once
    assert a.combined.overlaps[0].speedup == pytest.approx(8)
    assert a.combined.overlaps[0].optimizations == ("A", "B")
    assert any("multiply" in w for w in warning_texts(a.warnings, a.unit))


def test_multi_target_optimization_uses_summed_share():
    p = profile_of(TRAINING, [Optimization("GPU", ("GPU matrix multiplications", "Other GPU kernels"), 2)])
    a = analyse(p)
    assert a.optimizations.fraction[0] == pytest.approx(0.75)
    assert a.combined.overall_speedup == pytest.approx(1 / (0.25 + 0.75 / 2))


def test_slowdown_is_allowed_and_flagged():
    a = analyse(training(k=0.5))
    assert a.combined.overall_speedup < 1
    assert any("slowdown" in w for w in warning_texts(a.warnings, a.unit))


def test_whole_workload_affected_has_infinite_ceiling():
    p = Profile([Component("all", 100)], [Optimization("o", ("all",), 4)])
    a = analyse(p)
    assert math.isinf(a.combined.ceiling)
    assert a.combined.overall_speedup == pytest.approx(4)


def test_zero_total_and_empty_profile_are_clear_errors():
    with pytest.raises(ProfileError, match="add up to 0 ms"):
        analyse(Profile([Component("a", 0), Component("b", 0)]))
    with pytest.raises(ProfileError, match="no components"):
        analyse(Profile())


class TestTarget:
    def test_reachable_target_needs_k(self):
        a = analyse(training(target_time=600))
        assert a.target.feasible and a.target.required_speedup == pytest.approx(3)
        assert a.target.met_by_plan

    def test_target_already_met_needs_1(self):
        a = analyse(training(target_time=1200))
        assert a.target.required_speedup == 1 and a.target.feasible

    def test_no_enabled_optimization(self):
        p = training(target_time=900)
        p.set_optimizations(
            [Optimization("x", ("GPU matrix multiplications",), 4, enabled=False), *p.optimizations[1:]]
        )
        a = analyse(p)
        assert not a.target.feasible and a.target.floor == 1000
        p.set_settings(Settings(target_time=1000))
        assert analyse(p).target.feasible

    def test_plan_short_of_target(self):
        a = analyse(llm(k=2, target_time=900))
        assert a.target.feasible
        # k = 0.6·1500 / (900 − 600) = 3; the plan gives 2× → 1,050 ms, short of it
        assert a.target.required_speedup == pytest.approx(3)
        assert not a.target.met_by_plan


class TestScaling:
    def test_relative_to_baseline_gpus(self):
        p = training(baseline_gpus=8, gpu_counts=(1, 8, 64))
        s = analyse(p).scaling
        assert list(s.gpus) == [1, 8, 64]
        i8 = 1
        assert s.amdahl[i8] == pytest.approx(1) and s.with_overhead[i8] == pytest.approx(1)
        assert s.efficiency[i8] == pytest.approx(1)
        # Amdahl with N0 > 1: 1/((1−P)+P·N0/N)
        assert s.amdahl[2] == pytest.approx(1 / (0.25 + 0.75 * 8 / 64))

    @pytest.mark.parametrize("model", list(OverheadModel))
    @pytest.mark.parametrize("n0", [1, 4, 8])
    def test_measured_total_at_baseline_for_every_model(self, model, n0):
        p = training(baseline_gpus=n0, overhead_model=model, gpu_counts=(1, 2, 4, 8, 16, 1024))
        s = analyse(p).scaling
        i = list(s.gpus).index(n0)
        assert s.time[i] == pytest.approx(1000)
        assert s.with_overhead[i] == pytest.approx(1)

    def test_overhead_models_scale_communication(self):
        n = np.array([1.0, 2, 4, 8])
        assert list(communication_time(100, n, 1, OverheadModel.NONE)) == [100] * 4
        assert list(communication_time(100, n, 1, OverheadModel.LINEAR)) == [100, 200, 400, 800]
        assert list(communication_time(100, n, 1, OverheadModel.LOG)) == [100, 200, 300, 400]
        ring = communication_time(
            100,
            n,
            1,
            OverheadModel.RING,
            ring_latency=1e-3,
            ring_message_bytes=1e9,
            ring_bandwidth=1e11,
            unit_seconds=1e-3,
        )
        # ring(2) = 2·1·1 ms + 2·(1/2)·10 ms = 12 ms on top of the measured 100 ms
        assert ring[1] == pytest.approx(112)
        assert ring[3] == pytest.approx(100 + 2 * 7 * 1 + 2 * 7 / 8 * 10)

    def test_with_overhead_peaks_and_efficiency_marker(self):
        p = training(overhead_model=OverheadModel.LINEAR)
        s = analyse(p).scaling
        assert s.best_gpus < 1024
        assert s.best_speedup == pytest.approx(s.with_overhead.max())
        eff = dict(zip(s.gpus.tolist(), s.efficiency.tolist(), strict=True))
        assert eff[s.last_efficient_gpus] >= 0.5
        assert all(e < 0.5 for n, e in eff.items() if n > s.last_efficient_gpus)

    def test_gustafson(self):
        p = Profile([Component("p", 90, Scaling.PARALLEL), Component("s", 10)], settings=Settings(gpu_counts=(1, 10)))
        s = analyse(p).scaling
        assert s.gustafson[1] == pytest.approx(0.1 + 0.9 * 10)

    def test_parallel_fraction_override(self):
        p = training(parallel_fraction=0.95)
        s = analyse(p).scaling
        assert s.parallel_fraction == pytest.approx(0.9)  # 10% is measured communication
        assert any("parallel fraction" in w for w in warning_texts(analyse(p).warnings, p.unit))
        p2 = training(parallel_fraction=0.5)
        assert analyse(p2).scaling.parallel_fraction == pytest.approx(0.5)

    def test_large_gpu_count_vector(self):
        counts = tuple(range(1, 100_001))
        s = analyse(training(gpu_counts=counts)).scaling
        assert len(s.with_overhead) == 100_000 and np.all(np.isfinite(s.with_overhead))
