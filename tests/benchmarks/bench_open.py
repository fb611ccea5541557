"""Opening a workbook to a mapped window: Amdahl Desk (``amdahl-desk FILE``) against LibreOffice Calc
(``soffice --calc FILE``) opening the same file, each a fresh process, on a fresh Xvfb display.

For each file and each program, two times from spawn, taken alike for both by one watching process on the display:
- *mapped*: a window whose title names the file is viewable (``xdotool search --onlyvisible --name``, every 10 ms);
- *shown*: that window's top left corner (480×300 px: the menu, the toolbar and the first cells) is as it stays:
  grabbed every 10 ms after it mapped until it has held more than a few colours and not changed for a second, the
  time of the first grab of that final picture. Calc maps a blank frame first, draws its menus and toolbars into it
  0.3-0.7 s later and its cells about 0.1 s after those; Amdahl Desk maps its window blank as well and paints its
  tables 30-70 ms later.
The programs take turns round by round (and which goes first alternates), so a change in a shared machine's load
hits them alike. LibreOffice runs once before the rounds and is left to settle for a few seconds: ended at once, it
keeps its user profile unfinished and every later start takes 1.2-1.5 s where a settled one takes about 0.45 s (the
two modes of Calc earlier runs reported). Prints the medians, the ratios (aim ≤ 0.5 on the bundled example and on a
50,000-row workbook) and the load average.

The floor takes its turn too: a bare PySide6 window titled with the file's name, that reads nothing and draws
nothing (Amdahl Desk maps its window before pyqtgraph loads). No window of this toolkit maps sooner, so its own
ratio to Calc says how low ours can go.

Run: python tests/benchmarks/bench_open.py [--rounds 7] [--against OTHER_CHECKOUT]
Needs Xvfb, xdotool and soffice; says which is missing otherwise.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))


class StartFailedError(RuntimeError):
    """The program ended, or hung, before it showed a window: once in a while here the display refused a
    connection, and LibreOffice started after another now and then shows no window at all (a minute is 25 times
    its opening of the 50,000-row workbook)."""


RETRIED: list[str] = []  # the starts that failed and were run again, printed with the figures
# Command-line marks of processes that may outlive their start's process group (a LibreOffice that hung before
# its window was seen alive after it): killed after every start, else the next soffice hands its file to that
# instance over LibreOffice's pipe and a window appears in a third of the time a start takes.
LINGERING: list[str] = []


# The watcher: one process on the display for the whole run, told a title to look for before each spawn. It
# answers with the monotonic times (the system's clock, the same in every process) at which a window so named
# mapped and, when asked, at which its top left corner first showed the picture it then kept for a second.
WATCHER = """
import hashlib, subprocess, sys, time
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
screen = app.primaryScreen()
print("ready", flush=True)
for line in sys.stdin:
    pattern, content, limit = line.rstrip("\\n").split("\\t")
    since, mapped, shown, window = time.monotonic(), -1.0, -1.0, 0
    while time.monotonic() - since < float(limit):
        try:
            found = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--name", pattern], capture_output=True, timeout=5
            )
        except subprocess.TimeoutExpired:
            continue
        if found.stdout.split():
            mapped, window = time.monotonic(), int(found.stdout.split()[0])
            break
        time.sleep(0.01)
    picture, first = b"", -1.0  # the last picture grabbed, and when it was first seen
    while content == "1" and window and time.monotonic() - since < float(limit):
        at = time.monotonic()
        image = screen.grabWindow(window, 0, 0, 480, 300).toImage()
        if image.isNull():  # the window went between the search and the grab: it shows nothing now
            time.sleep(0.01)
            continue
        digest = hashlib.blake2b(bytes(image.constBits())).digest()
        if digest != picture:
            picture, first = digest, at
        elif at - first >= 1.0:
            small = image.scaled(80, 50)
            if len({small.pixel(x, y) for x in range(small.width()) for y in range(small.height())}) > 16:
                shown = first
                break
        time.sleep(0.01)
    print(mapped, shown, flush=True)
