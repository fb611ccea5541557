"""The Monte Carlo through the dependency model: 10,000 draws of a plan on the real 1-GPU trace.

Run: python tests/benchmarks/bench_plan_draws.py [--draws 10000] [--rounds 3]
The profile is the trace imported by annotation, backward at k = 2 (1.5–3) and forward at k = 1.5 (1.2–2,
confidence 80%), the times with the import's ranges. Prints the median time of
:func:`~amdahl_desk.model.traces.plan_answer.dependency_draws` for all the draws, the floor (one what-if pass,
``Scheduler.run``, × the draws: what a loop over the draws would cost) and the ratio; the aim is under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
TRACE = ROOT / "tests" / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"


def main() -> None:
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.files.traces.linked import open_linked
    from amdahl_desk.model.draws import make_draws
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.model.traces.plan_answer import dependency_draws
    from amdahl_desk.model.traces.plan_path import plan_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    profile = import_trace(TRACE).to_profile()
    profile.set_optimizations(
        [
            Optimization("bw", ("## backward ##",), 2.0, speedup_low=1.5, speedup_high=3.0),
            Optimization("fw", ("## forward ##",), 1.5, speedup_low=1.2, speedup_high=2.0, confidence=0.8),
        ]
    )
    planner = open_linked(profile.settings)
    draws = make_draws(profile, count=args.draws)
    factors = planner.factors(plan_of(profile.optimizations))
    passes = []
    for _ in range(max(args.rounds, 3)):
        start = time.perf_counter()
        planner.pt.scheduler.run(factors)
        passes.append(time.perf_counter() - start)
    one = statistics.median(passes)
    times = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        dependency_draws(profile, planner, draws)
        times.append(time.perf_counter() - start)
    took = statistics.median(times)
    floor = one * args.draws
    ranged = "with" if profile.has_time_ranges() else "without"
    print(
        f"trace: {TRACE.name}, {len(planner.pt.steps)} steps, {len(planner.pt.graph.time):,} points, times {ranged} ranges"
    )
    print(f"{args.draws:,} draws through the dependency model: {took:.3f} s (median of {args.rounds}; aim < 1 s)")
    print(f"floor: one what-if pass {one * 1e3:.2f} ms × {args.draws:,} = {floor:.2f} s")
    print(f"ratio: {took / floor:.3f} of the floor; {took / one:.1f} passes' time")


if __name__ == "__main__":
    main()
