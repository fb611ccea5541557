"""Reading off the GUI thread: progress from the start, Cancel that stops the read mid-file; drops; the undo step."""

from __future__ import annotations

import gzip
import json
import threading
import time
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from amdahl_desk.model.errors import Problem
from amdahl_desk.model.profile import Component, Profile, Scaling, Settings
from amdahl_desk.ui.core.document import Document
from amdahl_desk.ui.import_ import loader

from ..traces import expect

pytestmark = pytest.mark.gui
HOLD_S = 20.0  # the longest the read is held for the person to click Cancel (a failure, not a wait)


def big_trace(path: Path, megabytes: int) -> Path:
    """A plain-JSON trace of ``megabytes`` MB: a real trace's events repeated (several 4 MB reading blocks)."""
    events = json.loads(gzip.decompress((expect.FIXTURES / "torch_cpu_steps.json.gz").read_bytes()))["traceEvents"]
    chunk = ",\n".join(json.dumps(e) for e in events)
    copies = max(1, megabytes * 1_000_000 // len(chunk))
    path.write_text('{"traceEvents": [\n' + ",\n".join([chunk] * copies) + "\n]}")
    return path


def test_cancel_stops_the_read_in_the_middle_of_the_file(window, qtbot, tmp_path, monkeypatch):
    path = big_trace(tmp_path / "big.json", 14)
    size = path.stat().st_size
    seen: list[tuple[int, int]] = []
    held = threading.Event()
    real = loader.load_trace

    def held_load(paths, progress, dependencies=False):
        # Hold the read at its second block (on the reading thread) until Cancel makes progress say stop:
        # the Cancel below is clicked while the file is half read, however fast the machine.
        def hooked(done, total):
            seen.append((done, total))
            answer = progress(done, total)
            if len(seen) == 2:
                held.set()
                deadline = time.monotonic() + HOLD_S
                while answer is not False and time.monotonic() < deadline:
                    held.wait(0.01)
                    answer = progress(done, total)
            return answer

        return real(paths, hooked, dependencies)

    monkeypatch.setattr(loader, "load_trace", held_load)
    before = list(window.doc.profile.components)
    window.choose_trace = lambda folder=False: [str(path)]
    window.import_action.trigger()
    dialog = window.trace_import.dialog
    qtbot.waitUntil(held.is_set)
    # the window answers while the file is being read, and the bar shows how far the read got
    qtbot.waitUntil(lambda: dialog.progress.value() > 0)
    assert dialog.pages.currentIndex() == 0 and dialog.cancel_button.isEnabled()
    assert "of " in dialog.progress_text.text() and "MB read" in dialog.progress_text.text()
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000) as done:
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert done.args == [False]
    # the reading thread ends just after its worker says so: wait for it, not for time. On a busy machine it
    # outlives the dialog's close wait and is let go (deleted) as it ends: gone counts as ended.
    reader = dialog.session.reader
    qtbot.waitUntil(lambda: not shiboken6.isValid(reader) or not reader.isRunning())
    assert dialog.session.worker.outcome == "cancelled"
    assert seen[-1][0] < size  # stopped before the end of the file
    assert window.doc.profile.components == before and window.doc.undo_stack.count() == 0
    assert not window.errors and "cancelled" in window.statusBar().currentMessage()


def test_progress_shows_from_the_first_block_and_the_trace_imports(window, qtbot, tmp_path):
    path = big_trace(tmp_path / "big.json", 9)
    window.choose_trace = lambda folder=False: [str(path)]
    reports: list[float] = []
    window.import_action.trigger()
    dialog = window.trace_import.dialog
    dialog.session.worker.progressed.connect(lambda done, total: reports.append(done / total))
    qtbot.waitUntil(lambda: dialog.preview_result is not None, timeout=30000)
    assert dialog.progress.value() == 1000 and dialog.pages.currentIndex() == 1
    assert reports and reports[-1] == 1.0
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert window.doc.profile.settings.boundary.startswith("PyTorch trace big.json")


