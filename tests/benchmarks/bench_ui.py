"""Window benchmarks, each figure printed beside the floor it is held against and their ratio.

1. Edit a time in a 10,000-component table until the table and every chart have repainted;
   floor: one 60 Hz frame (16.7 ms). The same for a tick and for each step of a k-slider drag.
2. Start-up of a fresh process until its window is mapped (exposed), against a bare PySide6
   window with one pyqtgraph plot measured in the same run; on a real X server (Xvfb) when one
   can be started, otherwise offscreen. Also printed: when Amdahl Desk's charts are drawn.

Run: python tests/benchmarks/bench_ui.py [--rounds N]   (not part of the test run)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
FRAME = 1 / 60

# Both children print, when their window is exposed, the wall-clock time (and ours also when the charts are drawn).
BARE = """
from PySide6.QtWidgets import QApplication, QMainWindow
import pyqtgraph as pg
import os, time
app = QApplication([])
w = QMainWindow(); plot = pg.PlotWidget(); plot.plot([1, 2, 3], [1, 4, 9]); w.setCentralWidget(plot)
w.resize(1600, 1000); w.show()
while not (w.windowHandle() and w.windowHandle().isExposed()):
    app.processEvents()
app.processEvents()
print(time.time(), flush=True)
os._exit(0)
"""

OURS = """
import os, time
from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.main_window import MainWindow
from amdahl_desk.resources import example_path
app = make_app()
w = MainWindow(fresh=True); w.files.start(None, str(example_path())); w.resize(1600, 1000); w.show()
while not (w.windowHandle() and w.windowHandle().isExposed()):
    app.processEvents()
app.processEvents()
mapped = time.time()
while not w.results.charts or w.redraws.pending:
    app.processEvents()
app.processEvents()
print(mapped, time.time(), flush=True)
os._exit(0)
"""


def start_xvfb() -> tuple[dict[str, str], subprocess.Popen[bytes] | None]:
    """An environment for the children: a fresh Xvfb display when there is one, else the offscreen platform."""
    env = dict(os.environ, PYQTGRAPH_QT_LIB="PySide6")
    if shutil.which("Xvfb") is None:
        env["QT_QPA_PLATFORM"] = "offscreen"
        return env, None
    display = f":{90 + os.getpid() % 100}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # the server's socket appears; nothing is measured yet
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb")
    return env, server


def startup(code: str, rounds: int, env: dict[str, str]) -> list[float]:
    """Medians over ``rounds`` fresh processes: seconds from spawn to each time the child prints."""
    samples: list[list[float]] = []
    root = str(Path(__file__).resolve().parents[2])
    env = dict(env, PYTHONPATH=root + os.pathsep + env.get("PYTHONPATH", ""))
    for _ in range(rounds):
        spawned = time.time()
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        marks = [float(v) for v in out.stdout.split()]
        samples.append([m - spawned for m in marks])
    return [statistics.median(column) for column in zip(*samples, strict=True)]


def edit_latency(rounds: int) -> dict[str, float]:
    """Median seconds from a change until the table and every chart have painted again."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_core import big_profile
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtWidgets import QAbstractScrollArea

    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow
    from amdahl_desk.ui.profile.component_table import TIME

    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    win.doc.reset(big_profile(10_000, 20), None)
    win.show()
    win.results.build_charts()

    painted: set[int] = set()

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.add(id(watched))
            return False

    watch = PaintWatch()
    views = [win.table.viewport()]
    for chart in win.results.charts.values():
        views += [v.viewport() for v in chart.findChildren(QAbstractScrollArea)]
    for view in views:
        view.installEventFilter(watch)

    def quiet() -> None:
        """Let the last redraw's frame pass, as between two keystrokes (not measured)."""
        end = time.perf_counter() + 2 * FRAME
        while time.perf_counter() < end or win.redraws.pending:
            app.processEvents()

    cpu: dict[str, list[float]] = {"edit": [], "tick": [], "drag": []}

    def measure(change: Callable[[], None], must_paint: list[object], kind: str) -> float:
        quiet()
        painted.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        change()
        while win.redraws.pending or not all(id(v) in painted for v in must_paint):
            app.processEvents()
        cpu[kind].append(time.process_time() - start_cpu)
        return time.perf_counter() - start

    model, opts = win.component_model, win.optimization_model
    chart_views = views[1:]
    edits = [
        measure(lambda i=i: model.setData(model.index((i * 37) % 10_000, TIME), str(10 + i % 50)), views, "edit")
        for i in range(rounds)
    ]

    def tick(row: int) -> None:
        enabled = win.doc.profile.optimizations[row].enabled
        state = Qt.CheckState.Unchecked if enabled else Qt.CheckState.Checked
        opts.setData(opts.index(row, 0), state.value, Qt.ItemDataRole.CheckStateRole)

    # the scaling chart does not depend on the optimizations, so it is not waited for
    ticks = [measure(lambda i=i: tick(i % 20), [views[0], *chart_views[:2]], "tick") for i in range(rounds)]
    panel = win.optimizations
    panel.select_row(0)
    quiet()
    panel.slider.sliderPressed.emit()
    steps = []
    for i in range(rounds):  # a drag: one step per frame, each measured until the charts have painted it
        start, start_cpu = time.perf_counter(), time.process_time()
        painted.clear()
        panel.slider.setValue(300 + (i * 7) % 500)
        while win.redraws.pending or not all(id(v) in painted for v in chart_views[:2]):
            app.processEvents()
        steps.append(time.perf_counter() - start)
        cpu["drag"].append(time.process_time() - start_cpu)
        while time.perf_counter() < start + FRAME:
            app.processEvents()
    panel.slider.sliderReleased.emit()
    medians = {"edit": statistics.median(edits), "tick": statistics.median(ticks), "drag": statistics.median(steps)}
    return medians | {f"{k} cpu": statistics.median(v) for k, v in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    env, server = start_xvfb()
    try:
        n = max(5, args.rounds // 4)
        bare = startup(BARE, n, env)[0]
        mapped, charts = startup(OURS, n, env)
    finally:
        if server is not None:
            server.terminate()
            server.wait()
    where = "Xvfb" if server is not None else "offscreen"
    figures = edit_latency(args.rounds)
    ms = 1e3
    for key, text in (
        ("edit", "edit a time in a 10,000-component table until table and charts have repainted"),
        ("tick", "tick an optimization in that profile until table and affected charts have repainted"),
        ("drag", "one k-slider step of a drag until the affected charts have repainted"),
    ):
        print(
            f"{text}: median {figures[key] * ms:.1f} ms wall ({figures[key + ' cpu'] * ms:.1f} ms CPU); "
            f"floor one 60 Hz frame {FRAME * ms:.1f} ms; ratio {figures[key] / FRAME:.2f} (aim ≤ 1)"
        )
    print(
        f"start-up to a mapped window ({where}, whole process, median of {n}): Amdahl Desk {mapped:.2f} s; "
        f"floor: bare PySide6 window with one pyqtgraph plot {bare:.2f} s; ratio {mapped / bare:.2f} (aim ≤ 1.2)"
    )
    print(f"  Amdahl Desk's charts drawn {charts:.2f} s after spawn (ratio to the floor {charts / bare:.2f})")


if __name__ == "__main__":
    main()
