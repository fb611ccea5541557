"""On a German desktop a cell's editor opens on its exact number with a decimal comma, and committed unchanged it
leaves the number as it was: every number column the window's tables edit as text (times and their ranges, k's
range, effort and confidence, the runs' N and values, an objective's target)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QLineEdit, QMessageBox, QStyleOptionViewItem

from amdahl_desk.model.measurements import MeasureKind, Measurement, Measurements
from amdahl_desk.model.objective_specs import ObjectiveSpec
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.ui.fit.runs_model import COUNT, VALUE
from amdahl_desk.ui.objectives.objectives_sheet import TARGET
from amdahl_desk.ui.profile.component_table import TIME, TIME_HIGH, TIME_LOW
from amdahl_desk.ui.profile.optimization_table import CONFIDENCE, EFFORT, K_HIGH, K_LOW

pytestmark = pytest.mark.gui

GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)


@pytest.fixture
def german(qtbot):
    from amdahl_desk.ui.main_window import MainWindow

    before = QLocale()
    QLocale.setDefault(GERMAN)
    win = MainWindow(fresh=True)
    qtbot.addWidget(win)
    win.ask = lambda title, text, buttons, default: QMessageBox.StandardButton.Discard  # closing, after an edit
    profile = Profile(
        [
            Component("decode", 1234.5, objectives=("ITL",), time_low=1000.25, time_high=1500.75),
            Component("prefill", 0.5, objectives=("TTFT",)),
            Component("3.14", 10.0, group="2.5", notes="0.5"),  # texts that look like numbers stay texts
        ],
        [
            Optimization(
                "faster decode", ("decode",), 2.0, speedup_low=1.5, speedup_high=2.5, effort=2.5, confidence=0.8
            ),
            Optimization("1.5", ("3.14",), 2.0, notes="0.25"),
            # more digits than a short format keeps: an editor opened and committed must keep every one
            Optimization("exact", ("prefill",), 2.0, speedup_low=1.2345678, effort=2.123456789, confidence=5 / 6),
        ],
        objectives=[ObjectiveSpec("ITL", 1234.5), ObjectiveSpec("TTFT", 0.5, notes="0.75")],
        measurements=Measurements(
            (Measurement(1, 100.5), Measurement(2, 60.25), Measurement(4, 1234.5)), MeasureKind.TIME, "ms", "GPUs"
        ),
    )
    win.doc.reset(profile, None)
    win.show()
    qtbot.waitExposed(win)
    yield win
    QLocale.setDefault(before)


def cells(win):
    """(view, row, column, the number the cell holds) for each number cell edited as text."""
    out = [(win.table, 0, TIME, 1234.5), (win.table, 1, TIME, 0.5), (win.table, 0, TIME_LOW, 1000.25)]
    out += [(win.table, 0, TIME_HIGH, 1500.75)]
    out += [(win.optimizations.view, 0, c, v) for c, v in ((K_LOW, 1.5), (K_HIGH, 2.5), (EFFORT, 2.5))]
    out += [(win.optimizations.view, 2, c, v) for c, v in ((K_LOW, 1.2345678), (EFFORT, 2.123456789))]
    out += [(win.optimizations.view, 2, CONFIDENCE, 5 / 6)]
    out += [(win.fit_panel.view, r, VALUE, v) for r, v in ((0, 100.5), (1, 60.25), (2, 1234.5))]
    out += [(win.fit_panel.view, 0, COUNT, 1.0)]
    out += [(win.objectives_panel.sheet, r, TARGET, v) for r, v in ((0, 1234.5), (1, 0.5))]
    return out


def test_an_editor_opens_on_the_exact_number_with_the_desktops_comma_and_commits_it_unchanged(german):
    win = german
    before = win.doc.profile
    expected = {1234.5: "1234,5", 0.5: "0,5", 1000.25: "1000,25", 1500.75: "1500,75", 1.5: "1,5", 2.5: "2,5"}
    expected |= {100.5: "100,5", 60.25: "60,25", 1.0: "1"}
    expected |= {1.2345678: "1,2345678", 2.123456789: "2,123456789", 5 / 6: "0,8333333333333334"}
    for view, row, col, value in cells(win):
        model = view.model()
        index = model.index(row, col)
        delegate = view.itemDelegateForIndex(index)
        editor = delegate.createEditor(view.viewport(), QStyleOptionViewItem(), index)
        assert isinstance(editor, QLineEdit), (type(view).__name__, col)
        delegate.setEditorData(editor, index)
        assert editor.text() == expected[value], (type(view).__name__, row, col)
        delegate.setModelData(editor, model, index)
        editor.deleteLater()
    after = win.doc.profile
    assert after.components == before.components
    assert after.optimizations == before.optimizations
    assert after.objectives == before.objectives
    assert after.measurements.rows == before.measurements.rows
    assert not win.doc.undo_stack.canUndo()  # nothing changed, nothing to undo


def test_confidence_opens_as_a_percentage_and_an_objectives_target_shows_in_the_desktops_separators(german):
    win = german
    opts = win.optimizations.view.model()
    assert opts.index(0, CONFIDENCE).data() == "80%"
    sheet = win.objectives_panel.sheet.model()
    assert sheet.index(0, TARGET).data() == "1.235"  # 1,234.5 shown as a spreadsheet rounds it, German grouping
    assert sheet.index(1, TARGET).data() == "0,5"


def test_a_text_that_looks_like_a_number_opens_as_it_is(german):
    """A name, a group or a note "3.14" is a text: its editor opens on it unchanged, and so it stays."""
    from amdahl_desk.ui.objectives.objectives_sheet import NOTES as OBJECTIVE_NOTES
    from amdahl_desk.ui.profile.component_table import GROUP, NAME, NOTES
    from amdahl_desk.ui.profile.optimization_table import NAME as OPTIMIZATION

    win = german
    before = win.doc.profile
    texts = [(win.table, 2, NAME, "3.14"), (win.table, 2, GROUP, "2.5"), (win.table, 2, NOTES, "0.5")]
    texts += [
        (win.optimizations.view, 1, OPTIMIZATION, "1.5"),
        (win.objectives_panel.sheet, 1, OBJECTIVE_NOTES, "0.75"),
    ]
    for view, row, col, text in texts:
        model = view.model()
        index = model.index(row, col)
        delegate = view.itemDelegateForIndex(index)
        editor = delegate.createEditor(view.viewport(), QStyleOptionViewItem(), index)
        delegate.setEditorData(editor, index)
        assert editor.text() == text, (type(view).__name__, row, col)
        delegate.setModelData(editor, model, index)
        editor.deleteLater()
    after = win.doc.profile
    assert (after.components, after.optimizations, after.objectives) == (
        before.components,
        before.optimizations,
        before.objectives,
    )


def test_k_opened_in_its_spin_box_and_committed_unchanged_keeps_every_digit(german):
    """The box shows three decimals; a k of 2.7182818 left as it was is not rounded to 2.718, and a k typed is set."""
    from amdahl_desk.ui.profile.optimization_table import K

    win = german
    view = win.optimizations.view
    model = view.model()
    index = model.index(2, K)
    assert model.setData(index, 2.7182818)
    delegate = view.itemDelegateForIndex(index)
    editor = delegate.createEditor(view.viewport(), QStyleOptionViewItem(), index)
    delegate.setEditorData(editor, index)
    delegate.setModelData(editor, model, index)
    assert win.doc.profile.optimizations[2].speedup == 2.7182818
    delegate.setEditorData(editor, index)
    editor.setValue(3.25)
    delegate.setModelData(editor, model, index)
    editor.deleteLater()
    assert win.doc.profile.optimizations[2].speedup == 3.25
