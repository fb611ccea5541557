"""File → Import Profile… as a person uses it: choose a trace, shape the import, check the preview, import, undo
(the dialog on its own where only its preview is tested, in the window where the import changes the document)."""

from __future__ import annotations

import json
import shutil
import threading

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.units import format_number
from amdahl_desk.ui.import_.preview_models import ComponentPreviewModel

from ..traces import expect
from .panels import import_dialog

pytestmark = pytest.mark.gui
NS = 1e-6  # a nanosecond in ms
NCCL16 = expect.REAL / "kineto_16gpu_nccl_rank0.json.gz"
NS1 = expect.REAL / "kineto_1gpu_ns_timestamps.json.gz"
GLOO = expect.FIXTURES / "gloo"


def start_import(window, qtbot, *paths, folder=False):
    """File → Import Profile… (or …from Folder…) with the file chooser answering ``paths``."""
    window.choose_trace = lambda folder=False: [str(p) for p in paths]
    action = window.import_action if not folder else _action(window, "Import Profile from &Folder…")
    action.trigger()
    dialog = window.trace_import.dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def _action(window, text):
    file_menu = window.menuBar().actions()[0].menu()
    return next(a for a in file_menu.actions() if a.text() == text)


def wait_preview(qtbot, dialog):
    """Until the preview shows what the options ask for (no change waiting, no request out)."""
    qtbot.waitUntil(  # a trace read on a busy machine takes seconds
        lambda: dialog.preview_result is not None and dialog.pending is None and not dialog.debounce.isActive(),
        timeout=30_000,
    )
    return dialog.preview_result


def choose(qtbot, dialog, change):
    """Make one change the way the dialog's widgets do, then wait for its preview."""
    with qtbot.waitSignal(dialog.previewed, timeout=10000):
        change()
    return wait_preview(qtbot, dialog)


def rows(dialog):
    m = dialog.shown.preview_model
    return {
        m.index(r, ComponentPreviewModel.NAME).data(): (
            m.index(r, ComponentPreviewModel.TIME).data(Qt.ItemDataRole.UserRole),
            m.index(r, ComponentPreviewModel.TIME).data(),
            m.index(r, ComponentPreviewModel.SCALING).data(),
        )
        for r in range(m.rowCount())
    }


def set_grouping(qtbot, dialog, key):
    return choose(qtbot, dialog, lambda: dialog.grouping.setCurrentIndex(dialog.grouping.findData(key)))


def test_16gpu_trace_preview_follows_grouping_per_step_and_steps(window, qtbot):
    trace = expect.load(NCCL16)
    before = list(window.doc.profile.components)
    dialog = start_import(window, qtbot, NCCL16)
    result = wait_preview(qtbot, dialog)
    # annotations (the default): the outermost record_function ranges, mean per step, plus Unattributed
    assert dialog.grouping.currentData() == "annotation" and result.group_by == "annotation"
    want = expect.outermost_annotations_ms(trace)
    shown = rows(dialog)
    for name, t in want.items():
        assert shown[name][0] == pytest.approx(t, rel=1e-6, abs=NS), name
        assert shown[name][1] == format_number(shown[name][0])
    assert sum(v[0] for v in shown.values()) == pytest.approx(expect.mean_step_ms(trace), rel=1e-9)
    assert "= the mean step" in dialog.shown.total_label.text()

    # the GPU timeline: the split by hand-made interval sweeps, in the table and in the split's figures
    result = set_grouping(qtbot, dialog, "gpu")
    g = expect.gpu_per_step_ms(trace)
    shown = rows(dialog)
    assert list(shown) == ["GPU compute", "Exposed communication", "Memory", "GPU idle"]
    assert shown["GPU compute"][0] == pytest.approx(g["compute"], rel=1e-6, abs=NS)
    assert shown["Exposed communication"][0] == pytest.approx(g["exposed"], rel=1e-6, abs=NS)
    assert shown["Exposed communication"][2] == Scaling.COMMUNICATION.value
    assert shown["Memory"][0] == pytest.approx(g["memory"], rel=1e-6, abs=NS)
    assert shown["GPU idle"][0] == pytest.approx(g["idle"], rel=1e-6, abs=NS)
    figures = dialog.shown.gpu_view.figures()
    assert figures["overlapped_communication"] == f"{format_number(g['overlapped'])} ms"
    assert figures["span"] == f"{format_number(g['span'])} ms"
    assert dialog.shown.gpu_box.isVisible() and not dialog.top.isEnabled()
    assert any("last step" in w for w in result.warnings)
    assert "ProfilerStep#554" in dialog.shown.notes.toPlainText()

    # the last step's long GPU stretch, left out by unticking it
    m = dialog.step_model
    last = next(r for r in range(m.rowCount()) if m.steps[r].name == "ProfilerStep#554")
    result = choose(
        qtbot,
        dialog,
        lambda: m.setData(m.index(last, 0), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole),
    )
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace, skip={"ProfilerStep#554"}), rel=1e-9)
    assert m.index(last, 0).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert "mean of 4 steps" in result.boundary

    # the whole trace instead of per step
    result = choose(qtbot, dialog, lambda: qtbot.mouseClick(dialog.whole, Qt.MouseButton.LeftButton))
    total = expect.gpu_total_ms(trace)
    assert result.gpu.compute == pytest.approx(total["compute"], rel=1e-6)
    assert result.gpu.span == pytest.approx(total["span"], rel=1e-9)
    assert "the whole trace" in dialog.shown.gpu_view.title.text()
    dialog.reject()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
    assert window.doc.profile.components == before and not window.isWindowModified()


