"""Measured runs are bounded, and a component edit never touches them, however many there are."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from amdahl_desk.cli import main
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.measurement_table import MeasurementTable
from amdahl_desk.model.measurements import MAX_RUNS, MeasureKind, Measurement, Measurements
from amdahl_desk.ui.fit.runs_model import COUNT
from amdahl_desk.ui.profile.component_table import TIME

from .driving import click_cell, press, show_tab, type_in_cell

pytestmark = pytest.mark.gui


def runs_csv(path, count: int):
    lines = ["GPUs,Time (ms)"] + [f"{2 ** (i % 8)},{1000 / 2 ** (i % 8) + i % 7}" for i in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_limit_is_the_models_and_a_table_at_it_is_taken():
    rows = tuple(Measurement(1.0 + i % 4, 100.0) for i in range(MAX_RUNS))
    assert len(Measurements(rows, MeasureKind.TIME, "ms")) == MAX_RUNS
    with pytest.raises(ProfileError, match=r"100,001 runs, more than the 100,000 a table of measured runs holds"):
        Measurements(rows + (Measurement(8.0, 50.0),), MeasureKind.TIME, "ms")


def test_a_file_with_too_many_runs_is_refused_by_the_window_and_by_amdahl_desk_fit(window, qtbot, tmp_path, capsys):
    big = runs_csv(tmp_path / "runs.csv", MAX_RUNS + 1)
    window.choose_file = lambda *args, **kwargs: str(big)
    action = next(a for a in window.menuBar().actions()[0].menu().actions() if "Measurements…" in a.text())
    action.trigger()  # File → Open Measurements…
    assert len(window.errors) == 1 and "100,001 runs, more than the 100,000" in window.errors[0], window.errors
    assert "runs.csv" in window.errors[0] and "row 1" in window.errors[0]  # where: the header's row
    assert window.doc.measurements.rows == ()
    assert main(["fit", str(big)]) == 2
    assert "100,001 runs, more than the 100,000 a table of measured runs holds" in capsys.readouterr().err


def test_a_paste_of_too_many_runs_is_refused_before_it_is_read(runs, qtbot):
    view = runs.panel.view
    QGuiApplication.clipboard().setText("".join(f"{1 + i % 8}\t{100 + i % 9}\n" for i in range(MAX_RUNS + 1)))
    click_cell(qtbot, view, 0, COUNT)
    parsed = []
    model = runs.panel.model
    real = model._count
    model._count = lambda row, text: parsed.append(row) or real(row, text)
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert view.last_rejection == "Not pasted: 100,001 runs, more than the 100,000 a table of measured runs holds; " + (
        "keep the runs of each N (or their mean) and leave the rest out."
    )
    assert parsed == [] and runs.doc.measurements.rows == () and view.message.isVisible()


def test_a_component_edit_does_not_touch_the_runs(window, qtbot, monkeypatch):
    import amdahl_desk.model.fit as fit_module  # the document's fit loads it when it first fits

    runs = tuple(Measurement(float(2 ** (i % 8)), 1000 / 2 ** (i % 8) * (1 + i % 5 / 100)) for i in range(20_000))
    window.doc.edit_measurements(MeasurementTable.of(Measurements(runs, MeasureKind.TIME, "ms")), "Paste runs")
    show_tab(qtbot, window.left_tabs, 1)  # the runs' table, summary and charts on screen
    chart = window.fit_panel.charts["measured_scaling"]
    window.drawn()
    _ = window.doc.fit
    touched: list[str] = []

    def counting(name, real):
        def call(*args, **kwargs):
            touched.append(name)
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(fit_module, "fit_measurements", counting("fit", fit_module.fit_measurements))
    for name in ("waiting", "complete", "problems", "_key"):
        monkeypatch.setattr(MeasurementTable, name, counting(name, getattr(MeasurementTable, name)))
    monkeypatch.setattr(chart.runs, "setData", counting("points", chart.runs.setData))
    show_tab(qtbot, window.left_tabs, 0)
    type_in_cell(qtbot, window.table, 1, TIME, "321")
    show_tab(qtbot, window.left_tabs, 1)
    window.drawn()
    window.undo_action.trigger()
    window.drawn()
    assert window.doc.profile.components[1].time == 600
    assert touched == []  # no fit, no pass over the runs, no points redrawn: only the model's curve moved
    assert chart.model.xData is not None  # and that curve is drawn, from the profile as it is now
    window.answer = QMessageBox.StandardButton.Discard


def test_thousands_of_runs_pasted_under_thousands_land_in_place_as_one_step_and_say_so_first(window, qtbot):
    before = tuple(Measurement(float(1 + i % 16), 100.0 + i % 9) for i in range(3_000))
    window.doc.edit_measurements(MeasurementTable(before), "Runs")
    show_tab(qtbot, window.left_tabs, 1)
    window.drawn()
    view, panel = window.fit_panel.view, window.fit_panel
    # Expected runs written independently of the parsers: N 1–32, times with two decimals, a label each.
    pasted = [(1 + i % 32, round(500 / (1 + i % 32) + i % 5 * 0.25, 2), f"run {i}") for i in range(3_000)]
    QGuiApplication.clipboard().setText("".join(f"{n}\t{t:.2f}\t{label}\n" for n, t, label in pasted))
    said: list[tuple[str, int]] = []
    window.statusBar().messageChanged.connect(lambda text: said.append((text, len(window.doc.measurements.rows))))
    steps = window.doc.undo_stack.count()
    click_cell(qtbot, view, 3_000, COUNT)  # the empty row under the last run
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    rows = window.doc.measurements.rows
    assert len(rows) == 6_000 and rows[:3_000] == before
    assert [(r.n, r.value, r.label) for r in rows[3_000:]] == [(float(n), t, label) for n, t, label in pasted]
    # The status line said a paste was under way before a run was in the table, and then that it was done.
    assert said[0] == ("Pasting 3,000 runs…", 3_000), said
    assert window.statusBar().currentMessage().startswith("Pasted 3,000 runs")
    assert QGuiApplication.overrideCursor() is None  # the busy cursor is given back
    assert window.doc.undo_stack.count() == steps + 1
    # The chart of another tab, passed over while the runs came in, shows them all once its tab is chosen.
    panel.tabs.setCurrentWidget(panel.charts["throughput"])
    window.drawn()
    assert len(panel.charts["throughput"].runs.data) == 6_000
    window.undo_action.trigger()
    assert window.doc.measurements.rows == before
    window.answer = QMessageBox.StandardButton.Discard
