"""Reading runs from CSV and workbooks: headers, units, and errors that name the sheet and cell or CSV row."""

from pathlib import Path

import pytest
from openpyxl import Workbook

from amdahl_desk.files.measurements import measurement_rows, read_measurements, write_measurements_csv
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.model.measurements import MeasureKind, Measurement, Measurements
from amdahl_desk.present.fit_text import fit_problems

FIXTURES = Path(__file__).parent / "fixtures"


def write(tmp_path, text, name="runs.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def workbook(tmp_path, sheets, name="runs.xlsx"):
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    path = tmp_path / name
    book.save(path)
    return path


def test_semicolons_mixed_units_and_repeats():
    m = read_measurements(FIXTURES / "training-gpus.csv").measurements
    assert m.kind is MeasureKind.TIME
    assert m.unit == "s"  # the first unit written; bare and ms cells convert to it
    assert [r.n for r in m.rows] == [1, 2, 2, 4, 8, 16, 32]
    assert m.rows[1].value == 0.56 and m.rows[2].label == "repeat"
    assert m.noun == "GPUs" and m.count_name == "GPUs"


@pytest.mark.parametrize("count", ["GPUs", "n", "WORKERS", "Nodes", "threads", "Users", "Concurrency", "load", "gpu"])
def test_count_headers_case_insensitive(tmp_path, count):
    m = read_measurements(write(tmp_path, f"{count},throughput\n1,10\n2,19\n4,35\n")).measurements
    assert [r.n for r in m.rows] == [1, 2, 4]


def test_time_unit_in_header_and_in_cells(tmp_path):
    m = read_measurements(write(tmp_path, "N,Time (ms)\n1,1000\n2,0.6 s\n4,350\n")).measurements
    assert m.unit == "ms" and [r.value for r in m.rows] == [1000, 600, 350]


def test_throughput_header_unit_kept_for_labels(tmp_path):
    m = read_measurements(
        write(tmp_path, 'Users,Throughput [req/s],Label,Notes\n1,"1,000.0",a,b\n2,1900,,\n')
    ).measurements
    assert m.unit == "req/s" and m.rows[0].value == 1000 and (m.rows[0].label, m.rows[0].notes) == ("a", "b")


def test_csv_errors_name_the_row_and_column(tmp_path):
    path = write(tmp_path, "GPUs,Time\n1,100\n0,50\nx,40\n8,-3\n16,0\n32,abc\n64,\n")
    with pytest.raises(ProfileError) as err:
        read_measurements(path)
    text = str(err.value)
    for expected in (
        'runs.csv: row 3, column 1: "0" is not a count',
        'runs.csv: row 4, column 1: "x" is not a count',
        'runs.csv: row 5, column 2: "-3" is negative',
        "runs.csv: row 6, column 2: 0 is not a time",
        'runs.csv: row 7, column 2: "abc" is not a time',
        "runs.csv: row 8, column 2: no time",
    ):
        assert expected in text, text


def test_missing_header_says_what_is_expected(tmp_path):
    with pytest.raises(ProfileError, match="expected a header row with a count column"):
        read_measurements(write(tmp_path, "Component,Time\nA,1\n"))


def test_workbook_measurements_sheet_wins_and_errors_name_the_cell(tmp_path):
    path = workbook(
        tmp_path,
        {
            "Components": [["Component", "Time"], ["a", 1]],
            "Measurements": [["GPUs", "Time (ms)"], [1, 100], [2, "nan"], [4, -1]],
        },
    )
    with pytest.raises(ProfileError) as err:
        read_measurements(path)
    assert "Measurements!B3" in str(err.value) and "Measurements!B4" in str(err.value)


def test_workbook_first_sheet_when_no_measurements_sheet(tmp_path):
    path = workbook(tmp_path, {"Runs": [["Nodes", "Throughput (jobs/h)"], [1, 10.0], [2, 19.0], [4, 33.0]]})
    m = read_measurements(path).measurements
    assert m.count_name == "Nodes" and m.unit == "jobs/h" and len(m) == 3


def test_rows_for_a_workbook_sheet_read_back(tmp_path):
    m = Measurements(
        (Measurement(1, 100.0, "=cmd", "first"), Measurement(2, 55.5), Measurement(4, 30.0)), "time", "ms", "GPUs"
    )
    rows = measurement_rows(m)
    assert rows[0] == ["GPUs", "Time (ms)", "Label", "Notes"]
    assert rows[1] == [1, 100, "=cmd", "first"] and rows[2][1] == 55.5
    book = workbook(
        tmp_path,
        {"Measurements": [[("'" + v if isinstance(v, str) and v.startswith("=") else v) for v in r] for r in rows]},
    )
    back = read_measurements(book).measurements
    assert [(r.n, r.value) for r in back.rows] == [(r.n, r.value) for r in m.rows]


def test_csv_round_trip_escapes_formula_text(tmp_path):
    m = Measurements(
        (Measurement(1, 64.9, "=HYPERLINK()", ""), Measurement(18, 995.9), Measurement(36, 1652.4)),
        "throughput",
        "/s",
        "Users",
    )
    write_measurements_csv(m, tmp_path / "out.csv")
    assert "'=HYPERLINK()" in (tmp_path / "out.csv").read_text(encoding="utf-8")
    assert read_measurements(tmp_path / "out.csv").measurements == m


def test_too_few_runs_is_located_on_the_sheet(tmp_path):
    loaded = read_measurements(workbook(tmp_path, {"Measurements": [["N", "Time"], [1, 10], [2, 6]]}))
    (problem,) = fit_problems(fit_measurements(loaded.measurements))
    assert loaded.locate(problem).where == "Measurements!A1:B3"
