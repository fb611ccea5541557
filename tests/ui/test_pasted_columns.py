"""A pasted block of runs is read as a file's columns are: one number format per column, one header vocabulary."""

from __future__ import annotations

import json

import pytest

from amdahl_desk.cli import main
from amdahl_desk.model.measurements import MeasureKind

from .driving import paste_at

pytestmark = pytest.mark.gui
ROWS = [("1", "1050.000"), ("2", "550.000"), ("4", "300.000")]


@pytest.fixture
def runs_table(runs):
    """The runs table of the Measurements panel, shown on its own."""
    return runs.panel.view


def pasted(runs) -> list[tuple[float, float]]:
    return [(r.n, r.value) for r in runs.doc.measurements.rows]


def test_a_column_whose_first_cell_settles_the_format_is_read_whole_as_a_csv_is(
    runs, runs_table, qtbot, tmp_path, capsys
):
    paste_at(qtbot, runs_table, 0, 0, "".join(f"{n}\t{t}\n" for n, t in ROWS))
    # "1050.000" can only be 1050 with a decimal point (1,050 would group as 1.050), so the column's point is decimal.
    assert pasted(runs) == [(1, 1050.0), (2, 550.0), (4, 300.0)], runs.panel.view.last_rejection
    # amdahl-desk fit reads the same rows from a CSV the same way: the same speedups, by hand.
    csv = tmp_path / "runs.csv"
    csv.write_text("GPUs,Time (ms)\n" + "".join(f"{n},{t}\n" for n, t in ROWS), encoding="utf-8")
    assert main(["fit", str(csv), "--json"]) == 0
    points = json.loads(capsys.readouterr().out)["points"]
    assert [(p["n"], p["value"]) for p in points] == pasted(runs)
    assert [p["speedup"] for p in points] == [1.0, 1050 / 550, 1050 / 300]  # T(1)/T(N), by hand
    assert runs.doc.fit.points.speedup.tolist() == [p["speedup"] for p in points]  # the panel fits the same runs


def test_a_column_that_says_nothing_about_its_format_is_refused_as_before(runs, runs_table, qtbot):
    paste_at(qtbot, runs_table, 0, 0, "1\t1,500\n2\t800\n")
    assert '"1,500" could be 1500' in runs_table.last_rejection and runs.doc.measurements.rows == ()


def test_a_column_with_decimal_commas_reads_every_cell_with_them(runs, runs_table, qtbot):
    paste_at(qtbot, runs_table, 0, 0, "1\t1.050,5\n2\t550,25\n4\t1.300\n")
    assert pasted(runs) == [(1, 1050.5), (2, 550.25), (4, 1300.0)]


def test_each_pasted_column_decides_for_itself(runs, runs_table, qtbot):
    paste_at(qtbot, runs_table, 0, 0, "1,5\t1,500.5\n2,5\t800\n")  # N with a decimal comma, times with a point
    assert pasted(runs) == [(1.5, 1500.5), (2.5, 800.0)]


@pytest.mark.parametrize(
    ("header", "kind", "unit", "count"),
    [
        ("Workers\tThroughput (req/s)", MeasureKind.THROUGHPUT, "req/s", "Workers"),
        ("N\tRuntime [s]", MeasureKind.TIME, "s", "N"),
        ("GPUs\tTime, ms", MeasureKind.TIME, "ms", "GPUs"),  # the files layer's "Time, ms" reads in a paste too
        ("Label\tGPUs\tTime (ms)\tThroughput (samples/s)", MeasureKind.THROUGHPUT, "samples/s", "GPUs"),
    ],
)
def test_a_pasted_header_is_read_by_the_files_layer_vocabulary(runs, runs_table, qtbot, header, kind, unit, count):
    from amdahl_desk.files import measurement_header

    body = {2: "1\t100\n2\t60\n", 4: "one\t1\t100\t10\ntwo\t2\t60\t18\n"}[
        header.count("\t") + 1 if "Label" in header else 2
    ]
    paste_at(qtbot, runs_table, 0, 0, f"{header}\n{body}")
    table = runs.doc.measurements
    assert (table.kind, table.unit, table.count_name) == (kind, unit, count)
    assert [r.n for r in table.rows] == [1, 2]
    found = measurement_header(header.split("\t"))  # the reader of files says the same of that row
    assert found is not None and (found.kind, found.unit, found.count_name) == (kind, unit, count)
