"""Expected figures computed independently of Amdahl Desk: plain Python over json.load, sweeps instead of merges."""

from __future__ import annotations

import gzip
import heapq
import json
from collections import defaultdict
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
# The two real traces (MIT licence, beside them) are committed with the tests: a clone has all it needs.
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces"
NCCL16 = REAL / "kineto_16gpu_nccl_rank0.json.gz"
ONE_GPU = REAL / "kineto_1gpu_ns_timestamps.json.gz"


def load(path: Path) -> dict:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    data = json.loads(raw)
    data = data if isinstance(data, dict) else {"traceEvents": data}
    # Absolute timestamps near 1.7e15 µs hold only quarter-microseconds as floats: shift them to the trace's
    # start (an exact subtraction) before adding durations, as a careful person would.
    stamped = [e for e in data["traceEvents"] if isinstance(e.get("ts"), (int, float))]
    origin = min((e["ts"] for e in stamped), default=0)
    for e in stamped:
        e["ts"] = e["ts"] - origin
    return data


def complete(trace: dict) -> list[dict]:
    return [e for e in trace["traceEvents"] if e.get("ph") == "X"]


def steps(trace: dict) -> list[dict]:
    found = [e for e in complete(trace) if str(e.get("name", "")).startswith("ProfilerStep#")]
    return sorted(found, key=lambda e: float(e["ts"]))


def mean_step_ms(trace: dict, skip: set[str] = frozenset()) -> float:
    kept = [float(e["dur"]) for e in steps(trace) if e["name"] not in skip]
    return sum(kept) / len(kept) / 1000


def contains_a_step(e: dict, all_steps: list[dict]) -> bool:
    """An annotation around a whole step (an epoch's) is context, not a phase."""
    a0, a1 = float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0))
    return any(a0 <= float(s["ts"]) and float(s["ts"]) + float(s["dur"]) <= a1 for s in all_steps)


def outermost_annotations_ms(trace: dict, skip: set[str] = frozenset()) -> dict[str, float]:
    """Mean per step (ms) of each outermost user annotation on the steps' thread, clipped to the step."""
    every = steps(trace)
    all_steps = [s for s in every if s["name"] not in skip]
    thread = (all_steps[0]["pid"], all_steps[0]["tid"])
    anns = [
        e
        for e in complete(trace)
        if e.get("cat") == "user_annotation"
        and (e["pid"], e["tid"]) == thread
        and not e["name"].startswith("ProfilerStep#")
        and not contains_a_step(e, every)
    ]
    totals: dict[str, float] = defaultdict(float)
    for s in all_steps:
        s0, s1 = float(s["ts"]), float(s["ts"]) + float(s["dur"])
        inside = [a for a in anns if float(a["ts"]) < s1 and float(a["ts"]) + float(a["dur"]) > s0]
        for a in inside:
            a0, a1 = float(a["ts"]), float(a["ts"]) + float(a["dur"])
            # nested: some other annotation in this step starts no later and ends no earlier (and is not it)
            nested = any(
                b is not a
                and float(b["ts"]) <= a0
                and float(b["ts"]) + float(b["dur"]) >= a1
                and (float(b["ts"]) < a0 or float(b["dur"]) > float(a["dur"]))
                for b in inside
            )
            if not nested:
                totals[a["name"]] += min(a1, s1) - max(a0, s0)
    return {k: v / len(all_steps) / 1000 for k, v in totals.items()}


NOT_CPU = {"kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset"}
NOT_CPU |= {"trace", "gpu_user_annotation", "overhead", "cpu_instant_event"}


def self_times_ms(trace: dict, skip: set[str] = frozenset()) -> dict[str, float]:
    """Mean per step (ms) of each CPU event name's self time on the steps' thread, and "Unattributed".

    A sweep over the step's boundaries: each stretch between two boundaries belongs to the innermost event
    running through it — the one that started last (of two that start together, the shorter) — kept in a
    heap, events that have ended dropped when they come to its top. Annotations around a whole step are left
    out (their time in no op is unattributed)."""
    every = steps(trace)
    kept = [s for s in every if s["name"] not in skip]
    thread = (kept[0]["pid"], kept[0]["tid"])
    cpu = [
        e
        for e in complete(trace)
        if str(e.get("cat", "")).lower() not in NOT_CPU
        and (e["pid"], e["tid"]) == thread
        and not str(e["name"]).startswith("ProfilerStep#")
        and not (e.get("cat") == "user_annotation" and contains_a_step(e, every))
    ]
    totals: dict[str, float] = defaultdict(float)
    for s in kept:
        lo, hi = float(s["ts"]), float(s["ts"]) + float(s["dur"])
        inside = []
        for k, e in enumerate(cpu):
            a, b = float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0))
            if a < hi and b > lo:
                inside.append((max(a, lo), min(b, hi), a, float(e.get("dur", 0)), k, e["name"]))
        edges = sorted({lo, hi} | {x[0] for x in inside} | {x[1] for x in inside})
        by_start = sorted(inside, key=lambda x: x[0])
        heap: list[tuple[float, float, int, float, str]] = []
        nxt = 0
        for left, right in zip(edges, edges[1:], strict=False):
            while nxt < len(by_start) and by_start[nxt][0] <= left:
                _c0, c1, a, d, k, name = by_start[nxt]
                heapq.heappush(heap, (-a, d, -k, c1, name))
                nxt += 1
            while heap and heap[0][3] <= left:
                heapq.heappop(heap)
            totals[heap[0][4] if heap else "Unattributed"] += right - left
    return {k: v / len(kept) / 1000 for k, v in totals.items()}


