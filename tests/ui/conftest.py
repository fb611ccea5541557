"""GUI test setup: settings and data folders in a temp dir, a window on the bundled example, or one panel of it."""

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from amdahl_desk.resources import example_path

_wait_until = QtBot.waitUntil


def _patient_wait_until(self, callback, *, timeout=20_000):
    """A condition waited for up to 20 s unless a test says otherwise (pytest-qt's 5 s is short for a trace read
    while the other test worker has the second core); a condition met returns at once all the same."""
    return _wait_until(self, callback, timeout=timeout)


QtBot.waitUntil = _patient_wait_until


@pytest.fixture(scope="session", autouse=True)
def _collector_outside_qt_calls(qapp):
    """Python's cyclic garbage collector runs from the event loop and between tests, never inside a Qt call, as in
    the application (``ui/core/collection.py`` says why: a collection inside a Qt call can hang)."""
    from amdahl_desk.ui.core.collection import EventLoopCollector

    collector = qapp.findChild(EventLoopCollector) or EventLoopCollector(qapp)
    yield collector.threshold
    collector.stop()


@pytest.fixture(autouse=True)
def _collect_after_each_test(_collector_outside_qt_calls):
    from amdahl_desk.ui.core.collection import collect_if_due

    yield
    collect_if_due(_collector_outside_qt_calls)


@pytest.fixture(autouse=True)
def _application(qapp):
    """Every test here may build a widget: the QApplication exists first, whichever test runs first (a widget
    made without one aborts the process, and with it every test left in that worker)."""
    return qapp


@pytest.fixture(autouse=True)
def _isolated_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("AMDAHL_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("AMDAHL_DESK_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def window(qtbot, tmp_path):
    """A window on a copy of the training example, as a person first sees it."""
    from amdahl_desk.ui.main_window import MainWindow

    copy = tmp_path / "training.xlsx"
    copy.write_bytes(example_path().read_bytes())
    win = MainWindow()
    qtbot.addWidget(win)
    win.asked = []
    win.errors = []

    def ask(title, text, buttons, default):
        win.asked.append(text)
        return win.answer

    win.answer = None
    win.ask = ask
    win.show_error = lambda title, text: win.errors.append(text)
    assert win.files.open_path(copy, ask=False)
    win.show()
    qtbot.waitExposed(win)
    # Charts redraw at the next frame, not inside the change: tests wait for that, not for a time.
    win.drawn = lambda: qtbot.waitUntil(lambda: not win.redraws.pending)
    win.drawn()
    return win


@pytest.fixture
def panel_doc(qapp):
    """The window's document without the window: empty until a panel fixture opens the training example in it
    (named apart from the ``doc`` fixtures of modules that test the document on a profile of their own)."""
    from amdahl_desk.ui.core.document import Document

    return Document()


@pytest.fixture
def components(qtbot, panel_doc, tmp_path):
    """The components table alone, shown, on the training example opened into ``panel_doc``, its first time cell
    current."""
    from . import panels

    return panels.components_table(qtbot, panel_doc, tmp_path)


@pytest.fixture
def checklist(qtbot, panel_doc, tmp_path):
    """The optimizations checklist alone, shown, on the training example opened into ``panel_doc``, its first row
    selected."""
    from . import panels

    return panels.checklist(qtbot, panel_doc, tmp_path)


@pytest.fixture
def runs(qtbot, panel_doc, tmp_path):
    """The Measurements panel alone, shown, on the training example opened into ``panel_doc``, its summary and
    charts drawn."""
    from . import panels

    return panels.runs_panel(qtbot, panel_doc, tmp_path)


@pytest.fixture
def objectives(qtbot, panel_doc, tmp_path):
    """The "Objectives, load and cost" panel alone, shown, on the training example opened into ``panel_doc``."""
    from . import panels

    return panels.objectives_panel(qtbot, panel_doc, tmp_path)


@pytest.fixture
def example() -> Path:
    return example_path()


@pytest.fixture(scope="module")
def everything():
    """The LLM example (load and cost set, decode's k a range), runs fitted and its after profile compared: every
    chart has data."""
    from amdahl_desk.files import load_profile, read_measurements
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.comparison import compare
    from amdahl_desk.model.fit import fit_measurements
    from amdahl_desk.present.inputs import ChartInputs

    profile = load_profile(example_path("llm-request.xlsx")).profile
    # k as a guess (a range, an effort, the odds it works): the odds' charts have data too
    decode = replace(profile.optimizations[0], speedup_low=1.6, speedup_high=5.0, confidence=0.9)
    profile.set_optimizations([decode, *profile.optimizations[1:]])
    after = load_profile(example_path("llm-request-after.xlsx")).profile
    runs = read_measurements(Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv").measurements
    return ChartInputs(profile, analyse(profile), 0, fit_measurements(runs), compare(profile, after))


def pytest_collection_modifyitems(items):
    """Every test here starts Qt: each carries the ``gui`` marker, so ``-m "not gui"`` runs without it."""
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.gui)
