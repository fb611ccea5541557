"""Cost per run at each GPU count, worked by hand on a profile whose scaling is easy to follow."""

import numpy as np
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.cost import Step, analyse_cost, gpu_hours
from amdahl_desk.model.load_settings import LoadCostSettings
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.cost import cost_sentence, step_sentence


def profile(target=None) -> Profile:
    """Serial 200 s and parallel 3,400 s (total 3,600 s = one GPU-hour on 1 GPU); T(N) = 200 + 3400/N."""
    return Profile(
        [Component("serial", 200, Scaling.SERIAL), Component("parallel", 3400, Scaling.PARALLEL)],
        [Optimization("halve serial", ("serial",), 2)],
        Settings(gpu_counts=(1, 2, 4, 8, 16, 17), target_time=target),
        unit=TimeUnit.S,
    )


PRICE = LoadCostSettings(gpu_price_per_hour=2.5, currency="$")


def test_gpu_hours_and_cost_per_point():
    c = analyse_cost(analyse(profile()), PRICE)
    n = np.array([1, 2, 4, 8, 16, 17])
    expected_hours = n * (200 + 3400 / n) / 3600  # N·T(N)/3600 s
    assert list(c.gpus) == list(n)
    assert c.gpu_hours == pytest.approx(expected_hours)
    assert c.gpu_hours[0] == pytest.approx(1.0)
    assert c.cost == pytest.approx(expected_hours * 2.5)
    assert c.cost[list(c.gpus).index(1)] == pytest.approx(2.5)


def test_energy_adds_to_the_hourly_rate():
    s = LoadCostSettings(gpu_price_per_hour=2.5, currency="$", watts_per_gpu=700, energy_price_per_kwh=0.12)
    c = analyse_cost(analyse(profile()), s)
    assert c.rate == pytest.approx(2.5 + 0.7 * 0.12)
    assert c.energy_rate == pytest.approx(0.084)
    assert c.cost[list(c.gpus).index(1)] == pytest.approx(2.584)


def test_energy_alone_is_a_price():
    c = analyse_cost(analyse(profile()), LoadCostSettings(watts_per_gpu=1000, energy_price_per_kwh=0.3))
    assert c.cost[list(c.gpus).index(1)] == pytest.approx(0.3)


def test_without_a_price_only_gpu_hours():
    c = analyse_cost(analyse(profile()), LoadCostSettings())
    assert c.cost is None and not c.priced
    assert c.saved_per_run is None and c.saved_per_million_runs is None
    assert c.cheapest_gpus == 1  # GPU-hours alone decide it


def test_cheapest_fastest_and_meeting_target():
    # T(N) ≤ 500 s  ⇔  3400/N ≤ 300  ⇔  N ≥ 11.3: of the counts, 16 and 17; 16 uses fewer GPU-hours
    c = analyse_cost(analyse(profile(target=500)), PRICE)
    assert c.cheapest_gpus == 1
    assert c.fastest_gpus == 17
    assert c.cheapest_meeting_target_gpus == 16
    assert analyse_cost(analyse(profile(target=100)), PRICE).cheapest_meeting_target_gpus is None


def test_steps_between_counts():
    c = analyse_cost(analyse(profile()), PRICE)
    step = c.steps[0]  # 1 → 2: T 3,600 → 1,900 s; GPU-hours 1 → 3,800/3,600
    assert (step.from_gpus, step.to_gpus) == (1, 2) and step.is_doubling
    assert step.speedup_gain == pytest.approx(3600 / 1900 - 1)
    assert step.cost_increase == pytest.approx(3800 / 3600 - 1)
    assert not c.steps[-1].is_doubling  # 16 → 17


def test_plan_saving_at_n0():
    # halving the 200 s serial part saves 100 s on 1 GPU: 100/3600 GPU-hours, ×$2.50
    c = analyse_cost(analyse(profile()), PRICE)
    assert c.saved_gpu_hours_per_run == pytest.approx(100 / 3600)
    assert c.saved_per_run == pytest.approx(2.5 * 100 / 3600)
    assert c.saved_per_million_runs == pytest.approx(2.5 * 100 / 3600 * 1e6)


def test_saving_counts_the_baseline_gpus():
    p = profile()
    p.set_settings(Settings(gpu_counts=(4, 8), baseline_gpus=4))
    c = analyse_cost(analyse(p), PRICE)
    assert c.saved_gpu_hours_per_run == pytest.approx(4 * 100 / 3600)


def test_gpu_hours_helper_in_milliseconds():
    assert gpu_hours(np.array([8]), np.array([450.0]), TimeUnit.MS)[0] == pytest.approx(8 * 0.45 / 3600)


