"""The main window: the spreadsheet on the left, the answer on the right, files and menus around them."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import shiboken6
from PySide6.QtCore import QByteArray, QSettings, QStandardPaths, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QWidget,
)

from ..present.cells import selection_status
from ..present.inputs import ChartInputs
from ..resources import icon_path
from .chart_factory import make_chart
from .charts.base import Chart
from .core.document import Document
from .core.layout_fence import LazyFence
from .core.locale_text import locale_numbers
from .core.redraw import RedrawScheduler
from .core.window_keys import WindowKeys
from .document_files.chart_export import ChartExports
from .document_files.file_actions import FILTERS, FileActions, is_bundled
from .document_files.recovery import RecoveryStore
from .import_.trace_import import TRACE_FILTERS, TraceImport, may_be_dropped, route_drop
from .job.job_import import JobImport, is_job
from .menus import build_menus
from .profile.component_table import ComponentTableModel
from .profile.component_view import ComponentTableView
from .profile.optimization_panel import OptimizationPanel
from .profile.optimization_table import OptimizationTableModel
from .profile.total_line import TotalLine
from .results_pane import ResultsPane
from .scaling.settings_panel import SettingsPanel
from .whatif.trace_whatif import TraceWhatIf
from .window_layout import FollowingLayout, build_layout, forget_layout, remember_layout, reset_layout, restore_layout

if TYPE_CHECKING:
    from ..model.adoption import Continued
    from .compare.comparison_panel import ComparisonPanel
    from .fit.fit_panel import FitPanel
    from .objectives.panel import ObjectivesPanel

Button = QMessageBox.StandardButton
Shortcut = QKeySequence | QKeySequence.StandardKey | list[QKeySequence] | None
UNDO_LIMIT = 1000


def app_settings() -> QSettings:
    """Settings in an ini file under the user's config folder (or $AMDAHL_DESK_CONFIG_DIR, as tests use)."""
    folder = os.environ.get("AMDAHL_DESK_CONFIG_DIR")
    if not folder:
        from platformdirs import user_config_dir

        folder = user_config_dir("amdahl-desk", appauthor=False)
    return QSettings(str(Path(folder) / "amdahl-desk.ini"), QSettings.Format.IniFormat)


def undo_limit(settings: QSettings) -> int:
    """``[edit] undo_limit`` in the settings file: how many steps Undo can go back (0 for no limit)."""
    try:
        value = int(str(settings.value("edit/undo_limit", UNDO_LIMIT)))
    except ValueError:
        return UNDO_LIMIT
    return max(value, 0)


