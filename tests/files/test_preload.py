"""Importing what comes next while a workbook is parsed: the helper, and what the light path imports."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from amdahl_desk.files import save_profile
from amdahl_desk.files.preload import importing
from amdahl_desk.model.profile import Component, Profile

from .hostile import valid_workbook


def test_modules_are_imported_on_another_thread_during_the_block(monkeypatch):
    seen = []
    import importlib

    real = importlib.import_module

    def spy(name, package=None):
        seen.append((name, threading.current_thread() is threading.main_thread()))
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", spy)
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    with importing("colorsys", "sys"):  # sys is there already: not imported again
        pass
    assert seen == [("colorsys", False)] and "colorsys" in sys.modules


def test_a_failing_import_is_left_to_the_caller_and_the_block_still_runs():
    ran = []
    with importing("amdahl_desk_no_such_module"):
        ran.append(True)
    assert ran == [True]
    with pytest.raises(ModuleNotFoundError):
        import amdahl_desk_no_such_module  # noqa: F401 - the caller's own import raises, at its place


def test_an_error_in_the_block_waits_for_the_imports_and_propagates(monkeypatch):
    monkeypatch.delitem(sys.modules, "wave", raising=False)
    with pytest.raises(ValueError, match="bad cell"), importing("wave"):
        raise ValueError("bad cell")
    assert "wave" in sys.modules  # joined before the error left the block


def test_the_command_line_and_the_workbook_parse_start_without_numpy():
    # What runs before the parse must not import numpy, or the parse could not overlap its import.
    code = (
        "import sys, amdahl_desk.cli, amdahl_desk.files, amdahl_desk.files.workbook_sheets, amdahl_desk.model.errors\n"
        "print(sorted(m for m in ('numpy', 'amdahl_desk.model.analysis', 'amdahl_desk.files.tables') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_files_face_gives_every_name():
    import amdahl_desk.files as files

    for name in files.__all__:
        assert getattr(files, name) is not None, name
    with pytest.raises(AttributeError):
        files.no_such_name  # noqa: B018


# -- the launch's read-ahead: a workbook's sheets parsed while the window's modules load ----------------


def _same(a, b):
    """Two loads of one file agree on what a user sees: the profile's rows and settings, and the warnings."""
    assert a.profile.components == b.profile.components
    assert a.profile.optimizations == b.profile.optimizations
    assert a.profile.settings == b.profile.settings
    assert [str(w) for w in a.warnings] == [str(w) for w in b.warnings]
    assert a.time_cells == b.time_cells


def test_a_workbook_read_ahead_loads_as_a_workbook_read_now(tmp_path):
    from amdahl_desk.files import load_profile
    from amdahl_desk.files.preload import read_ahead
    from amdahl_desk.resources import example_path

    for path in (example_path(), valid_workbook(tmp_path / "p.xlsx")):
        ahead = read_ahead(str(path))
        assert ahead is not None
        loaded = load_profile(path, ahead=ahead)
        _same(loaded, load_profile(path))
        assert loaded.profile.components[0].name  # a profile, not an empty one
        # Taken once: a second open (Revert) reads the file again.
        assert ahead.take(Path(path)) is None
        _same(load_profile(path, ahead=ahead), loaded)


def test_a_read_ahead_is_used_only_for_its_own_unchanged_file(tmp_path):
    from amdahl_desk.files import load_profile
    from amdahl_desk.files.preload import read_ahead

    first = valid_workbook(tmp_path / "first.xlsx")
    other = valid_workbook(tmp_path / "other.xlsx")
    ahead = read_ahead(str(first))
    assert ahead.take(other) is None  # another file: read as always

    ahead = read_ahead(str(first))
    ahead._thread.join()
    # Written between the launch and the open: the new contents are what opens.
    changed = Profile([Component("only", 5.0)], [])
    save_profile(changed, first)
    os.utime(first, ns=(time.time_ns() + 10**9,) * 2)  # a later time, even where the clock is coarse
    loaded = load_profile(first, ahead=ahead)
    assert [c.name for c in loaded.profile.components] == ["only"]


def test_a_damaged_workbook_read_ahead_is_refused_as_one_read_now(tmp_path):
    from amdahl_desk.files import load_profile
    from amdahl_desk.files.preload import read_ahead
    from amdahl_desk.model.errors import ProfileError

    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(ProfileError) as now:
        load_profile(bad)
    ahead = read_ahead(str(bad))
    with pytest.raises(ProfileError) as early:
        load_profile(bad, ahead=ahead)
    assert str(early.value) == str(now.value)


def test_only_an_existing_workbook_is_read_ahead(tmp_path):
    from amdahl_desk.files.preload import read_ahead

    table = tmp_path / "t.csv"
    table.write_text("Component,Time (ms)\na,1\n")
    trace = tmp_path / "t.json"
    trace.write_text("{}")
    for path in (None, "", str(table), str(trace), str(tmp_path / "missing.xlsx"), str(tmp_path)):
        assert read_ahead(path) is None, path


def test_the_read_ahead_thread_imports_nothing(tmp_path):
    # Two threads importing the same modules can each wait for a lock the other holds: the read-ahead's thread
    # runs beside the window's imports, so it may import nothing (an audit hook sees every import, by thread).
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(valid_workbook(tmp_path / "p.xlsx").read_bytes()[:-200])  # cut short: refused
    for path, parsed in ((tmp_path / "p.xlsx", True), (bad, False)):
        _read_ahead_imports_nothing(path, parsed)


def _read_ahead_imports_nothing(path, parsed):
    code = (
        "import sys, threading\n"
        "seen = []\n"
        "sys.addaudithook(lambda event, args: seen.append(args[0]) if event == 'import' and "
        "threading.current_thread().name == 'amdahl-desk-read-ahead' else None)\n"
        "from amdahl_desk.files.preload import read_ahead\n"
        f"ahead = read_ahead({str(path)!r})\n"
        "ahead._thread.join()\n"
        f"assert (ahead._parsed is not None) is {parsed} and (ahead._error is None) is {parsed}\n"
        "print(seen)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
