"""The Measurements panel driven as a person would: type runs, paste from a spreadsheet, undo, delete, read the fit."""

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit

from amdahl_desk.model.measurements import MeasureKind
from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.fit.runs_model import COUNT, KARP_FLATT, LABEL, SPEEDUP, VALUE

pytestmark = pytest.mark.gui

# The R usl package's specsdm91 data set (its documentation: α = 0.0277285, β = 0.0001044, peak ≈ 96.5 users).
SPECSDM91 = [
    ("1", "64.9"),
    ("18", "995.9"),
    ("36", "1652.4"),
    ("72", "1853.2"),
    ("108", "1828.9"),
    ("144", "1775.0"),
    ("216", "1702.2"),
]


@pytest.fixture
def panel(runs):
    """The Measurements panel on its own, its runs table focused."""
    runs.panel.view.setFocus()
    return runs.panel


@pytest.fixture
def window_panel(window):
    """The Measurements panel in the window, its tab shown and its runs table focused."""
    window.left_tabs.setCurrentWidget(window.fit_page)
    window.fit_panel.view.setFocus()
    return window.fit_panel


def editor():
    w = QApplication.focusWidget()
    return w if isinstance(w, QLineEdit) else None


def type_cell(qtbot, panel, row, col, text):
    """Select a cell, start typing (that opens the editor, as in a spreadsheet), finish with Return."""
    view = panel.view
    view.setFocus()
    view.setCurrentIndex(panel.model.index(row, col))
    qtbot.keyClicks(view, text[0])
    qtbot.waitUntil(lambda: editor() is not None)
    if text[1:]:
        qtbot.keyClicks(editor(), text[1:])
    qtbot.keyClick(editor(), Qt.Key.Key_Return)
    settle_layout()


def choose_throughput(panel, count_name="Users", unit="scripts/h"):
    panel.kind.setCurrentIndex(panel.kind.findData("throughput"))
    panel.kind.activated.emit(panel.kind.currentIndex())
    panel.unit.setCurrentText(unit)
    panel.unit.lineEdit().editingFinished.emit()
    panel.count.setCurrentText(count_name)
    panel.count.lineEdit().editingFinished.emit()


def test_specsdm91_typed_by_hand_gives_the_published_fit(runs, panel, qtbot):
    choose_throughput(panel)
    for row, (n, x) in enumerate(SPECSDM91):
        type_cell(qtbot, panel, row, COUNT, n)
        type_cell(qtbot, panel, row, VALUE, x)
    runs.drawn()
    table = runs.doc.measurements
    assert (table.kind, table.unit, table.count_name) == (MeasureKind.THROUGHPUT, "scripts/h", "Users")
    assert len(table.rows) == 7 and panel.model.rowCount() == 8
    usl = runs.doc.fit.usl
    assert usl.alpha == pytest.approx(0.0277285, abs=5e-7)
    assert usl.beta == pytest.approx(0.0001044, abs=5e-8)
    assert usl.peak_n == pytest.approx(96.5, abs=0.05)
    text = panel.summary.plain_text()
    assert "Contention-limited (α = 2.8%, β = 0.01%): throughput peaks at 97 users (1,884 scripts/h)" in text
    assert "0.0277 ± 0.0091" in text and "0.000104 ± 2e-05" in text and "96.5" in text and "R²" in text
    # the profile is open too: its P (75% of the time at its N0 = 8 GPUs) against the fitted one, as shares of the
    # time at the runs' N0 = 1, where its parallel part takes 8× as long: 0.75·8 / (0.25 + 0.75·8) = 6/6.25 = 96%
    assert "The profile says 96% parallel, the runs say 98%: 2 points more of the time scale" in text
    # per-run figures in the table: speedup X(N)/X(1), and no Karp–Flatt e at the baseline
    assert panel.model.index(1, SPEEDUP).data() == "15.3×"  # 995.9 / 64.9
    assert panel.model.index(0, KARP_FLATT).data() == "—"
    # every step is one undo; undo takes back the last value typed
    runs.doc.undo_stack.undo()
    assert len(runs.doc.measured_runs()) == 6 and runs.doc.measurements.waiting() == [(6, "value")]
    runs.drawn()
    assert "Row 7 needs its throughput" in panel.summary.plain_text()


