"""The summary's sections: each objective with its target verdict, the service under load, the cost, the fits."""

from pathlib import Path

import pytest

from amdahl_desk.files import load_profile, read_measurements
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.model.outcomes import profile_outcomes
from amdahl_desk.present.numbers import Numbers
from amdahl_desk.present.sections import sections
from amdahl_desk.resources import example_path

RUNS = Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv"


@pytest.fixture(scope="module")
def llm():
    profile = load_profile(example_path("llm-request.xlsx")).profile
    analysis = analyse(profile)
    return profile, analysis, profile_outcomes(profile, analysis)


def by_label(section):
    return {f.label: f for f in section.rows}


def test_every_objective_with_its_figures_and_target_verdict(llm):
    objectives = sections(*llm)[0]
    assert objectives.title == "Objectives"
    rows = by_label(objectives)
    # End to end: 1,500 ms, decode (900 ms) 2× faster → 1,050 ms; the untouched 600 ms is the target itself
    assert rows["End to end: before"].value == 1500 and rows["End to end: after the plan"].text == "1,050 ms"
    assert rows["End to end: speedup"].value == pytest.approx(1500 / 1050)
    assert rows["End to end: ceiling"].value == pytest.approx(1 / (1 - 900 / 1500))
    assert rows["End to end: target"].note == "missed ✘: what the plan leaves untouched already takes 600 ms"
    # TTFT (gateway, scheduler, prefill: 400 ms) is untouched by the plan: its 300 ms target is out of reach
    assert rows["TTFT: after the plan"].value == 400 and rows["TTFT: speedup"].text == "1×"
    assert rows["TTFT: target"].value == 300 and "400 ms" in rows["TTFT: target"].note
    assert "ITL: target" not in rows and rows["ITL: after the plan"].value == 200 + 450  # no target for ITL
    assert all(f.unit in ("ms", "×") for f in objectives.rows)
    assert objectives.sentences[0].startswith("End to end: 1,500 ms → 1,050 ms (1.43×)")


def test_the_service_under_load_before_and_after(llm):
    load = sections(*llm)[1]
    rows = by_label(load)
    assert load.title == "Under load: End to end"
    assert rows["Arrival rate"].value == 14 and rows["Arrival rate"].unit == "requests/s"
    assert rows["Replicas"].text == "24"
    # utilization = λ·s / c: 14/s × 1.5 s / 24 and 14/s × 1.05 s / 24
    assert rows["Utilization before"].value == pytest.approx(14 * 1.5 / 24)
    assert rows["Utilization after the plan"].value == pytest.approx(14 * 1.05 / 24)
    assert rows["Service time after the plan"].text == "1,050 ms"
    # a mean response of 600 ms is below one request's own service time: no load holds it
    assert rows["Highest rate on target, before"].value is None
    assert rows["Highest rate on target, after the plan"].text == "out of reach"
    assert load.sentences[0].startswith("At 14 requests/s on 24 replicas, faster decode cuts service time 1.43×")


def test_the_cost_per_run(llm):
    cost = sections(*llm)[2]
    rows = by_label(cost)
    assert rows["Price per GPU-hour"].value == 2.5 and rows["Price per GPU-hour"].text == "$2.50"
    # one GPU for 1.5 s at $2.50 an hour; the plan saves 0.45 s of it
    assert rows["Cheapest GPU count"].value == 1 and rows["Cheapest GPU count"].note == "$0.00104 a run"
    assert rows["Saved per run"].value == pytest.approx(0.45 / 3600 * 2.5)
    assert rows["Saved per million runs"].value == pytest.approx(0.45 / 3600 * 2.5 * 1e6)
    assert rows["GPU-hours saved per run"].unit == "GPU-hours"


def test_the_measured_runs_fits_join_with_runs_only(llm):
    profile, analysis, outcomes = llm
    assert [s.title for s in sections(profile, analysis, outcomes)] == [
        "Objectives",
        "Under load: End to end",
        "Cost per run",
    ]
    fit = fit_measurements(read_measurements(RUNS).measurements)
    runs = sections(profile, analysis, outcomes, fit)[-1]
    assert runs.title == "Measured runs: 7 runs against GPUs"
    rows = by_label(runs)
    assert rows["Amdahl P"].value == fit.amdahl.parallel_fraction and rows["Amdahl P"].text.startswith("87% ± ")
    assert rows["USL α"].value == fit.usl.alpha and rows["USL γ"].unit == "runs/s"
    assert (
        runs.sentences[-1]
        == "The profile says 80% parallel, the runs say 87%: 7 points more of the time scale than the profile assumes."
    )


def test_figure_texts_in_a_locale(llm):
    german = sections(*llm, n=Numbers(",", "."))
    rows = by_label(german[0])
    assert rows["End to end: before"].text == "1.500 ms" and rows["End to end: speedup"].text == "1,43×"


def test_a_profile_without_load_or_price_has_objectives_only():
    profile = load_profile(example_path()).profile
    analysis = analyse(profile)
    found = sections(profile, analysis, profile_outcomes(profile, analysis))
    assert [s.title for s in found] == ["Objectives"]
    assert by_label(found[0])["End to end: target"].note == "met by the plan ✔"
