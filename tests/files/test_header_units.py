"""Header units as people write them (min, h, ms/step), a text-prefix apostrophe, and a unit really unknown."""

import csv

import openpyxl
import pytest

from amdahl_desk.files import load_profile, read_measurements
from amdahl_desk.files.csv_table import escape_field, unescape_field
from amdahl_desk.model.errors import ProfileError


def write_csv(path, rows, delimiter=","):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


@pytest.mark.parametrize(
    ("header", "cells", "seconds"),
    [
        ("Time (min)", ["1.5", "0.25"], [90.0, 15.0]),
        ("Time (h)", ["0.5", "2"], [1800.0, 7200.0]),
        ("Duration, hours", ["1", "0.001"], [3600.0, 3.6]),
        ("Time (minutes)", ["1.5", "30 s"], [90.0, 30.0]),  # a cell with its own unit keeps it
    ],
)
def test_minutes_and_hours_in_the_header(tmp_path, header, cells, seconds):
    path = write_csv(tmp_path / "t.csv", [["Component", header], *[[f"c{i}", v] for i, v in enumerate(cells)]])
    profile = load_profile(path).profile
    assert profile.unit.value == "s"
    assert [c.time for c in profile.components] == seconds


def test_minutes_and_hours_in_a_workbook_header_and_cells(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    for row in (["Component", "Time (min)"], ["a", 1.5], ["b", "2 h"], ["c", "90 min"]):
        ws.append(row)
    wb.save(tmp_path / "m.xlsx")
    assert [c.time for c in load_profile(tmp_path / "m.xlsx").profile.components] == [90.0, 7200.0, 5400.0]


@pytest.mark.parametrize("header", ["Time (ms/step)", "Time (ms per step)", "Time [ms/iter]"])
def test_a_time_per_step_is_a_time(tmp_path, header):
    path = write_csv(tmp_path / "t.csv", [["Component", header], ["a", "2.5"], ["b", "7.5"]])
    profile = load_profile(path).profile
    assert profile.unit.value == "ms" and [c.time for c in profile.components] == [2.5, 7.5]


def test_a_unit_really_unknown_is_named_with_its_cell_and_the_units_accepted(tmp_path):
    path = write_csv(tmp_path / "t.csv", [["Component", "Time (fortnights)"], ["a", "1"]])
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    message = str(caught.value)
    assert "row 1, column 2" in message and '"fortnights"' in message and "s, ms, us, ns, min or h" in message


def test_measurements_in_minutes_and_an_unknown_unit(tmp_path):
    path = write_csv(tmp_path / "runs.csv", [["GPUs", "Time (min)"], ["1", "10"], ["2", "5.5"]])
    runs = read_measurements(path).measurements
    assert [m.value for m in runs.rows] == [600.0, 330.0] and runs.unit == "s"
    bad = write_csv(tmp_path / "bad.csv", [["GPUs", "Time (parsecs)"], ["1", "10"]])
    with pytest.raises(ProfileError, match=r'row 1, column 2: the header "Time \(parsecs\)" names the unit'):
        read_measurements(bad)


@pytest.mark.parametrize(("cell", "ms"), [("'42.5", 42.5), ("'1500.25", 1500.25), ("'7 ms", 7.0)])
def test_a_text_prefix_apostrophe_in_a_csv_is_no_part_of_the_number(tmp_path, cell, ms):
    path = write_csv(tmp_path / "q.csv", [["Component", "Time (ms)"], ["a", cell], ["b", "10"]])
    assert load_profile(path).profile.components[0].time == ms


def test_a_semicolon_csv_with_a_quoted_decimal_comma(tmp_path):
    path = write_csv(tmp_path / "q.csv", [["Component", "Time (ms)"], ["a", "'42,5"], ["b", "10"]], delimiter=";")
    assert load_profile(path).profile.components[0].time == 42.5


@pytest.mark.parametrize("name", ["-5 ms", "=SUM(A1)", "'quoted", "'42", "+1", "@home", "42"])
def test_the_apps_own_escape_reads_back_as_written(name):
    assert unescape_field(escape_field(name)) == name
