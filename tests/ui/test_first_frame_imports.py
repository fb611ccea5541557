"""The window's first frame loads only what it shows: the other tabs' panels, the odds, a comparison and a trace's
what-if load when first used. A fresh process builds the window on the bundled example, offscreen, and lists its
modules once the first frame is painted."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gui

FIRST_FRAME = """
import json, sys
from PySide6.QtCore import QEvent, QObject
from amdahl_desk.resources import example_path
from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.main_window import MainWindow

class Painted(QObject):
    seen = False
    def eventFilter(self, watched, event):
        Painted.seen = Painted.seen or event.type() == QEvent.Type.Paint
        return False

app = make_app()
window = MainWindow(fresh=True)
window.files.start(None, str(example_path()))
watch = Painted()
app.installEventFilter(watch)
window.show()
while not (window.windowHandle() and window.windowHandle().isExposed() and Painted.seen):
    app.processEvents()
first = sorted(sys.modules)
window.left_tabs.setCurrentIndex(1)  # the Measurements tab, chosen: its panel is made now
app.processEvents()
print(json.dumps({"first": first, "then": sorted(sys.modules), "runs": window.fit_panel.model.rowCount()}))
"""

# Not needed to show the profile's tables, its summary and the plan's first frame.
LATER = (
    "amdahl_desk.ui.fit.fit_panel",  # the Measurements tab
    "amdahl_desk.ui.fit.measurement_view",
    "amdahl_desk.ui.fit.runs_model",
    "amdahl_desk.model.fit",  # the fits themselves, computed when a chart or panel first shows them
    "amdahl_desk.model.fit_text",  # the fits' texts
    "amdahl_desk.present.fit",
    "amdahl_desk.present.measured",
    "amdahl_desk.model.fit_intervals",
    "amdahl_desk.ui.objectives.panel",  # the Objectives, load and cost tab
    "amdahl_desk.ui.objectives.objectives_sheet",
    "amdahl_desk.ui.objectives.load_cost_settings",
    "amdahl_desk.model.comparison",  # Compare With…
    "amdahl_desk.model.adoption",
    "amdahl_desk.model.uncertainty",  # the odds and the plan search: a profile with ranges
    "amdahl_desk.model.draws",
    "amdahl_desk.model.plan_search",
    "amdahl_desk.model.traces",  # a trace's import and what-if
    "pyqtgraph",  # the charts are built after the first frame
)


def test_the_first_frame_loads_none_of_what_only_other_tabs_and_later_steps_use(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", AMDAHL_DESK_CONFIG_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert [m for m in LATER if m in seen["first"]] == []
    # and the Measurements tab, once chosen, has its panel (the empty row waits for a first run)
    assert "amdahl_desk.ui.fit.fit_panel" in seen["then"] and seen["runs"] == 1
