"""Every number the window shows follows the machine's locale: a sweep over every panel and tab on a German desktop."""

import contextlib
import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from amdahl_desk.resources import example_path
from amdahl_desk.ui.objectives.load_cost_settings import LoadCostSettings

from .test_traced_decision_window import traced_workbook  # noqa: F401 - a fixture

pytestmark = pytest.mark.gui

GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)
# A decimal point in the model's format: 1.43×, 0.5, 87.25 (a German thousands group always has three digits).
MODEL_DECIMAL = re.compile(r"(?<![\w.#-])\d+\.(\d{1,2}|\d{4,})(?![\d\w])")


@pytest.fixture
def german_window(qtbot, tmp_path):
    from amdahl_desk.ui.main_window import MainWindow

    before = QLocale()
    QLocale.setDefault(GERMAN)
    examples = example_path().parent
    shutil.copy(examples / "llm-request.xlsx", tmp_path / "llm.xlsx")
    win = MainWindow(fresh=True)
    qtbot.addWidget(win)
    win.ask = lambda title, text, buttons, default: QMessageBox.StandardButton.Discard  # closing the window
    win.show_error = lambda title, text: pytest.fail(f"error: {text}")
    win.resize(1600, 1000)
    assert win.files.open_path(tmp_path / "llm.xlsx", ask=False)
    win.show()
    qtbot.waitExposed(win)
    assert win.open_measurements(Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv")
    assert win.compare_with(examples / "llm-request-after.xlsx")
    win.redraws.flush()
    yield win
    QLocale.setDefault(before)


def shown_texts(win):
    """(where, text) for every visible label, button, field and table cell as its delegate shows it, and each
    cell's and widget's tooltip."""
    out = []
    for label in win.findChildren(QLabel):
        if label.isVisible():
            out.append((f"label in {type(label.parent()).__name__}", re.sub(r"<[^>]+>", " ", label.text())))
    for button in win.findChildren(QAbstractButton):
        if button.isVisible():
            out.append((f"button in {type(button.parent()).__name__}", button.text()))
    for widget in win.findChildren(QWidget):
        if widget.isVisible() and widget.toolTip():
            out.append((f"tooltip of {type(widget).__name__} in {type(widget.parent()).__name__}", widget.toolTip()))
    for edit in win.findChildren(QLineEdit):
        if edit.isVisible():
            out.append((f"field {edit.objectName()}", edit.text()))
    for view in win.findChildren(QAbstractItemView):
        if isinstance(view, QHeaderView) or not view.isVisible() or view.model() is None:
            continue
        model = view.model()
        for c in range(model.columnCount()):  # the headers' tooltips: what each column holds, with examples
            tip = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str):
                out.append((f"{type(model).__name__} header {c}'s tooltip", tip))
        for r in range(min(model.rowCount(), 40)):
            for c in range(model.columnCount()):
                index = model.index(r, c)
                value = index.data()
                if isinstance(value, str):
                    delegate = view.itemDelegateForIndex(index)
                    out.append((f"{type(model).__name__} column {c}", delegate.displayText(value, view.locale())))
                tip = index.data(Qt.ItemDataRole.ToolTipRole)  # a cell's tooltip: its formula, its figures
                if isinstance(tip, str):
                    out.append((f"{type(model).__name__} column {c}'s tooltip", tip))
    return out


def in_the_models_format(win):
    """Every text any tab of the window shows, each tab in turn, that writes a number in the model's format."""
    found = {}
    tabs = win.findChildren(QTabWidget)
    assert tabs
    for tab_widget in tabs:
        for i in range(tab_widget.count()):
            tab_widget.setCurrentIndex(i)
            win.redraws.flush()
            for where, text in shown_texts(win):
                if MODEL_DECIMAL.search(text or ""):
                    found.setdefault(where, text)
    return "\n".join(f"{where}: {text}" for where, text in found.items())


@contextlib.contextmanager
def german(qtbot):
    """A fresh window made on a German desktop (its widgets take the locale when made), shown at 1600×1000."""
    from amdahl_desk.ui.main_window import MainWindow

    before = QLocale()
    QLocale.setDefault(GERMAN)
    try:
        win = MainWindow(fresh=True)
        qtbot.addWidget(win)
        win.ask = lambda title, text, buttons, default: QMessageBox.StandardButton.Discard
        win.show_error = lambda title, text: pytest.fail(f"error: {text}")
        win.drawn = lambda: qtbot.waitUntil(lambda: not win.redraws.pending)
        win.resize(1600, 1000)
        win.show()
        qtbot.waitExposed(win)
        yield win
    finally:
        QLocale.setDefault(before)


