"""The plan under uncertainty in words: the review sentence, the slide's line, the plan, in a locale too."""

from dataclasses import replace

import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.plan_search import cheapest_plan
from amdahl_desk.model.profile import Optimization, Settings
from amdahl_desk.model.uncertainty import analyse_uncertainty
from amdahl_desk.present.numbers import POINT, Numbers
from amdahl_desk.present.uncertainty import chance, estimate_text, plan_view, report_lines, uncertainty_view

from ..helpers import TRAINING, profile_of

MATMUL = "GPU matrix multiplications"
GERMAN = Numbers(",", ".")


def precision(**changes):
    return replace(Optimization("Reduced precision", (MATMUL,), 4.0, speedup_low=3.0, speedup_high=6.0), **changes)


def view(*opts, target=550.0, numbers=POINT):
    p = profile_of(TRAINING, opts, Settings(target_time=target))
    return uncertainty_view(p, analyse_uncertainty(p, analyse(p)), numbers)


def test_the_issue_sentence():
    v = view(precision())
    assert v.sentence == (
        "Reduced precision (3–6×, likely 4×) makes the whole workload 1.67–2.00× faster, 1.83× at the median; "
        "it meets 550 ms with 58% probability."
    )
    assert v.slide == "1.83× median, 1.67–2.00×, 58% to meet 550 ms"
    assert v.odds == "58% probability of meeting 550 ms"
    assert [m.label for m in v.marks][-1] == "target 550 ms"


def test_a_plan_that_can_never_reach_the_target_says_so_whatever_the_odds():
    v = view(precision(), target=390.0)
    assert v.sentence.endswith(
        "; it can never meet 390 ms, whatever the speedups: what the enabled optimizations leave untouched "
        "takes at least 400 ms."
    )
    assert v.slide.endswith("never meets 390 ms")
    v = view(precision(), target=480.0)
    assert v.sentence.endswith(
        "; it cannot meet 480 ms: even at its best (every high k, every time at its low) it takes 500 ms."
    )
    assert view(precision(), target=600.0).sentence.endswith("; it meets 600 ms in every case.")


def test_odds_that_it_works_are_said():
    v = view(precision(confidence=0.7))
    assert v.sentence.startswith(
        "Reduced precision (3–6×, likely 4×, 70% likely to work) makes the whole workload 1.67–2.00× faster if it works,"
    )


def test_several_optimizations_and_none():
    fusion = Optimization("Kernel fusion", ("Other GPU kernels",), 2.0, speedup_low=1.5, speedup_high=2.5)
    v = view(precision(), fusion, target=500.0)
    assert v.sentence.startswith(
        "Reduced precision (3–6×, likely 4×) + Kernel fusion (1.5–2.5×, likely 2×) together make the whole workload"
    )
    assert "; they meet 500 ms with" in v.sentence
    assert [r.name for r in v.sensitivity] == ["Reduced precision", "Kernel fusion"]
    v = view(precision(enabled=False))
    assert (
        v.sentence
        == "No optimization is enabled: the components' times add up to 1,000 ms at the median; it never meets 550 ms "
        "without an optimization."
    )


def test_numbers_in_a_locale():
    v = view(precision(), numbers=GERMAN)
    assert "1,67–2,00× faster, 1,83× at the median" in v.sentence
    assert (
        estimate_text(Optimization("o", ("a",), 1.5, speedup_low=1.25, speedup_high=2.5), GERMAN)
        == "1,25–2,5×, likely 1,5×"
    )


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0, "0%"),
        (1.0, "100%"),
        (0.5832, "58%"),
        (0.0004, "<0.1%"),
        (0.9996, ">99.9%"),
        (0.996, "99.6%"),  # cut, never rounded up to a certainty
        (0.035, "3.5%"),
    ],
)
def test_a_chance_never_rounds_to_a_certainty(p, text):
    assert chance(p) == text


def plan(*opts, target=550.0, level=0.8):
    p = profile_of(TRAINING, opts, Settings(target_time=target))
    return plan_view(p, cheapest_plan(p, make_draws(p), target, level))


def test_the_cheapest_plan_in_words():
    opts = (
        precision(effort=5.0, enabled=False),
        Optimization("Kernel fusion", ("Other GPU kernels",), 2.0, effort=2.0),
        Optimization("Overlap", ("Gradient synchronization",), 3.0, effort=1.0),
    )
    # Reduced precision alone meets 550 ms 58% of the time; with Overlap (1 day, 66.7 ms saved) every time.
    v = plan(*opts)
    assert v.names == ("Reduced precision", "Overlap")
    assert v.sentence.startswith(
        "Reduced precision + Overlap reach 550 ms with 100% probability for 6 engineer-days (median "
    )
    assert v.sentence.endswith(" ms): the cheapest plan at 80% confidence.")
    v = plan(*opts, target=300.0)
    assert v.sentence == (
        "No set of the optimizations with an effort reaches 300 ms with 80% probability; all 3 of them together "
        "reach it with 0% (8 engineer-days)."
    )
    assert plan(*opts, target=1200.0).sentence == (
        "The baseline already meets 1,200 ms with 100% probability: no optimization is needed at 80%."
    )


def test_the_report_block():
    lines = report_lines(view(precision(effort=5.0)), None)
    assert lines[0].startswith("Under uncertainty: Reduced precision (3–6×, likely 4×)")
    assert any(line.startswith("  What matters most: Reduced precision: 1.67–2.00× (swing 0.33×)") for line in lines)
    assert any("per engineer-day" in line for line in lines)
    assert report_lines(None, None) == []


def test_exact_k_with_measured_times_that_vary_says_the_k_is_as_given():
    p = profile_of(TRAINING, [Optimization("Reduced precision", (MATMUL,), 4.0)], Settings(target_time=550.0))
    p.set_components([c._replace(time_low=550.0, time_high=700.0) if c.name == MATMUL else c for c in p.components])
    v = uncertainty_view(p, analyse_uncertainty(p, analyse(p)), POINT)
    assert v.new_total.startswith("New total 550 ms with every k as given; p5 ")
