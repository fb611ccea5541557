"""``amdahl-desk job --json`` on many rank files shaped like the real 16-GPU trace, against one rank's import.

Run: python tests/benchmarks/bench_job.py [--ranks 1024]   (psutil comes with the test extra's distributed)
The committed 16-GPU NCCL trace (HTA's test data, MIT) is written once into a temporary folder without its
rank number (so a file's rank is its place in the folder), and linked there once per rank: ``--ranks`` files
of 26 MB of JSON each (1.4 MB gzipped) for the price of one. Each command runs in its own process tree,
whose resident memory (the parent and its workers together) is sampled every 20 ms. Prints the job's time
and peak memory, the floor (``amdahl-desk import --json`` of one rank, measured in the same run), the
per-rank cost and the ratios. Aims (issue 31): 1,024 ranks within 3 minutes on 2 cores, under 2 GB.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
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


def measure(argv: list[str]) -> tuple[float, int, bytes]:
    """(seconds, peak resident bytes of the process tree, stdout) of one command."""
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
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    rest = proc.stdout.read()  # type: ignore[union-attr]
    if rest:
        out += rest
    err = proc.stderr.read()  # type: ignore[union-attr]
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return seconds, peak, bytes(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=1024)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="amdahl-job-bench-") as tmp:
        folder = Path(tmp)
        make_job(folder, args.ranks)
        one = str(next((folder / "job").iterdir()))
        f_s, f_mem, _ = measure([py, "-m", "amdahl_desk", "import", one, "--json"])
        j_s, j_mem, out = measure([py, "-m", "amdahl_desk", "job", str(folder / "job"), "--json"])
        answer = json.loads(out)
    cores = os.cpu_count() or 1
    print(f"ranks {answer['ranks']}, steps {answer['steps']}, step {answer['step_time']:.1f} ms, "
          f"replay error {answer['replay_error']:.4f} ms; {cores} cores")  # fmt: skip
    print(f"floor: one rank's import {f_s:.2f} s, peak {f_mem / 2**20:.0f} MiB")
    print(f"job:   {j_s:.1f} s, peak {j_mem / 2**20:.0f} MiB (process tree)")
    print(
        f"per rank: {j_s / args.ranks:.3f} s of wall time, {j_s * cores / args.ranks:.3f} core-s "
        f"= {j_s * cores / args.ranks / f_s:.2f}× one rank's import; peak {j_mem / f_mem:.1f}× the floor's"
    )
    if args.ranks != 1024:
        est = j_s / args.ranks * 1024
        print(f"extrapolated (linear, not measured): 1,024 ranks ≈ {est:.0f} s on {cores} cores")


if __name__ == "__main__":
    main()
