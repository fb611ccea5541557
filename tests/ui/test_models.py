"""Every item model passes Qt's model tester, with edits, inserts, removals and resets on the way."""

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model import Component
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
