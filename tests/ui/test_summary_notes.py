"""The summary's note line is shortened with "…" at the width it has now: set at one width and then narrowed (the
window laid out after the summary was drawn), it was cut mid-word with no "…"."""

from __future__ import annotations

import pytest

from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.summary_panel import SummaryPanel

pytestmark = pytest.mark.gui

NOTE = (
    '"backward" is sped up by two enabled optimizations (100% of the time, 9.1 ms): their speedups multiply on it, '
    "which the sum of their separate gains would not show"
)


@pytest.mark.parametrize("narrower", [700, 520, 380])
def test_the_note_fits_its_line_after_the_panel_narrows(qtbot, narrower):
    panel = SummaryPanel()
    qtbot.addWidget(panel)
    panel.resize(1100, 220)
    panel.show()
    settle_layout()
    panel.set_notes([NOTE, "a second note"])
    panel.resize(narrower, 220)
    settle_layout()
    label = panel.notes
    shown = label.text()
    assert "…" in shown and shown.endswith("(+1 more: hover to read)")
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
