"""Qt's console messages without the noise: harmless plugin lines, and the X server's goodbye after Ctrl+C."""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

# Lines Qt prints that say nothing to a person: the offscreen plugin cannot pass size hints to a window manager.
HARMLESS = ("propagateSizeHints()",)
_state = {"interrupted": False}
_previous: list[Callable[[QtMsgType, QMessageLogContext, str], object] | None] = [None]


def interrupted() -> None:
    """Ctrl+C was pressed: under xvfb-run it stops the X server too, which is the point, not a fault."""
    _state["interrupted"] = True


def _quiet_messages(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    if any(h in message for h in HARMLESS):
        return
    if _state["interrupted"] and "connection broke" in message:
        return
    previous = _previous[0]
    if previous is not None:
        previous(kind, context, message)
    else:
        sys.stderr.write(message + "\n")


def install_message_filter() -> None:
    previous = qInstallMessageHandler(_quiet_messages)
    if previous is not _quiet_messages:
        _previous[0] = previous
