"""The bundled examples open as untitled copies: Save asks where, starting in the user's documents, never the install."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QMessageBox

from amdahl_desk.resources import example_path, resources_dir

pytestmark = pytest.mark.gui

EXAMPLES = sorted((resources_dir() / "examples").glob("*.xlsx"))


@pytest.fixture(autouse=True)
def _examples_kept():
    """Put the examples back whatever happens: without the fix these tests write into them."""
    saved = {p: p.read_bytes() for p in EXAMPLES}
    yield
    for p, data in saved.items():
        if p.read_bytes() != data:
            p.write_bytes(data)


@pytest.fixture
def fresh(qtbot):
    from amdahl_desk.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.errors = []
    win.show_error = lambda title, text: win.errors.append(text)
    win.ask = lambda title, text, buttons, default: QMessageBox.StandardButton.Discard  # closing at the end
    return win


@pytest.fixture
def dialogs(monkeypatch):
    """Record what the save dialog was asked (title, start) and answer with ``answer``."""
    asked: list[tuple[str, str]] = []
    state = {"answer": ""}

    def save_name(parent, title, start, filters):
        asked.append((title, start))
        return state["answer"], filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    return asked, state


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_an_example_opens_as_an_untitled_copy(fresh, example):
    assert fresh.files.open_path(example, ask=False)
    assert fresh.doc.path is None
    title = fresh.windowTitle()
    assert "copy" in title.lower() and example.name in title, title
    assert fresh.doc.analysis is not None  # the profile itself is the example's


def test_first_start_is_a_copy_and_ctrl_s_asks_where(fresh, dialogs, tmp_path):
    asked, state = dialogs
    before = example_path().read_bytes()
    fresh.files.start(None, str(example_path()))
    fresh.table.table.set_cells([(0, 1, "123")], "Edit time")
    state["answer"] = ""  # the person cancels the dialog
    assert fresh.files.save() is False  # Ctrl+S on a copy is Save As, and cancelling it writes nothing
    assert len(asked) == 1
    title, start = asked[0]
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not Path(documents).is_dir():  # without a Documents folder the dialog starts at home, not the working directory
        documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.HomeLocation)
    assert Path(start).parent == Path(documents), start
    assert Path(start).name == example_path().name
    assert not Path(start).resolve().is_relative_to(resources_dir().resolve())
    assert example_path().read_bytes() == before

    state["answer"] = str(tmp_path / "mine.xlsx")
    assert fresh.files.save()
    assert fresh.doc.path == (tmp_path / "mine.xlsx").resolve()
    assert example_path().read_bytes() == before
    assert "copy" not in fresh.windowTitle().lower()


def test_save_as_into_the_installation_is_refused(fresh, dialogs):
    asked, state = dialogs
    before = example_path().read_bytes()
    fresh.files.start(None, str(example_path()))
    state["answer"] = str(example_path())
    assert fresh.files.save_as() is False
    assert fresh.errors and "installation" in fresh.errors[0]
    assert example_path().read_bytes() == before


def test_remembered_folder_never_becomes_the_installation(fresh, dialogs, tmp_path):
    asked, state = dialogs
    own = tmp_path / "own.xlsx"
    own.write_bytes(example_path().read_bytes())
    fresh.files.open_path(own, ask=False)  # a file of the user's: its folder is remembered
    fresh.files.open_path(example_path(), ask=False)  # the example afterwards must not replace it
    fresh.files.save_as()
    assert Path(asked[-1][1]).parent == tmp_path


def test_without_a_documents_folder_save_starts_at_home(fresh, dialogs, tmp_path, monkeypatch):
    asked, _ = dialogs
    home = tmp_path / "home"
    home.mkdir()
    locations = {
        QStandardPaths.StandardLocation.DocumentsLocation: str(home / "Documents"),  # does not exist
        QStandardPaths.StandardLocation.HomeLocation: str(home),
    }
    monkeypatch.setattr(QStandardPaths, "writableLocation", staticmethod(lambda where: locations[where]))
    fresh.files.start(None, str(example_path()))
    assert fresh.files.save() is False
    assert Path(asked[0][1]).parent == home


@pytest.mark.parametrize("name", ["training-iteration.xlsx", "llm-request.xlsx", "llm-request-after.xlsx"])
def test_file_open_example_offers_every_bundled_example(window, qtbot, name):
    """File → Open Example lists each bundled example; each opens as an untitled copy."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.resources import example_path
    from amdahl_desk.ui.menus import EXAMPLES

    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    examples = next(a.menu() for a in file_menu.actions() if a.text() == "Open &Example")
    titles = [a.text() for a in examples.actions()]
    assert titles == [title for _n, title, _t in EXAMPLES]
    examples.actions()[[n for n, _t, _x in EXAMPLES].index(name)].trigger()
    qtbot.waitUntil(lambda: window.doc.profile == load_profile(example_path(name)).profile)
    assert window.doc.path is None  # an untitled copy: Save asks where
