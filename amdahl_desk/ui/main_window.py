"""The main window: the spreadsheet on the left, the answer on the right, files and menus around them."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QGroupBox,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QTabBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..files import READABLE
from ..model.comparison import Continued
from ..model.errors import ProfileError
from ..model.units import format_speedup, format_time
from ..resources import example_path, icon_path
from .charts.base import Chart
from .charts.registry import CHART_TITLES, ENTRIES
from .core.document import Document
from .core.redraw import RedrawScheduler
from .files.file_actions import FileActions
from .files.recovery import RecoveryStore
from .profile.component_table import ComponentTableModel
from .profile.component_view import ComponentTableView
from .profile.optimization_panel import OptimizationPanel
from .profile.optimization_table import OptimizationTableModel
from .profile.total_line import TotalLine
from .results_pane import ResultsPane
from .scaling.settings_panel import SettingsPanel

if TYPE_CHECKING:
    from .compare.comparison_panel import ComparisonPanel

RECOVERY_INTERVAL_MS = 60_000
# The export module (and QtSvg with it) loads on first use, not at start-up.
RECOVERY_DEBOUNCE_MS = 500
log = logging.getLogger(__name__)
FILTERS = "Profiles (*.xlsx *.xlsm *.csv);;Excel workbooks (*.xlsx *.xlsm);;CSV tables (*.csv);;All files (*)"


def app_settings() -> QSettings:
    """Settings in an ini file under the user's config folder (or $AMDAHL_DESK_CONFIG_DIR, as tests use)."""
    folder = os.environ.get("AMDAHL_DESK_CONFIG_DIR")
    if not folder:
        from platformdirs import user_config_dir

        folder = user_config_dir("amdahl-desk", appauthor=False)
    return QSettings(str(Path(folder) / "amdahl-desk.ini"), QSettings.Format.IniFormat)


