"""Window benchmarks, each figure printed beside the floor it is held against and their ratio.

1. Edit a time in a row in view of a 10,000-component table until the window has painted all the
   change caused (the table's row, and every chart on screen whose picture changed); floor: one 60 Hz
   frame (16.7 ms). The same for a tick (the checklist must paint) and for each step of a k-slider
   drag (the speedup chart's marker must paint). Wall-clock and CPU medians.
2. Start-up of a fresh process until its window is mapped (exposed) and its first frame painted,
   against a bare PySide6 window with one pyqtgraph plot measured in the same run, the two taking
   turns; on a real X server (Xvfb) when one can be started, otherwise offscreen. Also printed: when
   Amdahl Desk's charts are drawn (it builds them after its first frame).
   Measured as installed: the package is byte-compiled first (``compileall``) and the children run
   without PYTHONDONTWRITEBYTECODE, as pip leaves an installed package. ``--unwritable``: the same
   bytecode, the children with PYTHONDONTWRITEBYTECODE=1 (Python reads bytecode it may not write, so
   ``./run.sh`` compiles at setup). ``--no-bytecode``: a copy of the package with no bytecode at all,
   compiled at every start, while the floor's site-packages are compiled.

The window is laid out as Reset Layout (and ``--screenshot``) lays it out at 1600×1000: the breakdown
and speedup charts side by side, GPU scaling in the tab under them, the other charts in hidden tabs
(drawn when their tab is shown).

3. k-slider steps on the profile imported from the real 1-GPU trace (its plan computed in the background): one
   step a frame, and one every 100 ms (a plan computed while the next step is drawn); against one frame.

4. A paste of 5,000 runs under 5,000 in the Measurements table, until the table and the chart in view have painted
   (``--only paste``); against one frame, aim ≤ 1 s, and when the status line said a paste was under way.

Run: python tests/benchmarks/bench_ui.py [--rounds N] [--only edit|startup|trace|paste]   (not part of the test run)
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
FRAME = 1 / 60

# Both children print the wall-clock time when their window is exposed and has painted its first frame
# (the pass of the event loop that painted it has ended: the frame is on screen); ours also when its charts
# are drawn, which it builds after that first frame.
FIRST_FRAME = """
import time
from PySide6.QtCore import QEvent, QObject
class FirstFrame(QObject):
    painted = False
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            FirstFrame.painted = True
        return False
def first_frame(app, w):
    watch = FirstFrame()
    app.installEventFilter(watch)  # any widget's paint: opaque children leave the window itself unpainted
    while not (w.windowHandle() and w.windowHandle().isExposed() and FirstFrame.painted):
        app.processEvents()
    app.removeEventFilter(watch)
    return time.time()
"""

BARE = (
    FIRST_FRAME
    + """
from PySide6.QtWidgets import QApplication, QMainWindow
import pyqtgraph as pg
import os
app = QApplication([])
w = QMainWindow(); plot = pg.PlotWidget(); plot.plot([1, 2, 3], [1, 4, 9]); w.setCentralWidget(plot)
w.resize(1600, 1000); w.show()
print(first_frame(app, w), flush=True)
os._exit(0)
"""
)

OURS = (
    FIRST_FRAME
    + """
import os
import amdahl_desk.ui
getattr(amdahl_desk.ui, "without_source_scan", lambda: None)()  # as the window's launch does (a build before lacks it)
from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.main_window import MainWindow
from amdahl_desk.resources import example_path
app = make_app()
w = MainWindow(fresh=True); w.files.start(None, str(example_path())); w.resize(1600, 1000); w.show()
mapped = first_frame(app, w)
while not w.results.charts or w.redraws.pending:
    app.processEvents()
