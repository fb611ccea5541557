"""Importing modules on a second thread while the first waits on work that releases the GIL."""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def importing(*modules: str) -> Iterator[None]:
    """Import ``modules`` on another thread during the block; the block's end waits for them.

    For blocks that import nothing new themselves and spend their time without the GIL (calamine
    parsing a sheet): the two threads then never wait on each other's import locks, nor for the GIL. On two cores the imports cost nothing; on
    one, no more than importing them after. A module that fails to import is left to the caller's own
    import, which raises at its place.
    """
    missing = [name for name in modules if name not in sys.modules]
    if not missing:
        yield
        return

    def run() -> None:
        for name in missing:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - raised again, where it belongs, by the caller's import
                return

    thread = threading.Thread(target=run, name="amdahl-desk-import", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()
