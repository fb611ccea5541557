"""The one call the report and the window make: objectives, table, load, cost and their notes together."""

import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.load_settings import LoadCostSettings
from amdahl_desk.model.objectives import ObjectiveSpec
from amdahl_desk.model.outcomes import analyse_outcomes
from amdahl_desk.present.report import outcomes_warnings

from ..helpers import llm

OBJECTIVES = [("TTFT",), ("TTFT",), ("TTFT",), ("ITL",), ("ITL",)]


def test_everything_at_once():
    p = llm()
    s = LoadCostSettings(arrival_rate=14, servers=24, gpu_price_per_hour=2.5, currency="$")
    x = analyse_outcomes(p, analyse(p), OBJECTIVES, [ObjectiveSpec("TTFT", 300)], s)
    assert [o.name for o in x.objectives] == ["End to end", "TTFT", "ITL"]
    assert x.table.columns == ("Faster decode", "Combined")
    assert x.load is not None and round(x.load.after.mean_response) == 1052
    assert x.cost.cost[list(x.cost.gpus).index(1)] == pytest.approx(2.5 * 1.5 / 3600)
    # ITL is named on components but not in the sheet: a note at the first component naming it
    assert [(n.table, n.row, n.field) for n in x.notes] == [("components", 3, "objectives")]


def test_notes_for_an_unknown_load_objective_and_half_an_energy_price():
    p = llm()
    s = LoadCostSettings(arrival_rate=14, load_objective="Throughput", watts_per_gpu=700)
    x = analyse_outcomes(p, analyse(p), [()] * 5, [], s)
    assert x.load is None
    assert [(n.table, n.field) for n in x.notes] == [("settings", "load_objective")]
    assert x.energy_missing == "energy_price_per_kwh"
    assert '"Throughput" is not an objective of this profile; expected one of "End to end"' in x.notes[0].what
    assert outcomes_warnings(x)[1] == (
        "Energy price per kWh: energy is left out of the cost until both the watts per GPU and the energy price per "
        "kWh are given"
    )