def test_import_then_undo_and_redo(window, qtbot, tmp_path):
    before = list(window.doc.profile.components)
    path_before = window.doc.path
    dialog = start_import(window, qtbot, NS1)
    wait_preview(qtbot, dialog)
    result = set_grouping(qtbot, dialog, "op")
    shown = rows(dialog)
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000) as done:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert done.args == [True]
    comps = window.doc.profile.components
    assert [c.name for c in comps] == list(shown)
    assert [c.time for c in comps] == pytest.approx([v[0] for v in shown.values()])
    assert all("(from kineto_1gpu_ns_timestamps.json.gz)" in c.notes for c in comps)
    assert window.doc.profile.settings.boundary == result.boundary and "grouped by op" in result.boundary
    assert window.doc.path is None and window.isWindowModified()
    assert window.windowTitle().startswith("kineto_1gpu_ns_timestamps.json.gz (imported)")
    assert window.undo_action.text() == "&Undo Import kineto_1gpu_ns_timestamps.json.gz"
    window.drawn()
    assert window.doc.analysis.baseline_total == pytest.approx(result.total)

    window.undo_action.trigger()  # one step back: the document before, its file and its clean state too
    assert window.doc.profile.components == before
    assert window.doc.path == path_before and not window.isWindowModified()
    assert window.windowTitle().startswith("training.xlsx")
    window.redo_action.trigger()
    assert [c.name for c in window.doc.profile.components] == list(shown) and window.doc.path is None

    asked = []  # Save asks where, suggesting the trace's name as a workbook
    target = tmp_path / "imported.xlsx"
    window.choose_file = lambda save, suggested="", filters="": asked.append(suggested) or str(target)
    assert window.files.save()
    assert asked == ["kineto_1gpu_ns_timestamps.xlsx"] and target.exists() and not window.isWindowModified()


def test_ranks_of_a_folder_straggler_first_and_picked(qtbot, qtmodeltester):
    traces = [expect.load(GLOO / f"rank{r}.json.gz") for r in (0, 1)]
    step = [expect.mean_step_ms(t) for t in traces]
    # the rank the other waits for reaches the all-reduce last: its all-reduce takes least
    straggler = min(range(2), key=lambda r: expect.outermost_annotations_ms(traces[r])["grad_allreduce"])
    dialog = import_dialog(qtbot, GLOO)
    result = wait_preview(qtbot, dialog)
    assert dialog.ranks_box.isVisible()
    m = dialog.rank_model
    assert [r.step_time for r in m.ranks] == pytest.approx(step, rel=1e-9)
    assert m.index(straggler, 0).data() == f"{straggler} (straggler)" and result.rank == straggler
    assert m.index(1 - straggler, 0).data() == str(1 - straggler)
    assert dialog.rank_view.selectionModel().isRowSelected(straggler)
    for model in (dialog.rank_model, dialog.step_model, dialog.shown.preview_model):
        qtmodeltester.check(model, force_py=True)
    other = 1 - straggler
    rect = dialog.rank_view.visualRect(m.index(other, 1))
    result = choose(
        qtbot,
        dialog,
        lambda: qtbot.mouseClick(dialog.rank_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()),
    )
    assert result.rank == other and f"rank {other} of 2" in result.boundary
    want = expect.outermost_annotations_ms(traces[other])
    shown = rows(dialog)
    for name, t in want.items():
        assert shown[name][0] == pytest.approx(t, rel=1e-6, abs=NS)
    assert shown["grad_allreduce"][2] == Scaling.COMMUNICATION.value
    dialog.reject()


