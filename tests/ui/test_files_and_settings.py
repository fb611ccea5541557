"""Files as a person meets them: opening, bad files, unsaved changes, saving, failures, settings, start-up."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from amdahl_desk.files import load_profile
from amdahl_desk.model.profile import OverheadModel
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.ui.profile.component_table import TIME

pytestmark = pytest.mark.gui
Button = QMessageBox.StandardButton


def edit(win):
    win.component_model.setData(win.component_model.index(0, TIME), "123")


def test_title_shows_file_and_modified_marker(window):
    assert window.windowTitle() == "training.xlsx[*] — Amdahl Desk"
    assert not window.isWindowModified()
    edit(window)
    assert window.isWindowModified()
    window.doc.undo_stack.undo()
    assert not window.isWindowModified()


def test_bad_file_shows_the_message_and_keeps_the_document(window, tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_text("Component,Time\na,fast\n")
    edit(window)
    before = list(window.doc.profile.components)
    assert not window.files.open_path(bad, ask=False)
    assert "bad.xlsx: this is a text file (CSV?)" in window.errors[-1]
    assert window.doc.profile.components == before and window.isWindowModified()
    assert window.doc.path.name == "training.xlsx"


def test_unsaved_changes_prompt_on_new_and_close(window):
    edit(window)
    window.answer = Button.Cancel
    window.files.new_document()
    assert window.asked and len(window.doc.profile.components) == 5
    assert not window.close()
    window.answer = Button.Discard
    window.files.new_document()
    assert len(window.doc.profile.components) == 0
    assert window.windowTitle() == "Untitled[*] — Amdahl Desk"


def test_save_writes_the_workbook_and_marks_clean(window):
    edit(window)
    window.answer = Button.Save
    assert window.files.save()
    assert not window.isWindowModified()
    assert load_profile(window.doc.path).profile == window.doc.profile


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_failed_save_keeps_the_old_file(window, tmp_path):  # pragma: no cover - runs for normal users
    path = window.doc.path
    original = path.read_bytes()
    os.chmod(path.parent, stat.S_IRUSR | stat.S_IXUSR)
    try:
        edit(window)
        assert not window.files.save()
    finally:
        os.chmod(path.parent, stat.S_IRWXU)
    assert path.read_bytes() == original and window.isWindowModified()


def test_failed_save_into_missing_folder_keeps_document(window, tmp_path):
    edit(window)
    window.doc.set_path(tmp_path / "gone" / "x.xlsx")
    assert not window.files.save()
    assert "No file was written" in window.errors[-1]  # there was no file to keep unchanged
    assert window.isWindowModified()
    assert not list(tmp_path.glob("gone*"))


def test_save_as_and_export_csv(window, tmp_path, monkeypatch):
    target = tmp_path / "copy"
    monkeypatch.setattr(window, "choose_file", lambda save, suggested="", filters="": str(target))
    assert window.files.save_as()
    assert window.doc.path.name == "copy.xlsx" and (tmp_path / "copy.xlsx").exists()
    monkeypatch.setattr(window, "choose_file", lambda save, suggested="", filters="", title="": str(tmp_path / "c.csv"))
    window.files.export_csv()
    assert load_profile(tmp_path / "c.csv").profile.components == window.doc.profile.components


def test_open_csv_is_an_import(window, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("Component,Time (ms)\na,1\nb,3\n")
    assert window.files.open_path(path)
    assert window.doc.path is None and window.windowTitle() == "p.csv (imported)[*] — Amdahl Desk"


def test_revert(window):
    edit(window)
    window.answer = Button.Discard
    window.files.revert()
    assert window.doc.profile.components[0].time == 100 and not window.isWindowModified()


def test_drop_a_file_opens_it(window, qtbot, example):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(example.parent / "llm-request.xlsx"))])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    window.dropEvent(event)
    # A bundled example opens as an untitled copy of itself.
    qtbot.waitUntil(
        lambda: window.files.imported_from is not None and window.files.imported_from.name == "llm-request.xlsx"
    )
    assert window.doc.analysis.baseline_total == 1500


def test_recent_files_and_last_document(window, qtbot, example):
    from amdahl_desk.ui.main_window import MainWindow

    window.files.open_path(example.parent / "llm-request.xlsx")
    window.files.fill_recent(window.recent_menu)
    names = [a.text() for a in window.recent_menu.actions()]
    assert names[0] == "&1 llm-request.xlsx" and names[1] == "&2 training.xlsx"
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.files.start(None, str(example))
    assert again.doc.path is None and again.files.imported_from.name == "llm-request.xlsx"  # the example, as a copy


def test_first_start_opens_the_example(qtbot, example):
    from amdahl_desk.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.files.start(None, str(example))
    assert win.doc.path is None and win.files.imported_from.name == "training-iteration.xlsx"  # an untitled copy
    qtbot.waitUntil(lambda: win.summary.speedup.value.text() == "1.82×")
    # and says so, rather than "Opened training-iteration.xlsx" as if the file itself were open
    assert "untitled copy of the example training-iteration.xlsx" in win.statusBar().currentMessage()


class TestSettings:
    def test_target_time_typed_with_unit(self, window, qtbot):
        panel = window.settings_panel
        panel.target.setText("0.5 s")
        panel.target.editingFinished.emit()
        assert window.doc.profile.settings.target_time == pytest.approx(500)
        assert window.doc.analysis.target.required_speedup == pytest.approx(0.6 * 1000 / (500 - 400))
        window.drawn()
        assert "Target 500 ms: reachable" in window.summary.target.text()
        panel.target.setText("soon")
        panel.target.editingFinished.emit()
        assert window.doc.profile.settings.target_time == pytest.approx(500)
        assert '"soon" is not a time' in panel.last_rejection
        panel.target.setText("")
        panel.target.editingFinished.emit()
        assert window.doc.profile.settings.target_time is None

    @pytest.mark.parametrize("text", ["1; 8 64", "64,8,1", "1 8 64 8"])
    def test_gpu_counts_read_by_the_model_parser(self, window, text):
        from amdahl_desk.model.values import parse_gpu_counts

        panel = window.settings_panel
        panel.counts.setText(text)
        panel.counts.editingFinished.emit()
        assert window.doc.profile.settings.gpu_counts == parse_gpu_counts(text) == (1, 8, 64)

    @pytest.mark.parametrize("text", ["0, 8", "1, 2.5", "", "1,000"])
    def test_gpu_counts_refused_with_the_model_parsers_words(self, window, text):
        from amdahl_desk.model.values import ParseError, parse_gpu_counts

        panel = window.settings_panel
        before = window.doc.profile.settings.gpu_counts
        panel.counts.setText(text)
        panel.counts.editingFinished.emit()
        assert window.doc.profile.settings.gpu_counts == before
        with pytest.raises(ParseError) as said:
            parse_gpu_counts(text)
        assert panel.last_rejection == str(said.value)

    def test_the_target_is_named_end_to_end_when_the_profile_has_other_objectives(self, window, example):
        assert window.settings_panel.target_label.text() == "Target time"
        window.files.open_path(example.parent / "llm-request.xlsx", ask=False)
        assert window.settings_panel.target_label.text() == "End-to-end target"

    def test_infeasible_target_is_said(self, window):
        window.settings_panel.target.setText("350")
        window.settings_panel.target.editingFinished.emit()
        window.drawn()
        assert "✘ Target 350 ms: not reachable" in window.summary.target.text()

    def test_unit_change_converts_and_undo_restores(self, window):
        panel = window.settings_panel
        panel.unit.setCurrentIndex(list(TimeUnit).index(TimeUnit.S))
        panel.unit.activated.emit(panel.unit.currentIndex())
        assert window.doc.profile.components[1].time == pytest.approx(0.6)
        assert window.component_model.headerData(TIME, Qt.Orientation.Horizontal) == "Time (s)"
        window.doc.undo_stack.undo()
        assert window.doc.profile.components[1].time == 600 and window.doc.unit is TimeUnit.MS

    def test_overhead_model_and_gpu_range(self, window):
        panel = window.settings_panel
        panel.model.setCurrentIndex(list(OverheadModel).index(OverheadModel.LINEAR))
        panel.model.activated.emit(panel.model.currentIndex())
        assert window.doc.profile.settings.overhead_model is OverheadModel.LINEAR
        assert not panel.latency.isEnabled()
        panel.max_gpus.setValue(64)
        panel.max_gpus.editingFinished.emit()
        assert window.doc.analysis.scaling.gpus[-1] == 64
        panel.counts.setText("1, 8, lots")
        panel.counts.editingFinished.emit()
        assert "is not a valid GPU count" in panel.last_rejection

    def test_parallel_fraction_override(self, window):
        panel = window.settings_panel
        panel.p_value.setValue(50)
        panel.p_override.setChecked(True)
        assert window.doc.analysis.scaling.parallel_fraction == pytest.approx(0.5)
        panel.p_override.setChecked(False)
        assert window.doc.analysis.scaling.parallel_fraction == pytest.approx(0.75)

    def test_settings_saved_with_the_profile(self, window):
        window.settings_panel.bandwidth.setText("400 Gbit/s")
        window.settings_panel.bandwidth.editingFinished.emit()
        assert window.files.save()
        assert load_profile(window.doc.path).profile.settings.ring_bandwidth == pytest.approx(5e10)


def test_screenshot_command(tmp_path):
    shot = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", AMDAHL_DESK_CONFIG_DIR=str(tmp_path / "cfg"))
    proc = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", "--screenshot", str(shot), "--size", "1280x800"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    from PySide6.QtGui import QImage

    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1280, 800)
    assert not (tmp_path / "cfg").exists()  # screenshots leave no remembered state


def test_layout_and_geometry_are_remembered(window, qtbot, example):
    from amdahl_desk.ui.main_window import MainWindow

    window.resize(900, 560)
    window._splitters["right"].setSizes([110, 150, 250])  # charts resized by the user
    sizes = window._splitters["right"].sizes()
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    # Qt fits a restored window onto the screen; the offscreen screen is 800 px wide, so only the height and the
    # panel arrangement can be compared exactly here.
    assert again.size().height() == 560
    assert again._splitters["right"].sizes() == sizes


def test_exports_from_window_and_command_keep_formula_text_as_text(window, tmp_path):
    import openpyxl

    from amdahl_desk.ui.profile.component_table import NAME

    assert window.component_model.setData(window.component_model.index(0, NAME), '=HYPERLINK("http://x","y")')
    assert window.component_model.setData(window.component_model.index(2, NAME), "@SUM(A1:A9)")
    assert window.files.save()
    book = openpyxl.load_workbook(window.doc.path)
    assert book["Components"]["A2"].data_type == "s" and book["Components"]["A4"].data_type == "s"
    assert book["Optimizations"]["C2"].value == "GPU matrix multiplications"
    out = tmp_path / "cli"
    proc = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", "export", str(window.doc.path), "--out", str(out), "--format", "xlsx"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    book = openpyxl.load_workbook(proc.stdout.strip())
    assert book["Components"]["A2"].value == '=HYPERLINK("http://x","y")' and book["Components"]["A2"].data_type == "s"
    proc = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", "export", str(window.doc.path), "--out", str(out), "--format", "csv"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    first = Path(proc.stdout.strip()).read_text(encoding="utf-8").splitlines()[1]
    assert first.startswith("\"'=HYPERLINK(") or first.startswith("'=HYPERLINK(")


def test_bad_file_through_the_real_dialog(qtbot, tmp_path, example, monkeypatch):
    """The window's own message box (its exec answered here) shows the reader's message; nothing changes."""
    from amdahl_desk.ui.main_window import MainWindow

    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append((box.windowTitle(), box.text())) or 0)
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.files.open_path(example, ask=False)
    before = win.doc.profile.copy()
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"PK\x03\x04" + bytes(100))
    assert not win.files.open_path(bad, ask=False)
    assert shown == [("Cannot open profile", shown[0][1])]
    assert shown[0][1].startswith("broken.xlsx: the workbook is damaged or truncated")
    assert win.doc.profile == before and win.files.imported_from.name == "training-iteration.xlsx"


def test_a_trace_given_at_start_is_imported(tmp_path):
    """``amdahl-desk TRACE`` imports it, as a dropped trace is: the screenshot shows the imported profile (the
    preview's first choices), not a refusal that a trace is no workbook."""
    trace = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"
    shot = tmp_path / "trace.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", AMDAHL_DESK_CONFIG_DIR=str(tmp_path / "cfg"))
    proc = subprocess.run(
        [sys.executable, "-m", "amdahl_desk", str(trace), "--screenshot", str(shot), "--size", "1280x800"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert proc.returncode == 0 and "not an xlsx" not in proc.stderr, proc.stderr
    assert shot.stat().st_size > 10_000


def test_a_trace_imported_at_once_becomes_the_document_as_one_undo_step(window, qtbot):
    trace = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"
    before = [c.name for c in window.doc.profile.components]
    assert window.trace_import.import_at_once(trace)
    names = [c.name for c in window.doc.profile.components]
    assert "## backward ##" in names and "kineto_1gpu_ns_timestamps" in window.doc.profile.settings.boundary
    window.undo_action.trigger()
    assert [c.name for c in window.doc.profile.components] == before
