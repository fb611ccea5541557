"""The measurements reader on the shared machinery: per-column decimal separators, CSV checks, formulas, the facade."""

from pathlib import Path

import pytest
import xlsxwriter

from amdahl_desk.files import measurement_rows, read_measurements, write_measurements_csv
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.measurements import Measurements


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_semicolon_csv_reads_decimal_commas(tmp_path):
    path = write(tmp_path / "runs.csv", "GPUs;Time\n1;1,5 s\n2;0,8 s\n4;0,5 s\n")
    m = read_measurements(path).measurements
    assert [(r.n, r.value) for r in m.rows] == [(1, 1.5), (2, 0.8), (4, 0.5)] and m.unit == "s"


def test_a_column_that_shows_its_separator_settles_a_lone_1_500(tmp_path):
    path = write(tmp_path / "runs.csv", 'Users,Throughput\n1,"1,500"\n2,"2,950.5"\n4,"5,100"\n')
    assert [r.value for r in read_measurements(path).measurements.rows] == [1500, 2950.5, 5100]


def test_a_column_that_says_nothing_refuses_1_500_with_both_readings(tmp_path):
    path = write(tmp_path / "runs.csv", 'Users,Throughput\n1,"1,500"\n2,"2,900"\n4,"5,000"\n')
    with pytest.raises(ProfileError) as info:
        read_measurements(path)
    first = info.value.problems[0]
    assert first.where == "row 2, column 2" and "could be 1500" in first.what and "or 1.5" in first.what


def test_the_csv_checks_are_the_profile_ones(tmp_path):
    with pytest.raises(ProfileError, match="the file is empty; expected a header row with a count column"):
        read_measurements(write(tmp_path / "empty.csv", "  \n"))
    zipped = tmp_path / "book.csv"
    zipped.write_bytes(b"PK\x03\x04rest")
    with pytest.raises(ProfileError, match="not CSV text"):
        read_measurements(zipped)


def test_formulas_written_without_values_are_computed(tmp_path):
    # xlsxwriter saves 0 for a formula it is given no value for: never trusted, computed instead
    path = tmp_path / "runs.xlsx"
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet("Measurements")
    ws.write_row(0, 0, ["GPUs", "Time (ms)"])
    ws.write_row(1, 0, [1, 1000])
    ws.write_number(2, 0, 2)
    ws.write_formula(2, 1, "=B2*0.55")
    ws.write_formula(3, 0, "=A3*2")
    ws.write_formula(3, 1, "=ROUND(B2/3.125,0)")
    book.close()
    m = read_measurements(path).measurements
    assert [(r.n, r.value) for r in m.rows] == [(1, 1000), (2, 550), (4, 320)]


def test_the_facade_writes_what_it_reads(tmp_path):
    m = Measurements.of([(1, 10.0), (2, 5.5), (4, 3.25)], "time", "s", "Nodes")
    assert measurement_rows(m)[0] == ["Nodes", "Time (s)", "Label", "Notes"]
    write_measurements_csv(m, tmp_path / "m.csv")
    assert read_measurements(tmp_path / "m.csv").measurements == m