def test_the_critical_path_times_reach_the_preview_however_late_the_window_hears_of_it(qtbot):
    """The worker sends the preview, then the same rows with their critical-path times. A window busy elsewhere
    hears of both only afterwards; the times must still land on the rows, and on the window's thread."""
    from amdahl_desk.ui.import_.import_dialog import ImportDialog

    dialog = ImportDialog([expect.ONE_GPU])  # the read starts; the preview is asked for once the window hears of it
    sent = threading.Event()
    dialog.session.worker.enriched.connect(lambda *_: sent.set())  # a lambda: runs on the worker's thread
    on = []
    model = dialog.shown.preview_model
    enrich = model.enrich
    model.enrich = lambda components: (on.append(threading.current_thread()), enrich(components))
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.pending is not None or model.enriched, timeout=30_000)
    assert sent.wait(30), "the worker never sent the critical-path times"  # the window's thread held meanwhile
    qtbot.waitUntil(lambda: model.enriched, timeout=10_000)
    assert on == [threading.main_thread()]
    assert any(model.index(r, model.PATH).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount()))
    dialog.reject()


def test_top_n_and_flagged_steps(qtbot):
    path = expect.FIXTURES / "torch_cpu_steps.json.gz"
    trace = expect.load(path)
    dialog = import_dialog(qtbot, path)
    wait_preview(qtbot, dialog)
    result = set_grouping(qtbot, dialog, "op")
    result = choose(qtbot, dialog, lambda: dialog.top.setValue(0))  # "all"
    assert dialog.top.text() == "all"
    everything = len(result.components)
    assert result.total == pytest.approx(expect.mean_step_ms(trace), rel=1e-9)
    result = choose(qtbot, dialog, lambda: dialog.top.setValue(3))
    names = [c.name for c in result.components]
    assert names[3] == "Other" and len(names) <= 5 < everything
    assert result.total == pytest.approx(expect.mean_step_ms(trace), rel=1e-9)  # Other keeps the sum
    flagged = {s.name for s in result.steps if s.flagged}
    assert flagged and dialog.leave_out.isEnabled()
    result = choose(qtbot, dialog, lambda: qtbot.mouseClick(dialog.leave_out, Qt.MouseButton.LeftButton))
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace, skip=flagged), rel=1e-9)
    assert {s.name for s in result.steps if s.excluded} == flagged
    result = choose(qtbot, dialog, lambda: qtbot.mouseClick(dialog.keep_all, Qt.MouseButton.LeftButton))
    assert not any(s.excluded for s in result.steps)
    dialog.reject()


