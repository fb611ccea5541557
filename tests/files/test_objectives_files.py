"""Objectives, load and cost settings and measured runs in workbooks and CSV: read, written, read back."""

from pathlib import Path

import openpyxl
import pytest

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.measurements import Measurements
from amdahl_desk.model.objective_specs import ObjectiveSpec
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings
from amdahl_desk.model.units import TimeUnit

FIXTURES = Path(__file__).parent / "fixtures"


def full_profile() -> Profile:
    comps = [
        Component("Gateway", 40, objectives=("TTFT", "End to end")),
        Component("Prefill", 300, Scaling.PARALLEL, objectives=("TTFT",)),
        Component("Decode", 900, Scaling.PARALLEL, objectives=("ITL", "End to end")),
        Component("Streaming", 200),
    ]
    settings = Settings(
        target_time=1500,
        arrival_rate=14.0,
        servers=24,
        load_objective="TTFT",
        gpu_price_per_hour=2.5,
        currency="$",
        watts_per_gpu=700.0,
        energy_price_per_kwh=0.125,
    )
    runs = Measurements.of([(1, 100.0), (2, 190.0), (4, 350.5), (4, 349.0)], "throughput", "req/s", "GPUs")
    return Profile(
        comps,
        [Optimization("Faster decode", ("Decode",), 2.0)],
        settings,
        TimeUnit.MS,
        [ObjectiveSpec("TTFT", 300.0, "first token"), ObjectiveSpec("ITL", None, "")],
        runs,
    )


def test_a_workbook_keeps_every_part_of_the_profile(tmp_path):
    profile = full_profile()
    save_profile(profile, tmp_path / "p.xlsx")
    loaded = load_profile(tmp_path / "p.xlsx")
    assert loaded.profile == profile
    assert loaded.measurements == profile.measurements
    assert [c.objectives for c in loaded.profile.components] == [
        ("TTFT", "End to end"),
        ("TTFT",),
        ("ITL", "End to end"),
        (),
    ]
    assert loaded.profile.settings.currency == "$" and loaded.profile.settings.energy_price_per_kwh == 0.125
    assert loaded.warnings == []


def test_the_written_sheets_hold_what_a_person_reads(tmp_path):
    save_profile(full_profile(), tmp_path / "p.xlsx")
    book = openpyxl.load_workbook(tmp_path / "p.xlsx")
    assert book["Components"]["H1"].value == "Objectives" and book["Components"]["H2"].value == "TTFT; End to end"
    assert [c.value for c in book["Objectives"][1]] == ["Objective", "Target time (ms)", "Notes"]
    assert [c.value for c in book["Objectives"][2]] == ["TTFT", 300, "first token"]
    settings = {r[0].value: r[1].value for r in book["Settings"].iter_rows(min_row=2)}
    assert settings["Arrival rate"] == 14 and settings["Servers"] == 24 and settings["Load objective"] == "TTFT"
    assert settings["GPU price per hour"] == "$2.5" and settings["Energy price per kWh"] == "$0.125/kWh"
    assert settings["Watts per GPU"] == 700
    assert [c.value for c in book["Measurements"][1]] == ["GPUs", "Throughput (req/s)", "Label", "Notes"]
    assert [c.value for c in book["Measurements"][4]][:2] == [4, 350.5]


def test_an_older_profile_writes_no_new_sheet_or_column_and_reads_back_the_same(tmp_path):
    profile = Profile([Component("a", 1.0), Component("b", 3.0)])
    save_profile(profile, tmp_path / "old.xlsx")
    book = openpyxl.load_workbook(tmp_path / "old.xlsx")
    assert "Objectives" not in book.sheetnames and "Measurements" not in book.sheetnames
    assert book["Components"]["H1"].value is None
    settings = [r[0].value for r in book["Settings"].iter_rows(min_row=2)]
    assert "Arrival rate" not in settings and "GPU price per hour" not in settings
    loaded = load_profile(tmp_path / "old.xlsx").profile
    assert loaded == profile and loaded.objectives == () and loaded.measurements is None


def test_csv_keeps_the_objectives_column_only_when_used(tmp_path):
    profile = full_profile()
    save_profile(profile, tmp_path / "p.csv")
    text = (tmp_path / "p.csv").read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].endswith(",Objectives") and "TTFT; End to end" in text
    assert [c.objectives for c in load_profile(tmp_path / "p.csv").profile.components] == [
        c.objectives for c in profile.components
    ]
    save_profile(Profile([Component("a", 1.0)]), tmp_path / "q.csv")
    assert "Objectives" not in (tmp_path / "q.csv").read_text(encoding="utf-8-sig")


