"""The window soak: random plausible actions on a real window for minutes, its memory and its event loop watched.

Runs the window as ``amdahl-desk`` does (the excepthook, the recovery copy, every tab), drives it with
:class:`soak_actions.Person` and prints, as it goes and at the end: resident memory (RSS) and its slope after
minute 5, the document's own size (components, runs, undo steps), the worst and the 99th-percentile
event-loop ping (how late a 20 ms timer fired: the longest the window did not answer), every Qt warning by
text, and every error box (an "Unexpected error" is a bug). At the end the document and its history are
dropped (File → New, the undo history cleared, memory given back to the system): RSS then, against RSS at
the start, tells the document's own size from a leak.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.benchmarks.bench_soak import rss_mb, slope  # the one soak's memory measures serve the other

SAMPLE_S = 10.0
PING_MS = 20
STALL_MS = 1000


def give_back_memory() -> None:
    """Collect, and let glibc return freed pages to the system (RSS then shows what is still held)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def window_soak(minutes: float, seed: int = 1, progress: float = 1.0, size: tuple[int, int] = (1600, 1000)) -> dict:
    scratch = Path(tempfile.mkdtemp(prefix="amdahl-desk-soak-"))
    os.environ.setdefault("AMDAHL_DESK_CONFIG_DIR", str(scratch / "config"))
    os.environ.setdefault("AMDAHL_DESK_DATA_DIR", str(scratch / "data"))
    from PySide6.QtCore import QTimer, qInstallMessageHandler

    from amdahl_desk.resources import example_path
    from amdahl_desk.ui.app import install_excepthook, make_app
    from amdahl_desk.ui.main_window import MainWindow

    from .soak_actions import Person

    warnings: Counter[str] = Counter()
    person: Person | None = None

    def on_message(_kind: object, _context: object, message: str) -> None:
        if "propagateSizeHints" not in message and "does not support raise" not in message:
            warnings[message[:120]] += 1
            if warnings[message[:120]] <= 2 and person is not None:  # what led to it, the first times
                print(f"  Qt: {message[:100]} — after: " + " | ".join(person.trail), flush=True)

    qInstallMessageHandler(on_message)
    app = make_app()
    win = MainWindow()
    win.resize(*size)
    person = Person(win, scratch, seed)
    install_excepthook(win)
    win.files.start(None, str(example_path()))
    win.show()
    win.results.build_charts()

    start = time.monotonic()
    end = start + minutes * 60
    state = {"last_ping": time.monotonic(), "action": "", "worst": 0.0, "worst_action": "", "actions": 0}
    pings: list[float] = []
    stalls: list[tuple[float, str]] = []  # (ms, the actions before it) for each ping later than STALL_MS
    samples: list[tuple[float, float]] = []
    rss_start = rss_mb()
    objects_start = len(gc.get_objects())
    warm: list[float] = []  # RSS and Python objects after the warm-up (minute 2)
    next_sample, next_progress = start, start + progress * 60

    def ping() -> None:
        now = time.monotonic()
        late = (now - state["last_ping"]) * 1000 - PING_MS
        state["last_ping"] = now
        pings.append(max(late, 0.0))
        if late > state["worst"]:
            state["worst"], state["worst_action"] = late, state["action"]
        if late > STALL_MS:
            stalls.append((late, " | ".join(person.trail)))

    def step() -> None:
        nonlocal next_sample, next_progress
        now = time.monotonic()
        if now >= end:
            app.exit(0)
            return
        state["action"] = person.act()
        state["actions"] += 1
        if now >= next_sample:
            next_sample = now + SAMPLE_S
            samples.append((now - start, rss_mb()))
            if not warm and now - start >= min(120.0, minutes * 60 / 4):  # every room and chart built by now
                warm.extend([rss_mb(), len(gc.get_objects())])
        if now >= next_progress:
            next_progress = now + progress * 60
            doc = win.doc
            print(
                f"  {(now - start) / 60:5.1f} min: {state['actions']:,} actions, RSS {rss_mb():6.1f} MB, "
                f"{len(gc.get_objects()):,} Python objects, {len(doc.profile.components):,} components, "
                f"{len(doc.measurements.rows):,} runs, {doc.undo_stack.count():,} undo steps, "
                f"worst ping so far {state['worst']:.0f} ms",
                flush=True,
            )
        actions.start()

    pinger = QTimer()
    pinger.setInterval(PING_MS)
    pinger.timeout.connect(ping)
    pinger.start()
    actions = QTimer()
    actions.setSingleShot(True)
    actions.setInterval(5)  # a person's pace is slower; this is a busy one, with the event loop between actions
    actions.timeout.connect(step)
    actions.start()
    app.exec()
    pinger.stop()

    doc = win.doc
    size_at_end = (len(doc.profile.components), len(doc.measurements.rows), doc.undo_stack.count())
    give_back_memory()
    rss_end = rss_mb()
    # Drop the document and its history: what stays is not the document's.
    win.ask = lambda *args: person._ask("Unsaved", "", None, None)  # type: ignore[method-assign]
    win.files.new_document()
    doc.undo_stack.clear()
    for _ in range(3):
        app.processEvents()
    give_back_memory()
    rss_dropped = rss_mb()
    after5 = [p for p in samples if p[0] >= min(300.0, minutes * 60 * 0.3)]
    last6 = [p for p in samples if p[0] >= minutes * 60 - 360]
    result = {
        "minutes": minutes,
        "actions": state["actions"],
        "counts": person.counts,
        "errors": person.errors,
        "unexpected": [e for e in person.errors if "Unexpected" in e],
        "qt_warnings": warnings,
        "rss_start": rss_start,
        "rss_end": rss_end,
        "rss_dropped": rss_dropped,
        "slope_after_5": slope(after5),
        "slope_last_6": slope(last6),
        "worst_ping_ms": state["worst"],
        "worst_ping_action": state["worst_action"],
        "p99_ping_ms": statistics.quantiles(pings, n=100)[98] if len(pings) > 100 else max(pings, default=0.0),
        "document_at_end": size_at_end,
        "stalls": sorted(stalls, reverse=True),
        "objects": (objects_start, len(gc.get_objects())),
        "warm": tuple(warm) if warm else (rss_start, objects_start),
    }
    doc.undo_stack.setClean()
    win.close()
    return result


