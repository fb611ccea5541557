"""Start-up without a display, Ctrl+C, and the quiet console: run as a person would, in subprocesses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from amdahl_desk.model.errors import BadInputError
from amdahl_desk.resources import example_path
from amdahl_desk.ui.app import choose_platform, x_display_answers

pytestmark = pytest.mark.gui


def _bare_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a server or container shell: no display variables, no Qt platform chosen."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(AMDAHL_DESK_CONFIG_DIR=str(tmp_path / "cfg"), AMDAHL_DESK_DATA_DIR=str(tmp_path / "data"))
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "amdahl_desk", *args], capture_output=True, text=True, timeout=120, env=env
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display variables are a Linux matter")
def test_screenshot_without_a_display_renders_offscreen(tmp_path):
    shot = tmp_path / "shot.png"
    proc = _run(["--screenshot", str(shot), "--size", "1024x700"], _bare_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert shot.stat().st_size > 10_000
    # The offscreen plugin's "does not support propagateSizeHints()" lines are noise for a person.
    assert "propagateSizeHints" not in proc.stderr, proc.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display variables are a Linux matter")
def test_window_without_a_display_says_why_in_one_line(tmp_path):
    proc = _run([], _bare_env(tmp_path))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("amdahl-desk: no display") and "DISPLAY" in lines[0] and "--screenshot" in lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display variables are a Linux matter")
def test_window_on_a_display_that_does_not_answer_says_why_in_one_line(tmp_path):
    proc = _run([], _bare_env(tmp_path, DISPLAY=":59999"))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("amdahl-desk: no display") and "DISPLAY=:59999" in lines[0], proc.stderr


def test_choose_platform_rules():
    env: dict[str, str] = {}
    choose_platform(screenshot=True, environ=env, system="linux")
    assert env == {"QT_QPA_PLATFORM": "offscreen"}
    with pytest.raises(BadInputError, match="neither DISPLAY nor WAYLAND_DISPLAY"):
        choose_platform(screenshot=False, environ={}, system="linux")
    with pytest.raises(BadInputError, match="QT_QPA_PLATFORM=xcb needs DISPLAY"):
        choose_platform(screenshot=False, environ={"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w-0"}, system="linux")
    # A display, a headless platform asked for, or another system: left alone.
    for env, system in (
        ({"DISPLAY": ":0"}, "linux"),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux"),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux"),
        ({}, "win32"),
        ({}, "darwin"),
    ):
        before = dict(env)
        choose_platform(screenshot=False, environ=env, system=system, answers=lambda _display: True)
        assert env == before


def test_an_x_display_that_does_not_answer_counts_as_none():
    """A named X display with no server behind it (a stopped Xvfb): Qt would abort with its own message."""
    silent = {"DISPLAY": ":7"}
    with pytest.raises(BadInputError, match="DISPLAY=:7 names an X server that does not answer.*--screenshot"):
        choose_platform(screenshot=False, environ=dict(silent), system="linux", answers=lambda _display: False)
    env = dict(silent)
    choose_platform(screenshot=True, environ=env, system="linux", answers=lambda _display: False)
    assert env["QT_QPA_PLATFORM"] == "offscreen"
    # Wayland chosen, or Qt's X platform not in play: the X display is not asked.
    asked: list[str] = []
    for env in (
        {"DISPLAY": ":7", "WAYLAND_DISPLAY": "wayland-0"},
        {"DISPLAY": ":7", "WAYLAND_DISPLAY": "w-0", "QT_QPA_PLATFORM": "wayland"},
    ):
        choose_platform(screenshot=False, environ=env, system="linux", answers=lambda d: asked.append(d) or False)
    assert asked == []


def test_x_display_answers_reads_the_display_name():
    """An X server listens on TCP port 6000 + N for host:N: a socket listening there answers, a closed one not."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)  # the probes are never accepted: room for each in the queue
        port = server.getsockname()[1]
        assert port > 6000  # an ephemeral port: display number port - 6000
        n = port - 6000
        assert x_display_answers(f"127.0.0.1:{n}.0")
        # as Qt's libxcb reads them: no host tries the local sockets, then TCP to localhost; a protocol first
        assert x_display_answers(f":{n}") and x_display_answers(f"tcp/localhost:{n}")
        assert x_display_answers(f"inet/127.0.0.1:{n}") and x_display_answers(f"localhost:{n}")
        assert not x_display_answers(f"unix/:{n}")  # the local sockets alone: there is none of that number
    assert not x_display_answers(f"127.0.0.1:{n}", timeout=0.5)  # closed now
    assert not x_display_answers(f":{n}", timeout=0.5)
    assert not x_display_answers(":59999")  # no local server of that number
    assert x_display_answers("/private/tmp/launchd-1/org.xquartz:0")  # a form left to Qt


