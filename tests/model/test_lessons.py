"""Every worked number in the domain lessons of Amdahl's law the project is built on, as the model computes it."""

import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.laws import amdahl_speedup, ceiling, required_speedup, strong_scaling
from amdahl_desk.model.profile import Settings

from ..helpers import llm, share, training


def approx(x, rel=5e-3):
    return pytest.approx(x, rel=rel)


class TestTrainingIteration:
    """'From a local optimization to an end-to-end estimate': matmul 4× in a 1,000 ms iteration."""

    def test_speedup_is_1_82_and_new_time_550_ms(self):
        a = analyse(training(k=4))
        assert a.baseline_total == 1000
        assert a.combined.fraction == approx(0.60)
        assert a.combined.overall_speedup == approx(1.82)
        assert a.combined.new_total == approx(550)
        assert a.combined.time_saved == approx(450)
        # "400 ms of baseline work remains" besides the improved component
        assert (1 - a.combined.fraction) * a.baseline_total == approx(400)

    def test_new_time_from_components(self):
        a = analyse(training(k=4))
        assert list(a.new_times) == [100, 150, 150, 100, 50]

    def test_ceiling_is_2_5(self):
        a = analyse(training(k=4))
        assert a.combined.ceiling == approx(2.5)
        assert a.optimizations.ceiling[0] == approx(2.5)

    def test_shares_of_the_table(self):
        a = analyse(training())
        assert list(a.fractions) == pytest.approx([0.10, 0.60, 0.15, 0.10, 0.05])


class TestParallelization:
    """'Parallelization is a special case': P = 0.95 with 5, 10, 100 processors; and the intro's 1,000."""

    @pytest.mark.parametrize(("n", "expected"), [(5, 4.17), (10, 6.90), (100, 16.81), (1000, 19.6)])
    def test_strong_scaling_at_p_095(self, n, expected):
        assert float(strong_scaling(0.95, n)) == approx(expected)

    def test_ceiling_20(self):
        assert float(ceiling(0.95)) == approx(20)

    def test_90_to_99_percent_moves_ceiling_from_10_to_100(self):
        assert float(ceiling(0.90)) == approx(10)
        assert float(ceiling(0.99)) == approx(100)

    def test_p_09_at_128_gives_9_3(self):
        """Diminishing-returns lesson: 128 processors, only 9.3×, never more than 10×."""
        assert float(strong_scaling(0.9, 128)) == approx(9.3, rel=5e-3)

    def test_p_085_at_8_gives_3_9(self):
        """The 8-GPU team that expected 8× and got 3.9×."""
        assert float(strong_scaling(0.85, 8)) == approx(3.9, rel=1e-2)

    def test_five_percent_data_loading_caps_at_20(self):
        assert float(ceiling(0.95)) == approx(20)

    def test_profile_scaling_matches_laws(self):
        from amdahl_desk.model.profile import Component, Profile, Scaling

        p = Profile(
            [Component("par", 95, Scaling.PARALLEL), Component("ser", 5)],
            settings=Settings(gpu_counts=(1, 5, 10, 100, 1000)),
        )
        s = analyse(p).scaling
        assert s.parallel_fraction == approx(0.95)
        assert list(s.amdahl) == [approx(1), approx(4.17), approx(6.90), approx(16.81), approx(19.6)]
        assert s.ceiling == approx(20)


class TestLLMRequest:
    """'An LLM-serving example': decode 2× faster in a 1,500 ms request."""

    def test_speedup_1_43_and_1050_ms(self):
        a = analyse(llm(k=2))
        assert a.combined.fraction == approx(0.60)
        assert a.combined.overall_speedup == approx(1.43)
        assert a.combined.new_total == approx(1050)
        assert a.combined.time_saved / a.baseline_total == approx(0.30)

    def test_ceiling_2_5(self):
        assert analyse(llm()).combined.ceiling == approx(2.5)

    def test_sub_600_ms_target_is_infeasible_by_decode_alone(self):
        a = analyse(llm(target_time=599))
        assert a.target is not None
        assert not a.target.feasible
        assert a.target.required_speedup is None
        assert a.target.floor == approx(600)

    def test_600_ms_is_also_out_of_reach(self):
        a = analyse(llm(target_time=600))
        assert a.target is not None and not a.target.feasible


class TestSingleNumbers:
    @pytest.mark.parametrize(
        ("f", "k", "expected"),
        [
            (0.30, 2, 1.18),  # kernel fusion of a 180 ms activation-traffic component in a 600 ms iteration
            (0.10, 10, 1.10),  # a 10× kernel that is 10% of the time
            (0.55, 2.5, 1.49),  # the interview answer
            (0.60, 4, 1.82),
            (0.60, 2, 1.43),
        ],
    )
    def test_amdahl(self, f, k, expected):
        assert float(amdahl_speedup(f, k)) == approx(expected)
        assert analyse(share("x", f, k)).combined.overall_speedup == approx(expected)

    def test_interview_answer_900_ms_to_about_604_and_ceiling_2_22(self):
        a = analyse(share("stage", 0.55, 2.5, total=900))
        assert a.combined.new_total == pytest.approx(603.0)
        assert a.combined.ceiling == approx(2.22)

    def test_80_percent_accelerated_caps_at_5_not_1_25(self):
        assert float(ceiling(0.80)) == approx(5)

    def test_fusion_180_of_600_ms(self):
        from amdahl_desk.model.profile import Component, Optimization, Profile

        p = Profile(
            [Component("activation traffic", 180), Component("rest", 420)],
            [Optimization("fusion", ("activation traffic",), 2)],
        )
        a = analyse(p)
        assert a.combined.fraction == approx(0.30)
        assert a.combined.overall_speedup == approx(1.18)

    def test_never_add_speedups(self):
        """2× on one component and 3× on another is not 5×: convert to times, sum, divide."""
        from amdahl_desk.model.profile import Component, Optimization, Profile

        p = Profile(
            [Component("a", 300), Component("b", 300), Component("c", 400)],
            [Optimization("two", ("a",), 2), Optimization("three", ("b",), 3)],
        )
        a = analyse(p)
        expected = 1 / ((1 - 0.3 - 0.3) + 0.3 / 2 + 0.3 / 3)
        assert a.combined.overall_speedup == approx(expected)
        assert a.combined.new_total == approx(400 + 150 + 100)
        assert a.combined.overall_speedup < 5

    def test_required_speedup_formula(self):
        # 60% of 1,000 ms, target 600 ms: k = 0.6·1000 / (600 − 400) = 3
        assert required_speedup(0.6, 1000, 600) == approx(3)
        assert required_speedup(0.6, 1000, 400) is None
        assert required_speedup(0.6, 1000, 1000) == 1