def test_paste_a_block_from_a_spreadsheet_with_its_header_is_one_undo_step(runs, panel, qtbot):
    QGuiApplication.clipboard().setText(
        "Users\tThroughput (scripts/h)\tNotes\r\n" + "".join(f"{n}\t{x}\t\r\n" for n, x in SPECSDM91)
    )
    panel.view.setCurrentIndex(panel.model.index(0, LABEL))  # the header says where each column goes
    panel.view.paste()
    table = runs.doc.measurements
    assert (table.kind, table.unit, table.count_name) == (MeasureKind.THROUGHPUT, "scripts/h", "Users")
    assert [r.n for r in table.rows] == [1, 18, 36, 72, 108, 144, 216]
    assert runs.doc.fit.usl.peak_n == pytest.approx(96.5, abs=0.05)
    assert runs.doc.undo_stack.undoText() == "Paste runs"
    runs.doc.undo_stack.undo()
    assert runs.doc.measurements.rows == () and runs.doc.measurements.kind is MeasureKind.TIME
    runs.doc.undo_stack.redo()
    assert len(runs.doc.measurements.rows) == 7


def test_paste_without_header_and_times_with_units(runs, panel, qtbot):
    QGuiApplication.clipboard().setText("1\t1.0 s\tsingle GPU\n2\t560\n4\t340 ms\n8\t0.232 s\n")
    panel.view.setCurrentIndex(panel.model.index(0, COUNT))
    qtbot.keyClick(panel.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)  # Ctrl+V on the runs table itself
    rows = runs.doc.measurements.rows
    assert runs.doc.measurements.unit == "ms"
    assert [(r.n, r.value) for r in rows] == [(1, 1000), (2, 560), (4, 340), (8, 232)]
    assert rows[0].label == "single GPU"


def test_delete_rows_and_undo(runs, panel, qtbot):
    runs.panel.model.set_cells([(r, c, v) for r, row in enumerate(SPECSDM91) for c, v in enumerate(row)], "Paste")
    view = panel.view
    sel = QItemSelection(panel.model.index(1, 0), panel.model.index(2, 3))
    view.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    view.delete_rows_action.trigger()
    assert [r.n for r in runs.doc.measurements.rows] == [1, 72, 108, 144, 216]
    runs.doc.undo_stack.undo()
    assert [r.n for r in runs.doc.measurements.rows] == [1, 18, 36, 72, 108, 144, 216]
    # Delete clears cells; a run left with nothing in it goes
    view.selectionModel().select(
        QItemSelection(panel.model.index(0, 0), panel.model.index(0, 3)),
        QItemSelectionModel.SelectionFlag.ClearAndSelect,
    )
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert [r.n for r in runs.doc.measurements.rows] == [18, 36, 72, 108, 144, 216]


def test_sort_by_a_header_is_undoable(runs, panel):
    panel.model.set_cells(
        [(0, COUNT, "8"), (0, VALUE, "2"), (1, COUNT, "1"), (1, VALUE, "10"), (2, COUNT, "4"), (2, VALUE, "3")], "Paste"
    )
    panel.view.sort_by_column(COUNT)
    assert [r.n for r in runs.doc.measurements.rows] == [1, 4, 8]
    panel.view.sort_by_column(COUNT)
    assert [r.n for r in runs.doc.measurements.rows] == [8, 4, 1]
    runs.doc.undo_stack.undo()
    assert [r.n for r in runs.doc.measurements.rows] == [1, 4, 8]


@pytest.mark.parametrize(
    ("col", "text", "reason"),
    [
        (COUNT, "-4", "not a count"),
        (COUNT, "four", "not a count"),
        (VALUE, "lots", "not a time"),
        (VALUE, "0", "above 0"),
    ],
)
def test_bad_cells_are_refused_at_the_cell_and_kept_to_fix(runs, panel, qtbot, col, text, reason):
    type_cell(qtbot, panel, 0, COUNT if col == VALUE else VALUE, "8" if col == VALUE else "100")
    before = runs.doc.measurements
    type_cell(qtbot, panel, 0, col, text)
    assert reason in panel.view.last_rejection
    assert runs.doc.measurements == before
    qtbot.waitUntil(lambda: editor() is not None and editor().text() == text)  # given back to fix
    assert panel.view.currentIndex().column() == col


