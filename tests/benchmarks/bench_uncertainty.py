"""Uncertainty benchmarks: the plan's 10,000 draws at scale against one frame, the exact plan search against 200 ms.

Run: python tests/benchmarks/bench_uncertainty.py [--rounds N]
Prints each median, the floor it is held against and the ratio.

- Draws: 50 optimizations, each with a k range and a 90% confidence, on 10,000 components (20 targets each,
  overlapping); then the same with a time range on every component. "First" is the first analysis of a
  profile (quantile tables and uniforms drawn); "after an edit" is the next analysis once one optimization's
  high k has changed, as a drag in the checklist would. The floor is one 16.7 ms frame.
- Plan search: 20 candidates with efforts, k ranges and 90% confidence on 40 components, a target at 75% of
  the baseline and an 80% level; each round a different random profile. The floor is 200 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.plan_search import EXACT_CANDIDATES, cheapest_plan
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.uncertainty import analyse_uncertainty

FRAME = 1 / 60
SEARCH_FLOOR = 0.200


def big_profile(n: int, m: int, ranged_times: bool, seed: int = 1) -> Profile:
    rnd = random.Random(seed)
    comps = []
    for i in range(n):
        t = 1.0 + i % 97
        low, high = (t * 0.9, t * 1.25) if ranged_times else (None, None)
        comps.append(Component(f"component {i}", t, time_low=low, time_high=high))
    opts = []
    for j in range(m):
        targets = tuple(f"component {rnd.randrange(n)}" for _ in range(20))
        k = 1.5 + j % 4
        opts.append(Optimization(f"opt {j}", targets, k, j % 2 == 0, "", k * 0.8, k * 1.5, 1.0 + j % 5, 0.9))
    return Profile(comps, opts, Settings(target_time=n * 45.0))


def median_of(fn, rounds: int) -> tuple[float, float]:  # (median, slowest)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), max(samples)


def edit_rounds(profile: Profile, rounds: int) -> tuple[list[float], list[float]]:
    """Change one optimization's high k, analyse, then time the uncertainty analysis; (its times, analyse()'s)."""
    samples, point = [], []
    for step in range(rounds):
        opts = list(profile.optimizations)
        o = opts[7]
        opts[7] = replace(o, speedup_high=o.speedup * (1.5 + 0.01 * (step % 50)))
        profile.set_optimizations(opts)
        start = time.perf_counter()
        analysis = analyse(profile)
        middle = time.perf_counter()
        analyse_uncertainty(profile, analysis)
        samples.append(time.perf_counter() - middle)
        point.append(middle - start)
    return samples, point


def bench_draws(rounds: int) -> None:
    for ranged in (False, True):
        profile = big_profile(10_000, 50, ranged)
        analysis = analyse(profile)
        label = "k ranges + a time range on every component" if ranged else "k ranges"
        first, _ = median_of(lambda p=profile, a=analysis: analyse_uncertainty(p, a, seed=_fresh_seed()), rounds)
        analyse_uncertainty(profile, analysis)  # this seed's uniforms and tables drawn once
        samples, point = edit_rounds(profile, rounds)
        after = statistics.median(samples)
        for what, value in (("first analysis", first), ("after an edit of one k", after)):
            print(
                f"10,000 draws, 50 optimizations, 10,000 components, {label}, {what}: median {value * 1e3:.1f} ms; "
                f"floor one frame {FRAME * 1e3:.1f} ms; ratio {value / FRAME:.2f} (aim: ≤ 1)"
            )
        print(
            f"  (after an edit: slowest round {max(samples) * 1e3:.1f} ms; the point analysis before it, analyse(), "
            f"median {statistics.median(point) * 1e3:.1f} ms)"
        )


_SEEDS = iter(range(1_000, 10**9))


def _fresh_seed() -> int:
    return next(_SEEDS)  # another seed each round: nothing drawn before helps


def search_profile(seed: int) -> Profile:
    rnd = random.Random(seed)
    comps = [Component(f"c{i}", rnd.uniform(1, 100)) for i in range(40)]
    opts = []
    for j in range(EXACT_CANDIDATES):
        targets = tuple(f"c{rnd.randrange(40)}" for _ in range(rnd.randint(1, 3)))
        k = rnd.uniform(1.5, 4)
        opts.append(Optimization(f"o{j}", targets, k, False, "", k * 0.7, k * 1.6, float(rnd.randint(1, 10)), 0.9))
    return Profile(comps, opts, Settings(target_time=sum(c.time for c in comps) * 0.75))


def bench_search(rounds: int) -> None:
    samples, nodes = [], []
    for r in range(rounds):
        profile = search_profile(r)
        draws = make_draws(profile)
        start = time.perf_counter()
        found = cheapest_plan(profile, draws, profile.settings.target_time or 0.0, 0.8)
        samples.append(time.perf_counter() - start)
        assert found.exact
        nodes.append(found.nodes)
    value = statistics.median(samples)
    print(
        f"exact plan search, {EXACT_CANDIDATES} candidates, 10,000 draws: median {value * 1e3:.0f} ms over {rounds} "
        f"profiles (slowest {max(samples) * 1e3:.0f} ms, median {statistics.median(nodes):.0f} branches); "
        f"floor {SEARCH_FLOOR * 1e3:.0f} ms; ratio {value / SEARCH_FLOOR:.2f} (aim: ≤ 1)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    bench_draws(args.rounds)
    bench_search(args.rounds)


if __name__ == "__main__":
    main()
