"""``amdahl-desk job --json`` on many rank files shaped like the real 16-GPU trace, against one rank's import.

Run: python tests/benchmarks/bench_job.py [--ranks 1024]   (psutil comes with the test extra's distributed)
The committed 16-GPU NCCL trace (HTA's test data, MIT) is written once into a temporary folder without its
rank number (so a file's rank is its place in the folder), and linked there once per rank: ``--ranks`` files
of 26 MB of JSON each (1.4 MB gzipped) for the price of one. Each command runs in its own process tree,
whose resident memory (the parent and its workers together) is sampled every 20 ms. Prints the job's time,
the CPU time its process tree used (the parent and every worker: the cost that does not depend on how busy
a shared machine is), peak memory, the floor (``amdahl-desk import --json`` of one rank, measured in the same
run), the per-rank cost, the ratios, and the load average before and after (other work on the machine slows
the wall time, not the CPU time). Aims: 1,024 ranks within 3 minutes on 2 cores, under 2 GB.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"  # committed, MIT


def make_job(folder: Path, ranks: int) -> None:
    doc = json.loads(gzip.decompress(REAL.read_bytes()))
    doc.get("distributedInfo", {}).pop("rank", None)
    doc["distributedInfo"]["world_size"] = ranks
    template = folder / "template.json.gz.src"
    template.write_bytes(gzip.compress(json.dumps(doc).encode(), 1))
    jobdir = folder / "job"
    jobdir.mkdir()
    for r in range(ranks):
        os.link(template, jobdir / f"rank{r:05d}.json.gz")


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def measure(argv: list[str]) -> tuple[float, float, int, bytes]:
    """(seconds, CPU seconds of the process tree, peak resident bytes of the process tree, stdout) of one
    command (its workers' CPU counts once the command has waited for them, as a process pool does)."""
    cpu0 = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    parent = psutil.Process(proc.pid)
    peak = 0
    out = bytearray()
    os.set_blocking(proc.stdout.fileno(), False)  # type: ignore[union-attr]
    while proc.poll() is None:
        try:
            tree = [parent, *parent.children(recursive=True)]
            rss = 0
            for p in tree:
                with contextlib.suppress(psutil.Error):
                    rss += p.memory_info().rss
            peak = max(peak, rss)
        except psutil.Error:
            pass
        chunk = proc.stdout.read()  # type: ignore[union-attr]
        if chunk:
            out += chunk
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    rest = proc.stdout.read()  # type: ignore[union-attr]
    if rest:
        out += rest
    err = proc.stderr.read()  # type: ignore[union-attr]
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return seconds, _children_cpu() - cpu0, peak, bytes(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=1024)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="amdahl-job-bench-") as tmp:
        folder = Path(tmp)
        make_job(folder, args.ranks)
        one = str(next((folder / "job").iterdir()))
        load0 = os.getloadavg()
        f_s, f_cpu, f_mem, _ = measure([py, "-m", "amdahl_desk", "import", one, "--json"])
        j_s, j_cpu, j_mem, out = measure([py, "-m", "amdahl_desk", "job", str(folder / "job"), "--json"])
        load1 = os.getloadavg()
        answer = json.loads(out)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = args.ranks
    print(f"ranks {answer['ranks']}, steps {answer['steps']}, step {answer['step_time']:.1f} ms, "
          f"replay error {answer['replay_error']:.4f} ms; {cores} cores")  # fmt: skip
    print(f"load average (1, 5, 15 min) before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, "
          f"after {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")  # fmt: skip
    print(f"floor: one rank's import {f_s:.2f} s ({f_cpu:.2f} CPU-s), peak {f_mem / 2**20:.0f} MiB")
    print(f"job:   {j_s:.1f} s ({j_cpu:.1f} CPU-s), peak {j_mem / 2**20:.0f} MiB (process tree)")
    print(
        f"per rank: {j_s / n:.3f} s of wall time, {j_cpu / n:.3f} CPU-s "
        f"= {j_cpu / n / f_cpu:.2f}× one rank's import (CPU); peak {j_mem / f_mem:.1f}× the floor's"
    )
    print(f"on {cores} idle cores the CPU time alone would take {j_cpu / cores:.0f} s")
    if n != 1024:
        est = j_s / n * 1024
        print(f"extrapolated (linear, not measured): 1,024 ranks ≈ {est:.0f} s on {cores} cores")


if __name__ == "__main__":
    main()
