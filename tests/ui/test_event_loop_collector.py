"""The application collects cycles from its event loop, not from wherever an allocation happens to be."""

import gc
import weakref

import pytest

from amdahl_desk.ui.app import make_app
from amdahl_desk.ui.core.collection import FIRST_MS, INTERVAL_MS, EventLoopCollector, collect_if_due

pytestmark = pytest.mark.gui


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_the_application_has_one_and_the_automatic_collector_is_off(qapp):
    app = make_app()
    make_app()
    assert len(app.findChildren(EventLoopCollector)) == 1
    assert not gc.isenabled()


def test_cycles_are_collected_from_the_event_loop(qtbot, qapp):
    """A cycle left behind is freed by the timer once enough has been allocated, not by the allocations."""
    qapp.findChild(EventLoopCollector) or EventLoopCollector(qapp)
    gc.collect()
    left = Cycle()
    watch = weakref.ref(left)
    del left
    keep = [Cycle() for _ in range(gc.get_threshold()[0] * 3)]  # enough allocations to make a collection due
    assert watch() is not None  # none made inside them
    qtbot.waitUntil(lambda: watch() is None, timeout=5_000)
    del keep


def test_only_the_generations_that_are_due():
    gc.collect()
    before = [s["collections"] for s in gc.get_stats()]
    collect_if_due((10**9, 10, 10))
    assert [s["collections"] for s in gc.get_stats()] == before


def test_the_first_look_waits_for_the_first_frame_then_every_interval(qtbot, qapp):
    collector = EventLoopCollector(qapp)
    try:
        timer = collector._timer
        assert timer.isActive() and timer.interval() == FIRST_MS >= 10 * INTERVAL_MS
        collector.collect_if_due()  # as the timer calls it
        assert timer.isActive() and timer.interval() == INTERVAL_MS
    finally:
        collector.stop()
        collector.deleteLater()
        gc.disable()  # the application's own collector is still running
