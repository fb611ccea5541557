"""The main window: the spreadsheet on the left, the answer on the right, files and menus around them."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QGroupBox,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..files import READABLE
from ..model.errors import ProfileError
from ..model.units import format_speedup, format_time
from ..resources import example_path, icon_path
from .core.document import Document
from .files.file_actions import FileActions, is_bundled
from .files.recovery import RecoveryStore
from .profile.breakdown_chart import BreakdownChart
from .profile.component_table import ComponentTableModel
from .profile.component_view import ComponentTableView
from .profile.optimization_panel import OptimizationPanel
from .profile.optimization_table import OptimizationTableModel
from .profile.speedup_plot import SpeedupPlot
from .profile.summary_panel import SummaryPanel
from .scaling.scaling_plot import ScalingPlot
from .scaling.settings_panel import SettingsPanel

RECOVERY_INTERVAL_MS = 60_000
# The export module (and QtSvg with it) loads on first use, not at start-up.
CHART_NAMES = {"breakdown": "Where the time goes", "speedup": "Speedup against k", "scaling": "GPU scaling"}
RECOVERY_DEBOUNCE_MS = 500
UNDO_LIMIT = 1000
# Below this width of the results side (or height of the window) the charts go into tabs.
CHARTS_SIDE_BY_SIDE = (760, 800)
log = logging.getLogger(__name__)
FILTERS = "Profiles (*.xlsx *.xlsm *.csv);;Excel workbooks (*.xlsx *.xlsm);;CSV tables (*.csv);;All files (*)"


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


class MainWindow(FileActions, QMainWindow):
    """One document per window."""

    def __init__(self, fresh: bool = False) -> None:
        super().__init__()
        self.fresh = fresh  # ignore remembered layout and recent files (screenshots)
        self.settings = app_settings()
        self.doc = Document(parent=self)
        # Undo history is the memory that grows while editing (about 2 kB a step): bounded, and a setting.
        self.doc.undo_stack.setUndoLimit(undo_limit(self.settings))
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
        self.summary = SummaryPanel()
        self.breakdown = BreakdownChart()
        self.speedup = SpeedupPlot()
        self.scaling = ScalingPlot()
        self.total_label = QLabel()
        self.total_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.total_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._build_layout()
        self._build_menus()
        self.statusBar().showMessage("Ready")

        self.doc.analysisChanged.connect(self._redraw)
        self.doc.pathChanged.connect(self._update_title)
        self.doc.undo_stack.cleanChanged.connect(lambda _clean: self._update_title())
        self.optimizations.selectedChanged.connect(lambda _row: self._redraw_speedup())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_selection_status())
        if not fresh:
            geometry = self.settings.value("window/geometry")
            if isinstance(geometry, QByteArray):
                self.restoreGeometry(geometry)
            for name, splitter in self._splitters.items():
                state = self.settings.value(f"window/{name}")
                if isinstance(state, QByteArray):
                    splitter.restoreState(state)
        self._redraw()
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
        charts_top = QSplitter(Qt.Orientation.Horizontal)
        charts_top.addWidget(self.breakdown)
        charts_top.addWidget(self.speedup)
        charts_all = QSplitter(Qt.Orientation.Vertical)
        charts_all.addWidget(charts_top)
        charts_all.addWidget(self.scaling)
        # Narrow or short windows show one chart at a time, in tabs, instead of three squeezed ones.
        self.chart_tabs = QTabWidget()
        self.chart_tabs.setDocumentMode(True)
        self.charts_in_tabs = False
        self.chart_stack = QStackedWidget()
        self.chart_stack.addWidget(charts_all)
        self.chart_stack.addWidget(self.chart_tabs)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.summary)
        right.addWidget(self.chart_stack)
        right.setStretchFactor(0, 0)
        right.setStretchFactor(1, 1)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(0, 5)
        main.setStretchFactor(1, 6)
        for s in (left, right, charts_top, charts_all, main):
            s.setChildrenCollapsible(False)
        self.setCentralWidget(main)
        self._splitters = {"main": main, "left": left, "right": right, "charts": charts_top, "scaling": charts_all}
        # Reflow when the results side changes size: a window resized, a splitter dragged, the first layout.
        right.installEventFilter(self)
        self._settings_scroll = scroll
        self.summary.setMinimumWidth(280)
        for chart in (self.breakdown, self.speedup, self.scaling):
            chart.setMinimumSize(150, 100)  # small enough that a window can shrink to where the tabs take over
        self.resize(1600, 1000)

    def _reflow_charts(self) -> None:
        """Charts side by side when there is room for them, else in tabs under the summary."""
        right_width = self._splitters["right"].width()
        narrow = right_width < CHARTS_SIDE_BY_SIDE[0] or self.height() < CHARTS_SIDE_BY_SIDE[1]
        if narrow == self.charts_in_tabs:
            return
        self.charts_in_tabs = narrow
        top, both = self._splitters["charts"], self._splitters["scaling"]
        if narrow:
            self._wide_sizes = (top.sizes(), both.sizes())
            for chart in (self.breakdown, self.speedup, self.scaling):
                self.chart_tabs.addTab(chart, CHART_NAMES[self._chart_key(chart)])
            self.chart_stack.setCurrentIndex(1)
        else:
            self.chart_tabs.clear()
            top.insertWidget(0, self.breakdown)
            top.insertWidget(1, self.speedup)
            both.insertWidget(1, self.scaling)
            for chart in (self.breakdown, self.speedup, self.scaling):
                chart.show()
            self.chart_stack.setCurrentIndex(0)
            if getattr(self, "_wide_sizes", None):
                top.setSizes(self._wide_sizes[0])
                both.setSizes(self._wide_sizes[1])

    def _chart_key(self, chart: QWidget) -> str:
        return {id(self.breakdown): "breakdown", id(self.speedup): "speedup", id(self.scaling): "scaling"}[id(chart)]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._reflow_charts()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self._splitters.get("right"):
            self._reflow_charts()
        return super().eventFilter(watched, event)

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
        for name in ("breakdown", "speedup", "scaling"):
            self._action(copy_menu, CHART_NAMES[name], lambda _=False, n=name: self.copy_chart(n))
        export.addSeparator()
        self._action(export, "Export Components as &CSV…", self.export_csv)

        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&How Amdahl Desk Computes", self.show_help)
        self._action(help_menu, "&About Amdahl Desk", self.show_about)

    # -- redraw ------------------------------------------------------------
    def _redraw(self) -> None:
        profile, analysis = self.doc.profile, self.doc.analysis
        self.summary.update_analysis(profile, analysis, self.doc.analysis_error)
        self.breakdown.update_analysis(profile, analysis)
        self.scaling.update_analysis(analysis, profile.settings.overhead_model.value)
        self._redraw_speedup()
        unit = profile.unit
        n = len(profile.components)
        if analysis is None:
            self.total_label.setText(f"{n:,} components · {self.doc.analysis_error or ''}")
        else:
            c = analysis.combined
            text = f"<b>Total {format_time(analysis.baseline_total, unit)}</b> over {n:,} components"
            if c.enabled:
                text += (
                    f" → <b>{format_time(c.new_total, unit)}</b> after {c.enabled} optimization"
                    f"{'s' if c.enabled != 1 else ''} ({format_speedup(c.overall_speedup)}, "
                    f"saves {format_time(c.time_saved, unit)})"
                )
            if self.total_label.text() != text:
                self.total_label.setText(text)
        warnings = list(analysis.warnings if analysis else []) + list(self.doc.warnings)
        self.summary.set_notes(warnings)

    def _redraw_speedup(self) -> None:
        self.speedup.update_analysis(self.doc.profile, self.doc.analysis, self.optimizations.current_row())

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
        elif self.imported_from is not None and is_bundled(self.imported_from):
            name = f"Untitled copy of the example {self.imported_from.name}"
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

    def choose_file(self, save: bool, suggested: str = "", filters: str = FILTERS, title: str = "") -> str:
        folder = str(self.settings.value("files/last_folder", "") or "")
        if save and (not folder or is_bundled(Path(folder))):
            # Never propose the installation (where the examples live) or the working directory.
            folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        start = str(Path(folder) / suggested) if folder and suggested else suggested or folder
        if save:
            return QFileDialog.getSaveFileName(self, title or "Save Profile", start, filters)[0]
        return QFileDialog.getOpenFileName(self, title or "Open Profile", start, filters)[0]

    # -- files -------------------------------------------------------------

    def export_dialog(self, chart: str = "slide") -> None:
        from .files.export_dialog import ExportDialog, export_title

        dialog = ExportDialog(chart, self)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        name, fmt, size, transparent = dialog.choice()
        base = (self.doc.path or self.imported_from or Path("profile")).stem
        path = self.choose_file(
            save=True,
            suggested=f"{base}-{name}.{fmt}",
            filters=f"{fmt.upper()} (*.{fmt})",
            title=f"{export_title(name)} as {fmt.upper()}",
        )
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
        from .charts.export import CHART_TITLES, chart_widget, render_image

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
        w, h = max(self.width(), 800), max(self.height(), 500)
        left = min(max(int(w * 0.47), 420), 900)
        # The settings get their whole height (no scrolling) when the window has room for it.
        scroll = self._settings_scroll
        content = scroll.widget()
        width = scroll.viewport().width()
        layout = content.layout()
        needed = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() and width > 0 else -1
        needed = max(needed, content.minimumSizeHint().height())
        frame = self._splitters["left"].sizes()[2] - scroll.viewport().height() if scroll.isVisible() else 0
        frame = frame if 0 < frame < 100 else self.fontMetrics().height() + 24  # group title and margins
        settings = min(needed + frame + 2, int(h * 0.45))
        rest = max(h - settings, 200)
        sizes = {
            "main": [left, w - left],
            "left": [int(rest * 0.6), int(rest * 0.4), settings],
            "right": [int(h * 0.2), int(h * 0.8)],
            "charts": [(w - left) // 2] * 2,
            "scaling": [int(h * 0.4), int(h * 0.4)],
        }
        for name, splitter in self._splitters.items():
            splitter.setSizes(sizes[name])
        self._reflow_charts()

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
