"""One way the window writes a file: beside it first, moved over it at the end, and any failure said in words."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from ...files import atomic_write

log = logging.getLogger(__name__)


def write_safely(path: Path, write: Callable[[str], None]) -> str | None:
    """Write ``path`` through a temporary file (``write(temp path)``); ``None`` when done, else why not.

    Whatever stops the write (a full disk, a folder that is read-only, a writer's own error) leaves the file on
    disk as it was and the temporary file closed and removed; the reason comes back as a sentence for a person
    ("…: No space left on device. The file on disk is unchanged.", or "No file was written." where there was none
    to keep). Errors that are not the disk's are logged
    with their traceback too.
    """
    existed = path.exists()
    # A new name (Save As into a read-only folder) had no file to keep: say that nothing was written instead.
    kept = "The file on disk is unchanged." if existed else "No file was written."
    try:
        atomic_write(path, write)
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}. {kept}"
    except Exception as exc:  # noqa: BLE001 - the promise: never a traceback, never a half-written file
        log.exception("writing %s failed", path)
        return f"{path}: the file could not be written ({exc}). {kept}"
    return None