app.processEvents()
print(mapped, time.time(), flush=True)
os._exit(0)
"""
)


def start_xvfb() -> tuple[dict[str, str], subprocess.Popen[bytes] | None]:
    """An environment for the children: a fresh Xvfb display when there is one, else the offscreen platform."""
    env = dict(os.environ, PYQTGRAPH_QT_LIB="PySide6")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: the bytecode is read, not compiled again
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


def startup(
    codes: list[str], rounds: int, env: dict[str, str], roots: Sequence[Path] = (), compiled: bool = True
) -> list[list[float]]:
    """For each child, medians over ``rounds`` fresh processes of the seconds from spawn to each time it prints.

    The children take turns, round after round, so that a change in the machine's load hits them alike.
    ``roots``: the package each child after the first runs from (this checkout's when not given), each in its
    own folder (``python -c`` puts the working folder first on the path). ``compiled``: each package byte-compiled
    first, as ``./run.sh`` does at setup (and pip for an installed package).
    """
    samples: list[list[list[float]]] = [[] for _ in codes]
    root = Path(__file__).resolve().parents[2]
    homes = [root, *(list(roots) or [root] * (len(codes) - 1))]
    for home in set(homes):
        if compiled:
            compileall.compile_dir(str(home / "amdahl_desk"), quiet=1)  # what ./run.sh and pip do at setup
    envs = [dict(env, PYTHONPATH=str(home) + os.pathsep + env.get("PYTHONPATH", "")) for home in homes]
    children = list(zip(codes, samples, envs, homes, strict=True))
    for round_ in range(rounds):
        # Each round starts with another child: the one after a given child would otherwise always meet the
        # display server still tearing down that child's window.
        for code, runs, child_env, home in children[round_ % len(children) :] + children[: round_ % len(children)]:
            spawned = time.time()
            out = subprocess.run(
                [sys.executable, "-c", code], env=child_env, cwd=home, capture_output=True, text=True, check=True
            )
            runs.append([float(v) - spawned for v in out.stdout.split()])
    return [[statistics.median(column) for column in zip(*runs, strict=True)] for runs in samples]


def without_bytecode(root: Path, into: Path) -> Path:
    """A copy of ``root``'s package with no bytecode, for a child run with PYTHONDONTWRITEBYTECODE=1: each start
    compiles every module it imports, as an editable install in a read-only place does."""
    for part in ("amdahl_desk", "resources"):  # the package and the examples and icons it finds beside it
        shutil.copytree(root / part, into / part, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def drag_positions(rounds: int, k_now: float) -> list[int]:
    """Slider positions for ``rounds`` steps of a drag (from 300 on, 7 apart, wrapping past 800), each giving another
    k than the step before (the first another than ``k_now``): k snaps to two digits, so neighbouring positions can
    give the same k, and a step that changes nothing draws nothing to wait for. The first is also another position
    than the slider's for ``k_now`` (a slider set to where it is says nothing)."""
    from amdahl_desk.ui.profile.optimization_panel import k_to_slider, slider_to_k

    positions: list[int] = []
    last, at, i = k_now, k_to_slider(k_now), 0
    while len(positions) < rounds:
        position, i = 300 + (i * 7) % 500, i + 1
        if slider_to_k(position) != last and position != at:
            positions.append(position)
            last, at = slider_to_k(position), position
    return positions


def edit_latency(rounds: int) -> dict[str, float]:
    """Median seconds from a change until the table and every chart have painted again."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_core import big_profile
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtWidgets import QAbstractScrollArea, QWidget

    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow
    from amdahl_desk.ui.profile.component_table import TIME

    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    win.doc.reset(big_profile(10_000, 20), None)
    win.show()
    win.results.build_charts()
    win.reset_layout()  # the layout of View → Reset Layout and of the screenshots
    settle = time.perf_counter() + 0.5
    while time.perf_counter() < settle or win.redraws.pending:
        app.processEvents()

    painted: set[int] = set()
    paints: list[int] = []  # one per paint of a watched view

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.add(id(watched))
                paints.append(1)
            return False

    watch = PaintWatch()
    shown = {key: chart for key, chart in win.results.charts.items() if chart.isVisible()}
    plots = {key: [v.viewport() for v in chart.findChildren(QAbstractScrollArea)] for key, chart in shown.items()}
    views = [win.table.viewport(), *(v for vs in plots.values() for v in vs)]
    for view in views:
        view.installEventFilter(watch)
    print(f"charts on screen: {', '.join(shown)}; hidden: {', '.join(k for k in win.results.charts if k not in shown)}")

    def quiet() -> None:
        """Let the last redraw's frame pass, as between two keystrokes (not measured)."""
        end = time.perf_counter() + 2 * FRAME
        while time.perf_counter() < end or win.redraws.pending:
            app.processEvents()

    cpu: dict[str, list[float]] = {"edit": [], "tick": [], "drag": []}

    def wait_for(must_paint: list[QWidget], start: float) -> tuple[float, float]:
        """Run the event loop until the redraw is done, each of ``must_paint`` has painted and three passes
        of the loop paint nothing more; the wall-clock and CPU time when the last pass that painted ended.

        A chart whose picture did not change (a time nudged among 10,000 moves no curve by a pixel) does
        not paint; one that did is waited for like the table.
        """
        end = (time.perf_counter(), time.process_time())
        idle = 0
        while idle < 3:
            count = len(paints)
            app.processEvents()
            if len(paints) != count:
                end, idle = (time.perf_counter(), time.process_time()), 0
            elif not win.redraws.pending and all(id(v) in painted for v in must_paint):
                idle += 1
            if time.perf_counter() - start > 10:  # a view that never paints would hang the benchmark
                missing = [type(v.parent()).__name__ for v in must_paint if id(v) not in painted]
                raise RuntimeError(f"not painted within 10 s: {missing}")
        return end

    def measure(
        change: Callable[[], None], must_paint: list[QWidget], kind: str, prepare: Callable[[], None] = lambda: None
    ) -> float:
        prepare()
        quiet()
        painted.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        change()
        end, end_cpu = wait_for(must_paint, start)
        cpu[kind].append(end_cpu - start_cpu)
        return end - start

    model, opts = win.component_model, win.optimization_model
    # One cell typed over at a time, in a row in view (a person edits what they see), times that differ
    # from the old ones (1 to 97 ms); a tick shows in the checklist, the table's rows in view may not change.
    edits = [
        measure(
            lambda i=i: model.setData(model.index((i * 37) % 10_000, TIME), str(10.5 + i % 50)),
            [win.table.viewport()],
            "edit",
            prepare=lambda i=i: win.table.scrollTo(model.index((i * 37) % 10_000, TIME)),
        )
        for i in range(rounds)
    ]

    def tick(row: int) -> None:
        enabled = win.doc.profile.optimizations[row].enabled
        state = Qt.CheckState.Unchecked if enabled else Qt.CheckState.Checked
        opts.setData(opts.index(row, 0), state.value, Qt.ItemDataRole.CheckStateRole)

    checklist = win.optimizations.view.viewport()
    checklist.installEventFilter(watch)
    # A person ticks a box they see: the row is scrolled into view first (not measured), as for an edit.
    ticks = [
        measure(
            lambda i=i: tick(i % 20),
            [checklist],
            "tick",
            prepare=lambda i=i: win.optimizations.view.scrollTo(opts.index(i % 20, 0)),
        )
        for i in range(rounds)
    ]
    panel = win.optimizations
    panel.select_row(0)
    quiet()
    panel.slider.sliderPressed.emit()
    steps = []
    for position in drag_positions(
        rounds, win.doc.profile.optimizations[panel.current_row()].speedup
    ):  # one step per frame, each until painted
        start, start_cpu = time.perf_counter(), time.process_time()
        painted.clear()
        panel.slider.setValue(position)
        end, end_cpu = wait_for(plots.get("speedup", []), start)  # its marker moves with k
        steps.append(end - start)
        cpu["drag"].append(end_cpu - start_cpu)
        while time.perf_counter() < start + FRAME:
            app.processEvents()
    panel.slider.sliderReleased.emit()
    medians = {"edit": statistics.median(edits), "tick": statistics.median(ticks), "drag": statistics.median(steps)}
    return medians | {f"{k} cpu": statistics.median(v) for k, v in cpu.items()}


def paste_latency(rounds: int, runs: int = 5_000) -> dict[str, float]:
    """Median seconds from a paste of ``runs`` runs (N, time, label; Ctrl+V's action) under the last of ``runs``
    runs in the Measurements table until the table and the chart in view have painted them and the loop is idle;
    each round undone before the next. Also the seconds until the status line said so (the progress)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QAbstractScrollArea, QApplication

    from amdahl_desk.model.measurement_table import MeasurementTable
    from amdahl_desk.model.measurements import Measurement
    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow

    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    win.show()
    rows = tuple(Measurement(float(i % 64 + 1), round(1000.0 / (i % 64 + 1) + i % 7, 2)) for i in range(runs))
    win.doc.edit_measurements(MeasurementTable(rows), "Runs")
    win.left_tabs.setCurrentWidget(win.fit_page)
    panel, view = win.fit_panel, win.fit_panel.view
    settle = time.perf_counter() + 0.5
    while time.perf_counter() < settle or win.redraws.pending:
        app.processEvents()
    text = "".join(f"{i % 64 + 1}\t{2000.0 / (i % 64 + 1):.2f}\trun {i}\n" for i in range(runs))
    clipboard = QApplication.clipboard()
    painted: set[int] = set()
    paints: list[int] = []
    said: list[float] = []

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.add(id(watched))
                paints.append(1)
            return False

    watch = PaintWatch()
    chart = panel.tabs.currentWidget()
    must = [view.viewport(), *(v.viewport() for v in chart.findChildren(QAbstractScrollArea))]
    for widget in must:
        widget.installEventFilter(watch)
    win.statusBar().messageChanged.connect(lambda text: said.append(time.perf_counter()) if "Pasting" in text else None)
    walls, cpus, progress = [], [], []
    for _ in range(rounds):
        clipboard.setText(text)
        view.setCurrentIndex(view.model().index(runs, 0))
        end = time.perf_counter() + 2 * FRAME
        while time.perf_counter() < end or win.redraws.pending:
            app.processEvents()
        painted.clear()
        said.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        view.paste_action.trigger()
        last, last_cpu, idle = time.perf_counter(), time.process_time(), 0
        while idle < 3:
            count = len(paints)
            app.processEvents()
            if len(paints) != count:
                last, last_cpu, idle = time.perf_counter(), time.process_time(), 0
            elif not win.redraws.pending and all(id(v) in painted for v in must):
                idle += 1
            if time.perf_counter() - start > 30:
                raise RuntimeError("the paste was not painted within 30 s")
        if len(panel.model.table.rows) != 2 * runs:
            raise RuntimeError(f"the paste left {len(panel.model.table.rows)} runs, not {2 * runs}")
        walls.append(last - start)
        cpus.append(last_cpu - start_cpu)
        progress.append(said[0] - start if said else float("nan"))
        win.doc.undo_stack.undo()
    return {
        "paste": statistics.median(walls),
        "paste cpu": statistics.median(cpus),
        "paste said": statistics.median(progress),
        "runs": runs,
    }


def trace_drag(rounds: int) -> dict[str, float]:
    """k-slider steps on the profile imported from the real 1-GPU trace, each until the speedup chart has painted
    it: one step a frame (the plan on the trace waits for the drag to rest), and one every 100 ms (each step's
    plan is computed on the background thread while the next step is drawn: the GIL is shared)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QAbstractScrollArea

    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow

    trace = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"
    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    profile = import_trace(trace).to_profile()
    profile.set_optimizations([Optimization("Faster backward", ("## backward ##",), 2.0)])
    win.doc.reset(profile, None)
    win.show()
    win.results.build_charts()
    win.reset_layout()
    win.whatif.settle()
    painted: list[int] = []

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(1)
            return False

    watch = PaintWatch()
    for view in win.results.chart("speedup").findChildren(QAbstractScrollArea):
        view.viewport().installEventFilter(watch)
    panel = win.optimizations
    panel.select_row(0)
    win.whatif.settle()
    out: dict[str, float] = {}
    for name, spacing in (("frame", FRAME), ("100 ms", 0.1)):
        panel.slider.sliderPressed.emit()
        steps, cpu = [], []
        for position in drag_positions(rounds, win.doc.profile.optimizations[panel.current_row()].speedup):
            painted.clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            panel.slider.setValue(position)
            while not painted or win.redraws.pending:
                app.processEvents()
            steps.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            while time.perf_counter() < start + spacing:
                app.processEvents()
        panel.slider.sliderReleased.emit()
        win.whatif.settle()
        out[name], out[name + " cpu"], out[name + " max"] = statistics.median(steps), statistics.median(cpu), max(steps)
    win.doc.undo_stack.setClean()
    win.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", choices=("edit", "startup", "trace", "paste"), help="run one of the benchmarks")
    parser.add_argument("--against", type=Path, help="start-up: the root of another checkout, taking turns")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="start-up: the package without bytecode, PYTHONDONTWRITEBYTECODE=1"
    )
    parser.add_argument(
        "--unwritable",
        action="store_true",
        help="start-up: Python may not write bytecode (PYTHONDONTWRITEBYTECODE=1), the package compiled at setup",
    )
    args = parser.parse_args()
    if args.only == "paste":
        f = paste_latency(args.rounds)
        n = f"{int(f['runs']):,}"
        print(
            f"paste {n} runs under {n} in the Measurements table until table and chart have painted: median "
            f"{f['paste'] * 1e3:.0f} ms wall ({f['paste cpu'] * 1e3:.0f} ms CPU); floor one 60 Hz frame "
            f"{FRAME * 1e3:.1f} ms, ratio {f['paste'] / FRAME:.1f}; aim ≤ 1 s with a progress indication beyond a "
            f"frame: the status line said so {f['paste said'] * 1e3:.1f} ms after the paste began; "
            f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}"
        )
        return
    if args.only not in ("edit", "trace"):
        env, server = start_xvfb()
        n = max(5, args.rounds // 4)
        root = Path(__file__).resolve().parents[2]
        builds = [root] + ([args.against.resolve()] if args.against else [])
        try:
            with tempfile.TemporaryDirectory() as tmp:
                if args.no_bytecode or args.unwritable:
                    env["PYTHONDONTWRITEBYTECODE"] = "1"
                if args.no_bytecode:  # the package compiled on every start; the floor's site-packages as installed
                    builds = [without_bytecode(b, Path(tmp) / str(i)) for i, b in enumerate(builds)]
                codes = [BARE] + [OURS] * len(builds)
                (bare,), *ours = startup(codes, n, env, builds, compiled=not args.no_bytecode)
        finally:
            if server is not None:
                server.terminate()
                server.wait()
        (mapped, charts) = ours[0]
        where = "Xvfb" if server is not None else "offscreen"
        where += (
            ", no bytecode"
            if args.no_bytecode
            else ", bytecode unwritable, the package compiled at setup"
            if args.unwritable
            else ", bytecode as installed"
        )
        if args.against:
            other = ours[1][0]
            print(
                f"start-up to a mapped window, the build in {args.against.name} in the same runs: {other:.2f} s; "
                f"ratio to the floor {other / bare:.2f}"
            )
    if args.only not in ("startup", "trace"):
        print_edit_figures(edit_latency(args.rounds))
    if args.only in (None, "trace"):
        f, ms = trace_drag(args.rounds), 1e3
        for name in ("frame", "100 ms"):
            print(
                f"one k-slider step with the 1-GPU trace open (a step every {name}) until the speedup chart has "
                f"painted: median {f[name] * ms:.1f} ms wall ({f[name + ' cpu'] * ms:.1f} ms CPU), slowest "
                f"{f[name + ' max'] * ms:.1f} ms; floor one 60 Hz frame {FRAME * ms:.1f} ms; "
                f"ratio {f[name] / FRAME:.2f} (aim ≤ 1)"
            )
    if args.only not in ("edit", "trace"):
        print(
            f"start-up to a mapped window ({where}, whole process, median of {n}): Amdahl Desk {mapped:.2f} s; "
            f"floor: bare PySide6 window with one pyqtgraph plot {bare:.2f} s; ratio {mapped / bare:.2f} (aim ≤ {1.2 if args.no_bytecode else 1.1})"
        )
        print(f"  Amdahl Desk's charts drawn {charts:.2f} s after spawn (ratio to the floor {charts / bare:.2f})")
        print(f"  load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def print_edit_figures(figures: dict[str, float]) -> None:
    ms = 1e3
    for key, text in (
        ("edit", "edit a time in a 10,000-component table until table and charts have repainted"),
        ("tick", "tick an optimization in that profile until the checklist and affected charts have repainted"),
        ("drag", "one k-slider step of a drag until the affected charts have repainted"),
    ):
        print(
            f"{text}: median {figures[key] * ms:.1f} ms wall ({figures[key + ' cpu'] * ms:.1f} ms CPU); "
            f"floor one 60 Hz frame {FRAME * ms:.1f} ms; ratio {figures[key] / FRAME:.2f} (aim ≤ 1)"
        )


if __name__ == "__main__":
    main()