def test_a_libreoffice_workbook_with_objectives_load_cost_and_runs():
    """Written by openpyxl, re-saved by LibreOffice Calc (make_fixtures.py): formulas computed, decimal commas."""
    loaded = load_profile(FIXTURES / "objectives-libreoffice.xlsx")
    p = loaded.profile
    assert [c.objectives for c in p.components] == [("TTFT", "End to end"), ("ttft",), ("ITL", "End to end"), ("ITL",)]
    # =0.3*1000 ms, and "1,2 s" (a decimal comma: a group of thousands never has one digit after it) = 1,200 ms.
    assert p.objectives == (
        ObjectiveSpec("TTFT", 300.0, "first token within 300 ms"),
        ObjectiveSpec("ITL", 1200.0, "a decimal comma, in a cell of its own"),
    )
    s = p.settings
    # 840/min = 14/s; =20+4 replicas; 120 EUR/MWh = 0.12 EUR per kWh; 0.7 kW = 700 W.
    assert (s.arrival_rate, s.servers, s.gpu_price_per_hour, s.currency) == (14.0, 24, 2.5, "EUR")
    assert (s.watts_per_gpu, s.energy_price_per_kwh) == (700.0, 0.12)
    m = p.measurements
    assert m is not None and m.unit == "s" and m.count_name == "GPUs"
    assert [(r.n, r.value) for r in m.rows] == [(1, 10), (2, 5.5), (4, 3.2), (8, 2.4)]
    assert loaded.warnings == []


def book_with(tmp_path, sheets: dict[str, list[list[object]]]) -> Path:
    book = openpyxl.Workbook()
    book.active.title = "Components"
    for row in [["Component", "Time (ms)", "Objectives"], ["a", 100, "TTFT"], ["b", 300, "ITL"]]:
        book.active.append(row)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
    path = tmp_path / "p.xlsx"
    book.save(path)
    return path


def problems_of(path: Path) -> dict[str, str]:
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    return {p.where: p.what for p in info.value.problems}


def test_bad_cells_are_named_on_their_sheet(tmp_path):
    path = book_with(
        tmp_path,
        {
            "Objectives": [["Objective", "Target time", "Notes"], ["TTFT", 300], ["ITL", -5], ["ttft", 10]],
            "Settings": [
                ["Setting", "Value"],
                ["Arrival rate", -3],
                ["Servers", 0],
                ["GPU price per hour", "cheap"],
                ["Energy price per kWh", "$1,500/MWh"],
            ],
            "Measurements": [["GPUs", "Time (ms)"], [1, 100], [2, "fast"], [4, 0]],
        },
    )
    found = problems_of(path)
    assert "negative" in found["Objectives!B3"]
    assert "listed twice" in found["Objectives!A4"]
    assert "arrival rate" in found["Settings!B2"]
    assert "servers" in found["Settings!B3"]
    assert "not a price" in found["Settings!B4"]
    assert "could be 1500" in found["Settings!B5"] and "or 1.5" in found["Settings!B5"]
    assert "fast" in found["Measurements!B3"]
    assert "above 0" in found["Measurements!B4"]


def test_prices_in_two_currencies_are_refused_at_the_second(tmp_path):
    path = book_with(
        tmp_path,
        {"Settings": [["Setting", "Value"], ["GPU price per hour", "$2.5"], ["Energy price per kWh", "0.1 EUR"]]},
    )
    assert "same currency" in problems_of(path)["Settings!B3"]


def test_an_objective_missing_from_the_sheet_is_a_note_at_its_cell(tmp_path):
    path = book_with(tmp_path, {"Objectives": [["Objective", "Target time"], ["TTFT", 300]]})
    loaded = load_profile(path)
    assert [(w.where, "ITL" in w.what) for w in loaded.warnings] == [("Components!C3", True)]
    assert loaded.profile.objectives == (ObjectiveSpec("TTFT", 300.0),)


def test_the_end_to_end_row_may_not_contradict_the_settings_target(tmp_path):
    path = book_with(
        tmp_path,
        {
            "Objectives": [["Objective", "Target time"], ["End to end", 500]],
            "Settings": [["Setting", "Value"], ["Target time", 400]],
        },
    )
    assert "Settings' target time" in problems_of(path)["Objectives!B2"]


def test_a_unit_change_converts_objective_targets():
    profile = full_profile()
    profile.set_unit(TimeUnit.S)
    assert profile.objectives[0].target_time == pytest.approx(0.3)