class TestSentences:
    def test_doubling_in_the_spirit_of_the_issue(self):
        assert step_sentence(Step(256, 512, 0.04, 0.96)) == "going from 256 to 512 GPUs buys 4% for 96% more money"

    def test_without_a_price(self):
        assert step_sentence(Step(1, 2, 0.5, 0.25), priced=False) == (
            "going from 1 to 2 GPUs buys 50% for 25% more GPU-hours"
        )

    def test_slower(self):
        # T grows 1/0.8 − 1 = 25%
        assert step_sentence(Step(512, 1024, -0.2, 1.5)) == (
            "going from 512 to 1,024 GPUs makes a run 25% slower and costs 150% more money"
        )

    def test_cost_sentence(self):
        c = analyse_cost(analyse(profile(target=500)), PRICE)
        text = cost_sentence(c, TimeUnit.S)
        assert text.startswith("At $2.50 per GPU-hour, the cheapest is 1 GPU ($2.50 a run) and the fastest 17 GPUs")
        # with a plan ticked, the counts are the times as measured; its 3,500 s on 1 GPU do not meet 500 s
        assert "the cheapest that meets 500 s as measured is 16 GPUs." in text
        assert text.endswith("The plan saves $0.0694 a run on 1 GPU, $69,444 per million runs.")

    def test_a_plan_that_meets_the_target_on_the_measured_count_is_said_beside_the_cheapest_count(self):
        # T(N) = 200 + 3400/N ≤ 3,550 s from 2 GPUs on (1,900 s, 1.06 GPU-hours, the fewest); the plan's 3,500 s
        # on 1 GPU meets it already
        c = analyse_cost(analyse(profile(target=3550)), PRICE)
        assert c.cheapest_meeting_target_gpus == 2 and c.plan_meets_target is True
        text = cost_sentence(c, TimeUnit.S)
        assert "the cheapest that meets 3,550 s as measured is 2 GPUs, and the plan meets it on 1 GPU." in text
        plain = profile(target=3550)
        plain.set_optimizations([])
        c = analyse_cost(analyse(plain), PRICE)
        assert c.plan_meets_target is None
        assert "the cheapest that meets 3,550 s is 2 GPUs." in cost_sentence(c, TimeUnit.S)  # no plan: as before


def test_times_past_any_float_give_infinite_figures_without_numpy_warnings():
    """T(N) that overflows a float (or is already ∞) is ∞ GPU-hours, and the steps' ratios ∞ or NaN, as plain
    Python arithmetic says, with no RuntimeWarning (the test run turns warnings into errors)."""
    import dataclasses
    import math

    from amdahl_desk.model.cost import cost_figures

    scaling = dataclasses.replace(
        analyse(profile()).scaling,
        gpus=np.array([1, 2, 4, 8, 16, 17]),
        time=np.array([1e305, 3e304, math.inf, math.inf, 5.0, 1e-300]),
    )
    c = cost_figures(scaling, TimeUnit.S, PRICE)
    hours = [
        n * t / 3600 for n, t in zip([1, 2, 4, 8, 16, 17], [1e305, 3e304, math.inf, math.inf, 5.0, 1e-300], strict=True)
    ]
    assert list(c.gpu_hours) == hours
    # Python's own float arithmetic, step by step: more time lost, more money per run.
    times = [1e305, 3e304, math.inf, math.inf, 5.0, 1e-300]
    for i, step in enumerate(c.steps):
        expected = times[i] / times[i + 1] - 1.0
        assert step.speedup_gain == expected or (math.isnan(expected) and math.isnan(step.speedup_gain))
        more = hours[i + 1] / hours[i] - 1.0
        assert step.cost_increase == more or (math.isnan(more) and math.isnan(step.cost_increase))


def test_the_largest_time_a_profile_holds_gives_finite_figures_at_the_largest_gpu_count():
    from amdahl_desk.model.profile_values import MAX_GPUS
    from amdahl_desk.model.units import MAX_TIME

    big = Profile(
        [Component("serial", MAX_TIME, Scaling.SERIAL), Component("parallel", MAX_TIME, Scaling.PARALLEL)],
        [Optimization("slower", ("serial",), 0.001)],
        Settings(gpu_counts=(1, MAX_GPUS)),
        unit=TimeUnit.S,
    )
    c = analyse_cost(analyse(big), PRICE)
    assert np.all(np.isfinite(c.gpu_hours)) and np.all(np.isfinite(c.cost))
    assert c.gpu_hours[-1] == pytest.approx(MAX_GPUS * (MAX_TIME + MAX_TIME / MAX_GPUS) / 3600)


def test_the_charts_legend_says_the_curve_is_as_measured_when_a_plan_is_ticked():
    from dataclasses import replace as replaced

    from amdahl_desk.present.cost_chart import cost_chart
    from amdahl_desk.present.inputs import ChartInputs

    planned = profile(target=3550)
    planned.set_settings(replaced(planned.settings, gpu_price_per_hour=2.5))
    plain = profile(target=3550)
    plain.set_settings(planned.settings)
    plain.set_optimizations([])
    names = {
        key: [e.name for e in cost_chart(ChartInputs(p, analyse(p))).legend]
        for key, p in (("plan", planned), ("none", plain))
    }
    assert names["plan"][2].startswith("Cheapest N that meets the target as measured: 2 (")
    assert names["none"][2].startswith("Cheapest N that meets the target: 2 (")


@pytest.mark.parametrize("target", [None, 1.0])
def test_the_charts_legend_names_no_mark_it_does_not_draw(target):
    """Without a target, or with one no GPU count meets, there is no "meets the target" point: nor an entry."""
    from dataclasses import replace as replaced

    from amdahl_desk.present.cost_chart import cost_chart
    from amdahl_desk.present.inputs import ChartInputs

    p = profile(target=target)
    p.set_settings(replaced(p.settings, gpu_price_per_hour=2.5))
    view = cost_chart(ChartInputs(p, analyse(p)))
    assert view.on_target is None and view.cheapest is not None
    assert [e.name.split(":")[0] for e in view.legend] == ["Per run at N GPUs", "Cheapest N"]


def test_a_price_of_0_draws_no_curve_and_its_export_says_why():
    """At 0 per GPU-hour every count costs 0: a log scale has nothing to draw; the empty frame named three marks."""
    from dataclasses import replace as replaced

    from amdahl_desk.present.cost_chart import cost_chart
    from amdahl_desk.present.inputs import ChartInputs

    p = profile(target=3550)
    p.set_settings(replaced(p.settings, gpu_price_per_hour=0.0))
    view = cost_chart(ChartInputs(p, analyse(p)))
    assert view.line is None and view.legend == () and "price per hour above 0" in view.nothing
    p.set_settings(replaced(p.settings, gpu_price_per_hour=2.5))
    assert cost_chart(ChartInputs(p, analyse(p))).nothing == ""
