"""The parts a profile gained: component objectives, objective rows, load and cost settings, measured runs."""

import pytest

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.measurements import Measurements
from amdahl_desk.model.objective_specs import ObjectiveSpec
from amdahl_desk.model.profile import Component, Profile, Settings


def test_component_objectives_are_trimmed_and_kept_once():
    c = Component("Decode", 900, objectives=("  ITL ", "itl", "End  to end", ""))
    assert c.objectives == ("ITL", "End to end")
    assert Component("a", 1).objectives == ()


def test_objective_rows_are_checked_and_replaced_whole():
    p = Profile([Component("a", 1.0, objectives=("TTFT",))], settings=Settings(target_time=10))
    p.set_objectives([ObjectiveSpec("TTFT", 5.0)])
    assert p.objectives == (ObjectiveSpec("TTFT", 5.0),)
    with pytest.raises(ProfileError) as info:
        p.set_objectives([ObjectiveSpec("TTFT", 5.0), ObjectiveSpec("ttft", 0.0)])
    assert {(q.table, q.row, q.field) for q in info.value.problems} == {
        ("objectives", 1, "name"),
        ("objectives", 1, "target_time"),
    }
    assert p.objectives == (ObjectiveSpec("TTFT", 5.0),)  # refused: nothing changed
    with pytest.raises(ProfileError, match="End to end's target"):
        p.set_objectives([ObjectiveSpec("End to end", 11.0)])
    p.set_objectives([ObjectiveSpec("End to end", 10.0)])
    with pytest.raises(ProfileError, match="End to end's target"):
        p.set_settings(Settings(target_time=12))  # the settings may not contradict the row either


@pytest.mark.parametrize(
    ("changes", "fld"),
    [
        ({"arrival_rate": -1.0}, "arrival_rate"),
        ({"servers": 0}, "servers"),
        ({"load_objective": " "}, "load_objective"),
        ({"gpu_price_per_hour": float("nan")}, "gpu_price_per_hour"),
        ({"watts_per_gpu": -700.0}, "watts_per_gpu"),
        ({"energy_price_per_kwh": float("inf")}, "energy_price_per_kwh"),
    ],
)
def test_load_and_cost_settings_are_refused_at_their_field(changes, fld):
    p = Profile([Component("a", 1.0)])
    with pytest.raises(ProfileError) as info:
        p.set_settings(Settings(**changes))
    assert [(q.table, q.field) for q in info.value.problems] == [("settings", fld)]
    assert p.settings == Settings()


def test_measurements_take_part_in_equality_and_copies():
    runs = Measurements.of([(1, 10.0), (2, 6.0), (4, 4.0)], "time", "s", "GPUs")
    p = Profile([Component("a", 1.0)], measurements=runs)
    q = p.copy()
    assert q == p and q.measurements is runs
    q.set_measurements(None)
    assert q != p and p.measurements is runs
    q.set_measurements(Measurements.of([(1, 10.0), (2, 6.0), (4, 4.0)], "time", "s", "GPUs"))
    assert q == p


def test_a_cell_edit_keeps_objectives_and_stays_a_one_row_change():
    p = Profile([Component(f"c{i}", 1.0, objectives=("TTFT",)) for i in range(1000)])
    p.arrays()
    p.set_component(5, p.components[5]._replace(time=3.0))
    assert p.components[5].objectives == ("TTFT",) and p.arrays()[0][5] == 3.0
    assert p.objectives_of_components()[5] == ("TTFT",)
