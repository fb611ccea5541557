"""The JSON fragments: the contract's keys, null where saturated or not applicable, never NaN or infinity."""

import json

import pytest

from amdahl_desk.cli.json_outcomes import add_cost_to_points, cost_json, load_json, objectives_json
from amdahl_desk.cli.json_report import scaling_dict
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.cost import analyse_cost
from amdahl_desk.model.load_settings import LoadCostSettings
from amdahl_desk.model.load_view import analyse_load
from amdahl_desk.model.objectives import ObjectiveSpec, analyse_objectives

from ..helpers import llm

OBJECTIVES = [("TTFT",), ("TTFT",), ("TTFT",), ("ITL",), ("ITL",)]


def dumps(value) -> str:
    return json.dumps(value, allow_nan=False)


def test_objectives_keys_and_target_only_when_set():
    p = llm(target_time=1200)
    figs = analyse_objectives(p, OBJECTIVES, [ObjectiveSpec("TTFT", 300)])
    data = objectives_json(figs)
    assert [o["name"] for o in data] == ["End to end", "TTFT", "ITL"]
    assert set(data[0]) == {"name", "components", "baseline_total", "new_total", "overall_speedup", "ceiling", "target"}
    assert "target" not in data[2]
    assert data[1]["target"] == {
        "time": 300,
        "required_speedup": None,  # decode does not touch TTFT: no k is enough
        "feasible": False,
        "floor": 400,
        "met_by_plan": False,
    }
    assert data[0]["target"]["met_by_plan"] is True  # 1,050 ≤ 1,200
    dumps(data)


def test_load_keys_and_nulls_when_saturated():
    p = llm()
    figs = analyse_objectives(p, OBJECTIVES)
    s = LoadCostSettings(arrival_rate=20, servers=24)  # before: a = 30 > 24, after: a = 21 < 24
    data = load_json(analyse_load(figs, s, p.unit), s)
    assert data is not None
    assert set(data) == {"arrival_rate", "servers", "objective", "before", "after", "max_arrival_rate"}
    assert data["before"]["mean_response"] is None and data["before"]["saturated"] is True
    assert data["before"]["utilization"] == pytest.approx(20 * 1.5 / 24)
    assert data["after"]["mean_response"] > 1050
    assert data["max_arrival_rate"] == {"before": None, "after": None}  # no target set
    dumps(data)


def test_load_is_null_without_a_rate_and_empty_for_an_unknown_objective():
    p = llm()
    figs = analyse_objectives(p, OBJECTIVES)
    assert load_json(analyse_load(figs, LoadCostSettings(), p.unit), LoadCostSettings()) is None
    s = LoadCostSettings(arrival_rate=1, load_objective="Throughput")
    assert analyse_load(figs, s, p.unit) is None
    data = load_json(None, s)
    assert data is not None and data["objective"] == "Throughput" and data["before"]["mean_response"] is None
    dumps(data)


def test_cost_points_and_block():
    p = llm(target_time=600)
    a = analyse(p)
    priced = analyse_cost(a, LoadCostSettings(gpu_price_per_hour=2.5, currency="$"))
    points = add_cost_to_points(scaling_dict(a.scaling)["points"], priced)
    assert points[0]["gpus"] == 1
    assert points[0]["gpu_hours"] == pytest.approx(1.5 / 3600)
    assert points[0]["cost"] == pytest.approx(2.5 * 1.5 / 3600)
    block = cost_json(priced)
    assert block["currency"] == "$"
    assert block["cheapest_gpus"] == 1 and block["cheapest_meeting_target_gpus"] == 4
    assert block["saved_per_million_runs"] == pytest.approx(2.5 * 0.45 / 3600 * 1e6)
    unpriced = analyse_cost(a, LoadCostSettings())
    assert all(pt["cost"] is None for pt in add_cost_to_points(points, unpriced))
    assert cost_json(unpriced)["currency"] is None and cost_json(unpriced)["saved_per_run"] is None
    dumps([points, block, cost_json(unpriced)])
