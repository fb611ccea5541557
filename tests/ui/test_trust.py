"""Nothing typed is lost: failed saves keep the old file, a killed session is restored, errors are logged."""

import errno
import os
import signal
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtWidgets import QMessageBox

from amdahl_desk.files import load_profile
from amdahl_desk.ui.profile.component_table import TIME

pytestmark = pytest.mark.gui
Button = QMessageBox.StandardButton


def edit(win, value="123"):
    win.component_model.setData(win.component_model.index(0, TIME), value)


def no_temp_files(folder):
    return not [p for p in folder.iterdir() if p.name.startswith(".") and p.suffix == ".tmp"]


@pytest.mark.parametrize("failure", ["disk full", "read-only folder", "file locked"])
def test_failed_save_leaves_the_file_byte_for_byte(window, monkeypatch, failure):
    path = window.doc.path
    original = path.read_bytes()
    edit(window)
    import amdahl_desk.files.atomic as atomic
    import amdahl_desk.ui.document_files.file_actions as mw

    if failure == "disk full":
        real = mw.save_profile

        def full(profile, tmp, *args, **kwargs):
            real(profile, tmp, *args, **kwargs)
            with open(tmp, "r+b") as fh:
                fh.truncate(100)  # half written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(mw, "save_profile", full)
    elif failure == "read-only folder":

        def refuse(*args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied")

        monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)
    else:

        def locked(*args, **kwargs):
            raise PermissionError(errno.EBUSY, "The file is locked by another program")

        monkeypatch.setattr(atomic.os, "replace", locked)
    assert not window.files.save()
    assert path.read_bytes() == original
    assert window.isWindowModified() and window.doc.profile.components[0].time == 123
    assert "The file on disk is unchanged" in window.errors[-1]
    assert no_temp_files(path.parent)


def test_save_keeps_the_file_permissions(window):
    path = window.doc.path
    os.chmod(path, 0o640)
    edit(window)
    assert window.files.save()
    assert (path.stat().st_mode & 0o777) == 0o640
    assert no_temp_files(path.parent)


def test_file_changed_on_disk_warns_before_overwriting(window):
    path = window.doc.path
    edit(window)
    other = path.read_bytes() + b""  # another program saves the file meanwhile
    path.write_bytes(other)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    window.answer = Button.Cancel
    assert not window.files.save()
    assert "changed on disk" in window.asked[-1] and window.isWindowModified()
    window.answer = Button.Save
    assert window.files.save()
    assert load_profile(path).profile.components[0].time == 123


def test_structural_change_writes_the_recovery_copy(window, qtbot):
    window.table.setCurrentIndex(window.component_model.index(1, 0))
    window.table.insert_action.trigger()
    qtbot.waitUntil(lambda: window.files.recovery.workbook.exists())
    assert len(load_profile(window.files.recovery.workbook).profile.components) == 6
    window.doc.undo_stack.undo()
    assert not window.files.recovery.workbook.exists()  # back to the saved state: nothing to recover


def test_killed_session_is_restored(tmp_path, qtbot, example):
    from amdahl_desk.ui.main_window import MainWindow

    copy = tmp_path / "work.xlsx"
    copy.write_bytes(example.read_bytes())
    script = textwrap.dedent(f"""
        import os, signal
        from amdahl_desk.ui.app import make_app
        from amdahl_desk.ui.main_window import MainWindow
        from amdahl_desk.ui.profile.component_table import TIME
        app = make_app()
        w = MainWindow()
        w.files.open_path({str(copy)!r}, ask=False)
        w.component_model.setData(w.component_model.index(1, TIME), "333")
        assert w.files.write_recovery()
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    win = MainWindow()
    qtbot.addWidget(win)
    asked = []
    win.ask = lambda title, text, buttons, default: asked.append(text) or Button.Yes
    win.files.start(None, str(example))
    assert "did not close normally" in asked[0] and "work.xlsx" in asked[0]
    assert win.doc.profile.components[1].time == 333
    assert win.doc.path == copy.resolve() and win.isWindowModified()
    assert load_profile(copy).profile.components[1].time == 600  # the file itself was never touched
    others = [p for p in win.files.recovery.folder.glob("session-*.json") if p != win.files.recovery.meta]
    assert not others  # the crashed session's copy is gone; this session keeps its own
    win.doc.undo_stack.setClean()


def test_declined_recovery_is_deleted(tmp_path, qtbot, example):
    from amdahl_desk.model.profile import Component, Profile
    from amdahl_desk.ui.document_files.recovery import RecoveryStore
    from amdahl_desk.ui.main_window import MainWindow

    store = RecoveryStore(pid=2**22 + 12345)  # a process id no running process has
    store.write(Profile([Component("x", 1)]), None)
    win = MainWindow()
    qtbot.addWidget(win)
    win.ask = lambda *a: Button.Discard
    win.files.start(None, str(example))
    assert win.files.imported_from.name == "training-iteration.xlsx"  # the example, as an untitled copy
    assert not store.workbook.exists() and not store.meta.exists()


def test_unexpected_error_is_logged_and_shown_and_the_data_stays(window, tmp_path, qtbot):
    from amdahl_desk.ui.app import install_excepthook

    edit(window)
    old = sys.excepthook
    try:
        log_file = install_excepthook(window)
        for _ in range(3):  # an error in a paint repeats at every paint: one box, not three
            try:
                raise RuntimeError("something broke in a slot")
            except RuntimeError:
                sys.excepthook(*sys.exc_info())
        assert window.errors == []  # shown from the event loop, never from inside the failing call
        qtbot.waitUntil(lambda: len(window.errors) == 1)
    finally:
        sys.excepthook = old
    assert "something broke in a slot" in window.errors[-1] and str(log_file) in window.errors[-1]
    assert "2 more error(s)" in window.errors[-1]
    text = log_file.read_text()
    assert "Traceback" in text and "RuntimeError: something broke in a slot" in text
    assert window.doc.profile.components[0].time == 123 and window.isWindowModified()