def test_fewer_than_three_runs_show_points_without_a_curve(runs, panel):
    panel.model.set_cells([(0, COUNT, "1"), (0, VALUE, "100"), (1, COUNT, "2"), (1, VALUE, "60")], "Paste")
    runs.drawn()
    chart = panel.charts["throughput"]
    assert chart.runs.isVisible() and len(chart.runs.data) == 2
    assert not chart.curve.isVisible() and not chart.peak.isVisible()
    assert "only 2 runs" in chart.title
    scaling = panel.charts["measured_scaling"]
    assert scaling.runs.isVisible() and not scaling.usl.isVisible()
    assert "a fit needs at least 3" in panel.summary.plain_text()


def test_legend_entries_toggle_their_layer(runs, panel):
    panel.model.set_cells([(r, c, v) for r, row in enumerate(SPECSDM91) for c, v in enumerate(row)], "Paste")
    runs.drawn()
    chart = panel.charts["throughput"]
    assert chart.curve.isVisible() and 'href="usl"' in chart.legend_label.text()
    chart.legend_label.linkActivated.emit("usl")
    assert not chart.curve.isVisible() and "line-through" in chart.legend_label.text()
    chart.legend_label.linkActivated.emit("usl")
    assert chart.curve.isVisible()
    chart.log_box.setChecked(True)
    assert chart.set_ticks and chart.curve.isVisible()


def test_kind_unit_and_count_name_are_undoable_changes(runs, panel):
    choose_throughput(panel, "Users", "req/s")
    assert runs.doc.measurements.count_name == "Users"
    assert panel.model.headerData(COUNT, Qt.Orientation.Horizontal) == "Users"
    assert panel.model.headerData(VALUE, Qt.Orientation.Horizontal) == "Throughput (req/s)"
    for _ in range(3):
        runs.doc.undo_stack.undo()
    runs.drawn()
    assert runs.doc.measurements.kind is MeasureKind.TIME
    assert panel.kind.currentData() == "time" and panel.count.currentText() == "GPUs"


def test_open_measurements_and_export_them(window, tmp_path):
    good = tmp_path / "runs.csv"
    good.write_text("GPUs,Time (ms),Label\n1,1000,one\n2,560,\n4,340,\n8,232,\n", encoding="utf-8")
    assert window.open_measurements(good)
    assert window.left_tabs.currentWidget() is window.fit_page
    assert [r.value for r in window.doc.measurements.rows] == [1000, 560, 340, 232]
    bad = tmp_path / "bad.csv"
    bad.write_text("GPUs,Time (ms)\n1,1000\n2,-5\nx,3\n", encoding="utf-8")
    before = window.doc.measurements
    assert not window.open_measurements(bad)
    assert "bad.csv" in window.errors[-1] and "row 3" in window.errors[-1] and "row 4" in window.errors[-1]
    assert window.doc.measurements == before
    out = tmp_path / "out.csv"
    assert window.export_measurements(out)
    assert out.read_text(encoding="utf-8").splitlines()[:2] == ["GPUs,Time (ms),Label,Notes", "1,1000,one,"]
    window.doc.undo_stack.undo()
    assert window.doc.measurements.rows == ()
    assert window.open_measurements(out) and len(window.doc.measurements.rows) == 4


def test_model_passes_qt_model_tester(qtmodeltester, qapp):
    from amdahl_desk.ui.core.document import Document
    from amdahl_desk.ui.fit.runs_model import MeasurementTableModel

    doc = Document()
    model = MeasurementTableModel(doc)
    qtmodeltester.check(model)
    assert model.setData(model.index(0, COUNT), "4")  # the empty row adds a run waiting for its time
    assert model.setData(model.index(0, VALUE), "250 ms")
    assert model.set_cells([(1, COUNT, "8"), (1, VALUE, "150"), (2, COUNT, "1"), (2, VALUE, "900")], "Paste")
    qtmodeltester.check(model)
    assert model.sort_by(COUNT)
    assert model.remove_rows([0])
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    qtmodeltester.check(model)
    assert model.rowCount() == 2 and model.index(0, COUNT).data() == "4"


