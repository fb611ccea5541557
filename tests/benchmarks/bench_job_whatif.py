"""A job's second what-if: with the same patterns and other K it replays the ranks' graphs kept from the first
instead of reading every rank again (``Job.whatif``; the window's plan on a k drag).

Run: python tests/benchmarks/bench_job_whatif.py [--ranks 64]
Makes the job of bench_job.py (the committed 16-GPU trace linked once per rank), reads it (``ad.job``), then times
a what-if (``gemm=2``: its ranks read with the pattern marked), the same pattern with another K (kept: no rank
read) and, for comparison, that K read afresh (``job_whatif``). Each figure: wall seconds and the CPU seconds of
this process and its workers.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_job import make_job  # noqa: E402

import amdahl_desk as ad  # noqa: E402
from amdahl_desk.api_parts.job import job_whatif  # noqa: E402


def _cpu() -> float:
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def timed(what: str, f: Callable[[], object]) -> object:
    c, t = _cpu(), time.perf_counter()
    out = f()
    print(f"{what:44s} {time.perf_counter() - t:6.2f} s ({_cpu() - c:6.2f} CPU-s)", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=64)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="amdahl-job-whatif-") as tmp:
        folder = Path(tmp)
        make_job(folder, args.ranks)
        jobdir = str(folder / "job")
        job = timed(f"job ({args.ranks} ranks)", lambda: ad.job(jobdir))
        assert isinstance(job, ad.Job)
        a = timed("what-if gemm=2 (reads the ranks)", lambda: job.whatif({"gemm": 2}))
        b = timed("what-if gemm=4 (the ranks kept)", lambda: job.whatif({"gemm": 4}))
        c = timed("what-if gemm=4 read afresh (as before)", lambda: job_whatif(jobdir, {"gemm": 4}))
    assert isinstance(b, ad.JobWhatIf) and isinstance(c, ad.JobWhatIf) and isinstance(a, ad.JobWhatIf)
    assert b.to_dict() == c.to_dict(), "the kept ranks answer otherwise than reading them again"
    print(f"gemm=2: {a.baseline:.1f} → {a.predicted:.1f} ms; gemm=4: {b.baseline:.1f} → {b.predicted:.1f} ms")


if __name__ == "__main__":
    main()
