"""Core benchmarks: analyse() at scale, and reading/writing a 50,000-row profile against raw library floors.

Run: python tests/benchmarks/bench_core.py [--rounds N]
Prints each median, its floor (what the library alone takes) and the ratio.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import python_calamine
from openpyxl import Workbook

from amdahl_desk.files import read_workbook, write_workbook
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings


def median_seconds(fn, rounds: int) -> float:
    fn()  # warm-up
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def big_profile(n: int, m: int, gpu_counts: int = 11) -> Profile:
    kinds = list(Scaling)
    comps = [Component(f"component {i}", 1.0 + (i % 97), kinds[i % 3], f"g{i % 10}") for i in range(n)]
    opts = [
        Optimization(f"opt {j}", (f"component {(7 * j) % n}", f"component {(13 * j + 1) % n}"), 1.5 + j % 4, j % 2 == 0)
        for j in range(m)
    ]
    counts = tuple(range(1, gpu_counts + 1)) if gpu_counts > 11 else Settings().gpu_counts
    return Profile(comps, opts, Settings(gpu_counts=counts, target_time=n * 20.0))


BARE_READ = (
    "import sys, python_calamine\n"
    "book = python_calamine.CalamineWorkbook.from_path(sys.argv[1])\n"
    "for name in book.sheet_names:\n"
    "    book.get_sheet_by_name(name).to_python()\n"
)
# What a user cannot do with less: read the one sheet that holds the components.
COMPONENTS_READ = (
    "import sys, python_calamine\n"
    "python_calamine.CalamineWorkbook.from_path(sys.argv[1]).get_sheet_by_name('Components').to_python()\n"
)


def report_process(path: Path, rows: int, rounds: int, against: Path | None = None) -> None:
    """Whole-process ``report --json`` (piped, so compact) against a process that only reads the workbook.

    ``against``: the root of another checkout (an older build) whose ``report --json`` takes turns with ours.
    """
    root = Path(__file__).resolve().parents[2]
    roots = {"ours": root} | ({"other build": against} if against is not None else {})
    envs = {key: dict(os.environ, PYTHONPATH=str(where)) for key, where in roots.items()}
    for key, where in roots.items():
        # As installed (pip writes the bytecode at install time): compiled once here, not on every run.
        envs[key].pop("PYTHONDONTWRITEBYTECODE", None)
        compileall.compile_dir(where / "amdahl_desk", quiet=1)

    cpu: dict[str, list[float]] = {}

    def process(key: str, *argv: str) -> None:
        env = envs.get(key, envs["ours"])
        # In the build's own root: ``python -m`` puts the working folder first on the path, before PYTHONPATH.
        where = roots.get(key, root)
        child = subprocess.Popen([sys.executable, *argv], stdout=subprocess.DEVNULL, env=env, cwd=where)
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)} failed")
        cpu.setdefault(key, []).append(usage.ru_utime + usage.ru_stime)  # CPU: what a busy machine disturbs least

    # Taking turns, so that a change in the machine's load between the series does not favour any.
    runs = {key: ("-m", "amdahl_desk", "report", str(path), "--json") for key in roots} | {
        "floor": ("-c", COMPONENTS_READ, str(path)),
        "every sheet": ("-c", BARE_READ, str(path)),
    }
    samples: dict[str, list[float]] = {key: [] for key in runs}
    for key, argv in runs.items():
        process(key, *argv)  # warm-up (the file in the page cache, the bytecode read once)
    for _ in range(rounds):
        for key, argv in runs.items():
            start = time.perf_counter()
            process(key, *argv)
            samples[key].append(time.perf_counter() - start)
    ours, floor = statistics.median(samples["ours"]), statistics.median(samples["floor"])
    every = statistics.median(samples["every sheet"])
    ratios = sorted(o / f for o, f in zip(samples["ours"], samples["floor"], strict=True))
    print(
        f"report --json, {rows:,} rows, whole process: median {ours:.2f} s; floor (a process reading the "
        f"Components sheet with python-calamine) {floor:.2f} s; ratio {ours / floor:.2f} (aim: ≤ 2); "
        f"ratios of the {rounds} runs from {ratios[0]:.2f} to {ratios[-1]:.2f}; against a read of every sheet "
        f"({every:.2f} s) {ours / every:.2f}"
    )
    cpu_ours, cpu_floor = statistics.median(cpu["ours"]), statistics.median(cpu["floor"])
    print(f"  CPU (user + system): median {cpu_ours:.2f} s; floor {cpu_floor:.2f} s; ratio {cpu_ours / cpu_floor:.2f}")
    if against is not None:
        other = statistics.median(samples["other build"])
        cpu_other = statistics.median(cpu["other build"])
        print(
            f"  the build in {against.name}, same runs: median {other:.2f} s, ratio to the floor {other / floor:.2f}; "
            f"CPU {cpu_other:.2f} s, ratio {cpu_other / cpu_floor:.2f}; ours / it {ours / other:.2f} wall, "
            f"{cpu_ours / cpu_other:.2f} CPU"
        )
    print(f"  load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def time_bounds_figure(rounds: int) -> None:
    """``Profile.time_bounds`` keeps each component's lowest and highest time between changes, updated in place by
    an edit: the window asks for them 4 times after each edit of a time (whether the odds apply, the draws). Printed:
    the 4 asks after an edit at 10,000 rows, one with a range, kept and rebuilt, against one 60 Hz frame."""
    profile = big_profile(10_000, 20)
    profile.set_component(3, profile.components[3]._replace(time_low=1.0, time_high=9.0))

    def edit_then_ask(rebuild: bool) -> None:
        for i in range(50):
            profile.set_component(10 + i, profile.components[10 + i]._replace(time=2.0 + i % 3))
            for _ in range(4):
                if rebuild:
                    profile._bounds = None
                profile.has_uncertainty()

    kept = median_seconds(lambda: edit_then_ask(False), rounds) / 50
    rebuilt = median_seconds(lambda: edit_then_ask(True), rounds) / 50
    frame = 1 / 60
    print(
        f"an edit's 4 asks for the time bounds at 10,000 rows: kept {kept * 1e3:.2f} ms, rebuilt each time "
        f"{rebuilt * 1e3:.2f} ms; floor one 60 Hz frame 16.7 ms; ratios {kept / frame:.3f} and {rebuilt / frame:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--report-only", action="store_true", help="only the whole-process report --json figure")
    parser.add_argument("--against", type=Path, help="the root of another checkout whose report --json takes turns")
    args = parser.parse_args()
    if args.report_only:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "big.xlsx"
            write_workbook(big_profile(50_000, 100), path)
            report_process(path, 50_000, max(3, args.rounds // 3), args.against)
        return

    profile = big_profile(10_000, 1_000, 100_000)
    t = median_seconds(lambda: analyse(profile), args.rounds)
    print(
        f"analyse, 10,000 components, 1,000 optimizations, 100,000 GPU counts: median {t * 1e3:.1f} ms "
        f"(aim: under 20 ms)"
    )

    time_bounds_figure(args.rounds)

    rows = 50_000
    profile = big_profile(rows, 100)
    with tempfile.TemporaryDirectory() as tmp:
        ours = Path(tmp) / "ours.xlsx"
        raw = Path(tmp) / "raw.xlsx"

        def write_raw() -> None:
            book = Workbook(write_only=True)
            ws = book.create_sheet("Components")
            ws.append(["Component", "Time (ms)", "Share", "Scaling", "Group", "Notes", "New time (ms)"])
            for i, c in enumerate(profile.components, start=2):
                ws.append([c.name, c.time, f"=B{i}/B{rows + 2}", c.scaling.value, c.group, c.notes, f"=B{i}/2.0"])
            book.save(raw)

        def write_raw_xlsxwriter() -> None:
            import xlsxwriter

            book = xlsxwriter.Workbook(str(raw), {"strings_to_formulas": False})
            ws = book.add_worksheet("Components")
            ws.write_row(0, 0, ["Component", "Time (ms)", "Share", "Scaling", "Group", "Notes", "New time (ms)"])
            for i, c in enumerate(profile.components, start=1):
                ws.write_string(i, 0, c.name)
                ws.write_number(i, 1, c.time)
                ws.write_formula(i, 2, f"=B{i + 1}/B{rows + 2}", None, c.time / 2)
                ws.write_string(i, 3, c.scaling.value)
                ws.write_string(i, 4, c.group)
                ws.write_formula(i, 6, f"=B{i + 1}/2.0", None, c.time / 2)
            book.close()

        # The writer was openpyxl's write-only mode until formulas had to carry their values: the openpyxl
        # figure is the old writer's floor (its cells without values), the xlsxwriter one the new writer's.
        floor_w = median_seconds(write_raw, max(3, args.rounds // 3))
        floor_x = median_seconds(write_raw_xlsxwriter, max(3, args.rounds // 3))
        ours_w = median_seconds(lambda: write_workbook(profile, ours), max(3, args.rounds // 3))
        print(
            f"write {rows:,} rows: median {ours_w:.2f} s; floor (xlsxwriter, same cells with values) "
            f"{floor_x:.2f} s; ratio {ours_w / floor_x:.2f} (aim: ≤ 1.3); "
            f"openpyxl write-only, same cells without values {floor_w:.2f} s; ratio {ours_w / floor_w:.2f}"
        )

        def read_raw() -> None:
            book = python_calamine.CalamineWorkbook.from_path(str(ours))
            for name in book.sheet_names:
                book.get_sheet_by_name(name).to_python()

        report_process(ours, rows, max(3, args.rounds // 3))

        floor_r = median_seconds(read_raw, args.rounds)
        ours_r = median_seconds(lambda: read_workbook(ours), args.rounds)
        print(
            f"read {rows:,} rows: median {ours_r:.2f} s; floor (python-calamine, all sheets) {floor_r:.2f} s; "
            f"ratio {ours_r / floor_r:.2f} (aim: ≤ 1.5)"
        )


if __name__ == "__main__":
    main()
