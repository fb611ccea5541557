"""Importing modules on a second thread while the first waits on work that releases the GIL."""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .kinds import stamp

if TYPE_CHECKING:
    from .workbook_sheets import ParsedWorkbook


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


class ReadAhead:
    """A workbook's profile sheets parsed on another thread from the start of a launch, while the window's
    modules load: calamine parses without the GIL, so on two cores a big workbook's parse costs the start
    nothing. The window's open takes the parse if it opens the same, unchanged file; else it reads the file
    as always.

    The thread imports nothing (:func:`read_ahead` imports what it runs first): the window's imports on the
    first thread and a second importer of the same modules could each wait for a lock the other holds.
    """

    def __init__(self, path: Path) -> None:
        import encodings.cp437  # noqa: F401 - zipfile's names of the parts, decoded on the thread's first read

        from .workbook_sheets import parse_workbook

        self.path = path
        self._stamp = stamp(path)
        self._parsed: ParsedWorkbook | None = None
        self._error: BaseException | None = None

        def run() -> None:
            try:
                self._parsed = parse_workbook(path)
            except BaseException as exc:  # noqa: BLE001 - raised again by take(), on the thread that opens
                self._error = exc

        self._thread = threading.Thread(target=run, name="amdahl-desk-read-ahead", daemon=True)
        self._thread.start()

    def take(self, path: Path) -> ParsedWorkbook | None:
        """The parsed workbook when ``path`` is the file read
        ahead and it is as it was then; None otherwise (read it now). Raises what the parse raised."""
        if path != self.path:
            return None
        self._thread.join()
        parsed, error = self._parsed, self._error
        self._parsed = self._error = None
        if stamp(path) != self._stamp:  # written meanwhile: what was parsed is not the file any more
            if parsed is not None:
                parsed.close()
            return None
        if error is not None:
            raise error
        return parsed


def read_ahead(path: str | None) -> ReadAhead | None:
    """A :class:`ReadAhead` of ``path`` when it names a workbook (a table or a trace gains nothing from it)."""
    if not path:
        return None
    from .kinds import Kind, classify

    file = Path(path)
    if classify(file, look_inside=False) is not Kind.WORKBOOK or not file.is_file():
        return None
    return ReadAhead(file)
