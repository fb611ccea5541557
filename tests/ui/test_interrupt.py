"""Ctrl+C in the terminal keeps unsaved work in the recovery copy and ends the program, without the Save prompt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from amdahl_desk.resources import example_path

pytestmark = pytest.mark.gui

# The program as `amdahl-desk PROFILE` runs it (amdahl_desk.ui.app.run: its Ctrl+C handler, its event loop),
# with one time typed once the profile is open, so that there is unsaved work when Ctrl+C comes.
DRIVER = """
import sys
from PySide6.QtCore import QTimer
import amdahl_desk.ui.document_files.file_actions as fa
from amdahl_desk.ui.app import run

opened = fa.FileActions.start

def start(self, path, default, ahead=None):
    opened(self, path, default, ahead)
    first = self.doc.profile.components[0]
    self.doc.edit_components({0: first._replace(time=123.0)}, "Edit time")
    QTimer.singleShot(0, lambda: print("ready", flush=True))

fa.FileActions.start = start
sys.exit(run(sys.argv[1]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="Ctrl+C is a POSIX signal here")
def test_ctrl_c_keeps_unsaved_work_and_quits_without_asking(tmp_path):
    from amdahl_desk.ui.document_files.recovery import RecoveryStore

    profile = tmp_path / "training.xlsx"
    profile.write_bytes(example_path().read_bytes())
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.update(AMDAHL_DESK_CONFIG_DIR=str(tmp_path / "cfg"), AMDAHL_DESK_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen(
        [sys.executable, str(driver), str(profile)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        log = tmp_path / "data" / "amdahl-desk.log"  # made just after the Ctrl+C handler is in place
        deadline = time.monotonic() + 30
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)  # a Save/Discard prompt would never be answered: a timeout
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "unsaved work kept in" in err and "Traceback" not in err, err
    # The copy is there, holds the typed time, and the next start offers it (its process has ended).
    [left] = RecoveryStore(tmp_path / "data").left_behind()
    assert left.profile.components[0].time == 123.0 and left.path == profile.resolve()
