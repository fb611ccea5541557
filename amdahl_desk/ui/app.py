"""Starting the application: QApplication, the window, a screenshot mode, and a last-resort error dialog."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import traceback
from pathlib import Path
from types import TracebackType

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QCoreApplication, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QIcon  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ..resources import icon_path  # noqa: E402
from .core.document import EVERYTHING  # noqa: E402
from .core.qt_util import parse_size, settle_layout  # noqa: E402
from .files.recovery import data_dir  # noqa: E402
from .main_window import MainWindow  # noqa: E402

log = logging.getLogger("amdahl_desk")


def make_app() -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication(sys.argv[:1])
    app.setApplicationName("Amdahl Desk")
    app.setOrganizationName("Amdahl Desk")
    app.setDesktopFileName("amdahl-desk")
    if icon_path().exists():
        app.setWindowIcon(QIcon(str(icon_path())))
    return app


def install_excepthook(window: MainWindow) -> Path | None:
    """Unexpected errors are logged with their traceback to a file and shown; the window and its data stay."""
    log_file: Path | None = None
    try:
        log_file = data_dir() / "amdahl-desk.log"
        handler = logging.FileHandler(log_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        log.addHandler(handler)
    except OSError:
        log_file = None

    showing = False
    missed = 0

    def show() -> None:
        # Out of the call stack that failed (a paint, a model's data()): a modal box there paints re-entrantly.
        nonlocal showing, missed
        where = f"\n\nThe details are in {log_file}." if log_file else ""
        more = f"\n\n{missed} more error(s) happened meanwhile; they are in the log too." if missed else ""
        missed = 0
        try:
            with contextlib.suppress(Exception):
                window.show_error(
                    "Unexpected error",
                    f"Something went wrong: {message}\n\nYour profile is still open; save it to keep it."
                    + where
                    + more,
                )
        finally:
            showing = False

    message = ""

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        nonlocal showing, missed, message
        text = "".join(traceback.format_exception(kind, value, tb))
        log.error("unexpected error\n%s", text)
        if showing:  # one box at a time: a loop of errors must not stack dialogs
            missed += 1
            return
        showing, message = True, str(value)
        QTimer.singleShot(0, window, show)

    sys.excepthook = hook
    return log_file


def run(path: str | None, screenshot: str | None = None, size: str = "1600x1000", default_profile: str = "") -> int:
    from ..model.errors import BadInputError

    try:
        width, height = parse_size(size)
    except ValueError as exc:
        raise BadInputError(f"--size: {exc}") from None
    app = make_app()
    window = MainWindow(fresh=screenshot is not None)
    if screenshot is not None:
        window.errors_to_stderr = True
    window.files.start(path, default_profile)
    if screenshot is not None:
        window.resize(width, height)
        window.reset_layout()
        window.show()
        window.results.build_charts()
        settle_layout()
        window.reset_layout()
        settle_layout()
        # Charts place labels from their final size: draw once more at it, then let that layout settle.
        window.redraws.request(EVERYTHING)
        window.redraws.flush()
        settle_layout()
        image = window.grab()
        target = Path(screenshot)
        if not image.save(str(target)):
            raise BadInputError(f"cannot write the screenshot to {target}")
        print(target)
        window.doc.undo_stack.setClean()
        window.close()
        return 0
    install_excepthook(window)
    window.show()
    return app.exec()
