"""Every entry of the window's menus, chosen as a person chooses it, with its dialogs answered: none fails."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox

from amdahl_desk.files import write_workbook
from amdahl_desk.ui.charts.registry import CHART_TITLES, JOB_CHARTS
from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import TIME

from .driving import type_in_cell

pytestmark = pytest.mark.gui
HERE = Path(__file__).resolve().parents[1]
RUNS = HERE / "fit" / "fixtures" / "training-gpus.csv"
TRACE = HERE / "traces" / "fixtures" / "torch_cpu_steps.json.gz"
RANKS = HERE / "traces" / "fixtures" / "gloo"


def menu_actions(menu: QMenu, path: str = "") -> list[tuple[str, QAction]]:
    """Every action under ``menu``, submenus included (filled as they are when opened), named by its menu path."""
    menu.aboutToShow.emit()
    found = []
    for act in menu.actions():
        if act.isSeparator():
            continue
        name = f"{path} → {act.text().replace('&', '')}"
        if act.menu() is not None:
            found += menu_actions(act.menu(), name)
        else:
            found.append((name, act))
    return found


class Answers:
    """The window's file choosers and questions, answered as a person would, and what they were asked."""

    def __init__(self, window, folder: Path) -> None:
        self.window, self.folder, self.chosen = window, folder, []
        window.choose_file = self.choose_file
        window.choose_trace = lambda folder=False: [str(RANKS if folder else TRACE)]
        window.answer = QMessageBox.StandardButton.Discard

    def choose_file(self, save: bool, suggested: str = "", filters: str = "", title: str = "") -> str:
        self.chosen.append((save, suggested, filters, title))
        if save:
            return str(self.folder / (Path(suggested).name or "saved.xlsx"))
        if "Measurements" in filters:
            return str(RUNS)
        # The profile open now, as a file: Open opens it again, Compare With… compares it with itself (the last
        # Open Example entry may have opened any bundled example).
        copy = self.folder / f"opened-{len(self.chosen)}.xlsx"
        write_workbook(self.window.doc.profile, copy)
        return str(copy)


def test_every_menu_action_works_without_an_error_box_or_a_logged_error(window, qtbot, tmp_path, monkeypatch, caplog):
    import amdahl_desk.ui.charts.export_dialog as export_dialog
    import amdahl_desk.ui.help_text as help_text

    Answers(window, tmp_path)
    shown: list[str] = []
    monkeypatch.setattr(export_dialog.ExportDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(help_text.QMessageBox, "information", lambda parent, title, text: shown.append(title))
    monkeypatch.setattr(help_text.QMessageBox, "about", lambda parent, title, text: shown.append(title))
    caplog.set_level(logging.WARNING, logger="amdahl_desk")
    type_in_cell(qtbot, window.table, 0, TIME, "150")  # unsaved work, so Save has something to write

    actions = [(m.title().replace("&", ""), m) for m in (a.menu() for a in window.menuBar().actions())]
    every = [item for title, menu in actions for item in menu_actions(menu, title)]
    assert len(every) > 40
    by_name = dict(every)
    needs = {"Export → Export Comparison…": "File → Compare With…"}  # enabled while a comparison is open
    done: set[str] = set()
    greyed: list[str] = []
    for name, act in every:
        if name.endswith("Quit"):
            continue
        if name in needs and not act.isEnabled():
            by_name[needs[name]].trigger()
        for menu in act.associatedObjects():  # a chart's copy menu opened again, as a person opens it, for the
            if isinstance(menu, QMenu) and "Chart Image" in menu.title().replace("&", ""):  # document as it is now
                menu.aboutToShow.emit()
        if not act.isEnabled() and act.toolTip() not in ("", act.text()):  # greyed, saying what it needs
            greyed.append(name)
            done.add(name)
            continue
        assert act.isEnabled(), name
        act.trigger()
        dialog = window.trace_import.dialog
        if dialog is not None:  # the import's preview: take it, then undo it (the comparison needs the example)
            qtbot.waitUntil(lambda d=dialog: d.preview_result is not None and d.pending is None, timeout=20000)
            with qtbot.waitSignal(window.trace_import.finished) as imported:
                dialog.accept()
            assert imported.args == [True]
            window.undo_action.trigger()
        settle_layout()
        done.add(name)
        assert window.errors == [], f"{name}: {window.errors}"
        assert not caplog.records, f"{name}: {[r.getMessage() for r in caplog.records]}"
    # Each copy menu opened again before its entry is chosen, as a person opens it: by then the window holds the job
    # of ranks imported from a folder (its charts and the critical path copy for real) and measured runs, and no
    # optimization nor arrival rate, so the charts of a plan and of load are greyed, saying what they need (checked
    # above), and only they.
    plan = ("Speedup against k", "What matters most (speedup at each low and high k)", "Latency against load")
    assert sorted(greyed) == sorted(f"Export → Copy Chart Image → {title}" for title in plan), greyed
    jobs = tuple(CHART_TITLES[k] for k in JOB_CHARTS)
    assert all(f"Export → Copy Chart Image → {title}" in done for title in jobs)
    never = [name for name, act in every if name not in done and not name.endswith("Quit")]
    assert never == [], f"never chosen: {never}"
    assert "How Amdahl Desk computes" in shown and "About Amdahl Desk" in shown
    quit_action = next(act for name, act in every if name.endswith("Quit"))
    quit_action.trigger()
    qtbot.waitUntil(lambda: not window.isVisible())