def test_ctrl_c_quits_the_window_cleanly(tmp_path):
    env = _bare_env(tmp_path, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-m", "amdahl_desk"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        # The log file appears once the Ctrl+C handler is in place (it is installed just before).
        log = tmp_path / "data" / "amdahl-desk.log"
        deadline = time.monotonic() + 60
        while not log.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert log.exists(), proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "propagateSizeHints" not in err, err


def test_undo_history_is_bounded_by_a_setting(qtbot, tmp_path, monkeypatch):
    """Memory that grows while editing is the undo history: it has a limit, 1,000 steps unless set."""
    from amdahl_desk.ui.main_window import MainWindow, app_settings
    from amdahl_desk.ui.profile.component_table import TIME

    monkeypatch.setenv("AMDAHL_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    win = MainWindow(fresh=True)
    qtbot.addWidget(win)
    assert win.doc.undo_stack.undoLimit() == 1000
    settings = app_settings()
    settings.setValue("edit/undo_limit", 25)
    settings.sync()
    win2 = MainWindow(fresh=True)
    qtbot.addWidget(win2)
    win2.files.start(None, str(example_path()))
    for i in range(60):
        win2.component_model.set_cells([(i % 5, TIME, str(100 + i))], "Edit time")
        win2.doc.seal()
    assert win2.doc.undo_stack.undoLimit() == 25
    assert win2.doc.undo_stack.count() == 25
    win2.doc.undo_stack.setClean()  # closing must not ask about saving


def test_export_command_prints_no_plugin_noise(tmp_path):
    proc = _run(
        ["export", str(example_path()), "--out", str(tmp_path), "--format", "png"],
        _bare_env(tmp_path, QT_QPA_PLATFORM="offscreen"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "propagateSizeHints" not in proc.stderr, proc.stderr


def test_the_window_loads_no_plotting_library_before_its_first_frame():
    """pyqtgraph takes about half a second to import: the window, its menus and its first frame come without it
    (the charts, and pyqtgraph with them, are built after that frame)."""
    code = (
        "import sys; from PySide6.QtWidgets import QApplication; app = QApplication([]);"
        "from amdahl_desk.ui.main_window import MainWindow; w = MainWindow(fresh=True);"
        "print(sorted(m for m in ('pyqtgraph', 'amdahl_desk.ui.charts.frame') if m in sys.modules))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


ODDS_MODULES = ("amdahl_desk.model.plan_search", "amdahl_desk.model.uncertainty", "amdahl_desk.present.uncertainty")
ODDS_CHILD = """
import sys
from dataclasses import replace
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.main_window import MainWindow
ODDS = {odds!r}
app = make_app()
win = MainWindow(fresh=True)
profile = Profile([Component("a", 60.0), Component("b", 40.0)], [Optimization("Faster a", ("a",), 2.0)])
win.doc.reset(profile, None)
win.show()
win.results.build_charts()
while win.redraws.pending:
    app.processEvents()
print(" ".join(m for m in ODDS if m in sys.modules) or "-")
opts = [replace(profile.optimizations[0], speedup_low=1.5, speedup_high=3.0)]
win.doc.set_optimizations(opts, "Give k a range")
while win.redraws.pending or win.doc.decision.busy:
    app.processEvents()
print(" ".join(m for m in ODDS if m in sys.modules) or "-")
win.doc.undo_stack.setClean()
"""


def test_a_profile_of_single_values_loads_no_odds_code_until_an_estimate_has_a_range(tmp_path):
    """The odds, the plan search and their sentences are loaded with the first estimate that needs them: a window
    on single values (every profile made before estimates had ranges) starts without them."""
    env = _bare_env(tmp_path, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-c", ODDS_CHILD.format(odds=ODDS_MODULES)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    before, after = proc.stdout.split("\n")[:2]
    assert before == "-"
    assert after.split() == [
        "amdahl_desk.model.plan_search",
        "amdahl_desk.model.uncertainty",
        "amdahl_desk.present.uncertainty",
    ]


def test_a_launch_opens_its_workbook_from_the_sheets_read_ahead(qtbot, tmp_path, monkeypatch):
    # `amdahl-desk FILE` parses FILE's sheets on another thread while the window's modules load; the window's
    # open takes that parse (and then reads the file again for Revert, as always).
    from amdahl_desk.files.preload import read_ahead
    from amdahl_desk.ui.main_window import MainWindow

    monkeypatch.setenv("AMDAHL_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    path = tmp_path / "training.xlsx"
    path.write_bytes(example_path().read_bytes())
    ahead = read_ahead(str(path))
    win = MainWindow(fresh=True)
    qtbot.addWidget(win)
    win.files.start(str(path), str(example_path()), ahead)
    assert win.doc.path == path.resolve()
    assert ahead is not None and ahead.take(path) is None  # taken by the open, not left to parse again
    names = [c.name for c in win.doc.profile.components]
    win.files.revert()
    assert [c.name for c in win.doc.profile.components] == names
