"""Opening a workbook to a mapped window: Amdahl Desk (``amdahl-desk FILE``) against LibreOffice Calc
(``soffice --calc FILE``) opening the same file, each a fresh process, on a fresh Xvfb display.

For each file and each program: the seconds from spawn until a window whose title names the file is mapped
(viewable), found by ``xdotool search --onlyvisible --name`` polled every 10 ms, the same test for both. The
programs take turns round by round (and which goes first alternates), so a change in a shared machine's load
hits them alike; LibreOffice runs once before the rounds to make its user profile. Prints the medians, the ratio
(aim ≤ 0.5 on the bundled example and on a 50,000-row workbook) and the load average.

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
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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


def mapped(display: str, pattern: str, since: float, child: subprocess.Popen[bytes], limit: float = 60.0) -> float:
    """Seconds from ``since`` until a viewable window's title matches ``pattern``."""
    env = dict(os.environ, DISPLAY=display)
    while True:
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", pattern], env=env, capture_output=True, text=True
        )
        if found.stdout.strip():
            return time.perf_counter() - since
        if child.poll() is not None:
            raise StartFailedError(f"ended with status {child.returncode} before a window named like {pattern!r}")
        if time.perf_counter() - since > limit:
            shown = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--name", "."], env=env, capture_output=True, text=True
            ).stdout.split()
            titles = [
                subprocess.run(["xdotool", "getwindowname", w], env=env, capture_output=True, text=True).stdout.strip()
                for w in shown
            ]
            raise StartFailedError(f"no window named like {pattern!r} within {limit:.0f} s; shown: {titles}")
        time.sleep(0.01)


def one(argv: list[str], env: dict[str, str], display: str, pattern: str, cwd: Path) -> float:
    """Seconds to a mapped window; a start that ends without one is run again (up to three times, after a pause
    that grows: the display refused three quick starts in a row once, right after a LibreOffice ended) and noted."""
    for attempt in range(4):
        try:
            return one_start(argv, env, display, pattern, cwd)
        except StartFailedError as exc:
            if attempt == 3:
                raise
            RETRIED.append(f"{Path(argv[0]).name} {Path(argv[-1]).name}: {exc}")
            time.sleep(1.0 + attempt)
    raise AssertionError("unreachable")


def one_start(argv: list[str], env: dict[str, str], display: str, pattern: str, cwd: Path) -> float:
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        return mapped(display, pattern, start, child)
    finally:
        # Asked to end, and waited for: LibreOffice killed outright now and then starts next time with no window.
        if child.poll() is None:
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
            while subprocess.run(["pgrep", "-f", mark], capture_output=True).stdout:
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

    display = f":{150 + os.getpid() % 100}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
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

                def run(name: str, path: Path = path, pattern: str = pattern) -> float:
                    argv, env, cwd = programs[name]
                    if name == "LibreOffice Calc" and not windowed:
                        return headless_open(argv, env, path, folder / "csv")
                    try:
                        return one([*argv, str(path)], env, display, pattern, cwd)
                    except RuntimeError as exc:
                        raise RuntimeError(f"{name}: {exc}") from None

                for name in programs:
                    run(name)  # warm-up: LibreOffice makes its profile, the files are in the page cache
                samples: dict[str, list[float]] = {name: [] for name in programs}
                names = list(programs)
                for r in range(args.rounds):
                    for name in names[r % len(names) :] + names[: r % len(names)]:
                        samples[name].append(run(name))
                medians = {name: statistics.median(s) for name, s in samples.items()}
                calc = medians["LibreOffice Calc"]
                what = "the bundled example" if path == example else "a 50,000-row workbook"
                print(f"open {what} to a mapped window (Xvfb, median of {args.rounds}, taking turns):")
                if not windowed:
                    print("  (LibreOffice: headless, opening and writing the first sheet as CSV)")
                floor = medians[FLOOR_NAME]
                for name, seconds in medians.items():
                    runs = ", ".join(f"{v:.2f}" for v in samples[name])
                    against = (
                        "" if name in (FLOOR_NAME, "LibreOffice Calc") else f"; against the floor {seconds / floor:.2f}"
                    )
                    print(
                        f"  {name}: {seconds:.2f} s ({runs}); against LibreOffice Calc {seconds / calc:.2f} "
                        f"(aim ≤ 0.5){against}"
                    )
            print(f"  load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
            for start in RETRIED:
                print(f"  a start run again: {start}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