"""


class Watcher:
    """The watching process on ``display`` (started again after a start that failed while it watched)."""

    def __init__(self, display: str) -> None:
        self.env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
        self.process: subprocess.Popen[str] | None = None

    def _started(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", WATCHER], env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            assert self.process.stdout is not None
            if self.process.stdout.readline().strip() != "ready":
                self.stop()
                raise StartFailedError("the watching process did not start")
        return self.process

    def ask(
        self, pattern: str, content: bool, limit: float = 60.0
    ) -> Callable[[subprocess.Popen[bytes]], tuple[float, float]]:
        """Start watching for ``pattern``; the call returned waits for the answer while ``child`` runs."""
        watcher = self._started()
        assert watcher.stdin is not None and watcher.stdout is not None
        watcher.stdin.write(f"{pattern}\t{int(content)}\t{limit}\n")
        watcher.stdin.flush()
        out = watcher.stdout

        def answer(child: subprocess.Popen[bytes]) -> tuple[float, float]:
            deadline = time.monotonic() + limit + 10  # the watcher's own limit, and its last grab
            while not select.select([out], [], [], 0.05)[0]:
                if child.poll() is not None or time.monotonic() > deadline:
                    self.stop()  # it watches on (or hangs): started afresh for the next start
                    raise StartFailedError(
                        f"ended with status {child.returncode} before a window named like {pattern!r}"
                        if child.returncode is not None
                        else f"the watching process gave no answer for a window named like {pattern!r}"
                    )
            words = out.readline().split()
            if len(words) != 2:
                self.stop()
                raise StartFailedError("the watching process ended")
            mapped, shown = (float(v) for v in words)
            if mapped < 0:
                raise StartFailedError(f"no window named like {pattern!r} within {limit:.0f} s")
            if content and shown < 0:
                raise StartFailedError(
                    f"the window named like {pattern!r} did not keep one picture for a second within {limit:.0f} s"
                )
            return mapped, shown

        return answer

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def one(
    argv: list[str], env: dict[str, str], watcher: Watcher, pattern: str, cwd: Path, content: bool, settle: float = 0.0
) -> tuple[float, float]:
    """Seconds to a mapped window and to its first picture with something in it (-1 when ``content`` is not asked); a
    start that ends without one is run again (up to three times, after a pause that grows: the display refused three
    quick starts in a row once, right after a LibreOffice ended) and noted."""
    for attempt in range(4):
        try:
            return one_start(argv, env, watcher, pattern, cwd, content, settle)
        except StartFailedError as exc:
            if attempt == 3:
                raise
            RETRIED.append(f"{Path(argv[0]).name} {Path(argv[-1]).name}: {exc}")
            time.sleep(1.0 + attempt)
    raise AssertionError("unreachable")


def one_start(
    argv: list[str], env: dict[str, str], watcher: Watcher, pattern: str, cwd: Path, content: bool, settle: float
) -> tuple[float, float]:
    answer = watcher.ask(pattern, content)
    start = time.monotonic()
    child = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        mapped, shown = answer(child)
        time.sleep(settle)
        return mapped - start, (shown - start if content else -1.0)
    finally:
        # Asked to end, and waited for: LibreOffice killed outright now and then starts next time with no window.
        with contextlib.suppress(ProcessLookupError):  # the group, even when its first process has ended
            os.killpg(child.pid, signal.SIGTERM)  # soffice is a script that starts soffice.bin: the whole group
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=10)
        ends = time.perf_counter() + 10
        while (
            time.perf_counter() < ends and subprocess.run(["pgrep", "-g", str(child.pid)], capture_output=True).stdout
        ):
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        for mark in LINGERING:
            ends = time.perf_counter() + 10
            while subprocess.run(["pgrep", "-f", mark], capture_output=True).stdout:
                if time.perf_counter() > ends:
                    raise RuntimeError(f"processes named like {mark} outlive SIGKILL for 10 s")
                subprocess.run(["pkill", "-KILL", "-f", mark], capture_output=True)
                time.sleep(0.05)
        time.sleep(0.3)  # the display server forgets the window before the next program starts


# The floor: Python and PySide6 loaded, one empty window titled with the file's name.
FLOOR = """
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
w = QMainWindow(); w.setWindowTitle(Path(sys.argv[1]).name); w.resize(1600, 1000); w.show()
app.exec()
"""
FLOOR_NAME = "floor: a bare PySide6 window"


def gui_calc() -> bool:
    """Whether the LibreOffice installed can map a window: the ``nogui`` build has no X11 plugin (it renders only
    headless, and aborts when asked for a window)."""
    program = Path(shutil.which("soffice") or "soffice").resolve().parent
    return any(program.glob("libvclplug_*"))  # soffice resolves to LibreOffice's own program folder


def headless_open(argv: list[str], env: dict[str, str], path: Path, out: Path) -> float:
    """LibreOffice without a window: the seconds to open ``path`` and write its first sheet as CSV, then exit.
    No window, no painting: less than its opening to a mapped window, so a ratio against it errs against us."""
    start = time.perf_counter()
    subprocess.run(
        [*argv, "--headless", "--convert-to", "csv", "--outdir", str(out), str(path)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def report(samples: dict[str, list[tuple[float, float]]]) -> None:
    """Each program's medians, mapped and shown (its top left corner as it stays), and their ratios to Calc's (and
    ours to the floor's)."""
    mapped = {name: statistics.median(m for m, _ in runs) for name, runs in samples.items()}
    shown = {name: statistics.median(s for _, s in runs) for name, runs in samples.items()}
    calc_mapped, calc_shown = mapped["LibreOffice Calc"], shown["LibreOffice Calc"]
    for name, runs in samples.items():
        times = ", ".join(f"{m:.2f}" for m, _ in runs)
        line = f"  {name}: mapped {mapped[name]:.2f} s ({times}); against Calc's mapped window {mapped[name] / calc_mapped:.2f}"
        if name not in (FLOOR_NAME, "LibreOffice Calc"):
            line += f"; against the floor {mapped[name] / mapped[FLOOR_NAME]:.2f}"
        print(line)
        if name != FLOOR_NAME and calc_shown > 0:
            times = ", ".join(f"{s:.2f}" for _, s in runs)
            gap = statistics.median(s - m for m, s in runs)  # a long one: a picture held a second before the last
            print(
                f"    shown {shown[name]:.2f} s ({times}); against Calc's {shown[name] / calc_shown:.2f}; "
                f"shown − mapped {gap:.2f} s"
            )
    print("  (aim ≤ 0.5 against Calc)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", type=Path, help="the root of another checkout, opening the same files in turn")
    args = parser.parse_args()
    missing = [tool for tool in ("Xvfb", "xdotool", "soffice") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"bench_open needs {', '.join(missing)} (apt-get install xvfb xdotool libreoffice-calc)")
    from bench_core import big_profile

    from amdahl_desk.files import write_workbook
    from amdahl_desk.resources import example_path

    def ended(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)  # the display and the temporary folder are still cleared away below

    signal.signal(signal.SIGTERM, ended)
    display = f":{150 + os.getpid() % 100}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    if server.poll() is not None:
        raise SystemExit(f"Xvfb could not start on display {display} (status {server.returncode})")
    watcher = Watcher(display)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            big = folder / "rows-50000.xlsx"
            write_workbook(big_profile(50_000, 100), big)
            example = folder / "example.xlsx"  # a copy: the bundled file itself opens as an untitled copy
            shutil.copyfile(example_path(), example)
            lo_profile = (folder / "lo-profile").as_uri()
            LINGERING.append(lo_profile)
            programs: dict[str, tuple[list[str], dict[str, str], Path]] = {}
            builds = {"Amdahl Desk": ROOT} | (
                {f"the build in {args.against.name}": args.against.resolve()} if args.against else {}
            )
            for name, root in builds.items():
                compileall.compile_dir(root / "amdahl_desk", quiet=1)  # as installed
                env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(root))
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                env["AMDAHL_DESK_CONFIG_DIR"] = str(folder / f"config-{len(programs)}")  # no last document, no recovery
                programs[name] = ([sys.executable, "-m", "amdahl_desk"], env, root)
            floor_env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
            floor_env.pop("PYTHONDONTWRITEBYTECODE", None)
            programs[FLOOR_NAME] = ([sys.executable, "-c", FLOOR], floor_env, folder)
            lo_env = dict(os.environ, DISPLAY=display)
            lo_argv = ["soffice", f"-env:UserInstallation={lo_profile}", "--calc", "--norestore", "--nologo"]
            windowed = gui_calc()
            programs["LibreOffice Calc"] = (lo_argv, lo_env, folder)
            if not windowed:
                print(
                    "LibreOffice here is the nogui build (no window to map): it is timed opening each file headless "
                    "and writing its first sheet as CSV, less than it takes to show the file in a window"
                )
            for path in (example, big):
                pattern = path.name.replace(".", "\\.")

                def run(
                    name: str, path: Path = path, pattern: str = pattern, settle: float = 0.0
                ) -> tuple[float, float]:
                    argv, env, cwd = programs[name]
                    if name == "LibreOffice Calc" and not windowed:
                        return headless_open(argv, env, path, folder / "csv"), -1.0
                    try:
                        return one([*argv, str(path)], env, watcher, pattern, cwd, name != FLOOR_NAME, settle)
                    except RuntimeError as exc:
                        raise RuntimeError(f"{name}: {exc}") from None

                for name in programs:  # warm-up: the files are in the page cache, LibreOffice's profile is finished
                    run(name, settle=8.0 if name == "LibreOffice Calc" else 0.0)
                samples: dict[str, list[tuple[float, float]]] = {name: [] for name in programs}
                names = list(programs)
                for r in range(args.rounds):
                    for name in names[r % len(names) :] + names[: r % len(names)]:
                        samples[name].append(run(name))
                what = "the bundled example" if path == example else "a 50,000-row workbook"
                print(f"open {what} (Xvfb, medians of {args.rounds}, taking turns):")
                if not windowed:
                    print("  (LibreOffice: headless, opening and writing the first sheet as CSV)")
                report(samples)
            print(f"  load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
            for start in RETRIED:
                print(f"  a start run again: {start}")
    finally:
        watcher.stop()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
