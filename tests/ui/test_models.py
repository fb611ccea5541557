"""Every item model passes Qt's model tester, with edits, inserts, removals and resets on the way."""

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.profile import Component
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.profile.component_table import NAME, TIME, ComponentTableModel
from amdahl_desk.ui.profile.optimization_table import OptimizationTableModel

from ..helpers import training

pytestmark = pytest.mark.gui


def test_component_model(qtmodeltester):
    doc = Document(training())
    model = ComponentTableModel(doc)
    qtmodeltester.check(model)
    assert model.setData(model.index(0, TIME), "250")
    model.add_component(2, Component("new", 5))
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    qtmodeltester.check(model)


def test_optimization_model(qtmodeltester):
    doc = Document(training())
    model = OptimizationTableModel(doc)
    qtmodeltester.check(model)
    assert model.setData(model.index(0, NAME), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    qtmodeltester.check(model)


def test_edit_emits_data_changed_not_reset(qtbot):
    doc = Document(training())
    model = ComponentTableModel(doc)
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    with qtbot.waitSignal(model.dataChanged):
        model.setData(model.index(1, TIME), "300")
    assert not resets
    assert doc.analysis.baseline_total == 700


def test_objectives_sheet_model(qtmodeltester):
    from amdahl_desk.ui.objectives.objectives_sheet import NAME as OBJ_NAME
    from amdahl_desk.ui.objectives.objectives_sheet import TARGET, ObjectivesSheetModel

    doc = Document(training())
    model = ObjectivesSheetModel(doc)
    qtmodeltester.check(model)
    assert model.setData(model.index(0, OBJ_NAME), "TTFT")  # the empty row becomes an objective
    assert model.setData(model.index(0, TARGET), "300 ms")
    assert not model.setData(model.index(0, TARGET), "soon")  # refused: nothing changes
    qtmodeltester.check(model)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    qtmodeltester.check(model)
    assert model.rowCount() == 1


def test_measurement_model(qtmodeltester):
    from amdahl_desk.ui.fit.runs_model import MeasurementTableModel

    doc = Document(training())
    model = MeasurementTableModel(doc)
    qtmodeltester.check(model)
    assert model.setData(model.index(0, 0), "8")
    assert model.setData(model.index(0, 1), "1050")
    qtmodeltester.check(model)
    doc.undo_stack.undo()
    qtmodeltester.check(model)
