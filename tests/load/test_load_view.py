"""The loaded-service sentences, one per situation a person can be in."""

import pytest

from amdahl_desk.model.queueing import load_figures
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.load import load_sentence, max_rate_sentence


def figures(rate, before=1500, after=1050, servers=24, target=None):
    return load_figures("End to end", before, after, rate, servers, TimeUnit.MS, target)


def test_saturated_today_relieved_by_the_plan():
    text = load_sentence(figures(20), "faster decode")
    # before: a = 30 erlangs on 24 replicas; after: a = 21, ρ = 87.5%
    assert text.startswith(
        "At 20 requests/s on 24 replicas the service is saturated today (load 125% of capacity): the queue grows "
        "without bound; faster decode cuts service time 1.43× and brings it to a mean response of "
    )
    assert text.endswith(" at 88% utilization.")


def test_saturated_before_and_after_says_how_many_replicas():
    # ⌊30·1.05⌋ + 1 = 32 and ⌊30·1.5⌋ + 1 = 46
    assert load_sentence(figures(30), "faster decode") == (
        "At 30 requests/s on 24 replicas the service is saturated before and after faster decode "
        "(load 188% → 131% of capacity): the queue grows without bound; it needs at least 32 replicas after "
        "the plan, 46 before."
    )


def test_a_slowdown_that_saturates():
    assert load_sentence(figures(14, before=1500, after=2000), "the plan") == (
        "At 14 requests/s on 24 replicas, the plan slows service time to 2,000 ms and saturates the service "
        "(load 88% → 117% of capacity): the queue grows without bound."
    )


def test_no_plan():
    text = load_sentence(figures(14, after=1500))
    assert text.startswith("At 14 requests/s on 24 replicas the service runs at 88% utilization")
    assert text.endswith("enable an optimization to see what it does under load.")


def test_light_load_gains_only_the_service_time():
    # 1 request/s on 30 replicas: a = 1.5 erlangs, ρ = 5% → 3.5%, P_wait is about 1e-23
    assert load_sentence(figures(1, servers=30), "faster decode") == (
        "At 1 request/s on 30 replicas, faster decode cuts service time 1.43× and mean response 1.43× "
        "(1,500 ms → 1,050 ms; utilization 5% → 3.5%): there is little queueing at this load, "
        "so the gain is the service time's."
    )


def test_a_slowdown_under_load():
    text = load_sentence(figures(5, before=1050, after=1500), "the plan")
    assert text.startswith("At 5 requests/s on 24 replicas, the plan makes service time 1.43× slower")


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (None, None),
        (
            1000,
            "On 24 replicas, a mean response within 1,000 ms is out of reach at any load: one request alone takes "
            "1,500 ms today and 1,050 ms after the plan.",
        ),
    ],
)
def test_max_rate_sentence_edges(target, expected):
    assert max_rate_sentence(figures(14, target=target)) == expected


def test_max_rate_sentence_after_only():
    text = max_rate_sentence(figures(14, target=1200))
    assert text is not None
    assert text.startswith("On 24 replicas, a mean response within 1,200 ms is out of reach today at any load")
    assert "requests/s after the plan." in text


def test_max_rate_sentence_both():
    f = figures(14, target=1600)
    text = max_rate_sentence(f)
    assert f.max_rate_before is not None and f.max_rate_after is not None
    assert text is not None and text.startswith("On 24 replicas, a mean response within 1,600 ms holds up to 13.2")
    assert text.endswith("the load).")


def test_the_latency_charts_legend_names_its_walls():
    """Where the plot is too narrow to label its walls beside them (half a slide), the legend still says where they
    stand: the LLM example's 24 replicas saturate at 16/s before the plan and at 22.9/s after."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.load_chart import load_chart
    from amdahl_desk.resources import example_path

    profile = load_profile(example_path("llm-request.xlsx")).profile
    view = load_chart(ChartInputs(profile, analyse(profile), 0))
    walls = [e.name for e in view.legend if e.name.startswith("Saturation wall")]
    assert walls == ["Saturation wall: 16/s before, 22.9/s after"]
    assert view.wall_before.text == "wall before: 16/s" and view.wall_after.text == "wall after: 22.9/s"


def test_the_latency_charts_title_says_the_operating_points():
    """A label beside a point may find no clear place at half a slide: the title says both figures."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.load_chart import load_chart
    from amdahl_desk.resources import example_path

    profile = load_profile(example_path("llm-request.xlsx")).profile
    view = load_chart(ChartInputs(profile, analyse(profile), 0))
    # M/M/24 at 14/s: mean response 1,712 ms on 1,500 ms of service, 1,052 ms on 1,050 ms (test_llm_example's figures)
    assert view.title.replace("\u00a0", " ").endswith("at 14/s, 1,712 ms → 1,052 ms")
    assert "Target 600 ms" in [e.name for e in view.legend]
