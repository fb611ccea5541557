"""Soak benchmark: random editing in a real window for a while, memory measured as it goes.

Prints resident memory (RSS) and Python's traced allocations over time, the growth in MB per minute
after a warm-up, and the undo stack's size, first with the window's undo limit and then with the
undo stack cleared at every sample — so a growth that stops when the history is dropped is the
history, and a growth that goes on is a leak.

Run: QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_soak.py [--minutes 0.5] [--undo-limit N]
A one-hour soak of the window as it is used (undo history kept, bounded by its limit):
--minutes 60 --only history --progress 5

--window runs the soak a person's way instead (soak_window.py): random plausible actions on every tab, the
menus, pastes of up to 2,000 rows and resizes, through keys, clicks and the clipboard; it prints the RSS slope,
the worst event-loop ping, the Qt warnings and the error boxes. On a real X server with a window manager:
  Xvfb :77 -screen 0 1600x1000x24 & DISPLAY=:77 openbox &
  DISPLAY=:77 QT_QPA_PLATFORM=xcb python tests/benchmarks/bench_soak.py --window --minutes 12
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; elsewhere the peak from resource)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares growth per minute of (seconds, MB) points."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(t for t, _ in points) / n
    my = sum(m for _, m in points) / n
    var = sum((t - mx) ** 2 for t, _ in points)
    return 0.0 if var == 0 else 60 * sum((t - mx) * (m - my) for t, m in points) / var


def soak(
    minutes: float, undo_limit: int | None, drop_history: bool, trace: bool, seed: int = 1, progress: float = 0.0
) -> dict[str, float]:
    from PySide6.QtWidgets import QApplication

    from amdahl_desk.resources import example_path
    from amdahl_desk.ui.app import make_app
    from amdahl_desk.ui.main_window import MainWindow
    from amdahl_desk.ui.profile.component_table import TIME

    app = make_app()
    win = MainWindow(fresh=True)
    win.resize(1600, 1000)
    win.files.start(None, str(example_path()))
    win.show()
    if undo_limit is not None:
        win.doc.undo_stack.clear()
        win.doc.undo_stack.setUndoLimit(undo_limit)
    rng = random.Random(seed)
    doc = win.doc
    panel = win.optimizations

    def one_edit() -> None:
        comps = doc.profile.components
        kind = rng.random()
        if kind < 0.5:
            row = rng.randrange(len(comps))
            win.component_model.set_cells([(row, TIME, str(rng.randint(1, 2000)))], "Edit time")
        elif kind < 0.7 and doc.profile.optimizations:
            panel.select_row(rng.randrange(len(doc.profile.optimizations)))
            panel._set_k(round(rng.uniform(1.1, 50), 2))
            doc.seal()
        elif kind < 0.8 and doc.profile.optimizations:
            row = rng.randrange(len(doc.profile.optimizations))
            opt = doc.profile.optimizations[row]
            from dataclasses import replace

            opts = list(doc.profile.optimizations)
            opts[row] = replace(opt, enabled=not opt.enabled)
            doc.set_optimizations(opts, "Toggle")
        elif kind < 0.9 and doc.undo_stack.canUndo():
            doc.undo_stack.undo()
        elif doc.undo_stack.canRedo():
            doc.undo_stack.redo()
        QApplication.processEvents()

    if trace:  # tracing every allocation slows editing tenfold: only when asked
        tracemalloc.start(5)
    start = time.monotonic()
    end = start + minutes * 60
    warm = start + min(10.0, minutes * 60 * 0.2)
    rss_points: list[tuple[float, float]] = []
    py_points: list[tuple[float, float]] = []
    edits = 0
    next_sample = start
    next_progress = start + progress * 60 if progress else end + 1
    while time.monotonic() < end:
        one_edit()
        edits += 1
        now = time.monotonic()
        if now >= next_sample:
            next_sample = now + max(1.0, minutes * 60 / 60)
            if drop_history:
                doc.undo_stack.clear()
            gc.collect()
            if now >= warm:
                rss_points.append((now - start, rss_mb()))
                if trace:
                    py_points.append((now - start, tracemalloc.get_traced_memory()[0] / 1e6))
            if now >= next_progress:
                next_progress = now + progress * 60
                print(
                    f"  {(now - start) / 60:5.1f} min: {edits:,} edits, RSS {rss_mb():.1f} MB, "
                    f"{doc.undo_stack.count():,} undo steps",
                    flush=True,
                )
    top = []
    if trace:
        top = tracemalloc.take_snapshot().statistics("filename")[:5]
        tracemalloc.stop()
    result = {
        "edits": edits,
        "edits_per_s": edits / (time.monotonic() - start),
        "rss_mb": rss_mb(),
        "rss_mb_per_min": slope(rss_points),
        "rss_mb_per_min_second_half": slope([p for p in rss_points if p[0] >= minutes * 30]),
        "python_mb_per_min": slope(py_points),
        "rss_kb_per_1000_edits": 1000 * 1000 * slope(rss_points) / 60 / max(edits / (time.monotonic() - start), 1e-9),
        "undo_steps": doc.undo_stack.count(),
    }
    if top:
        print("  biggest Python allocations at the end:")
    for stat in top:
        print(f"    {stat.size / 1e6:7.2f} MB  {stat.traceback[0].filename}")
    win.doc.undo_stack.setClean()
    win.close()
    win.deleteLater()
    QApplication.processEvents()
    del app
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=0.5, help="length of each soak (default 0.5)")
    parser.add_argument("--undo-limit", type=int, default=None, help="undo limit to soak with (default: the window's)")
    parser.add_argument("--trace", action="store_true", help="also trace Python allocations (slow)")
    parser.add_argument(
        "--only",
        choices=("history", "dropped"),
        help="run one soak: with the undo history kept, or dropped at every sample (default: both, one after the other)",
    )
    parser.add_argument("--progress", type=float, default=0.0, help="print memory every this many minutes")
    parser.add_argument("--window", action="store_true", help="the window soak: a person's actions, at random")
    parser.add_argument("--seed", type=int, default=1, help="the window soak's random seed")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    if args.window:
        from tests.benchmarks.soak_window import report, window_soak

        report(window_soak(args.minutes, args.seed, args.progress or 1.0))
        return 0
    runs = (("with the undo history", False), ("undo history dropped at every sample", True))
    for label, drop in runs:
        if args.only and (args.only == "dropped") != drop:
            continue
        r = soak(args.minutes, args.undo_limit, drop, args.trace, progress=args.progress)
        print(
            f"{label}: {r['edits']:,.0f} edits ({r['edits_per_s']:,.0f}/s), RSS {r['rss_mb']:.1f} MB, "
            f"growth {r['rss_mb_per_min']:+.2f} MB/minute, second half {r['rss_mb_per_min_second_half']:+.2f} "
            f"({r['rss_kb_per_1000_edits']:+.0f} kB per 1,000 edits"
            + (f"; Python objects {r['python_mb_per_min']:+.2f} MB/minute" if args.trace else "")
            + "), "
            f"{r['undo_steps']:,.0f} undo steps held"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
