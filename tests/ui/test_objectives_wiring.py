"""Window wiring that issue 13 needs: measured runs saved with the profile, traces compared, locale decimals."""

from __future__ import annotations

import pytest

from amdahl_desk.files import load_profile
from amdahl_desk.model.measurement_table import MeasurementTable
from amdahl_desk.model.measurements import MeasureKind, Measurements

pytestmark = pytest.mark.gui

RUNS = Measurements.of([(1, 100.0), (2, 60.0), (4, 40.0)], MeasureKind.TIME, "ms", "GPUs")


def test_measured_runs_survive_save_and_reopen_and_undo_keeps_the_profile_in_step(window, tmp_path):
    doc = window.doc
    assert doc.edit_measurements(MeasurementTable.of(RUNS), "Paste runs")
    assert doc.profile.measurements == RUNS
    doc.undo_stack.undo()
    assert doc.profile.measurements is None
    doc.undo_stack.redo()
    assert doc.profile.measurements == RUNS
    assert window.files.save()
    assert load_profile(doc.path).profile.measurements == RUNS
    # Another file without runs shows none; reopening ours brings them back into the runs table.
    path = doc.path
    window.files.new_document()
    assert doc.measured_runs().rows == () and doc.profile.measurements is None
    assert window.files.open_path(path, ask=False)
    assert doc.measured_runs() == RUNS and doc.measurements == MeasurementTable.of(RUNS)


def test_the_recovery_copy_holds_the_runs(window):
    window.doc.edit_measurements(MeasurementTable.of(RUNS), "Paste runs")
    assert window.files.write_recovery()
    assert load_profile(window.files.recovery.workbook).profile.measurements == RUNS


def test_a_trace_against_a_workbook_is_refused_by_name(tmp_path):
    from amdahl_desk.model.errors import ProfileError
    from amdahl_desk.ui.compare.loading import load_after

    trace = tmp_path / "after.pt.trace.json"
    trace.write_text('{"traceEvents": []}')
    with pytest.raises(ProfileError, match="profiler trace and before.xlsx a workbook"):
        load_after(trace, tmp_path / "before.xlsx")


def test_compare_reads_a_trace_when_the_document_is_untitled():
    from amdahl_desk.ui.compare.loading import load_after

    from ..traces import expect

    profile, _warnings = load_after(expect.FIXTURES / "torch_cpu_steps.json.gz", None)
    assert profile.components and profile.total > 0


def test_times_typed_with_the_locale_decimal_comma(components, qtbot):
    from PySide6.QtCore import QLocale

    from amdahl_desk.ui.profile.component_table import TIME

    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        model = components.model
        assert model.setData(model.index(0, TIME), "12,5")
        assert components.doc.profile.components[0].time == pytest.approx(12.5)
    finally:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


def test_the_components_objectives_follow_every_change_of_the_rows(components):
    """The document's copy of what each component names (kept row by row) is the profile's after edits of
    that cell and of others, inserts, deletes, a sort, undo and redo, and another profile."""
    from amdahl_desk.model.profile import Component, Profile
    from amdahl_desk.ui.profile.component_table import OBJECTIVES, TIME

    doc, model = components.doc, components.model
    tracked = doc.component_objectives

    def agrees() -> bool:
        rows = doc.profile.objectives_of_components()
        return tracked.of_components() == rows and tracked.named() == any(rows)

    assert agrees() and not tracked.named()
    steps = [
        lambda: model.setData(model.index(1, OBJECTIVES), "TTFT"),
        lambda: model.setData(model.index(2, TIME), "77"),
        lambda: model.setData(model.index(2, OBJECTIVES), "TTFT; ITL"),
        lambda: doc.insert_components(0, [Component("new one", 5.0, objectives=("ITL",))], "Insert"),
        lambda: components.table.sort_by_column(TIME),
        lambda: doc.remove_components([0, 1], "Delete"),
        lambda: model.setData(model.index(0, OBJECTIVES), ""),
        lambda: doc.undo_stack.undo(),
        lambda: doc.undo_stack.undo(),
        lambda: doc.undo_stack.redo(),
    ]
    for i, step in enumerate(steps):
        step()
        assert agrees(), i
    assert tracked.named()
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
        assert agrees()
    assert not tracked.named()
    doc.reset(Profile([Component("a", 1.0), Component("b", 2.0, objectives=("TTFT",))]), None)
    assert agrees() and tracked.named()
