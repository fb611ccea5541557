"""The window's menu bar: File, Edit, View, Profile, Export, Help — built from the window's controllers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from ..present.inputs import ChartInputs
from ..resources import example_path
from .charts.registry import ENTRIES, ChartEntry, Source
from .core.field_undo import EXTRA_REDO_KEYS
from .help_text import show_about, show_help
from .profile.component_table import TIME

if TYPE_CHECKING:
    from .main_window import MainWindow


@dataclass(frozen=True)
class Menus:
    """The menu entries the window changes later (enabled, filled, relabelled)."""

    recent_menu: QMenu
    import_action: QAction
    revert_action: QAction
    undo_action: QAction
    redo_action: QAction
    export_comparison_action: QAction


# The bundled examples, as File → Open Example offers them (each opens as an untitled copy).
EXAMPLES = (
    ("training-iteration.xlsx", "&Training Iteration", "A training step on 8 GPUs: reduced precision, kernels, sync"),
    ("llm-request.xlsx", "&LLM Request", "A request's latency: prefill and decode, TTFT and ITL, load and cost"),
    (
        "llm-request-after.xlsx",
        "LLM Request, &After the Change",
        "The same request measured after faster decode: open the LLM request, then Compare With… this",
    ),
)


def build_menus(window: MainWindow) -> Menus:
    bar, files, exports, table = window.menuBar(), window.files, window.exports, window.table
    file = bar.addMenu("&File")
    window._action(file, "&New", files.new_document, QKeySequence.StandardKey.New, "Start an empty profile")
    window._action(
        file,
        "&Open…",
        files.open_dialog,
        QKeySequence.StandardKey.Open,
        "Open a profile workbook (.xlsx) or a components table (.csv)",
    )
    recent_menu = file.addMenu("Open &Recent")
    recent_menu.aboutToShow.connect(lambda: files.fill_recent(recent_menu))
    examples = file.addMenu("Open &Example")

    def opener(name: str) -> Callable[[], object]:
        return lambda: files.open_path(example_path(name))

    for name, title, tip in EXAMPLES:
        window._action(examples, title, opener(name), None, tip)
    import_action = window._action(
        file,
        "&Import Profile…",
        window.choose_import,
        QKeySequence("Ctrl+I"),
        "Build the profile from a profiler's file: a PyTorch/Kineto trace, a speedscope profile, an nsys report",
    )
    window._action(
        file,
        "Import Profile from &Folder…",
        lambda: window.choose_import(folder=True),
        None,
        "A job: a folder of PyTorch traces, one per rank, joined at their collectives and answered for the whole job",
    )
    file.addSeparator()
    window._action(
        file,
        "Compare &With…",
        window.compare_dialog,
        None,
        "Hold a profile measured after the change against this one and its plan: predicted against measured",
    )
    file.addSeparator()
    window._action(file, "&Save", files.save, QKeySequence.StandardKey.Save)
    window._action(file, "Save &As…", files.save_as, QKeySequence.StandardKey.SaveAs)
    window._action(
        file,
        "Export Components as &CSV…",
        files.export_csv,
        None,
        "Write the components table as CSV (optimizations and settings stay in the workbook)",
    )
    revert_action = window._action(file, "Re&vert", files.revert, None, "Reload the file as it is on disk")
    file.addSeparator()
    window._action(
        file,
        "Open &Measurements…",
        window.open_measurements,
        None,
        "Read measured runs (N and a time or throughput) from a CSV or a workbook",
    )
    window._action(
        file,
        "Export Measurements as CS&V…",
        window.export_measurements,
        None,
        "Write the measured runs as CSV (amdahl-desk fit reads it)",
    )
    file.addSeparator()
    window._action(file, "&Quit", window.close, QKeySequence.StandardKey.Quit)

    edit = bar.addMenu("&Edit")
    undo_action = window.doc.undo_stack.createUndoAction(window, "&Undo")
    undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
    redo_action = window.doc.undo_stack.createRedoAction(window, "&Redo")
    redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    for extra in EXTRA_REDO_KEYS:
        if QKeySequence(extra) not in redo_keys:
            redo_keys.append(QKeySequence(extra))
    redo_action.setShortcuts(redo_keys)
    edit.addActions([undo_action, redo_action])
    edit.addSeparator()
    edit.addActions(
        [table.cut_action, table.copy_action, table.paste_action, table.clear_action, table.select_all_action]
    )
    edit.addSeparator()
    edit.addActions([table.insert_action, table.delete_rows_action, table.move_up_action, table.move_down_action])

    view = bar.addMenu("&View")
    window._action(view, "&Fit Columns", table.fit_columns, None, "Size the table's columns to their content")
    window._action(view, "&Reset Layout", window.reset_layout, None, "Put the panels back where they started")
    view.addAction(window.optimizations.estimates.toggle_action)

    profile = bar.addMenu("&Profile")
    profile.addActions([window.optimizations.add_action, window.optimizations.remove_action])
    profile.addSeparator()
    window._action(
        profile,
        "Sort Components by &Time",
        lambda: table.sort_by_column(TIME),
        None,
        "Largest first; click a column header to sort by it",
    )
    table.extra_context_actions = [window.optimizations.add_action]

    export = bar.addMenu("E&xport")
    window._action(
        export,
        "Export &Slide…",
        lambda: exports.export_dialog("slide"),
        QKeySequence("Ctrl+E"),
        "The key charts and numbers as one image (PNG, SVG or PDF) for a presentation",
    )
    window._action(
        export,
        "Export &Chart…",
        lambda: exports.export_dialog(window.results.front_chart()),
        None,
        "One chart as PNG, SVG or PDF, at a slide size (the chart in front first)",
    )
    window._action(
        export,
        "Export &Measured Chart…",
        lambda: exports.export_dialog("measured_scaling"),
        None,
        "A chart of the measured runs (speedup against the model, throughput, Karp–Flatt) at a slide size",
    )
    export.addSeparator()
    window._action(
        export,
        "Copy Slide &Image",
        lambda: exports.copy_chart("slide"),
        QKeySequence("Ctrl+Shift+C"),
        "Put the slide on the clipboard, to paste into a presentation",
    )
    copy_menu = export.addMenu("Copy C&hart Image")
    copy_measured = export.addMenu("Copy Measured Chart I&mage")
    for menu, entries in (
        (copy_menu, [e for e in ENTRIES if e.on_screen]),
        (copy_measured, [e for e in ENTRIES if e.source is Source.MEASUREMENTS]),
    ):
        offered = [(e, window._action(menu, e.title, partial(exports.copy_chart, e.key))) for e in entries]
        menu.setToolTipsVisible(True)
        menu.aboutToShow.connect(partial(_offer_charts, offered, exports.inputs))
    export.addSeparator()
    export_comparison_action = window._action(
        export,
        "Export C&omparison…",
        window.export_comparison_dialog,
        None,
        "The comparison chart or slide (predicted against measured) as PNG, SVG or PDF",
    )
    export_comparison_action.setEnabled(False)
    export.addSeparator()
    window._action(export, "Export Components as &CSV…", files.export_csv)

    help_menu = bar.addMenu("&Help")
    window._action(help_menu, "&How Amdahl Desk Computes", lambda: show_help(window))
    window._action(help_menu, "&About Amdahl Desk", lambda: show_about(window))
    return Menus(
        recent_menu=recent_menu,
        import_action=import_action,
        revert_action=revert_action,
        undo_action=undo_action,
        redo_action=redo_action,
        export_comparison_action=export_comparison_action,
    )


def _offer_charts(offered: list[tuple[ChartEntry, QAction]], inputs: Callable[[], ChartInputs]) -> None:
    """A chart that cannot be drawn now is greyed, its reason (what to open or import) in its tooltip; each is named
    for the profile (a CPU job's scaling is over ranks)."""
    now = inputs()
    for entry, act in offered:
        why = entry.source.missing(now) or (entry.needs(now) if entry.needs is not None else "") or None
        act.setEnabled(why is None)
        act.setText(entry.title_for(now.profile))
        act.setToolTip(why or entry.title_for(now.profile))
        act.setStatusTip(why or "")
