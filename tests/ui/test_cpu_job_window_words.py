"""The window names a CPU job's scaling for its ranks: ddp4 (four ranks over gloo, no GPU event in its traces: see
tests/job/test_cpu_job_scaling_words.py) opens with a "Rank scaling" tab, chart and Copy Chart Image entry, its
overhead model's help measuring C at N0 ranks, and the bundled workbook opened after it is back to GPUs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

pytestmark = pytest.mark.gui

DDP4 = Path(__file__).parents[1] / "traces" / "fixtures" / "ddp4"


def scaling_tab(window) -> tuple[str, str]:
    """The scaling chart's tab: its text and tooltip, wherever the pane has it now."""
    results = window.results
    tabs = results.tabs if results.in_tabs else results.more
    index = tabs.indexOf(results.slots["scaling"])
    return tabs.tabText(index), tabs.tabToolTip(index)


def copy_chart_entries(window) -> list[str]:
    menu = next(m for m in window.findChildren(QMenu) if m.title().replace("&", "") == "Copy Chart Image")
    menu.aboutToShow.emit()
    return [a.text() for a in menu.actions()]


def test_a_cpu_jobs_scaling_is_named_for_its_ranks_in_the_window(qtbot, window):
    assert scaling_tab(window) == ("GPU scaling", "GPU scaling")
    window.choose_trace = lambda folder_=False: [str(DDP4)]
    next(
        a for a in window.findChildren(QAction) if a.text().replace("&", "") == "Import Profile from Folder…"
    ).trigger()
    qtbot.waitUntil(lambda: window.doc.job.figures is not None or bool(window.errors), timeout=60_000)
    assert not window.errors, window.errors
    window.drawn()
    assert scaling_tab(window) == ("Rank scaling", "Rank scaling")
    view = window.results.chart("scaling").drawn
    assert view.title.replace("\u00a0", " ").startswith("Rank scaling of the job: ")
    assert view.x_axis == "Ranks N (log₂ scale)"
    assert "Rank scaling" in copy_chart_entries(window) and "GPU scaling" not in copy_chart_entries(window)
    assert window.settings_panel.model_help.text().endswith("components at N0 ranks.")
    # a workbook of its own speaks of GPUs again
    from amdahl_desk.resources import example_path

    assert window.files.open_path(example_path(), ask=False)
    window.drawn()
    assert scaling_tab(window) == ("GPU scaling", "GPU scaling")
    assert window.results.chart("scaling").drawn.x_axis == "GPUs N (log₂ scale)"
    assert "GPU scaling" in copy_chart_entries(window)
    assert window.settings_panel.model_help.text().endswith("components at N0 GPUs.")