def test_no_panel_or_tab_shows_a_number_in_the_models_format(german_window, qtbot):
    assert in_the_models_format(german_window) == ""


def test_a_field_shown_in_the_locale_reads_back_as_the_same_value(german_window):
    german_window.objectives_panel  # noqa: B018 - the tab's panel is made when first asked for
    panel = german_window.findChild(LoadCostSettings)
    before = german_window.doc.profile.settings
    assert panel.fields["gpu_price_per_hour"].text() == "$2,5"
    for name, edit in panel.fields.items():
        assert panel.commit(name), (name, edit.text(), panel.message(name))
    assert german_window.doc.profile.settings == before


def test_a_refused_fields_examples_are_read_by_that_field(german_window):
    """A German desktop typing "abc" as the GPU price is told what the field takes: "2,5", not "2.5" (which the
    same field refuses). Each example the refusal shows, typed into the field, is taken."""
    german_window.objectives_panel  # noqa: B018 - the tab's panel is made when first asked for
    panel = german_window.findChild(LoadCostSettings)
    other = {"gpu_price_per_hour": "energy_price_per_kwh", "energy_price_per_kwh": "gpu_price_per_hour"}
    for name in ("gpu_price_per_hour", "energy_price_per_kwh", "watts_per_gpu"):
        if name in other:  # the other price emptied: an example's currency is then never a second one
            panel.fields[other[name]].setText("")
            assert panel.commit(other[name])
        panel.fields[name].setText("abc")
        assert not panel.commit(name)
        said = panel.message(name)
        examples = re.findall(r'"([^"]+)"', said[said.index("like") :])
        assert len(examples) >= 3 and any("," in e for e in examples), said
        for text in examples:
            panel.fields[name].setText(text)
            assert panel.commit(name), (name, text, panel.message(name))


def test_a_traced_profile_shows_its_path_figures_and_their_tooltips_in_the_locale(qtbot, traced_workbook):  # noqa: F811
    """The columns and tooltips a trace adds (on the path, S and ceiling with deps, the new time's path) too."""
    from .test_traced_decision_window import decided

    with german(qtbot) as win:
        assert win.files.open_path(traced_workbook, ask=False)
        decided(win, qtbot)
        assert any("critical path" in text for where, text in shown_texts(win) if "tooltip" in where)  # its own
        assert in_the_models_format(win) == ""


def test_the_odds_and_the_plan_speak_the_locale(qtbot, tmp_path):
    """k as ranges with efforts and a target: the odds, the cheapest plan, the tornado and the spread, in German."""
    from dataclasses import replace

    from amdahl_desk.files import load_profile, save_profile

    profile = load_profile(str(example_path().parent / "llm-request.xlsx")).profile
    ranged = [
        replace(o, speedup_low=o.speedup * 0.75, speedup_high=o.speedup * 1.25, effort=2.5 + i, confidence=0.85)
        for i, o in enumerate(profile.optimizations)
    ]
    profile.set_optimizations(ranged)
    profile.set_settings(replace(profile.settings, target_time=1050.5))
    save_profile(profile, tmp_path / "ranged.xlsx")
    with german(qtbot) as win:
        assert win.files.open_path(tmp_path / "ranged.xlsx", ask=False)
        qtbot.waitUntil(lambda: not win.doc.decision.busy and win.doc.decision.figures is not None, timeout=30_000)
        found = in_the_models_format(win)
        said = " ".join(text for _, text in shown_texts(win))
        # the odds and the cheapest plan were worded, in German separators: 2.5 + 3.5 + 4.5 engineer-days
        assert "probability" in said and "10,5 engineer-days" in said and "1.050 ms" in said
    assert found == ""


def test_a_job_of_ranks_speaks_the_locale(qtbot):
    """A job's panel (its step, straggler and cost) and its charts, in German separators."""
    from ..traces import expect

    with german(qtbot) as win:
        win.job_import.open_now([expect.FIXTURES / "ddp4"])
        win.job_import.settle()
        win.results.job_whatif.settle()
        found = in_the_models_format(win)
        said = " ".join(text for _, text in shown_texts(win))
        assert "The job's step takes 118,2 ms" in said  # first rank's start to last rank's end, per step
    assert found == ""


