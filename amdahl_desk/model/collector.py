"""Python's cycle collector held off while a large structure without cycles is built (a workbook's rows, a report).

Building 50,000 rows allocates hundreds of thousands of containers; each 700 of them start a collection, and
the older generations are walked again and again while nothing they hold can be garbage (plain rows, floats
and strings form no cycles): a third of a 50,000-row ``report --json`` went there. Reference counting still
frees everything as usual; only the search for cycles waits until the outermost pause ends (pauses nest, and
may overlap on several threads).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_enabled_before = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection inside the block; the collector is as it was once the last such block ends."""
    global _depth, _enabled_before
    with _lock:
        if _depth == 0:
            _enabled_before = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _enabled_before:
                gc.enable()
