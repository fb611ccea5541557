"""A save that fails at any point says why, leaves the file on disk byte-for-byte and the document modified,
and leaves no temporary file behind, open or not (a full disk must be usable, and unmountable, afterwards)."""

from __future__ import annotations

import errno
import os
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from xlsxwriter.packager import Packager

from amdahl_desk.ui.fit.runs_model import COUNT
from amdahl_desk.ui.profile.component_table import TIME

from .driving import paste_at, press, show_tab, type_in_cell

pytestmark = pytest.mark.gui


def deleted_but_open() -> list[str]:
    """Files this process still holds open although they are deleted (their blocks stay allocated)."""
    found = []
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.endswith(" (deleted)"):
            found.append(target)
    return found


def parts_left(folder: Path) -> set[str]:
    """The folders the workbook writer keeps its parts in while it writes, in the temporary folder ``folder``."""
    return {p.name for p in folder.glob("amdahl-desk-parts-*")}


def fail_on_call(n: int, exc: BaseException):
    """A stand-in that lets ``n - 1`` calls through to ``real`` and raises ``exc`` at the n-th."""

    def wrap(real):
        calls = [0]

        def call(*args, **kwargs):
            calls[0] += 1
            if calls[0] == n:
                raise exc
            return real(*args, **kwargs)

        return call

    return wrap


def enospc() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


FAILURES = {
    # where the write stops: (object, attribute, which call fails, what is raised, what the message says)
    "creating the temporary file": (tempfile, "mkstemp", 1, enospc(), "No space left on device"),
    "zipping the third part of the workbook": (zipfile.ZipFile, "write", 3, enospc(), "No space left on device"),
    "writing the sheets' parts": (Packager, "_write_worksheet_files", 1, enospc(), "No space left on device"),
    "flushing to disk": (os, "fsync", 1, OSError(errno.EIO, os.strerror(errno.EIO)), "Input/output error"),
    "moving it over the file": (os, "replace", 1, OSError(errno.EACCES, os.strerror(errno.EACCES)), "denied"),
    "the writer's own error": (None, None, 1, ValueError("a sheet went wrong"), "could not be written"),
}


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="open files are listed in /proc on Linux")
@pytest.mark.parametrize("where", list(FAILURES))
def test_a_save_that_fails_part_way_changes_nothing_and_says_why(window, qtbot, monkeypatch, tmp_path, where):
    import amdahl_desk.files.workbook_writer as writer

    path = window.doc.path
    before = path.read_bytes()
    type_in_cell(qtbot, window.table, 1, TIME, "321")
    show_tab(qtbot, window.left_tabs, 1)
    paste_at(qtbot, window.fit_panel.view, 0, COUNT, "1\t100\n2\t60\n")
    # No recovery copy is written during these saves: its writer's parts folder would be counted as the save's.
    keeper = window.files.keeper
    keeper.delay_ms = 3_600_000
    keeper.wait()
    # The writer's parts go to a temporary folder of this test's own: another test process writing a workbook
    # meanwhile has its parts folder in the shared one.
    own_tmp = tmp_path / "tmp"
    own_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own_tmp))
    owner, name, n, exc, said = FAILURES[where]
    if owner is None:
        owner, name = writer, "write_summary"
        monkeypatch.setattr(owner, name, fail_on_call(1, exc)(getattr(owner, name)))
    else:
        monkeypatch.setattr(owner, name, fail_on_call(n, exc)(getattr(owner, name)))
    open_before, parts_before = deleted_but_open(), parts_left(own_tmp)
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # File → Save
    monkeypatch.undo()
    assert len(window.errors) == 1 and said in window.errors[0], window.errors
    assert "Unexpected" not in window.errors[0] and "The file on disk is unchanged" in window.errors[0]
    assert path.read_bytes() == before
    assert window.isWindowModified() and not window.doc.undo_stack.isClean()
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f".{path.name}.")) == []
    assert deleted_but_open() == open_before and parts_left(own_tmp) == parts_before
    # The disk is fine again: the same Save now works, and the work is in the file.
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.undo_stack.isClean() and path.read_bytes() != before


@pytest.fixture
def tiny_disk(tmp_path):
    """A 256 kB tmpfs, mounted for the test (as root, where mounting is allowed); skipped elsewhere."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        umounted = subprocess.run(["umount", str(mount)], capture_output=True)
        assert umounted.returncode == 0, umounted.stderr.decode()  # nothing of ours keeps it busy


def test_a_save_onto_a_disk_that_fills_is_refused_and_frees_what_it_took(window, qtbot, tiny_disk):
    target = tiny_disk / "work.xlsx"
    target.write_bytes(window.doc.path.read_bytes())
    assert window.files.open_path(target, ask=False)
    before = target.read_bytes()
    type_in_cell(qtbot, window.table, 1, TIME, "321")
    stat = os.statvfs(tiny_disk)
    filler = tiny_disk / "filler"
    filler.write_bytes(b"x" * (stat.f_bavail * stat.f_frsize - 4096))  # leave one page: less than a workbook
    free = os.statvfs(tiny_disk).f_bavail
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(window.errors) == 1 and "No space left on device" in window.errors[0], window.errors
    assert target.read_bytes() == before and window.isWindowModified()
    assert os.statvfs(tiny_disk).f_bavail == free  # the temporary file's blocks came back: nothing holds them
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["filler", "work.xlsx"]
    filler.unlink()
    window.errors.clear()
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.errors == [] and window.doc.undo_stack.isClean()
    window.files.open_path(window.doc.path, ask=False)  # as a person might; the test's umount comes next


def test_save_as_to_a_new_name_in_a_read_only_folder_says_nothing_was_written(window, monkeypatch, tmp_path):
    """A folder the person may not write in refuses the temporary file; there was no file of that name to keep,
    so the message does not say one is unchanged (as root, a read-only folder is stood in for by the refusal)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    target = folder / "new-name.xlsx"
    window.choose_file = lambda save, suggested="", filters="", title="": str(target)
    denied = OSError(errno.EACCES, os.strerror(errno.EACCES))
    monkeypatch.setattr(tempfile, "mkstemp", fail_on_call(1, denied)(tempfile.mkstemp))
    assert not window.files.save_as()
    monkeypatch.undo()
    assert len(window.errors) == 1, window.errors
    assert window.errors[0] == f"{target}: Permission denied. No file was written."
    assert not target.exists() and list(folder.iterdir()) == []
    assert window.doc.path != target