class MainWindow(FileActions, QMainWindow):
    """One document per window."""

    def __init__(self, fresh: bool = False) -> None:
        super().__init__()
        self.fresh = fresh  # ignore remembered layout and recent files (screenshots)
        self.settings = app_settings()
        self.doc = Document(parent=self)
        self.imported_from: Path | None = None
        self.setAcceptDrops(True)
        if icon_path().exists():
            self.setWindowIcon(QIcon(str(icon_path())))

        self.component_model = ComponentTableModel(self.doc)
        self.table = ComponentTableView(self.component_model)
        self.optimization_model = OptimizationTableModel(self.doc)
        self.optimizations = OptimizationPanel(self.optimization_model)
        self.optimizations.selected_components = self._selected_component_names
        self.settings_panel = SettingsPanel(self.doc)
        self.redraws = RedrawScheduler(self.doc, self)
        self.results = ResultsPane(self.doc, self.redraws)
        self.summary = self.results.summary
        self.total_label = TotalLine(self.doc, self.redraws)
        self.comparison_panel: ComparisonPanel | None = None  # made on the first File → Compare With…
        self._build_layout()
        self._build_menus()
        self.statusBar().showMessage("Ready")

        self.doc.pathChanged.connect(self._update_title)
        self.doc.undo_stack.cleanChanged.connect(lambda _clean: self._update_title())
        self.optimizations.selectedChanged.connect(self.redraws.select_optimization)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_selection_status())
        if not fresh:
            geometry = self.settings.value("window/geometry")
            if isinstance(geometry, QByteArray):
                self.restoreGeometry(geometry)
            for name, splitter in self._splitters.items():
                state = self.settings.value(f"window/{name}")
                if isinstance(state, QByteArray):
                    splitter.restoreState(state)
        self._update_title()
        self.disk_stamp: tuple[int, int] | None = None
        # Unsaved work is copied to the data folder every minute and after structural changes.
        self.recovery = None if fresh else RecoveryStore()
        self.recovery_timer = QTimer(self)
        self.recovery_timer.setInterval(RECOVERY_INTERVAL_MS)
        self.recovery_timer.timeout.connect(self.write_recovery)
        self.recovery_timer.start()
        # Rows and optimizations added or removed: copy soon (debounced, so a burst of changes writes once).
        self.recovery_soon = QTimer(self)
        self.recovery_soon.setSingleShot(True)
        self.recovery_soon.setInterval(RECOVERY_DEBOUNCE_MS)
        self.recovery_soon.timeout.connect(self.write_recovery)
        self._optimization_count = len(self.doc.profile.optimizations)
        for signal in (self.doc.componentsInserted, self.doc.componentsRemoved, self.doc.componentsReordered):
            signal.connect(self.recovery_soon.start)
        self.doc.optimizationsChanged.connect(self._optimizations_changed)
        self.doc.undo_stack.cleanChanged.connect(self._clean_changed)

    # -- crash recovery ----------------------------------------------------

    # -- layout ------------------------------------------------------------
    def _group(self, title: str, widget: QWidget, extra: QWidget | None = None) -> QGroupBox:
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(widget)
        if extra is not None:
            layout.addWidget(extra)
        return box

    def _build_layout(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self._group("Components — the measured profile", self.table, self.total_label))
        left.addWidget(self._group("Optimizations — tick to include", self.optimizations))
        scroll = QScrollArea()
        scroll.setWidget(self.settings_panel)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        left.addWidget(self._group("Settings", scroll))
        left.setStretchFactor(0, 5)
        left.setStretchFactor(1, 3)
        left.setStretchFactor(2, 0)
        right, charts_top = self.results, self.results.top
        # The plan's results, and a comparison's tab beside them while one is open (no tab bar until then).
        self.results_tabs = QTabWidget()
        self.results_tabs.setDocumentMode(True)
        self.results_tabs.setTabBarAutoHide(True)
        self.results_tabs.setTabsClosable(True)
        self.results_tabs.addTab(right, "Plan")
        self.results_tabs.tabBar().setTabButton(0, QTabBar.ButtonPosition.RightSide, None)
        self.results_tabs.tabCloseRequested.connect(self._tab_close_requested)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(self.results_tabs)
        main.setStretchFactor(0, 5)
        main.setStretchFactor(1, 6)
        for s in (left, main):
            s.setChildrenCollapsible(False)
        self.setCentralWidget(main)
        self._splitters = {"main": main, "left": left, "right": right, "charts": charts_top}
        self.resize(1600, 1000)

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:  # type: ignore[no-untyped-def]
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcuts(shortcut if isinstance(shortcut, list) else [shortcut])
        act.triggered.connect(slot)
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&New", self.new_document, QKeySequence.StandardKey.New, "Start an empty profile")
        self._action(
            file,
            "&Open…",
            self.open_dialog,
            QKeySequence.StandardKey.Open,
            "Open a profile workbook (.xlsx) or a components table (.csv)",
        )
        self.recent_menu = file.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(
            file,
            "Open &Example",
            lambda: self.open_path(example_path()),
            None,
            "Open the bundled training-iteration example",
        )
        file.addSeparator()
        self._action(
            file,
            "Compare &With…",
            self.compare_dialog,
            None,
            "Hold a profile measured after the change against this one and its plan: predicted against measured",
        )
        file.addSeparator()
        self._action(file, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(file, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        self._action(
            file,
            "Export Components as &CSV…",
            self.export_csv,
            None,
            "Write the components table as CSV (optimizations and settings stay in the workbook)",
        )
        self.revert_action = self._action(file, "Re&vert", self.revert, None, "Reload the file as it is on disk")
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit = bar.addMenu("&Edit")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcuts(QKeySequence.StandardKey.Undo)
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        for extra in ("Ctrl+Shift+Z", "Ctrl+Y"):
            if QKeySequence(extra) not in redo_keys:
                redo_keys.append(QKeySequence(extra))
        redo.setShortcuts(redo_keys)
        edit.addAction(undo)
        edit.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        edit.addSeparator()
        for act in (
            self.table.cut_action,
            self.table.copy_action,
            self.table.paste_action,
            self.table.clear_action,
            self.table.select_all_action,
        ):
            edit.addAction(act)
        edit.addSeparator()
        for act in (
            self.table.insert_action,
            self.table.delete_rows_action,
            self.table.move_up_action,
            self.table.move_down_action,
        ):
            edit.addAction(act)

        view = bar.addMenu("&View")
        self._action(view, "&Fit Columns", self.table.fit_columns, None, "Size the table's columns to their content")
        self._action(view, "&Reset Layout", self.reset_layout, None, "Put the panels back where they started")

        profile = bar.addMenu("&Profile")
        profile.addAction(self.optimizations.add_action)
        profile.addAction(self.optimizations.remove_action)
        profile.addSeparator()
        self._action(
            profile,
            "Sort Components by &Time",
            lambda: self.table.sort_by_column(1),
            None,
            "Largest first; click a column header to sort by it",
        )
        self.table.extra_context_actions = [self.optimizations.add_action]

        export = bar.addMenu("E&xport")
        self._action(
            export,
            "Export &Slide…",
            lambda: self.export_dialog("slide"),
            QKeySequence("Ctrl+E"),
            "The key charts and numbers as one image (PNG, SVG or PDF) for a presentation",
        )
        self._action(
            export,
            "Export &Chart…",
            lambda: self.export_dialog("breakdown"),
            None,
            "One chart as PNG, SVG or PDF, at a slide size",
        )
        export.addSeparator()
        self._action(
            export,
            "Copy Slide &Image",
            lambda: self.copy_chart("slide"),
            QKeySequence("Ctrl+Shift+C"),
            "Put the slide on the clipboard, to paste into a presentation",
        )
        copy_menu = export.addMenu("Copy C&hart Image")
        for entry in ENTRIES:
            if entry.on_screen:
                self._action(copy_menu, entry.title, lambda _=False, n=entry.key: self.copy_chart(n))
        export.addSeparator()
        self.export_comparison_action = self._action(
            export,
            "Export C&omparison…",
            self.export_comparison_dialog,
            None,
            "The comparison chart or slide (predicted against measured) as PNG, SVG or PDF",
        )
        self.export_comparison_action.setEnabled(False)
        export.addSeparator()
        self._action(export, "Export Components as &CSV…", self.export_csv)

        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&How Amdahl Desk Computes", self.show_help)
        self._action(help_menu, "&About Amdahl Desk", self.show_about)

    # -- charts ------------------------------------------------------------
    @property
    def breakdown(self) -> Chart:
        return self.results.chart("breakdown")

    @property
    def speedup(self) -> Chart:
        return self.results.chart("speedup")

    @property
    def scaling(self) -> Chart:
        return self.results.chart("scaling")

    def _selected_component_names(self) -> list[str]:
        comps = self.doc.profile.components
        rows = sorted({i.row() for i in self.table.selectionModel().selectedIndexes() if i.row() < len(comps)})
        return [comps[r].name for r in rows]

    def _update_selection_status(self) -> None:
        a = self.doc.analysis
        rows = sorted(
            {
                i.row()
                for i in self.table.selectionModel().selectedIndexes()
                if i.row() < len(self.doc.profile.components)
            }
        )
        if a is None or len(rows) < 2:
            return
        share = float(a.fractions[rows].sum())
        total = float(a.times[rows].sum())
        self.statusBar().showMessage(
            f"{len(rows):,} components selected: {format_time(total, self.doc.unit)}, f = {share:.1%} of the time; "
            f"ceiling if they took no time: {format_speedup(1 / (1 - share) if share < 1 else float('inf'))}"
        )

    def _update_title(self) -> None:
        if not shiboken6.isValid(self.doc.undo_stack):  # the stack says "clean" once more while being destroyed
            return
        if self.doc.path is not None:
            name = self.doc.path.name
        elif self.imported_from is not None:
            name = f"{self.imported_from.name} (imported)"
        else:
            name = "Untitled"
        self.setWindowModified(not self.doc.undo_stack.isClean())
        self.setWindowTitle(f"{name}[*] — Amdahl Desk")
        self.revert_action.setEnabled(self.doc.path is not None)

    # -- asking the user (one place, so tests can answer) ------------------
    def ask(
        self, title: str, text: str, buttons: QMessageBox.StandardButton, default: QMessageBox.StandardButton
    ) -> QMessageBox.StandardButton:
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons, self)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def show_error(self, title: str, text: str) -> None:
        self.last_error = text
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.exec()

    def choose_file(self, save: bool, suggested: str = "", filters: str = FILTERS) -> str:
        folder = str(self.settings.value("files/last_folder", "") or "")
        start = str(Path(folder) / suggested) if folder and suggested else suggested or folder
        if save:
            return QFileDialog.getSaveFileName(self, "Save Profile", start, filters)[0]
        return QFileDialog.getOpenFileName(self, "Open Profile", start, filters)[0]

    # -- files -------------------------------------------------------------

    def export_dialog(self, chart: str = "slide") -> None:
        from .files.export_dialog import ExportDialog

        dialog = ExportDialog(chart, self)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        name, fmt, size, transparent = dialog.choice()
        base = (self.doc.path or self.imported_from or Path("profile")).stem
        path = self.choose_file(save=True, suggested=f"{base}-{name}.{fmt}", filters=f"{fmt.upper()} (*.{fmt})")
        if path:
            self.export_chart_to(Path(path), name, fmt, size, transparent)

    def export_chart_to(
        self, path: Path, name: str, fmt: str, size: tuple[int, int] = (1920, 1080), transparent: bool = False
    ) -> bool:
        from .charts.export import export_chart

        if path.suffix.lower() != f".{fmt}":
            path = path.with_suffix(f".{fmt}")
        try:
            export_chart(
                self.doc.profile,
                self.doc.analysis,
                name,
                fmt,
                path,
                size,
                transparent,
                self.optimizations.current_row(),
            )
        except ProfileError as exc:
            self.show_error("Cannot export", str(exc))
            return False
        except OSError as exc:
            self.show_error("Cannot export", f"{path}: {exc.strerror or exc}")
            return False
        self.statusBar().showMessage(f"Exported {path.name} ({size[0]}×{size[1]})", 8000)
        return True

    def copy_chart(self, name: str, size: tuple[int, int] = (1920, 1080)) -> bool:
        """Put a chart (or the slide) on the clipboard as an image, for pasting into a presentation."""
        from .charts.export import chart_widget, render_image

        if self.doc.analysis is None:
            self.show_error("Cannot copy", self.doc.analysis_error or "nothing to chart")
            return False
        widget = chart_widget(name, self.doc.profile, self.doc.analysis, size, row=self.optimizations.current_row())
        image = render_image(widget, size)
        widget.close()
        widget.deleteLater()
        QGuiApplication.clipboard().setImage(image)
        self.statusBar().showMessage(
            f"Copied {CHART_TITLES[name].lower()} ({size[0]}×{size[1]}) to the clipboard", 8000
        )
        return True

    # -- comparing with an after profile -------------------------------------
    def compare_dialog(self) -> None:
        path = self.choose_file(save=False)
        if path:
            self.compare_with(Path(path))

    def compare_with(self, path: str | Path) -> bool:
        """Open the comparison of this document with the profile in ``path``; a message, nothing changed, if not."""
        if self.comparison_panel is None:
            from .compare.comparison_panel import ComparisonPanel

            self.comparison_panel = ComparisonPanel(self, self.redraws)
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
        if not self.maybe_save():
            return False
        self.imported_from = source
        self.doc.reset(continued.profile, None, list(continued.notes))
        self.doc.undo_stack.resetClean()  # new work, saved nowhere yet
        self.disk_stamp = None
        self._update_title()
        self.table.fit_columns()
        carried = len(continued.profile.optimizations)
        self.statusBar().showMessage(
            f"Continuing from {source.name}: {carried} optimization(s) carried over, unticked; save it to keep it",
            15000,
        )
        return True

    # -- window events -----------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        if not self.fresh:
            self.settings.setValue("window/geometry", self.saveGeometry())
            for name, splitter in self._splitters.items():
                self.settings.setValue(f"window/{name}", splitter.saveState())
            self.settings.sync()
        if self.recovery is not None:
            self.recovery.clear()  # saved or discarded: nothing to recover
        self.recovery_timer.stop()
        event.accept()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).suffix.lower() in READABLE + (".xls",):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            QTimer.singleShot(0, self, lambda: self.open_path(urls[0].toLocalFile()))

    def reset_layout(self) -> None:
        for name in self._splitters:
            self.settings.remove(f"window/{name}")
        # Proportions of the window: the table gets what its columns need, the charts the rest.
        w, h = max(self.width(), 800), max(self.height(), 600)
        left = min(780, int(w * 0.47))
        sizes = {
            "main": [left, w - left],
            "left": [int(h * 0.45), int(h * 0.27), int(h * 0.28)],
            "right": [int(h * 0.17), int(h * 0.42), int(h * 0.41)],
            "charts": [(w - left) // 2] * 2,
        }
        for name, splitter in self._splitters.items():
            splitter.setSizes(sizes[name])

    def show_help(self) -> None:
        from ..model.profile import OverheadModel

        models = "".join(f"<li><b>{m.value}</b>: {m.description}</li>" for m in OverheadModel)
        QMessageBox.information(
            self,
            "How Amdahl Desk computes",
            (
                "<p><b>One optimization</b>: f is its targets' share of the baseline time, k its local speedup. "
                "S = 1/((1−f)+f/k); new time T1·((1−f)+f/k); ceiling 1/(1−f).</p>"
                "<p><b>Several</b>: each component's new time is its time ÷ the product of the k of the enabled "
                "optimizations that target it; S = T1 ÷ Σ new times. Speedups are never added.</p>"
                "<p><b>Target</b>: the enabled optimizations' components need k = f·T1/(T − (1−f)·T1); no k is enough "
                "when T ≤ (1−f)·T1.</p>"
                f"<p><b>GPU scaling</b>, relative to N0: Amdahl 1/((1−P)+P·N0/N); with overhead T1/T(N), "
                f"T(N) = serial + parallel·N0/N + comm(N):</p><ul>{models}</ul>"
                "<p>Gustafson (1−P)+P·N/N0; efficiency = S ÷ (N/N0).</p>"
                "<p>Measure → estimate → optimize → measure again: use time fractions inside a stated boundary.</p>"
            ),
        )

    def show_about(self) -> None:
        from .. import __version__

        QMessageBox.about(
            self,
            "About Amdahl Desk",
            f"<b>Amdahl Desk {__version__}</b><p>Decide which optimization is worth building.</p>",
        )
