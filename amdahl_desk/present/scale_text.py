"""``amdahl-desk scale``'s table: Amdahl's and Gustafson's speedups and the efficiency at each GPU count."""

from __future__ import annotations

from collections.abc import Sequence

from .numbers import POINT, Numbers


def scale_table(p: float, ceiling: float, points: Sequence[tuple[int, float, float, float]], n: Numbers = POINT) -> str:
    """P and the ceiling, then one line per GPU count; ``points`` are (GPUs, Amdahl, Gustafson, efficiency)."""
    lines = [
        f"Parallel fraction P = {n.percent(p)}; Amdahl's ceiling 1/(1−P) = {n.speedup(ceiling)}",
        f"{'GPUs':>8}  {'Amdahl':>9}  {'Gustafson':>10}  {'Efficiency':>10}",
    ]
    for gpus, amdahl, gustafson, efficiency in points:
        lines.append(
            f"{n.count(gpus):>8}  {n.speedup(amdahl):>9}  {n.speedup(gustafson):>10}  {n.plain(efficiency, '.1%'):>10}"
        )
    return "\n".join(lines)
