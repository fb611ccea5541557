"""Window benchmarks: an edit in a 10,000-component table until the charts are redrawn, and start-up time.

Run: QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_ui.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

BARE = """
import time; t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QMainWindow
import pyqtgraph as pg
app = QApplication([])
w = QMainWindow(); plot = pg.PlotWidget(); plot.plot([1, 2, 3], [1, 4, 9]); w.setCentralWidget(plot)
w.resize(1600, 1000); w.show(); app.processEvents()
print(time.perf_counter() - t0)
"""

OURS = """
import time; t0 = time.perf_counter()
from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.main_window import MainWindow
from amdahl_desk.resources import example_path
app = make_app()
w = MainWindow(fresh=True); w.files.start(None, str(example_path())); w.resize(1600, 1000); w.show(); app.processEvents()
print(time.perf_counter() - t0)
"""


def startup(code: str, rounds: int) -> tuple[float, float]:
    """Median wall time of a fresh interpreter until the window is shown, and its in-process part."""
    walls, inner = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - start)
        inner.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(walls), statistics.median(inner)


def edit_latency(rounds: int) -> tuple[float, float]:
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_core import big_profile

    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow
    from amdahl_desk.ui.profile.component_table import TIME

    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    profile = big_profile(10_000, 20)
    win.doc.reset(profile, None)
    win.show()
    app.processEvents()
    model = win.component_model
    samples, toggles = [], []
    for i in range(rounds):
        index = model.index((i * 37) % 10_000, TIME)
        start = time.perf_counter()
        model.setData(index, str(10 + i % 50))
        app.processEvents()  # the table and every chart repaint here
        samples.append(time.perf_counter() - start)
    opt_model = win.optimization_model
    from PySide6.QtCore import Qt

    for i in range(rounds):
        start = time.perf_counter()
        opt_model.setData(
            opt_model.index(i % 20, 0), Qt.CheckState.Checked.value if i % 2 else 0, Qt.ItemDataRole.CheckStateRole
        )
        app.processEvents()
        toggles.append(time.perf_counter() - start)
    return statistics.median(samples), statistics.median(toggles)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    edit, toggle = edit_latency(args.rounds)
    print(
        f"edit a time in a 10,000-component table, until table and charts are redrawn: median {edit * 1e3:.1f} ms "
        "(aim: under 30 ms)"
    )
    print(f"tick an optimization in the same profile, until redrawn: median {toggle * 1e3:.1f} ms")
    n = max(3, args.rounds // 6)
    bare_wall, bare_inner = startup(BARE, n)
    ours_wall, ours_inner = startup(OURS, n)
    print(
        f"start-up to a shown window (fresh interpreter, median of {n}): Amdahl Desk {ours_wall:.2f} s, "
        f"bare PySide6 window with one pyqtgraph plot {bare_wall:.2f} s, ratio {ours_wall / bare_wall:.2f} "
        "(aim: ≤ 1.5)"
    )
    print(f"  of which after interpreter start: {ours_inner:.2f} s vs {bare_inner:.2f} s")


if __name__ == "__main__":
    main()
