"""Python's cycle collector run from the event loop, never inside a Qt call.

pyqtgraph's items hold reference cycles and Python owns their menus. A collection that an allocation sets off
inside a Qt call holding its signal-slot lock (a disconnect asking Python for an override) frees such a menu,
whose actions then wait for that lock for ever: the window hangs (seen in QObject::~QObject of a QAction under
gc_collect_main under QObject::disconnect). So the automatic collector is off while the application runs and a
timer makes the collections Python would have made, each generation at its own threshold, from the event loop
— as pyqtgraph's own ``util.garbage_collector`` does. Reference counting frees everything else at once.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 100
# The first look waits until a launch has painted its first frame: the profile it opened was built with the
# collector paused (model/collector.py), and the full collection then due took 36-48 ms of a 50,000-row
# workbook's first frame.
FIRST_MS = 2000


def collect_if_due(threshold: tuple[int, int, int]) -> None:
    """The collections Python would have made by now, each generation at its own threshold."""
    counts = gc.get_count()
    for generation in range(3):
        if counts[generation] <= threshold[generation]:
            break
        gc.collect(generation)


class EventLoopCollector(QObject):
    """Turns the automatic collector off and collects from a timer of the event loop until :meth:`stop`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.threshold: tuple[int, int, int] = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_if_due)
        self._timer.start(FIRST_MS)

    def collect_if_due(self) -> None:
        self._timer.setInterval(INTERVAL_MS)
        collect_if_due(self.threshold)

    def stop(self) -> None:
        self._timer.stop()
        gc.enable()
