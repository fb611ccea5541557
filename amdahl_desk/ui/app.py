"""Starting the application: QApplication, the window, a screenshot mode, and a last-resort error dialog."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import (  # noqa: E402
    QCoreApplication,
    QEventLoop,
    QSocketNotifier,
    Qt,
    QTimer,
)
from PySide6.QtGui import QIcon  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ..resources import icon_path  # noqa: E402
from .core.collection import EventLoopCollector  # noqa: E402
from .core.messages import install_message_filter, interrupted  # noqa: E402
from .core.qt_util import ScreenFit, parse_size, settle_layout  # noqa: E402
from .core.state import EVERYTHING  # noqa: E402
from .document_files.recovery import data_dir  # noqa: E402
from .import_.trace_import import route_drop  # noqa: E402
from .job.job_import import is_job  # noqa: E402
from .main_window import MainWindow  # noqa: E402
from .window_layout import reset_layout  # noqa: E402

if TYPE_CHECKING:
    from ..files.preload import ReadAhead

log = logging.getLogger("amdahl_desk")

# Platforms that draw without a display server.
HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb", "vkkhrdisplay")


def choose_platform(
    screenshot: bool,
    environ: dict[str, str] | None = None,
    system: str | None = None,
    answers: Callable[[str], bool] | None = None,
) -> None:
    """Pick the Qt platform before a QApplication exists, instead of letting Qt abort without a display.

    A screenshot without a display renders offscreen; a window without one is a one-line message
    (BadInputError, exit 2). Only Linux and the BSDs need a display server named in the environment. An X display
    that is named but does not answer (a stopped Xvfb, a closed ssh tunnel) counts as none: Qt would abort on it
    with its own message. ``answers`` asks whether an X display accepts connections (tests give their own).
    """
    from ..model.errors import BadInputError

    env = os.environ if environ is None else environ
    system = sys.platform if system is None else system
    if not system.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform in HEADLESS_PLATFORMS:
        return
    x11, wayland = bool(env.get("DISPLAY")), bool(env.get("WAYLAND_DISPLAY"))
    has_display = x11 if platform == "xcb" else wayland if platform.startswith("wayland") else x11 or wayland
    on_x = has_display and (platform == "xcb" or (not platform and not wayland))
    silent = on_x and not (answers or x_display_answers)(env["DISPLAY"])
    if has_display and not silent:
        return
    if screenshot:
        env["QT_QPA_PLATFORM"] = "offscreen"
        return
    wanted = f"QT_QPA_PLATFORM={platform} needs " + ("DISPLAY" if platform == "xcb" else "WAYLAND_DISPLAY")
    why = wanted if platform else "neither DISPLAY nor WAYLAND_DISPLAY is set"
    if silent:
        why = f"DISPLAY={env['DISPLAY']} names an X server that does not answer"
    raise BadInputError(
        f"no display to open the window on ({why}); start it from a desktop session, "
        "or render a picture with --screenshot PNG"
    )


def x_display_answers(display: str, timeout: float = 1.0) -> bool:
    """Whether the X server of ``display`` ("[protocol/][host]:N[.S]") accepts a connection where Qt's libxcb would
    make one: with no host, the local socket (abstract, then the file in /tmp/.X11-unix), then TCP to localhost;
    with a host, TCP port 6000 + N at any of its addresses. A form this does not read is left to Qt."""
    protocol, _, rest = display.rpartition("/") if "/" in display.split(":")[0] else ("", "", display)
    host, _, screen = rest.rpartition(":")
    number = screen.split(".")[0]
    if not number.isdigit() or protocol not in ("", "unix", "tcp", "inet", "inet6"):
        return True
    local = host in ("", "unix") and protocol in ("", "unix")
    if local:
        path = f"/tmp/.X11-unix/X{number}"
        abstract = ["\x00" + path] if sys.platform.startswith("linux") else []  # Linux's alone
        for address in [*abstract, path]:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    probe.settimeout(timeout)
                    probe.connect(address)
                    return True
            except OSError:
                continue
        if protocol == "unix" or host == "unix":
            return False
    try:
        socket.create_connection((host.strip("[]") or "localhost", 6000 + int(number)), timeout=timeout).close()
    except (OSError, OverflowError):  # refused, unknown, or no such port
        return False
    return True


def install_sigint_handler(app: QApplication, keep: Callable[[], str] | None = None) -> None:
    """Ctrl+C keeps unsaved work in the recovery copy and ends the program at once, without the Save prompt.

    ``keep`` writes the recovery copy and says what it did (a line for the terminal), or raises when it cannot.
    Under xvfb-run the same Ctrl+C has just stopped the X server, so no prompt could be answered: the loop ends
    (status 0, or 1 when the work could not be kept), no window is closed (closing would discard the copy), and
    the next start offers the work back.
    Python runs signal handlers only when it gets control: a socket the C handler writes to wakes Qt's loop.
    """
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, app)

    def drain() -> None:
        with contextlib.suppress(OSError):
            reader.recv(64)

    notifier.activated.connect(drain)

    def stop() -> None:
        status = 0
        try:
            said = keep() if keep is not None else ""
        except Exception as exc:  # noqa: BLE001 - the program ends either way; say why the work is lost
            said, status = f"unsaved work could not be kept ({exc}); it is lost", 1
        if said:
            print(f"amdahl-desk: {said}", file=sys.stderr, flush=True)
        app.exit(status)  # exit, not quit: quit closes the window, which asks whether to save

    def on_sigint(_signum: int, _frame: object) -> None:
        interrupted()
        QTimer.singleShot(0, stop)

    signal.signal(signal.SIGINT, on_sigint)
    app._sigint_sockets = (reader, writer, notifier)  # type: ignore[attr-defined]  # kept alive with the app


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
    if app.findChild(EventLoopCollector) is None:  # cycles collected between events, never inside a Qt call
        EventLoopCollector(app)
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


def run(
    path: str | None,
    screenshot: str | None = None,
    size: str = "1600x1000",
    default_profile: str = "",
    ahead: ReadAhead | None = None,
) -> int:
    """The window on ``path`` (``ahead``: its sheets, parsed on another thread while this module loaded)."""
    from ..model.errors import BadInputError

    try:
        width, height = parse_size(size)
    except ValueError as exc:
        raise BadInputError(f"--size: {exc}") from None
    choose_platform(screenshot is not None)
    install_message_filter()
    app = make_app()
    window = MainWindow(fresh=screenshot is not None)
    if screenshot is not None:
        window.errors_to_stderr = True
    # A profiler trace on the command line is imported, as if dropped on the window: the preview opens over
    # the profile a start opens anyway (a screenshot takes the preview's first choices).
    given = [Path(path)] if path else []
    trace = bool(given) and route_drop(given)[0] == "import"
    window.files.start(None if trace else path, default_profile, ahead)
    job = trace and is_job(given)
    if job and screenshot is not None:
        window.job_import.open_now(given)
    elif trace and screenshot is not None:
        window.trace_import.import_at_once(given[0])
    elif trace:
        QTimer.singleShot(0, window, lambda: window.import_traces(given))
    if screenshot is not None:
        window.job_import.settle()  # a workbook saved with its job: the job read again
        window.whatif.settle()  # a profile imported from a trace: the trace read and the plan computed first
        window.results.job_whatif.settle()  # a job: the plan answered for it
        window.resize(width, height)
        window.reset_layout()
        window.show()
        window.results.build_charts()
        settle_layout()
        window.reset_layout()
        settle_layout()
        deadline = time.monotonic() + 60  # the odds and the cheapest plan, when computed on their threads
        while window.doc.decision.busy and time.monotonic() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        # Charts place labels from their final size: draw once more at it, then let that layout settle.
        window.redraws.request(EVERYTHING)
        window.redraws.flush()
        settle_layout()
        window.results.fit_answer()  # as high as its words now, not after the pause a shorter answer waits for
        settle_layout()
        image = window.grab()
        target = Path(screenshot)
        if not image.save(str(target)):
            raise BadInputError(f"cannot write the screenshot to {target}")
        print(target)
        window.doc.undo_stack.setClean()
        window.close()
        return 0
    install_sigint_handler(app, window.files.keep_for_recovery)
    install_excepthook(window)
    show_window(window)
    return app.exec()


def show_window(window: MainWindow, width: int = 1600, height: int = 1000) -> None:
    """Show the window where the last session left it, or, on a first start, at most ``width``×``height`` and
    inside the screen's available area, its title bar included."""
    if not window.restored:
        ScreenFit(window, width, height)
    # laid out for its size and what it opened before it shows (the first frame is laid out once); a divider a
    # person dragged in an earlier session keeps their sizes
    reset_layout(window, keep=window.following.by_hand)
    window.show()
