"""Chart labels that never collide or leave the plot, titles that read as sentences, dialogs that say what they export."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from amdahl_desk.ui.files.export_dialog import ExportDialog

pytestmark = pytest.mark.gui


def test_export_dialogs_name_what_is_exported(window, monkeypatch, tmp_path):
    seen: dict[str, str] = {}

    def exec_dialog(dialog: ExportDialog) -> int:
        seen["dialog"] = dialog.windowTitle()
        return ExportDialog.DialogCode.Accepted

    def save_name(parent, title, start, filters):
        seen["chooser"] = title
        return "", filters

    monkeypatch.setattr(ExportDialog, "exec", exec_dialog)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    window.export_dialog("slide")
    assert seen == {"dialog": "Export Slide", "chooser": "Export Slide as PNG"}
    window.export_dialog("scaling")
    assert seen == {"dialog": "Export Chart: GPU scaling", "chooser": "Export Chart: GPU scaling as PNG"}
    window.export_csv()
    assert seen["chooser"] == "Export Components as CSV"


def test_export_dialog_title_follows_the_chosen_chart(qtbot):
    dialog = ExportDialog("slide")
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Export Slide"
    dialog.chart.setCurrentIndex(dialog.chart.findData("speedup"))
    assert dialog.windowTitle() == "Export Chart: Speedup against k"
