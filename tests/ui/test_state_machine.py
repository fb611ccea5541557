"""Random sequences of what a person does — add, edit, rename, delete, tick, undo, redo — keep the profile valid."""

import math

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from PySide6.QtWidgets import QApplication

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.profile.component_table import NAME, TIME, ComponentTableModel
from amdahl_desk.ui.profile.optimization_table import OptimizationTableModel

pytestmark = pytest.mark.gui

names = st.text(alphabet="abcXYZ 1-=", min_size=0, max_size=6)
times = st.one_of(
    st.floats(-10, 1e6).map(repr), st.sampled_from(["fast", "", "1,000 ms", "0.5 s", "-3", "nan", "inf", "0"])
)


class DocumentMachine(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.app = QApplication.instance() or QApplication([])
        self.doc = Document(Profile([Component("a", 10), Component("b", 20)], [Optimization("o", ("a",), 2)]))
        self.components = ComponentTableModel(self.doc)
        self.optimizations = OptimizationTableModel(self.doc)
        self.initial = self.doc.profile.copy()

    @rule(row=st.integers(0, 12), value=times)
    def type_time(self, row, value):
        self.components.setData(self.components.index(min(row, self.components.rowCount() - 1), TIME), value)

    @rule(row=st.integers(0, 12), value=names)
    def type_name(self, row, value):
        self.components.setData(self.components.index(min(row, self.components.rowCount() - 1), NAME), value)

    @rule(row=st.integers(0, 12), count=st.integers(1, 3))
    def delete_rows(self, row, count):
        n = len(self.doc.profile.components)
        if n:
            row = min(row, n - 1)
            self.doc.remove_components(range(row, min(row + count, n)), "delete")

    @rule(k=st.floats(0.001, 1e4))
    def add_optimization(self, k):
        comps = self.doc.profile.components
        if comps:
            opts = [
                *self.doc.profile.optimizations,
                Optimization(f"o{len(self.doc.profile.optimizations)}", (comps[0].name,), k),
            ]
            self.optimizations.set_all(opts, "add")

    @precondition(lambda self: self.doc.profile.optimizations)
    @rule(row=st.integers(0, 5))
    def toggle(self, row):
        row = min(row, len(self.doc.profile.optimizations) - 1)
        from PySide6.QtCore import Qt

        checked = self.doc.profile.optimizations[row].enabled
        self.optimizations.setData(
            self.optimizations.index(row, 0), 0 if checked else 2, Qt.ItemDataRole.CheckStateRole
        )

    @rule()
    def undo(self):
        self.doc.undo_stack.undo()

    @rule()
    def redo(self):
        self.doc.undo_stack.redo()

    @invariant()
    def profile_is_valid(self):
        p = self.doc.profile
        try:
            Profile(p.components, p.optimizations, p.settings, p.unit)  # every rule of the model still holds
        except ProfileError as exc:  # pragma: no cover - a failure is the finding
            raise AssertionError(f"invalid profile after the steps: {exc}") from None

    @invariant()
    def analysis_is_finite_where_it_should_be(self):
        a = self.doc.analysis
        total = math.fsum(c.time for c in self.doc.profile.components)
        if total > 0:
            assert a is not None
            assert math.isfinite(a.combined.new_total) and a.combined.new_total > 0
            assert math.isfinite(a.combined.overall_speedup)
        else:
            assert a is None and self.doc.analysis_error

    def teardown(self):
        while self.doc.undo_stack.canUndo():
            self.doc.undo_stack.undo()
        assert self.doc.profile == self.initial  # undoing everything gives back the start


DocumentMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=30, deadline=None)
TestDocument = DocumentMachine.TestCase
