"""One ``amdahl-desk`` command, whole process, in this checkout and in another (an older build), taking turns.

Run: python tests/benchmarks/bench_against.py --against ../older-checkout [--rounds 15] [--floor "python code"]
     -- whatif TRACE --speedup nccl=2 --json
Each round runs the command once per checkout (and the floor, a Python snippet given the same arguments, when
one is given), so a change in a shared machine's load hits them alike. Both packages are byte-compiled first
and run as installed. Prints the medians of wall-clock and CPU (user + system, from wait4), their ratio, the
floor's and the load average.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process, run in its build's root (``python -m`` puts the working
    folder first on the path, before PYTHONPATH)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=env, cwd=env.get("PYTHONPATH", ROOT))
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, required=True, help="the root of the other checkout")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--floor", help="Python code run with the command's arguments as sys.argv[1:]")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the amdahl-desk arguments")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    # Paths absolute: each build runs in its own root.
    command = [str(Path(a).resolve()) if Path(a).exists() else a for a in command]
    runs: dict[str, tuple[list[str], dict[str, str]]] = {}
    for name, root in (("this build", ROOT), (f"the build in {args.against.name}", args.against.resolve())):
        compileall.compile_dir(root / "amdahl_desk", quiet=1)
        env = dict(os.environ, PYTHONPATH=str(root))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        runs[name] = ([sys.executable, "-m", "amdahl_desk", *command], env)
    if args.floor:
        runs["floor"] = ([sys.executable, "-c", args.floor, *command[1:]], dict(os.environ))
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for argv, env in runs.values():
        one(argv, env)  # warm-up: files in the page cache
    for _ in range(args.rounds):
        for name, (argv, env) in runs.items():
            samples[name].append(one(argv, env))
    medians = {
        name: (statistics.median(s[0] for s in got), statistics.median(s[1] for s in got))
        for name, got in samples.items()
    }
    print(f"amdahl-desk {' '.join(command)}: medians of {args.rounds} rounds, taking turns")
    base_wall, base_cpu = medians[f"the build in {args.against.name}"]
    for name, (wall, cpu) in medians.items():
        print(
            f"  {name}: {wall * 1e3:.0f} ms wall, {cpu * 1e3:.0f} ms CPU; against the other build {wall / base_wall:.2f} wall, {cpu / base_cpu:.2f} CPU"
        )
    print(f"  load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