def test_every_step_left_out_is_refused_in_the_dialog(qtbot):
    path = expect.FIXTURES / "torch_cpu_steps.json.gz"
    dialog = import_dialog(qtbot, path)
    wait_preview(qtbot, dialog)
    m = dialog.step_model
    for r in range(m.rowCount()):
        m.setData(m.index(r, 0), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    qtbot.waitUntil(lambda: dialog.shown.refusal.isVisible())
    said = dialog.shown.refusal.text()
    assert "every step is left out; tick at least one step, or import the Whole trace" in said, said
    assert "--" not in said and not dialog.import_button.isEnabled()
    m.setData(m.index(0, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    qtbot.waitUntil(lambda: dialog.import_button.isEnabled())
    assert not dialog.shown.refusal.isVisible() and dialog.preview_result.step_time == pytest.approx(m.steps[0].time)
    dialog.reject()


def _two_gpu_trace(path):
    """Device 0: one long kernel (the busiest). Device 1: compute 10–20 and 15–30 µs, NCCL 25–40, memcpy 50–60."""

    def ev(cat, name, dev, ts, dur):
        return {
            "ph": "X",
            "cat": cat,
            "name": name,
            "pid": dev,
            "tid": 7,
            "ts": ts,
            "dur": dur,
            "args": {"device": dev},
        }

    events = [
        ev("kernel", "gemm", 0, 0, 100),
        ev("kernel", "gemm", 1, 10, 10),
        ev("kernel", "gemm", 1, 15, 15),
        ev("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", 1, 25, 15),
        ev("gpu_memcpy", "Memcpy HtoD", 1, 50, 10),
    ]
    path.write_text(json.dumps({"traceEvents": events}))
    return path


def test_gpu_device_choice(qtbot, tmp_path):
    path = _two_gpu_trace(tmp_path / "two_gpus.json")
    dialog = import_dialog(qtbot, path)
    result = wait_preview(qtbot, dialog)
    assert result.group_by == "gpu" and result.gpu.device == 0
    assert dialog.form.isRowVisible(dialog.device) and dialog.device.count() == 3
    assert dialog.whole.isChecked() and not dialog.per_step.isEnabled()  # no steps: the whole trace, said so
    assert any("no ProfilerStep" in w for w in result.warnings)
    result = choose(qtbot, dialog, lambda: dialog.device.setCurrentIndex(dialog.device.findData(1)))
    g = result.gpu
    # by hand, in ms: compute 10–30, exposed NCCL 30–40 (25–30 hidden), memory 50–60, idle 40–50, span 10–60
    assert (g.device, g.compute, g.exposed_communication, g.overlapped_communication) == (1, 0.02, 0.01, 0.005)
    assert (g.memory, g.idle, g.span) == pytest.approx((0.01, 0.01, 0.05))
    assert "GPU 1 timeline" in result.boundary
    dialog.reject()


def test_speedscope_groups_by_function_only(qtbot):
    dialog = import_dialog(qtbot, expect.FIXTURES / "pyspy.speedscope.json")
    result = wait_preview(qtbot, dialog)
    assert result.format == "speedscope" and dialog.grouping.count() == 1 and not dialog.grouping.isEnabled()
    assert (
        not dialog.steps_box.isVisible() and not dialog.shown.gpu_box.isVisible() and not dialog.ranks_box.isVisible()
    )
    assert "whole recording" in dialog.shown.total_label.text()
    dialog.reject()


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("truncated.json", None, "truncated.json: event "),
        ("not_a_trace.json", b'{"hello": [1, 2, 3]}', 'no "traceEvents" list'),
        ("garbage.json.gz", b"\x1f\x8b" + bytes(range(256)) * 8, "not a valid gzip file"),
        ("empty.json", b"", "the file is empty"),
    ],
)
def test_bad_files_say_what_and_where_and_leave_the_document(window, qtbot, tmp_path, name, content, says):
    if content is None:  # a real trace cut in the middle of its events
        import gzip

        raw = gzip.decompress((expect.FIXTURES / "torch_cpu_steps.json.gz").read_bytes())
        content = raw[: len(raw) // 2]
    path = tmp_path / name
    path.write_bytes(content)
    before, path_before = list(window.doc.profile.components), window.doc.path
    dialog_open = []
    window.show_error = lambda title, text: (dialog_open.append(window.trace_import.dialog), window.errors.append(text))
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000) as done:
        start_import(window, qtbot, path)
    qtbot.waitUntil(lambda: len(window.errors) == 1)
    assert dialog_open == [None]  # the box comes after the dialog closed
    assert done.args == [False]
    assert len(window.errors) == 1 and says in window.errors[0] and name in window.errors[0]
    assert "The open profile is unchanged" in window.errors[0]
    if name == "truncated.json":
        assert "byte" in window.errors[0] and "truncated" in window.errors[0]
    assert window.doc.profile.components == before and window.doc.path == path_before
    assert window.doc.undo_stack.count() == 0 and not window.isWindowModified()


def test_the_shortcut_opens_the_import(window, qtbot, tmp_path):
    path = shutil.copy(expect.FIXTURES / "torch_cpu_steps.json.gz", tmp_path / "copy.json.gz")
    window.choose_trace = lambda folder=False: [str(path)]
    assert window.import_action.shortcut().toString() == "Ctrl+I"
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.trace_import.dialog is not None)
    wait_preview(qtbot, window.trace_import.dialog)
    window.trace_import.dialog.reject()


