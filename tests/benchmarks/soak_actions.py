"""The window soak's actions: what a person does, at random but plausibly, with keys, clicks, menus and the clipboard.

Every action goes through the window as a person's would (QTest key and mouse events on the widget that has
the focus or is clicked, the menus' own actions, the clipboard); the file choosers and questions are answered
(files go to a scratch folder, traces come from the repository's fixtures). Used by bench_soak.py --window.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QTableView, QWidget

REPO = Path(__file__).resolve().parents[2]
TRACES = [REPO / "tests" / "traces" / "fixtures" / "torch_cpu_steps.json.gz"]
RUN_FILES = [REPO / "tests" / "fit" / "fixtures" / name for name in ("training-gpus.csv", "cisco.csv")]
WORDS = ["Loader", "Forward pass", "Backward", "All-reduce", "Optimizer step", "Checkpoint", "Eval", "Logging"]
TIMES = ["120", "45.5", "0", "1.2 s", "350 ms", "7", "1e3", "2500", "0,5", "fast", "", "-3", "1,500", "88"]
SKIPPED = ("Quit", "Revert", "Import Profile from Folder…")  # Quit ends the soak; the folder import needs ranks


class Person:
    """Drives one window: ``act()`` does one thing picked at random; ``counts`` says what was done."""

    def __init__(self, window: QWidget, scratch: Path, seed: int = 1) -> None:
        from amdahl_desk.resources import example_path

        self.win, self.scratch, self.rng = window, scratch, random.Random(seed)
        self.counts: Counter[str] = Counter()
        self.trail: deque[str] = deque(maxlen=8)  # the last actions, each with what it did (cell, text, key)
        self.errors: list[str] = []
        self.example = example_path()
        win = window
        win.ask = self._ask  # type: ignore[attr-defined]
        win.show_error = lambda title, text: self.errors.append(f"{title}: {text}")  # type: ignore[attr-defined]
        win.choose_file = self._choose_file  # type: ignore[attr-defined]
        win.choose_trace = lambda folder=False: [str(self.rng.choice(TRACES))]  # type: ignore[attr-defined]
        import amdahl_desk.ui.charts.export_dialog as export_dialog
        import amdahl_desk.ui.help_text as help_text

        export_dialog.ExportDialog.exec = lambda _self: QDialog.DialogCode.Accepted  # type: ignore[method-assign]
        help_text.QMessageBox = _SilentBox  # type: ignore[attr-defined,misc]
        self.actions: list[tuple[float, Callable[[], None]]] = [
            (30, self.type_in_a_cell),
            (10, self.press_keys),
            (8, self.paste_components),
            (8, self.paste_runs),
            (8, self.switch_tab),
            (6, self.drag_k),
            (5, self.tick),
            (6, self.menu),
            (6, self.undo_redo),
            (3, self.resize),
            (2, self.sort),
        ]

    # -- answering the window -------------------------------------------------
    def _ask(self, title: str, text: str, buttons: object, default: object) -> QMessageBox.StandardButton:
        return QMessageBox.StandardButton.Discard if "Unsaved" in title else QMessageBox.StandardButton.Yes

    def _choose_file(self, save: bool, suggested: str = "", filters: str = "", title: str = "") -> str:
        if save:
            return str(self.scratch / (Path(suggested).name or "saved.xlsx"))
        if "Measurements" in filters:
            return str(self.rng.choice(RUN_FILES))
        copy = self.scratch / "opened.xlsx"
        shutil.copyfile(self.example, copy)
        return str(copy)

    # -- one action -------------------------------------------------------------
    def act(self) -> str:
        weights = [w for w, _ in self.actions]
        action = self.rng.choices([a for _, a in self.actions], weights)[0]
        self.said = ""
        action()
        self.trail.append(f"{action.__name__} {self.said}".strip())
        self.counts[action.__name__] += 1
        self._finish_import()
        return action.__name__

    def _finish_import(self) -> None:
        dialog = self.win.trace_import.dialog  # type: ignore[attr-defined]
        if dialog is not None and dialog.preview_result is not None and dialog.pending is None:
            dialog.accept() if self.rng.random() < 0.7 else dialog.reject()

    def _visible_table(self) -> QTableView | None:
        win = self.win
        tab = win.left_tabs.currentIndex()  # type: ignore[attr-defined]
        choices = {
            0: [win.table, win.optimizations.view],  # type: ignore[attr-defined]
            1: [win.fit_panel.view],  # type: ignore[attr-defined]
            2: [win.objectives_panel.sheet],  # type: ignore[attr-defined]
        }[tab]
        view = self.rng.choice(choices)
        return view if view.isVisible() and view.model().rowCount() else None

    def _click_cell(self, view: QTableView) -> None:
        model = view.model()
        row = self.rng.randrange(model.rowCount())
        col = self.rng.randrange(model.columnCount())
        if view.isColumnHidden(col):
            return
        index = model.index(row, col)
        view.scrollTo(index)
        rect = view.visualRect(index)
        if rect.isValid():
            self.said += f"{type(view).__name__}({row},{col}) "
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())

    def _type(self, text: str) -> None:
        for ch in text:
            widget = QApplication.focusWidget()
            if widget is None:
                return
            if ord(ch) < 128:
                QTest.keyClicks(widget, ch)

    def type_in_a_cell(self) -> None:
        view = self._visible_table()
        if view is None:
            return
        self._click_cell(view)
        text = self.rng.choice(TIMES + WORDS)
        if text:
            self._type(text)
        key = self.rng.choice([Qt.Key.Key_Return, Qt.Key.Key_Tab, Qt.Key.Key_Return, Qt.Key.Key_Escape])
        self.said += f"{text!r} {key.name}"
        widget = QApplication.focusWidget()
        if widget is not None:
            QTest.keyClick(widget, key)

    def press_keys(self) -> None:
        widget = QApplication.focusWidget()
        if widget is None:
            return
        key, mods = self.rng.choice(
            [
                (Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier),
                (Qt.Key.Key_Right, Qt.KeyboardModifier.NoModifier),
                (Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier),
                (Qt.Key.Key_F2, Qt.KeyboardModifier.NoModifier),
                (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier),
                (Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier),
                (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
            ]
        )
        self.said = f"{key.name} {mods.name} on {type(widget).__name__}"
        QTest.keyClick(widget, key, mods)

    def _paste_into(self, view: QTableView, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self._click_cell(view)
        widget = QApplication.focusWidget()
        if widget is not None:
            QTest.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    def paste_components(self) -> None:
        if self.win.left_tabs.currentIndex() != 0:  # type: ignore[attr-defined]
            return
        rows = self.rng.randint(1, 60)
        header = "Component\tTime (ms)\tScaling\n" if self.rng.random() < 0.3 else ""
        body = "".join(
            f"{self.rng.choice(WORDS)} {self.rng.randrange(10_000)}\t{self.rng.choice(TIMES[:8])}\t"
            f"{self.rng.choice(['serial', 'parallel', 'communication'])}\n"
            for _ in range(rows)
        )
        self._paste_into(self.win.table, header + body)  # type: ignore[attr-defined]

    def paste_runs(self) -> None:
        if self.win.left_tabs.currentIndex() != 1:  # type: ignore[attr-defined]
            return
        rows = self.rng.choice([3, 8, 40, 300, 2000])
        header = "GPUs\tTime (ms)\n" if self.rng.random() < 0.3 else ""
        body = "".join(
            f"{2 ** (i % 9)}\t{1000 / 2 ** (i % 9) * (1.05 + 0.1 * self.rng.random()):.3f}\n" for i in range(rows)
        )
        self._paste_into(self.win.fit_panel.view, header + body)  # type: ignore[attr-defined]

    def switch_tab(self) -> None:
        tabs = self.win.left_tabs if self.rng.random() < 0.8 else self.win.results_tabs  # type: ignore[attr-defined]
        if tabs.count() < 2:
            return
        bar = tabs.tabBar()
        rect = bar.tabRect(self.rng.randrange(tabs.count()))
        QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())

    def drag_k(self) -> None:
        panel = self.win.optimizations  # type: ignore[attr-defined]
        slider = panel.slider
        if not slider.isVisible() or not slider.isEnabled():
            return
        slider.sliderPressed.emit()
        for _ in range(self.rng.randint(3, 20)):
            slider.setValue(self.rng.randrange(slider.maximum() + 1))
            QApplication.processEvents()
        slider.sliderReleased.emit()

    def tick(self) -> None:
        view = self.win.optimizations.view  # type: ignore[attr-defined]
        if not view.isVisible() or not view.model().rowCount():
            return
        row = self.rng.randrange(view.model().rowCount())
        rect = view.visualRect(view.model().index(row, 0))
        box = QPoint(rect.left() + 10, rect.center().y())
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box)

    def menu(self) -> None:
        bar = self.win.menuBar()  # type: ignore[attr-defined]
        found: list[QAction] = []

        def walk(actions: list[QAction]) -> None:
            for act in actions:
                if act.menu() is not None:
                    act.menu().aboutToShow.emit()
                    walk(act.menu().actions())
                elif not act.isSeparator() and act.isEnabled() and act.text().replace("&", "") not in SKIPPED:
                    found.append(act)

        walk(bar.actions())
        if found:
            act = self.rng.choice(found)
            self.counts["menu " + act.text().replace("&", "")] += 1
            act.trigger()

    def undo_redo(self) -> None:
        widget = QApplication.focusWidget() or self.win
        redo = self.rng.random() < 0.35
        mods = Qt.KeyboardModifier.ControlModifier | (
            Qt.KeyboardModifier.ShiftModifier if redo else Qt.KeyboardModifier.NoModifier
        )
        QTest.keyClick(widget, Qt.Key.Key_Z, mods)

    def resize(self) -> None:
        screen = self.win.screen().availableGeometry()  # type: ignore[attr-defined]
        w = self.rng.randint(min(900, screen.width()), screen.width())
        h = self.rng.randint(min(560, screen.height()), screen.height())
        self.win.resize(w, h)  # type: ignore[attr-defined]

    def sort(self) -> None:
        view = self._visible_table()
        if view is None:
            return
        header = view.horizontalHeader()
        col = self.rng.randrange(view.model().columnCount())
        if view.isColumnHidden(col):
            return
        x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
        QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 5))


class _SilentBox:
    """Help ▸ How Amdahl Desk Computes and About, answered at once."""

    @staticmethod
    def information(*_args: object) -> None:
        return None

    @staticmethod
    def about(*_args: object) -> None:
        return None
