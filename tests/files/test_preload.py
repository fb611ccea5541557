"""Importing what comes next while a workbook is parsed: the helper, and what the light path imports."""

import subprocess
import sys
import threading

import pytest

from amdahl_desk.files.preload import importing


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


def test_the_model_and_files_faces_still_give_every_name():
    import amdahl_desk.files as files
    import amdahl_desk.model as model

    for face in (model, files):
        for name in face.__all__:
            assert getattr(face, name) is not None, name
    with pytest.raises(AttributeError):
        model.no_such_name  # noqa: B018
    with pytest.raises(AttributeError):
        files.no_such_name  # noqa: B018
