"""One panel of the window on a Document of its own, shown on its own: what a test of that panel builds.

Each builder uses the panel's own constructors, in the window's order: the panel is made on an empty
document, then a bundled example (the training example unless a test names another) opens into it (a model
made on a document that already holds a profile has heard of no change yet, and announces every row at its
first), then what ``MainWindow._opened`` does for that panel (the table's columns fitted and its first time
cell current, the checklist's first row selected). Nothing else of the window exists: no menus, no status
bar, no charts but the panel's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytestqt.qtbot import QtBot

from amdahl_desk.files import load_profile
from amdahl_desk.resources import example_path
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.core.redraw import RedrawScheduler
from amdahl_desk.ui.fit.fit_panel import FitPanel
from amdahl_desk.ui.objectives.panel import ObjectivesPanel
from amdahl_desk.ui.profile.component_table import ComponentTableModel
from amdahl_desk.ui.profile.component_view import ComponentTableView
from amdahl_desk.ui.profile.optimization_panel import OptimizationPanel
from amdahl_desk.ui.profile.optimization_table import OptimizationTableModel

# About the size each panel has in a 1600×1000 window (the panes' proportions of window_layout.reset_layout).
SIZES = {"components": (760, 420), "checklist": (760, 300), "runs": (760, 900), "objectives": (760, 700)}


def open_example(doc: Document, folder: Path, example: str | None = None) -> None:
    """Open a copy of the bundled ``example`` (the training example unless named) in ``folder`` into ``doc``, its
    path set as File → Open sets it; a document already opened stays as it is."""
    if doc.path is not None or doc.profile.components:
        return
    source = example_path() if example is None else example_path(example)
    copy = folder / ("training.xlsx" if example is None else example)
    copy.write_bytes(source.read_bytes())
    loaded = load_profile(copy)
    doc.reset(loaded.profile, copy.resolve(), loaded.warnings)


def show(qtbot, widget, size: tuple[int, int]) -> None:
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)


@dataclass
class Components:
    """The components table: its model and view on ``doc``."""

    doc: Document
    model: ComponentTableModel
    table: ComponentTableView


@dataclass
class Checklist:
    """The optimizations checklist: its model and panel (table, buttons, k slider) on ``doc``."""

    doc: Document
    model: OptimizationTableModel
    panel: OptimizationPanel


@dataclass
class Runs:
    """The Measurements panel (runs table, fit summary, measured charts) and the redraws it draws through."""

    doc: Document
    panel: FitPanel
    redraws: RedrawScheduler
    qtbot: QtBot

    def drawn(self) -> None:
        """Until the redraws queued for the next frame are drawn (the summary and the charts follow then)."""
        self.qtbot.waitUntil(lambda: not self.redraws.pending)


@dataclass
class Objectives:
    """The "Objectives, load and cost" panel on ``doc``."""

    doc: Document
    panel: ObjectivesPanel


def components_table(qtbot, doc: Document, folder: Path, example: str | None = None) -> Components:
    model = ComponentTableModel(doc)
    table = ComponentTableView(model)
    show(qtbot, table, SIZES["components"])
    open_example(doc, folder, example)
    table.fit_columns()
    table.start_here()
    return Components(doc, model, table)


def checklist(qtbot, doc: Document, folder: Path, example: str | None = None) -> Checklist:
    model = OptimizationTableModel(doc)
    panel = OptimizationPanel(model)
    show(qtbot, panel, SIZES["checklist"])
    open_example(doc, folder, example)
    if model.rowCount():
        panel.select_row(0)
    return Checklist(doc, model, panel)


def runs_panel(qtbot, doc: Document, folder: Path, example: str | None = None) -> Runs:
    redraws = RedrawScheduler(doc)
    panel = FitPanel(doc, redraws)
    redraws.setParent(panel)
    show(qtbot, panel, SIZES["runs"])
    open_example(doc, folder, example)
    runs = Runs(doc, panel, redraws, qtbot)
    runs.drawn()
    return runs


def objectives_panel(qtbot, doc: Document, folder: Path, example: str | None = None) -> Objectives:
    panel = ObjectivesPanel(doc)
    show(qtbot, panel, SIZES["objectives"])
    open_example(doc, folder, example)
    return Objectives(doc, panel)


def import_dialog(qtbot, *paths: Path):
    """File → Import Profile…'s dialog on ``paths`` (a trace, or a folder of ranks) on its own, as
    ``TraceImport.start`` opens it: reading starts at once."""
    from amdahl_desk.ui.import_.import_dialog import ImportDialog

    dialog = ImportDialog(list(paths))
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    return dialog