def is_nccl(name: str) -> bool:
    low = name.lower()
    return "nccl" in low or "rccl" in low


def gpu_kind(e: dict) -> str | None:
    cat = e.get("cat", "").lower()
    if cat == "kernel":
        return "comm" if is_nccl(e["name"]) else "compute"
    if cat in ("gpu_memcpy", "gpu_memset"):
        return "memory"
    return None


def sweep(intervals: list[tuple[float, float, str]], lo: float, hi: float) -> dict[str, float]:
    """Walk the boundaries in time order keeping a count of active intervals per kind; each stretch between
    two boundaries goes to compute, else exposed communication, else memory, else idle."""
    edges: list[tuple[float, int, str]] = []
    for a, b, k in intervals:
        a, b = max(a, lo), min(b, hi)
        if b > a:
            edges += [(a, 1, k), (b, -1, k)]
    edges.sort(key=lambda x: x[0])
    active = {"compute": 0, "comm": 0, "memory": 0}
    out = dict.fromkeys(("compute", "exposed", "overlapped", "memory", "idle"), 0.0)
    prev = lo
    for x, delta, k in edges + [(hi, 0, "compute")]:
        length = x - prev
        if length > 0:
            if active["compute"]:
                out["compute"] += length
                if active["comm"]:
                    out["overlapped"] += length
            elif active["comm"]:
                out["exposed"] += length
            elif active["memory"]:
                out["memory"] += length
            else:
                out["idle"] += length
        prev = max(prev, x)
        active[k] += delta
    out["span"] = hi - lo
    return out


def gpu_events(trace: dict, device: int = 0) -> list[tuple[float, float, str, dict]]:
    out = []
    for e in complete(trace):
        kind = gpu_kind(e)
        if kind is None:
            continue
        dev = e.get("args", {}).get("device", e.get("pid"))
        if dev == device:
            out.append((float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)), kind, e))
    return out


def gpu_total_ms(trace: dict, device: int = 0) -> dict[str, float]:
    evs = gpu_events(trace, device)
    lo, hi = min(a for a, *_ in evs), max(b for _, b, *_ in evs)
    return {k: v / 1000 for k, v in sweep([(a, b, k) for a, b, k, _ in evs], lo, hi).items()}


def gpu_stretches_ms(trace: dict, device: int = 0) -> dict[str, float]:
    """Each step's stretch of the GPU timeline (ms), by step name."""
    return {name: split["span"] / 1000 for name, split in _gpu_steps(trace, device).items()}


def gpu_per_step_ms(trace: dict, device: int = 0, skip: set[str] = frozenset()) -> dict[str, float]:
    """Each step's GPU stretch: from the first event launched in it to the first of the next step's (last: its
    last end); events are matched to launches by args.correlation. Mean over the steps not in ``skip``."""
    results = [r for name, r in _gpu_steps(trace, device).items() if name not in skip]
    return {k: sum(r[k] for r in results) / len(results) / 1000 for k in results[0]}


def _gpu_steps(trace: dict, device: int) -> dict[str, dict[str, float]]:
    """Each step's split of its GPU stretch (µs), by step name."""
    launch = {}
    for e in complete(trace):
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = float(e["ts"])
    windows = [(float(s["ts"]), float(s["ts"]) + float(s["dur"])) for s in steps(trace)]
    evs = gpu_events(trace, device)
    firsts: list[float | None] = [None] * len(windows)
    lasts: list[float | None] = [None] * len(windows)
    for a, b, _k, e in evs:
        t = launch.get(e.get("args", {}).get("correlation"))
        if t is None:
            continue
        for i, (w0, w1) in enumerate(windows):
            if w0 <= t < w1:
                firsts[i] = a if firsts[i] is None else min(firsts[i], a)
                lasts[i] = b if lasts[i] is None else max(lasts[i], b)
    results = {}
    names = [s["name"] for s in steps(trace)]
    for i, first in enumerate(firsts):
        if first is None:
            continue
        nxt = [f for f in firsts[i + 1 :] if f is not None]
        hi = nxt[0] if nxt else lasts[i]
        results[names[i]] = sweep([(a, b, k) for a, b, k, _ in evs], first, hi)
    return results