def test_undo_of_an_import_keeps_the_edits_made_before_it(window, qtbot):
    from amdahl_desk.ui.profile.component_table import TIME

    window.component_model.setData(window.component_model.index(0, TIME), "123")
    edited = list(window.doc.profile.components)
    dialog = start_import(window, qtbot, expect.FIXTURES / "torch_cpu_steps.json.gz")
    wait_preview(qtbot, dialog)
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert window.doc.profile.components != edited
    window.undo_action.trigger()
    assert window.doc.profile.components == edited and window.isWindowModified()
    assert window.doc.path.name == "training.xlsx"
    window.undo_action.trigger()  # the edit itself, undone as before
    assert window.doc.profile.components[0].time != 123 and not window.isWindowModified()


def test_enter_after_the_preview_imports_rather_than_cancels(window, qtbot):
    dialog = start_import(window, qtbot, NS1)
    wait_preview(qtbot, dialog)
    assert dialog.import_button.isDefault() and dialog.focusWidget() is dialog.import_button
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000) as done:
        qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    assert done.args == [True]
    assert all("(from kineto_1gpu_ns_timestamps.json.gz)" in c.notes for c in window.doc.profile.components)


def test_a_long_name_in_the_preview_leaves_the_other_columns_in_view(qtbot):
    """A component named "## data_preparation_with_augmentation_and_normalisation_of_every_input_batch ##" made its
    column as wide as the name, and the time, share and scaling went off to the right at 1280×720: a text column
    is capped to the room the others leave (elided in its middle, the whole name in its tooltip)."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel

    from amdahl_desk.ui.import_.preview_models import preview_table

    model = QStandardItemModel(0, 4)
    model.setHorizontalHeaderLabels(["Component", "Time (ms)", "Scaling", "Source"])
    long = "## data_preparation_with_augmentation_and_normalisation_of_every_input_batch ##"
    for name in (long, "## forward ##"):
        model.appendRow([QStandardItem(name), QStandardItem("0.217"), QStandardItem("parallel"), QStandardItem("a")])
    view = preview_table(model, 3)
    qtbot.addWidget(view)
    view.resize(560, 240)
    view.show()
    qtbot.waitExposed(view)
    model.dataChanged.emit(model.index(0, 0), model.index(1, 3))
    qtbot.waitUntil(lambda: view.horizontalScrollBar().maximum() == 0)
    width = view.viewport().width()
    assert view.columnWidth(0) < view.sizeHintForColumn(0)  # elided
    header = view.horizontalHeader()
    for col in range(4):
        assert header.sectionViewportPosition(col) + view.columnWidth(col) <= width, col
    for col in (1, 2):
        assert view.columnWidth(col) >= view.sizeHintForColumn(col), col  # whole


def test_step_names_are_whole_where_the_notes_column_has_room(qtbot):
    """At 1280×720 the Steps list cut every name to "ProfilerStep#…" beside an empty notes column: which step to
    untick could not be told. A name is cut only when the table has no room for it, then in its middle."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel

    from amdahl_desk.ui.import_.preview_models import preview_table

    model = QStandardItemModel(0, 4)
    model.setHorizontalHeaderLabels(["Step", "CPU (ms)", "GPU (ms)", ""])
    for step, note in ((101, "far off (CPU)"), (102, "far off (CPU)"), (103, ""), (104, ""), (105, "")):
        cells = [
            QStandardItem(f"ProfilerStep#{step}"),
            QStandardItem("95.7"),
            QStandardItem("95.6"),
            QStandardItem(note),
        ]
        cells[0].setCheckable(True)
        model.appendRow(cells)
    view = preview_table(model, 3)
    qtbot.addWidget(view)
    view.resize(365, 240)  # the Steps box of the import dialog at 1280×720
    view.show()
    qtbot.waitExposed(view)
    model.dataChanged.emit(model.index(0, 0), model.index(4, 3))
    qtbot.waitUntil(lambda: view.columnWidth(0) >= view.sizeHintForColumn(0))
    assert view.textElideMode() == Qt.TextElideMode.ElideMiddle  # where cut, "Profi…#101" keeps the number
