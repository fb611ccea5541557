"""Fit benchmark: fit_measurements on 1,000 runs (aim: under 50 ms), against a linear least-squares floor.

Run: python tests/benchmarks/bench_fit.py [--rounds N]
Prints the median of the USL fit alone and of everything fit_measurements computes, the floor
(numpy's lstsq on the linearised USL, the cheapest fit of the same data) and the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from amdahl_desk.model.fit import fit_measurements, fit_usl
from amdahl_desk.model.measurements import Measurements


def median_seconds(fn, rounds: int) -> float:
    fn()  # warm-up
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def runs(count: int, seed: int = 1) -> Measurements:
    """Throughputs from α = 3%, β = 0.01%, γ = 100 at N from 1 to 200, with 2% noise (repeats at each N)."""
    rng = np.random.default_rng(seed)
    n = rng.integers(1, 201, count).astype(float)
    x = 100 * n / (1 + 0.03 * (n - 1) + 1e-4 * n * (n - 1)) * (1 + 0.02 * rng.standard_normal(count))
    return Measurements.of(zip(n, x, strict=True), "throughput", "/s", "Users")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    m = runs(1000)
    n, x = m.n, m.values

    def floor() -> None:
        design = np.column_stack([n - 1, n * (n - 1)])
        np.linalg.lstsq(design, x[n == n.min()].mean() * n / x - 1, rcond=None)

    t_floor = median_seconds(floor, args.rounds)
    t_usl = median_seconds(lambda: fit_usl(n, x), args.rounds)
    t_all = median_seconds(lambda: fit_measurements(m), args.rounds)
    result = fit_measurements(m)
    print(
        f"USL fit, 1,000 runs: median {t_usl * 1e3:.2f} ms; floor (lstsq on the linearised USL) "
        f"{t_floor * 1e3:.3f} ms; ratio {t_usl / t_floor:.0f}"
    )
    print(
        f"fit_measurements, 1,000 runs (points, Karp–Flatt, Amdahl, USL, sentences): median {t_all * 1e3:.2f} ms "
        f"(aim: under 50 ms); ratio to floor {t_all / t_floor:.0f}"
    )
    print(f"fitted α = {result.usl.alpha:.4f}, β = {result.usl.beta:.2e}, γ = {result.usl.gamma:.1f}")


if __name__ == "__main__":
    main()