def test_tab_from_n_in_the_empty_row_goes_on_to_its_time(runs, panel, qtbot):
    view = panel.view
    view.setCurrentIndex(panel.model.index(0, COUNT))
    qtbot.keyClicks(view, "8")
    qtbot.waitUntil(lambda: editor() is not None)
    qtbot.keyClick(editor(), Qt.Key.Key_Tab)
    settle_layout()
    assert (view.currentIndex().row(), view.currentIndex().column()) == (0, VALUE)
    qtbot.waitUntil(lambda: editor() is not None)
    qtbot.keyClicks(editor(), "250")
    qtbot.keyClick(editor(), Qt.Key.Key_Return)
    settle_layout()
    assert [(r.n, r.value) for r in runs.doc.measurements.rows] == [(8, 250)]
    assert view.currentIndex().row() == 1


def test_measured_charts_export_like_the_others_and_join_the_slide(window, window_panel, tmp_path):
    panel = window_panel
    from PySide6.QtGui import QImage

    from amdahl_desk.ui.charts.registry import MEASURED_CHARTS
    from tests.ui.charting import chart_widget

    from .test_export import not_blank

    choose_throughput(panel)
    panel.model.set_cells([(r, c, v) for r, row in enumerate(SPECSDM91) for c, v in enumerate(row)], "Paste")
    for name in MEASURED_CHARTS:
        for fmt in ("png", "svg", "pdf"):
            path = tmp_path / f"{name}.{fmt}"
            assert window.exports.export_chart_to(path, name, fmt, (1280, 720)), window.errors
            assert path.stat().st_size > 5000
        image = QImage(str(tmp_path / f"{name}.png"))
        assert (image.width(), image.height()) == (1280, 720) and 0.01 < not_blank(image) < 0.6
    svg = (tmp_path / "throughput.svg").read_text(encoding="utf-8")
    assert "Throughput peaks at 97 users (1,884 scripts/h)" in svg and "peak 1,884 at 97" in svg
    slide = chart_widget("slide", window.doc.profile, window.doc.analysis, (1920, 1080), fit=window.doc.fit)
    measured = slide.parts["measured_scaling"]  # the runs carry the answer: the slide's second chart
    assert slide.shown == ("breakdown", "measured_scaling") and measured.isVisible() and "P = 98%" in measured.title
    slide.close()
    # a new document has neither a profile nor runs: the measured charts and the slide are refused
    from PySide6.QtWidgets import QMessageBox

    window.answer = QMessageBox.StandardButton.Discard
    window.files.new_document()
    assert window.doc.analysis is None and len(window.doc.measurements.rows) == 0  # runs belong to the profile now
    assert not window.exports.export_chart_to(tmp_path / "t.png", "throughput", "png")
    assert "measured runs, and there are none yet" in window.errors[-1]
    assert not window.exports.export_chart_to(tmp_path / "s.png", "slide", "png")


def test_copy_a_measured_chart_image(window, window_panel):
    panel = window_panel
    panel.model.set_cells([(r, c, v) for r, row in enumerate(SPECSDM91) for c, v in enumerate(row)], "Paste")
    export = next(a.menu() for a in window.menuBar().actions() if a.text() == "E&xport")
    measured = next(a.menu() for a in export.actions() if a.text() == "Copy Measured Chart I&mage")
    next(a for a in measured.actions() if a.text().startswith("Karp–Flatt")).trigger()
    image = QGuiApplication.clipboard().image()
    assert (image.width(), image.height()) == (1920, 1080)


def test_the_profile_p_is_compared_at_the_same_baseline(runs):
    from amdahl_desk.model.fit import profile_p_at

    analysis = runs.doc.analysis
    assert analysis.scaling.baseline_gpus == 8 and analysis.scaling.parallel_fraction == pytest.approx(0.75)
    assert profile_p_at(analysis, 8) == pytest.approx(0.75)
    assert profile_p_at(analysis, 1) == pytest.approx(6 / 6.25)
    assert profile_p_at(analysis, 16) == pytest.approx(0.375 / 0.625)  # parallel 0.75·8/16 against serial 0.25
