"""report --json and the text report on the LLM example: objectives, the loaded service and cost, computed by hand."""

import json
import math

import pytest

from amdahl_desk.cli import main
from amdahl_desk.resources import example_path


def erlang_c(c: int, a: float) -> float:
    """P(wait) for c servers at offered load a, from the textbook sum (independent of the model's log-space one)."""
    terms = sum(a**k / math.factorial(k) for k in range(c))
    top = a**c / math.factorial(c) * c / (c - a)
    return top / (terms + top)


@pytest.fixture(scope="module")
def report():
    import io
    import sys

    out, old = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        assert main(["report", str(example_path("llm-request.xlsx")), "--json"]) == 0
    finally:
        sys.stdout = old
    return json.loads(out.getvalue())


def test_objectives_end_to_end_first(report):
    e2e, ttft, itl = report["objectives"]
    assert e2e["name"] == "End to end" and len(e2e["components"]) == 5
    # decode (900 of 1,500 ms) 2× faster: 600 + 450 = 1,050 ms; f = 0.6, ceiling 1/(1 − 0.6) = 2.5
    assert (e2e["baseline_total"], e2e["new_total"]) == (1500, pytest.approx(1050))
    assert e2e["overall_speedup"] == pytest.approx(1500 / 1050) and e2e["ceiling"] == pytest.approx(2.5)
    assert e2e["target"]["time"] == 600 and e2e["target"]["feasible"] is False
    # TTFT = gateway 40 + scheduler 60 + prefill 300: decode does not touch it; its 300 ms target is out of reach
    assert ttft["name"] == "TTFT" and ttft["baseline_total"] == 400 and ttft["new_total"] == 400
    assert ttft["overall_speedup"] == 1 and ttft["ceiling"] == 1
    assert ttft["target"] == {
        "time": 300,
        "required_speedup": None,
        "feasible": False,
        "floor": 400,
        "met_by_plan": False,
    }
    # ITL = decode 900 + streaming 200 = 1,100 → 450 + 200 = 650; ceiling 1/(1 − 900/1100) = 5.5; no target
    assert itl["name"] == "ITL" and (itl["baseline_total"], itl["new_total"]) == (1100, pytest.approx(650))
    assert itl["ceiling"] == pytest.approx(5.5) and "target" not in itl


def test_load_at_14_requests_per_second_on_24_replicas(report):
    load = report["load"]
    assert (load["arrival_rate"], load["servers"], load["objective"]) == (14, 24, "End to end")
    for side, s in (("before", 1.5), ("after", 1.05)):
        a = 14 * s  # offered load λ/μ
        p_wait = erlang_c(24, a)
        wq = p_wait / (24 / s - 14)  # seconds
        q = load[side]
        assert q["service_time"] == pytest.approx(s * 1000)
        assert q["utilization"] == pytest.approx(a / 24) and q["saturated"] is False
        assert q["wait_probability"] == pytest.approx(p_wait, rel=1e-9)
        assert q["mean_wait"] == pytest.approx(wq * 1000, rel=1e-9)
        assert q["mean_response"] == pytest.approx((wq + s) * 1000, rel=1e-9)
        assert q["in_system"] == pytest.approx(14 * (wq + s), rel=1e-9)  # Little's law
        # P(Wq > t) = P_wait·e^{−(cμ−λ)t} = 1% at t = ln(100·P_wait)/(cμ − λ), or 0 when at most 1% wait
        p99 = max(0.0, math.log(100 * p_wait) / (24 / s - 14))
        assert q["p99_wait"] == pytest.approx(p99 * 1000, rel=1e-9)
    assert load["before"]["mean_response"] == pytest.approx(1712, abs=0.5)
    assert load["after"]["mean_response"] == pytest.approx(1052, abs=0.5)
    # a mean response within the 600 ms target: one request alone takes longer, at any load
    assert load["max_arrival_rate"] == {"before": None, "after": None}


def test_cost_per_point_and_for_the_plan(report):
    points = report["scaling"]["points"]
    for p in points:
        hours = p["gpus"] * p["time"] / 1000 / 3600
        assert p["gpu_hours"] == pytest.approx(hours) and p["cost"] == pytest.approx(2.5 * hours)
    cost = report["cost"]
    assert cost["currency"] == "$" and cost["price_per_gpu_hour"] == 2.5
    assert cost["cheapest_gpus"] == 1 and cost["fastest_gpus"] == 1024
    # T(N) = 300 serial + 1,200 parallel/N ms; 600 ms is first met at N = 4 (300 + 300)
    assert cost["cheapest_meeting_target_gpus"] == 4
    # the plan saves 450 ms on N0 = 1 GPU: 0.45/3600 GPU-hours, at $2.50
    assert cost["saved_gpu_hours_per_run"] == pytest.approx(0.45 / 3600)
    assert cost["saved_per_run"] == pytest.approx(2.5 * 0.45 / 3600)
    assert cost["saved_per_million_runs"] == pytest.approx(312.5)


def test_without_load_or_price_the_new_keys_are_null(capsys):
    assert main(["report", str(example_path("training-iteration.xlsx")), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["load"] is None
    assert [o["name"] for o in data["objectives"]] == ["End to end"]
    assert data["cost"]["currency"] is None and data["cost"]["saved_per_run"] is None
    assert all(p["cost"] is None and p["gpu_hours"] > 0 for p in data["scaling"]["points"])


def test_the_text_report_says_it_in_sentences(capsys):
    assert main(["report", str(example_path("llm-request.xlsx"))]) == 0
    text = capsys.readouterr().out
    assert (
        "At 14 requests/s on 24 replicas, faster decode cuts service time 1.43× and mean response 1.63× "
        "(1,712 ms → 1,052 ms; utilization 88% → 61%): the extra gain is queueing that disappears." in text
    )
    assert "  ITL                 1.69×     1.69×" in text
    assert "out of reach at any load" in text
    assert "The plan saves $0.000313 a run on 1 GPU, $312.50 per million runs." in text