def drop(window, *paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    window.dropEvent(event)


def test_dropped_trace_and_folder_are_imported(window, qtbot):
    drop(window, expect.FIXTURES / "torch_cpu_steps.json.gz")
    qtbot.waitUntil(lambda: window.trace_import.dialog is not None)
    dialog = window.trace_import.dialog
    qtbot.waitUntil(lambda: dialog.preview_result is not None)
    dialog.reject()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
    drop(window, expect.FIXTURES / "gloo")  # a folder of rank traces: the job opens
    qtbot.waitUntil(lambda: window.doc.job.figures is not None)
    assert window.trace_import.dialog is None and window.doc.job.figures.job.ranks == (0, 1)


def test_dropped_nsys_report_is_imported_and_a_components_csv_opened(window, qtbot, tmp_path):
    drop(window, expect.FIXTURES / "nsys_cuda_gpu_kern_sum.csv")
    qtbot.waitUntil(lambda: window.trace_import.dialog is not None)
    dialog = window.trace_import.dialog
    qtbot.waitUntil(lambda: dialog.preview_result is not None)
    assert dialog.preview_result.format == "nsys"
    dialog.reject()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
    table = tmp_path / "components.csv"
    table.write_text("Component,Time (ms),Scaling\nload,100,serial\ncompute,400,parallel\n")
    drop(window, table)
    qtbot.waitUntil(lambda: window.files.imported_from == table)
    assert [c.name for c in window.doc.profile.components] == ["load", "compute"]
    assert window.trace_import.dialog is None


def test_drag_of_a_trace_a_folder_or_a_spreadsheet_is_accepted_and_of_a_picture_not(window, tmp_path):
    """Any spreadsheet is taken while dragging, .xls and .ods too: their drop says how to save them as .xlsx."""
    from PySide6.QtGui import QDragEnterEvent

    paths = [expect.FIXTURES / "torch_cpu_steps.json.gz", expect.FIXTURES / "gloo"]
    paths += [tmp_path / f"sheet{suffix}" for suffix in (".xlsx", ".xlsm", ".csv", ".xls", ".ods", ".ODS")]
    for path in [*paths, tmp_path / "picture.png"]:
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(path))])
        event = QDragEnterEvent(
            QPointF(10, 10).toPoint(),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        window.dragEnterEvent(event)
        assert event.isAccepted() == (path.suffix != ".png"), path


def test_replace_profile_is_one_undo_step_and_restores_path_and_warnings(qtbot, tmp_path):
    doc = Document()
    old = Profile([Component("a", 1.0, Scaling.SERIAL)])
    doc.reset(old, tmp_path / "a.xlsx", [Problem("a warning")])
    new = Profile([Component("b", 2.0, Scaling.PARALLEL), Component("c", 3.0)], settings=Settings(boundary="trace"))
    calls: list[bool] = []
    with qtbot.waitSignal(doc.changed, check_params_cb=lambda change: change.reset and change.path):
        doc.replace_profile(new, "Import trace", None, (), calls.append)
    assert doc.profile is new and doc.path is None and doc.warnings == [] and calls == [True]
    assert doc.undo_stack.count() == 1 and doc.analysis.baseline_total == 5.0
    doc.undo_stack.undo()
    assert doc.profile is old and doc.path == tmp_path / "a.xlsx" and doc.warnings == [Problem("a warning")]
    assert calls == [True, False] and doc.undo_stack.isClean() and doc.analysis.baseline_total == 1.0
    doc.undo_stack.redo()
    assert doc.profile is new and calls == [True, False, True]


def test_closing_the_window_during_a_read_stops_it(window, qtbot, tmp_path):
    path = big_trace(tmp_path / "big.json", 9)
    window.choose_trace = lambda folder=False: [str(path)]
    window.import_action.trigger()
    dialog = window.trace_import.dialog
    qtbot.waitUntil(lambda: dialog.progress.value() > 0 or dialog.preview_result is not None)
    assert window.close()
    assert window.trace_import.dialog is None and not dialog.session.reader.isRunning()
    assert dialog.session.worker.outcome in ("cancelled", "loaded")


def test_cancel_during_a_long_preview_closes_at_once(window, qtbot, monkeypatch):
    from amdahl_desk.files.traces import LoadedTrace

    release = threading.Event()
    started = threading.Event()
    real = LoadedTrace.summarise

    def slow_summarise(self, options=None):
        if options is not None and options.group_by == "op":  # a long op grouping of a huge trace
            started.set()
            release.wait(HOLD_S)
        return real(self, options)

    monkeypatch.setattr(LoadedTrace, "summarise", slow_summarise)
    window.choose_trace = lambda folder=False: [str(expect.FIXTURES / "torch_cpu_steps.json.gz")]
    window.import_action.trigger()
    dialog = window.trace_import.dialog
    qtbot.waitUntil(lambda: dialog.preview_result is not None)
    dialog.grouping.setCurrentIndex(dialog.grouping.findData("op"))
    qtbot.waitUntil(started.is_set)
    t0 = time.monotonic()
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000):
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert time.monotonic() - t0 < HOLD_S / 2 and loader.lingering() == 1  # closed without waiting for the summary
    release.set()
    qtbot.waitUntil(lambda: loader.lingering() == 0)
    assert window.doc.undo_stack.count() == 0


def test_a_trace_nested_too_deep_is_refused_at_its_byte_not_as_unexpected(window, qtbot, tmp_path, caplog):
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"traceEvents": [' + b"[" * 200_000 + b"]" * 200_000 + b"]}")
    before = list(window.doc.profile.components)
    window.choose_trace = lambda folder=False: [str(path)]
    with qtbot.waitSignal(window.trace_import.finished, timeout=20000) as done:
        window.import_action.trigger()
    assert done.args == [False]
    assert len(window.errors) == 1
    message = window.errors[0]
    assert message.startswith("deep.json: byte 517: JSON nested more than 500 levels deep")
    assert "unexpected" not in message and "recursion" not in message
    assert "Traceback" not in caplog.text
    assert window.doc.profile.components == before


@pytest.mark.parametrize("suffix", [".nsys-rep", ".qdrep", ".speedscope"])
def test_a_dropped_file_is_what_the_files_layer_says_it_is(window, qtbot, tmp_path, suffix):
    """A dropped Nsight Systems report goes to the trace import (which says what to do with it), as
    ``files.is_trace`` and the command line take it, never to the workbook reader."""
    from amdahl_desk.files import is_trace
    from amdahl_desk.ui.import_.trace_import import may_be_dropped, route_drop

    path = tmp_path / f"run{suffix}"
    path.write_bytes(b"\x00binary report\x00" if suffix != ".speedscope" else b"{}")
    assert is_trace(path) and may_be_dropped(path) and route_drop([path]) == ("import", [path])
    before = window.doc.profile
    drop(window, path)
    qtbot.waitUntil(lambda: bool(window.errors))
    if suffix != ".speedscope":
        assert "Nsight Systems report" in window.errors[-1] and "nsys stats" in window.errors[-1]
    assert "xlsx" not in window.errors[-1] and window.doc.profile is before
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
