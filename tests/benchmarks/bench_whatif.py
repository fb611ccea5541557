"""``whatif`` against ``import`` of the same trace: the real 16-GPU trace, and the 300 MB trace bench_traces makes.

Run: python tests/benchmarks/bench_whatif.py [--mb 300] [--rounds 3] [--skip-big]
Each command runs as its own process (``amdahl-desk whatif TRACE --speedup nccl=2 --json`` and
``amdahl-desk import TRACE``, the import as it was before the what-if: ``import --json`` now computes the
critical path too), interleaved round by round so a busy moment hits both; its wall time and peak resident
memory (from wait4) are its own. Prints each median, the floor (the import, measured in
the same run) and the ratio. Aims: ≤ 1.5× the import on the real trace; ≤ 2× and under 500 MB on 300 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"
ENTRY = "import sys; from amdahl_desk.cli import entry; sys.argv = ['amdahl-desk'] + sys.argv[1:]; entry()"


def run(args: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one command in its own process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *args], stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed")
    return wall, usage.ru_maxrss / 1024


def compare(trace: Path, rounds: int, aim_time: float, aim_mb: float | None) -> None:
    commands = {
        "import": ["import", str(trace)],
        "whatif": ["whatif", str(trace), "--speedup", "nccl=2", "--json"],
    }
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    for _ in range(rounds):
        for k, args in commands.items():
            runs[k].append(run(args))
    t = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    m = {k: max(mb for _, mb in v) for k, v in runs.items()}
    print(f"trace: {trace.name} ({trace.stat().st_size / 1e6:.0f} MB on disk)")
    for k in commands:
        print(f"{k:>8}: median {t[k]:.2f} s, peak {m[k]:.0f} MB")
    ratio = t["whatif"] / t["import"]
    verdict = "ok" if ratio <= aim_time else "MISSED"
    print(f"whatif time: median {t['whatif']:.2f} s; floor (import) {t['import']:.2f} s; ratio {ratio:.2f} "
          f"(aim: ≤ {aim_time}) {verdict}")  # fmt: skip
    if aim_mb is not None:
        print(
            f"whatif peak memory: {m['whatif']:.0f} MB (aim: < {aim_mb:.0f} MB) {'ok' if m['whatif'] < aim_mb else 'MISSED'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-big", action="store_true", help="only the real 16-GPU trace")
    args = parser.parse_args()
    compare(REAL, args.rounds, 1.5, None)
    if args.skip_big:
        return
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_traces

    bench_traces.REAL = REAL  # the copies are of the trace committed with the tests
    path = Path(tempfile.gettempdir()) / f"amdahl-desk-bench-kineto-{args.mb}mb.json"
    if not path.exists():
        print(f"making {path} from {REAL.name} …", flush=True)
        bench_traces.make_trace(path, args.mb)
    compare(path, args.rounds, 2.0, 500.0)


if __name__ == "__main__":
    main()