def report(r: dict) -> None:
    comps, runs, steps = r["document_at_end"]
    print(f"{r['actions']:,} actions in {r['minutes']:g} minutes")
    print("  most done:", ", ".join(f"{name} {n:,}" for name, n in r["counts"].most_common(12)))
    print(
        f"  RSS {r['rss_start']:.0f} → {r['rss_end']:.0f} MB; slope after minute 5 {r['slope_after_5']:+.2f} MB/min, "
        f"over the last 6 minutes {r['slope_last_6']:+.2f} MB/min"
    )
    print(f"  the document at the end: {comps:,} components, {runs:,} runs, {steps:,} undo steps")
    print(
        f"  after File → New, the undo history cleared and memory given back: RSS {r['rss_dropped']:.0f} MB "
        f"({r['rss_dropped'] - r['rss_start']:+.0f} MB against the start)"
    )
    print(
        f"  event-loop ping: worst {r['worst_ping_ms']:.0f} ms (during {r['worst_ping_action']}), p99 {r['p99_ping_ms']:.0f} ms"
    )
    warm_rss, warm_objects = r["warm"]
    print(
        f"  after the warm-up (minute 2): RSS {warm_rss:.0f} MB, {warm_objects:,.0f} Python objects; after dropping "
        f"the document: {r['rss_dropped']:.0f} MB, {r['objects'][1]:,} objects ({r['objects'][0]:,} at the start)"
    )
    print(f"  pings later than {STALL_MS} ms: {len(r['stalls'])}")
    for ms, trail in r["stalls"][:5]:
        print(f"     {ms:,.0f} ms after: {trail[-300:]}")
    print(f"  error boxes: {len(r['errors'])} ({len(r['unexpected'])} unexpected)")
    for text in r["unexpected"][:10]:
        print("    ", text.splitlines()[0][:160])
    refusals = Counter(e.split(":")[0] for e in r["errors"] if "Unexpected" not in e)
    for title, n in refusals.most_common(6):
        print(f"     {n:,} × {title}")
    print(f"  Qt warnings: {sum(r['qt_warnings'].values())}")
    for text, n in r["qt_warnings"].most_common(10):
        print(f"     {n:,} × {text}")
    sys.stdout.flush()