class MainWindow(QMainWindow):
    """One document per window; its file handling and chart exports are controllers it composes."""

    # The panes window_layout.build_layout makes.
    left_tabs: QTabWidget
    fit_page: LazyFence
    objectives_page: LazyFence
    results_tabs: QTabWidget
    _splitters: dict[str, QSplitter]
    _settings_scroll: QScrollArea
    following: FollowingLayout

    def __init__(self, fresh: bool = False) -> None:
        super().__init__()
        self.fresh = fresh  # ignore remembered layout and recent files (screenshots)
        self.settings = app_settings()
        self.doc = Document(parent=self)
        self.last_error = ""
        self.errors_to_stderr = False
        # Undo history is the memory that grows while editing (about 2 kB a step): bounded, and a setting.
        self.doc.undo_stack.setUndoLimit(undo_limit(self.settings))
        self.setAcceptDrops(True)
        if icon_path().exists():
            self.setWindowIcon(QIcon(str(icon_path())))

        self.component_model = ComponentTableModel(self.doc)
        self.table = ComponentTableView(self.component_model)
        self.optimization_model = OptimizationTableModel(self.doc)
        self.optimizations = OptimizationPanel(self.optimization_model)
        # One Ranges switch for k's and the times' ranges alike: pressed (the checklist's button, the View menu), it
        # shows the times' columns too; a profile's own estimates show only the checklist's.
        estimates = self.optimizations.estimates
        estimates.button.clicked.connect(lambda: self.table.show_ranges(estimates.shown))
        estimates.toggle_action.triggered.connect(lambda: self.table.show_ranges(estimates.shown))
        self.optimizations.selected_components = self._selected_component_names
        self.settings_panel = SettingsPanel(self.doc)
        self.redraws = RedrawScheduler(self.doc, self)
        self.results = ResultsPane(self.doc, self.redraws)
        self.summary = self.results.summary
        self.total_label = TotalLine(self.doc, self.redraws)
        self.files = FileActions(
            self.doc, self.settings, self, None if fresh else RecoveryStore(), remember=not fresh, parent=self
        )
        self.trace_import = TraceImport(self, self.files.adopt_import, self)
        self.job_import = JobImport(self.doc, self, self.files.adopt_import, self)  # several ranks: the job
        self.files.jobNamed.connect(self.job_import.restore)  # a workbook saved with its job: the job again
        self.make_chart = make_chart
        self.exports = ChartExports(self.doc, self.files, self, self.export_inputs, make_chart, self)
        self._reset_sizes: dict[str, list[int]] = {}  # the sizes Reset Layout gave, for a pane made later
        self.whatif = TraceWhatIf(self.doc, self)  # the profile's trace read and each plan computed, off this thread
        self.comparison_panel: ComparisonPanel | None = None  # made on the first File → Compare With…
        self._build_layout()
        menus = build_menus(self)
        self.recent_menu, self.import_action, self.revert_action = (
            menus.recent_menu,
            menus.import_action,
            menus.revert_action,
        )
        self.undo_action, self.redo_action = menus.undo_action, menus.redo_action
        self.export_comparison_action = menus.export_comparison_action
        WindowKeys(self)  # Ctrl+E and the other window keys from a text field too
        self.statusBar().showMessage("Ready")

        self.doc.changed.connect(lambda change: self._update_title() if change.path else None)
        self.doc.undo_stack.cleanChanged.connect(lambda _clean: self._update_title())
        self.files.sourceChanged.connect(self._update_title)
        self.files.opened.connect(self._opened)
        self.optimizations.selectedChanged.connect(self.redraws.select_optimization)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_selection_status())
        # a size and place remembered from the last session (else the start fits the screen)
        self.restored = not fresh and restore_layout(self)
        self.doc.changed.connect(lambda change: self.following.content_changed() if change.reset else None)
        self._update_title()

    # -- layout ------------------------------------------------------------
    def _build_layout(self) -> None:
        build_layout(self)

    # The Measurements and Objectives tabs: made when first shown or asked for, not with the first frame.
    @property
    def fit_panel(self) -> FitPanel:
        return cast("FitPanel", self.fit_page.built())

    @property
    def objectives_panel(self) -> ObjectivesPanel:
        return cast("ObjectivesPanel", self.objectives_page.built())

    def make_fit_panel(self) -> QWidget:
        from .fit.fit_panel import FitPanel

        return FitPanel(self.doc, self.redraws)

    def fit_panel_made(self, panel: QWidget) -> None:
        self.redraws.flush()  # its summary, fields and chart drawn now: made on request, it is used at once
        splitter = cast("FitPanel", panel).splitter
        self._splitters["measurements"] = splitter
        self.following.watch("measurements", splitter)
        state = None if self.fresh else self.settings.value("window/measurements")
        if isinstance(state, QByteArray):
            splitter.restoreState(state)
        elif "measurements" in self._reset_sizes:
            splitter.setSizes(self._reset_sizes["measurements"])

    def make_objectives_panel(self) -> QWidget:
        from .objectives.panel import ObjectivesPanel

        return ObjectivesPanel(self.doc)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.results.reflow()  # the window's height decides too, not only the results side's width
        self.following.resized()

    def _action(
        self, menu: QMenu, text: str, slot: Callable[[], object], shortcut: Shortcut = None, tip: str = ""
    ) -> QAction:
        act = QAction(text, self)
        if isinstance(shortcut, list):
            act.setShortcuts(shortcut)
        elif shortcut is not None:
            act.setShortcut(shortcut)
        # triggered(bool) would hand its "checked" flag to a slot's first optional parameter (a path, a folder).
        act.triggered.connect(lambda _checked=False: slot())
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        menu.addAction(act)
        return act

    # -- measured runs -----------------------------------------------------
    def open_measurements(self, path: str | Path | None = None) -> bool:
        from .fit.measurement_files import open_measurements

        opened = open_measurements(self, path)
        if opened:
            self.left_tabs.setCurrentWidget(self.fit_page)
        return opened

    def export_measurements(self, path: str | Path | None = None) -> bool:
        from .fit.measurement_files import export_measurements

        return export_measurements(self, path)

    # -- charts and selection ---------------------------------------------------
    def export_inputs(self) -> ChartInputs:
        """What an export or a copied chart is drawn from: the document end to end, the current optimization,
        the measured runs' fits, the document's component colours and the ticked plan's odds."""
        doc = self.doc
        row, odds = self.optimizations.current_row(), doc.decision.figures  # None: the export works them out
        plan = doc.decision.search  # the cheapest plan the summary states (None: the slide looks for it)
        return ChartInputs(
            doc.profile,
            doc.analysis,
            row,
            doc.fit,
            colours=doc.colours,
            uncertainty=odds,
            trace=doc.trace.figures,
            plan=plan,
            job=doc.job.figures,
        )

    @property
    def breakdown(self) -> Chart[Any]:
        return self.results.chart("breakdown")

    @property
    def speedup(self) -> Chart[Any]:
        return self.results.chart("speedup")

    @property
    def scaling(self) -> Chart[Any]:
        return self.results.chart("scaling")

    def _opened(self) -> None:
        self.table.fit_columns()
        if self.optimization_model.rowCount():
            self.optimizations.select_row(0)
        self.left_tabs.setCurrentIndex(0)  # a profile opens in its table, ready to type a time
        self.table.start_here()

    def _selected_rows(self) -> list[int]:
        n = len(self.doc.profile.components)
        return sorted({i.row() for i in self.table.selectionModel().selectedIndexes() if i.row() < n})

    def _selected_component_names(self) -> list[str]:
        comps = self.doc.profile.components
        return [comps[r].name for r in self._selected_rows()]

    def _update_selection_status(self) -> None:
        text = selection_status(self.doc.profile, self.doc.analysis, self._selected_rows(), locale_numbers())
        if text is not None:
            self.show_status(text)

    def _update_title(self) -> None:
        if not shiboken6.isValid(self.doc.undo_stack):  # the stack says "clean" once more while being destroyed
            return
        imported = self.files.imported_from
        if self.doc.path is not None:
            name = self.doc.path.name
        elif imported is not None and self.files.example_copy:
            name = f"Untitled copy of the example {imported.name}"
        elif imported is not None:
            name = f"{imported.name} (imported)"
        else:
            name = "Untitled"
        self.setWindowModified(not self.doc.undo_stack.isClean())
        self.setWindowTitle(f"{name}[*] — Amdahl Desk")
        self.revert_action.setEnabled(self.doc.path is not None)

    # -- asking the user (one place each, so tests can answer): the file controller's Prompts ----------
    def ask(self, title: str, text: str, buttons: Button, default: Button) -> Button:
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons, self)
        box.setDefaultButton(default)
        return Button(box.exec())

    def show_error(self, title: str, text: str) -> None:
        self.last_error = text
        if self.errors_to_stderr:  # a screenshot run has nobody to click a box away
            print(f"amdahl-desk: {text}", file=sys.stderr)
            return
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, Button.Ok, self)
        box.exec()

    def choose_file(self, save: bool, suggested: str = "", filters: str = FILTERS, title: str = "") -> str:
        folder = str(self.settings.value("files/last_folder", "") or "")
        if save and (not folder or is_bundled(Path(folder))):
            # Never propose the installation (where the examples live) or the working directory.
            folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
            if not Path(folder).is_dir():  # no Documents folder: the dialog would fall back to the working directory
                folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.HomeLocation)
        start = str(Path(folder) / suggested) if folder and suggested else suggested or folder
        if save:
            return QFileDialog.getSaveFileName(self, title or "Save Profile", start, filters)[0]
        return QFileDialog.getOpenFileName(self, title or "Open Profile", start, filters)[0]

    def choose_trace(self, folder: bool = False) -> list[str]:
        start = str(self.settings.value("files/trace_folder", "") or self.settings.value("files/last_folder", "") or "")
        if folder:
            # Without ShowDirsOnly: the rank traces show in the folder before it is chosen (Qt's own dialog).
            title = "Import Profile from Folder (one trace per rank)"
            chosen = QFileDialog.getExistingDirectory(self, title, start, QFileDialog.Option(0))
            paths = [chosen] if chosen else []
        else:
            paths = QFileDialog.getOpenFileNames(self, "Import Profile", start, TRACE_FILTERS)[0]
        if paths and not self.fresh:
            self.settings.setValue("files/trace_folder", str(Path(paths[0]).parent if not folder else paths[0]))
        return paths

    def choose_import(self, folder: bool = False) -> None:
        """File → Import Profile… (one trace, or several: a job) and Import Profile from Folder… (a job)."""
        paths = self.choose_trace(folder)
        if paths:
            self.import_traces([Path(p) for p in paths])

    def import_traces(self, paths: list[Path]) -> None:
        """Several rank traces, or a folder of them, open the job; one trace opens the import dialog."""
        if is_job(paths):
            self.job_import.start(paths)
        else:
            self.trace_import.start(paths)

    def show_status(self, text: str, ms: int = 0) -> None:
        self.statusBar().showMessage(text, ms)

    # -- comparing with an after profile -------------------------------------
    def compare_dialog(self) -> None:
        path = self.choose_file(save=False)
        if path:
            self.compare_with(Path(path))

    def compare_with(self, path: str | Path) -> bool:
        """Open the comparison of this document with the profile in ``path``; a message, nothing changed, if not."""
        if self.comparison_panel is None:
            from .compare.comparison_panel import ComparisonPanel

            # The window's child from the start, hidden until its tab shows it: a first file refused before the tab
            # exists leaves it with no other owner, and a widget nothing owns outlives the window to the end.
            self.comparison_panel = ComparisonPanel(self, self.redraws, self)
            self.comparison_panel.hide()
            self.comparison_panel.session.closed.connect(self._comparison_closed)
        if not self.comparison_panel.open_file(path):
            return False
        name = f"Compared with {Path(path).name}"
        index = self.results_tabs.indexOf(self.comparison_panel)
        if index < 0:
            index = self.results_tabs.addTab(self.comparison_panel, name)
        self.results_tabs.setTabText(index, name)
        self.results_tabs.setTabToolTip(index, str(Path(path).resolve()))
        self.results_tabs.setCurrentIndex(index)
        self.export_comparison_action.setEnabled(True)
        self.comparison_panel.table.setFocus()
        return True

    def export_comparison_dialog(self) -> None:
        if self.comparison_panel is not None:
            self.comparison_panel.export_dialog()

    def _tab_close_requested(self, index: int) -> None:
        if index > 0:  # the plan's tab stays
            self.close_comparison()

    def close_comparison(self) -> None:
        if self.comparison_panel is not None:
            self.comparison_panel.session.close()

    def _comparison_closed(self) -> None:
        if self.comparison_panel is not None:
            self.results_tabs.removeTab(self.results_tabs.indexOf(self.comparison_panel))
        self.export_comparison_action.setEnabled(False)

    def continue_from(self, continued: Continued, source: Path) -> bool:
        """The after profile as the new working document (unsaved), as opening a file does: save first, or not."""
        from ..present.comparison_words import continued_notes

        if not self.files.start_from(continued.profile, source, continued_notes(continued)):
            return False
        carried = len(continued.profile.optimizations)
        self.show_status(
            f"Continuing from {source.name}: {carried} optimization(s) carried over, unticked; save it to keep it",
            15000,
        )
        return True

    # -- window events -----------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.trace_import.dialog is not None:
            self.trace_import.dialog.reject()  # stops a read in progress
        self.job_import.close()
        if not self.files.maybe_save():
            event.ignore()
            return
        if not self.fresh:
            remember_layout(self)
        self.files.close()
        self.doc.trace.close()
        self.doc.job.close()
        event.accept()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths and may_be_dropped(paths[0]):  # a .xls or .ods too: the drop says what to do with it
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        # A workbook or components table opens; traces, nsys reports and folders of ranks are imported.
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        kind, chosen = route_drop(paths)
        if kind == "import":
            QTimer.singleShot(0, self, lambda: self.import_traces(chosen))
        else:
            QTimer.singleShot(0, self, lambda: self.files.open_path(chosen[0]))

    def reset_layout(self) -> None:
        """The window's panes in the proportions its content asks for (View → Reset Layout)."""
        forget_layout(self)
        reset_layout(self)
