"""Trace import against Python's own json.load, on a real-shaped 300 MB Kineto trace made at run time.

Run: python tests/benchmarks/bench_traces.py [--mb 300] [--rounds 3] [--compare]
The trace repeats the events of a real 16-GPU NCCL trace (HTA's test data), shifted in time, into /tmp
(kept there for the next run, never committed). Each measurement runs in its own process so that its
peak memory (ru_maxrss) is its own. Prints each median, its floor measured in the same run, and the ratio.
Aims: import time ≤ 0.5 × json.load's, import peak memory ≤ 0.4 × json.load's.
``--compare`` also times the other streaming decoders considered (ijson's yajl2_c, msgspec on the whole file).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"  # committed, MIT


def make_trace(path: Path, megabytes: int) -> None:
    """Repeat the real trace's events, each copy shifted past the previous one (times and correlations)."""
    doc = json.loads(gzip.decompress(REAL.read_bytes()))
    events = doc.pop("traceEvents")
    stamped = [e for e in events if isinstance(e.get("ts"), (int, float))]
    start = min(e["ts"] for e in stamped)
    span = max(e["ts"] + e.get("dur", 0) for e in stamped) - start + 1000
    target = megabytes * 1_000_000
    tmp = path.with_suffix(".part")
    with open(tmp, "w") as f:
        f.write(json.dumps(doc)[:-1] + ', "traceEvents": [\n')
        size, copy = 0, 0
        while size < target:
            lines = []
            for e in events:
                e2 = dict(e)
                if "ts" in e2 and isinstance(e2["ts"], (int, float)):
                    e2["ts"] = e2["ts"] + copy * span
                args = e2.get("args")
                if isinstance(args, dict) and "correlation" in args:
                    e2["args"] = {**args, "correlation": args["correlation"] + copy * 10_000_000}
                lines.append(json.dumps(e2))
            chunk = ("" if copy == 0 else ",\n") + ",\n".join(lines)
            f.write(chunk)
            size += len(chunk)
            copy += 1
        f.write("\n]}\n")
    tmp.rename(path)


CHILD = {
    "json.load": "import json\nwith open(P, 'rb') as f:\n    d = json.load(f)\nn = len(d['traceEvents'])",
    "import": (
        "from amdahl_desk.files.traces import load_trace\n"
        "from amdahl_desk.model.traces import ImportOptions\n"
        "r = load_trace(P).summarise(ImportOptions())\nn = len(r.components)"
    ),
    "ijson yajl2_c": (
        "import ijson\nassert ijson.backend == 'yajl2_c'\nn = 0\n"
        "with open(P, 'rb') as f:\n    for e in ijson.items(f, 'traceEvents.item', use_float=True):\n        n += 1"
    ),
    "msgspec whole file": (
        "import msgspec\nfrom amdahl_desk.files.traces.kineto_events import Event\n"
        "class T(msgspec.Struct):\n    traceEvents: list[Event] = []\n"
        "with open(P, 'rb') as f:\n    n = len(msgspec.json.decode(f.read(), type=T).traceEvents)"
    ),
}


def measure(what: str, path: Path) -> tuple[float, float]:
    """(seconds of the work itself, peak resident MB of the whole process)."""
    code = (
        "import resource, time\nP = " + repr(str(path)) + "\n"
        "t = time.perf_counter()\n" + CHILD[what] + "\n"
        "t = time.perf_counter() - t\n"
        "print(t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": str(ROOT)}
    ).stdout.split()
    return float(out[0]), float(out[1])


def first_progress(path: Path) -> tuple[float, float]:
    """(seconds to the first progress report after the first block, seconds for the whole import)."""
    code = (
        "import time\nfrom amdahl_desk.files.traces import import_trace\nfirst = []\n"
        "t = time.perf_counter()\n"
        "def cb(done, total):\n    if done and not first: first.append(time.perf_counter() - t)\n"
        f"import_trace({str(path)!r}, progress=cb)\nprint(first[0], time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": str(ROOT)}
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--compare", action="store_true", help="also time ijson (yajl2_c) and msgspec on the whole file"
    )
    args = parser.parse_args()
    path = Path(tempfile.gettempdir()) / f"amdahl-desk-bench-kineto-{args.mb}mb.json"
    if not path.exists():
        print(f"making {path} from {REAL.name} …", flush=True)
        make_trace(path, args.mb)
    print(f"trace: {path} ({path.stat().st_size / 1e6:.0f} MB)")
    kinds = ["json.load", "import"] + (["ijson yajl2_c", "msgspec whole file"] if args.compare else [])
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
    for _ in range(args.rounds):  # interleaved, so a busy moment of the machine hits both alike
        for k in kinds:
            runs[k].append(measure(k, path))
    t = {k: statistics.median(s for s, _ in v) for k, v in runs.items()}
    m = {k: max(mb for _, mb in v) for k, v in runs.items()}
    for k in kinds:
        print(f"{k:>20}: median {t[k]:.2f} s, peak {m[k]:.0f} MB")
    time_ratio, mem_ratio = t["import"] / t["json.load"], m["import"] / m["json.load"]
    print(
        f"import time: median {t['import']:.2f} s; floor (json.load) {t['json.load']:.2f} s; "
        f"ratio {time_ratio:.2f} (aim: ≤ 0.5) {'ok' if time_ratio <= 0.5 else 'MISSED'}"
    )
    print(
        f"import peak memory: {m['import']:.0f} MB; floor (json.load) {m['json.load']:.0f} MB; "
        f"ratio {mem_ratio:.2f} (aim: ≤ 0.4) {'ok' if mem_ratio <= 0.4 else 'MISSED'}"
    )
    small = Path(tempfile.gettempdir()) / "amdahl-desk-bench-kineto-30mb.json"
    if not small.exists():
        make_trace(small, 30)
    first, whole = first_progress(small)
    print(f"30 MB trace: first progress after {first * 1e3:.0f} ms, whole import {whole:.2f} s")


if __name__ == "__main__":
    main()
