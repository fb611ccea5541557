"""No part of the window filters the whole application's events: every event of every widget would then pass
through Python first (one such filter, for the settings fields' undo, made an edit at 10,000 rows take a third
longer). Filters sit on the widgets they are for."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QObject

from amdahl_desk.ui.profile.component_table import TIME

from .driving import type_in_cell

pytestmark = pytest.mark.gui


@pytest.fixture
def watched(monkeypatch) -> list[str]:
    """The targets of every event filter installed from now on ("the application" for the application)."""
    seen: list[str] = []
    install = QObject.installEventFilter

    def recording(target: QObject, watcher: QObject) -> None:
        seen.append("the application" if target is QCoreApplication.instance() else type(target).__name__)
        install(target, watcher)

    monkeypatch.setattr(QObject, "installEventFilter", recording)
    return seen


def test_the_window_installs_no_event_filter_on_the_application(watched, window, qtbot):
    qtbot.waitUntil(lambda: bool(window.results.charts), timeout=20_000)  # built after the first frame
    type_in_cell(qtbot, window.table, 0, TIME, "120")
    window.results.decision.confidence.setFocus()  # a settings field, with its own undo
    window.drawn()
    assert watched, "the recording saw no filter at all: it does not watch what the window does"
    assert "the application" not in watched
