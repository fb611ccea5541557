"""Random sequences of what a person does in the real window — add, remove, select, tick, drag k, paste, undo, redo.

Each step runs through the window's own slots and then lets Qt paint and redraw, so an exception in a
model's data(), a paint or a chart (issue 8 item 13: the emptied checklist) fails the run, and the
views are checked against the document after every step.
"""

import sys

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from amdahl_desk.files import load_profile
from amdahl_desk.model.profile import Profile
from amdahl_desk.model.units import format_speedup
from amdahl_desk.resources import example_path
from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import NAME, TIME
from amdahl_desk.ui.profile.optimization_table import NAME as OPT_NAME

pytestmark = pytest.mark.gui

_shared: dict[str, object] = {}


def shared_window():
    """One window for every example (building one per example would take most of the run)."""
    if "window" not in _shared:
        from amdahl_desk.ui.main_window import MainWindow

        QApplication.instance() or QApplication([])
        win = MainWindow(fresh=True)
        win.errors_to_stderr = True
        win.ask = lambda *args: QMessageBox.StandardButton.Discard
        win.resize(1280, 800)
        win.show()
        _shared["window"] = win
    return _shared["window"]


@pytest.fixture(scope="module", autouse=True)
def _close_shared_window():
    yield
    win = _shared.pop("window", None)
    if win is not None:
        win.doc.undo_stack.setClean()
        win.close()
        win.deleteLater()


class WindowMachine(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.win = shared_window()
        self.errors: list[str] = []
        self.old_hook = sys.excepthook
        sys.excepthook = lambda kind, value, tb: self.errors.append(f"{kind.__name__}: {value}")
        if "probe" not in _shared:  # connect once: the window is shared between examples
            doc = self.win.doc
            # once rows have moved (Qt's protocol leaves the rows between "about to" and "done" to the model alone),
            # and at every change
            doc.rowsMoving.connect(lambda move: self.read_everything_now() if move.done else None)
            doc.changed.connect(lambda _change: self.read_everything_now())
            _shared["probe"] = True
        _shared["machine"] = self
        self.win.doc.reset(load_profile(example_path()).profile, None)
        self.settle()

    def read_everything_now(self):
        """Read what a paint or a screen reader may read at any signal: every view must find it consistent."""
        machine = _shared["machine"]
        win = machine.win
        try:
            for model in (win.optimization_model, win.component_model):
                for r in range(min(model.rowCount(), 12)):
                    for c in range(model.columnCount()):
                        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                            model.data(model.index(r, c), role)
            row = win.optimizations.current_row()
            win.speedup.show_analysis(win.doc.profile, win.doc.analysis, row)
        except Exception as exc:  # noqa: BLE001 - any failure here is the finding
            machine.errors.append(f"{type(exc).__name__} while the views read the document: {exc}")

    def settle(self):
        settle_layout()  # paints, posted events, queued slots
        self.win.redraws.flush()
        settle_layout()

    def teardown(self):
        sys.excepthook = self.old_hook

    # -- what a person does ------------------------------------------------
    @rule(rows=st.lists(st.integers(0, 12), min_size=1, max_size=3))
    def select_components(self, rows):
        table, model = self.win.table, self.win.component_model
        selection = QItemSelection()
        for r in rows:
            r = min(r, model.rowCount() - 1)
            selection.select(model.index(r, NAME), model.index(r, TIME))
        table.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.settle()

    @rule()
    def click_into_the_checklist(self):
        """With focus, Qt makes a row current by itself when the checklist is rebuilt (how item 13 began)."""
        self.win.activateWindow()
        self.win.optimizations.view.setFocus()
        self.settle()

    @rule()
    def add_optimization(self):
        self.win.optimizations.add_for_selection()
        self.settle()
        self.win.optimizations.view.closePersistentEditor(self.win.optimizations.view.currentIndex())

    @rule()
    def remove_optimization(self):
        self.win.optimizations.remove_selected()
        self.settle()

    @rule(row=st.integers(0, 6))
    def select_optimization(self, row):
        self.win.optimizations.select_row(min(row, self.win.optimization_model.rowCount() - 1))
        self.settle()

    @precondition(lambda self: self.win.doc.profile.optimizations)
    @rule(row=st.integers(0, 6))
    def tick(self, row):
        model = self.win.optimization_model
        row = min(row, model.rowCount() - 1)
        state = model.data(model.index(row, OPT_NAME), Qt.ItemDataRole.CheckStateRole)
        checked = Qt.CheckState.Unchecked if state == Qt.CheckState.Checked else Qt.CheckState.Checked
        model.setData(model.index(row, OPT_NAME), checked.value, Qt.ItemDataRole.CheckStateRole)
        self.settle()
        assert self.win.optimizations.current_row() == row  # ticking makes the row current

    @rule(positions=st.lists(st.integers(0, 1000), min_size=1, max_size=4))
    def drag_k(self, positions):
        slider = self.win.optimizations.slider
        if not slider.isEnabled():
            return
        slider.sliderPressed.emit()
        for pos in positions:
            slider.setValue(pos)
        slider.sliderReleased.emit()
        self.settle()

    @rule(
        row=st.integers(0, 8),
        cells=st.lists(
            st.tuples(
                st.sampled_from(["x", "GPU", "Input pipeline and host preparation", ""]),
                st.sampled_from(["5", "0", "-1", "abc", ""]),
            ),
            min_size=1,
            max_size=3,
        ),
    )
    def paste(self, row, cells):
        QGuiApplication.clipboard().setText("\n".join(f"{n}\t{t}" for n, t in cells))
        table, model = self.win.table, self.win.component_model
        table.setCurrentIndex(model.index(min(row, model.rowCount() - 1), NAME))
        table.paste()
        self.settle()

    @rule()
    def delete_selected_rows(self):
        self.win.table.delete_rows()
        self.settle()

    @rule()
    def undo(self):
        self.win.undo_action.trigger()
        self.settle()

    @rule()
    def redo(self):
        self.win.redo_action.trigger()
        self.settle()

    # -- what must always hold ----------------------------------------------
    @invariant()
    def nothing_raised(self):
        assert not self.errors, self.errors

    @invariant()
    def profile_is_valid(self):
        p = self.win.doc.profile
        Profile(p.components, p.optimizations, p.settings, p.unit)

    @invariant()
    def views_follow_the_document(self):
        win, doc = self.win, self.win.doc
        assert win.component_model.rowCount() == len(doc.profile.components) + 1
        assert win.optimization_model.rowCount() == len(doc.profile.optimizations)
        analysis = doc.analysis
        row = win.optimizations.current_row()
        assert win.optimizations.slider.isEnabled() == (row >= 0)
        if analysis is None:
            return
        assert len(analysis.optimizations.fraction) == len(doc.profile.optimizations)
        assert win.summary.speedup.value.text() == format_speedup(analysis.combined.overall_speedup)
        if row >= 0 and win.redraws.selected_optimization == row:
            name = doc.profile.optimizations[row].name
            assert name[:28] in win.speedup.title


WindowMachine.TestCase.settings = settings(
    max_examples=12, stateful_step_count=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestWindow = WindowMachine.TestCase