@pytest.fixture
def german_on(qtbot, tmp_path):
    """A window on a desktop in German, opened on a CSV of ``text``."""
    from amdahl_desk.ui.main_window import MainWindow

    before = QLocale()
    QLocale.setDefault(GERMAN)

    def opened(text: str):
        path = tmp_path / "profile.csv"
        path.write_text(text, encoding="utf-8")
        win = MainWindow(fresh=True)
        qtbot.addWidget(win)
        win.ask = lambda title, text, buttons, default: QMessageBox.StandardButton.Discard
        assert win.files.open_path(path, ask=False)
        win.show()
        qtbot.waitExposed(win)
        win.redraws.flush()
        return win

    yield opened
    QLocale.setDefault(before)


def test_a_files_note_takes_the_desktops_separators_and_keeps_the_name_as_typed(german_on):
    """The reader's note on a total line is typed: the window words it with the desktop's separators, as the
    command line words it with the files' (1,100.5 there, 1.100,5 here), and the name it quotes stays as typed."""
    win = german_on("Component,Time (ms)\nDecode 2.5,600\nPrefill,500.5\nTotal,1106\n")
    tip = win.summary.notes.toolTip()
    assert "the total line says 1.106 ms but the components add up to 1.100,5 ms: a gap of 5,5 ms" in tip, tip
    assert "within the 0,5% taken as rounding" in tip and "1,100.5" not in tip


def test_a_cells_refusal_takes_the_desktops_separators(german_on, qtbot):
    """A typed refusal at a cell (a time range that does not hold the time) names its figures as the desktop
    writes them: 2.000 and 1.500 on a German desktop, where the command line says 2,000 and 1,500."""
    from amdahl_desk.ui.profile.component_table import TIME_LOW

    from .driving import type_in_cell

    win = german_on("Component,Time (ms)\nDecode,1500\nPrefill,700\n")
    win.table.show_ranges(True)
    type_in_cell(qtbot, win.table, 0, TIME_LOW, "2000")
    assert win.doc.profile.components[0].time_low is None
    said = win.table.last_rejection
    assert 'the low time of "Decode", 2.000, is above its measured time 1.500' in said, said


def test_the_import_dialogs_notes_take_the_desktops_separators(german_on, qtbot):
    """The import's notes are typed: the dialog words them with the desktop's separators (372,3 ms on a German
    desktop, where ``amdahl-desk import`` says 372.3 ms) and names its own control, not a flag."""
    from ..traces import expect
    from .test_import_dialog import set_grouping, start_import, wait_preview

    win = german_on("Component,Time (ms)\nDecode,1500\nPrefill,700\n")
    dialog = start_import(win, qtbot, expect.REAL / "kineto_16gpu_nccl_rank0.json.gz")
    wait_preview(qtbot, dialog)
    set_grouping(qtbot, dialog, "gpu")
    said = dialog.shown.notes.toPlainText()
    assert "the GPU stretch of the last step, ProfilerStep#554, is 372,3 ms against 215,9 ms" in said, said
    assert "untick ProfilerStep#554 in Steps" in said and "--" not in said
    dialog.reject()


def test_a_refused_traces_place_takes_the_desktops_separators(german_on, qtbot, tmp_path):
    """A trace cut in the middle of its events is refused at its event and byte: counts the dialog writes as the
    desktop does (byte 123.456 on a German desktop, where the command line says byte 123,456)."""
    import gzip

    from amdahl_desk.files.traces import load_trace
    from amdahl_desk.model.errors import ProfileError

    from ..traces import expect
    from .test_import_dialog import start_import

    raw = gzip.decompress((expect.FIXTURES / "torch_cpu_steps.json.gz").read_bytes())
    path = tmp_path / "cut.json"
    path.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(ProfileError) as refused:
        load_trace(path)
    place = refused.value.problems[0].where
    assert place.counts[-1] >= 1000  # the byte: a count a thousands separator groups
    win = german_on("Component,Time (ms)\nDecode,1500\nPrefill,700\n")
    errors: list[str] = []
    win.show_error = lambda title, text: errors.append(text)
    with qtbot.waitSignal(win.trace_import.finished, timeout=10000):
        start_import(win, qtbot, path)
    qtbot.waitUntil(lambda: len(errors) == 1)
    german = place.text.format(*(f"{c:,}".replace(",", ".") for c in place.counts))
    assert f"cut.json: {german}: " in errors[0], errors[0]
    assert str(place) not in errors[0]
