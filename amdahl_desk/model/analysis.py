"""One pass over a profile that computes everything a view shows: ``analyse(profile)``."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .analysis_warnings import AnalysisWarning, WarningKind
from .errors import ProfileError
from .guesses import guessed_scaling_warning
from .laws import (
    FloatArray,
    amdahl_speedup,
    ceiling,
    communication_time,
    gustafson,
    required_speedup,
    ring_allreduce_seconds,
    strong_scaling,
)
from .names import name_key
from .profile import OverheadModel, Profile, Settings
from .units import TimeUnit


@dataclass(frozen=True)
class OptimizationFigures:
    """Each optimization alone, as arrays aligned with ``profile.optimizations``."""

    fraction: FloatArray
    overall_speedup: FloatArray
    new_total: FloatArray
    time_saved: FloatArray
    ceiling: FloatArray


@dataclass(frozen=True)
class Overlap:
    """A component that several enabled optimizations speed up; their k multiply."""

    component: str
    optimizations: tuple[str, ...]
    speedup: float


@dataclass(frozen=True)
class Combined:
    """All enabled optimizations together, time by time: never speedups added."""

    enabled: int
    fraction: float
    overall_speedup: float
    new_total: float
    time_saved: float
    ceiling: float
    overlaps: tuple[Overlap, ...]


@dataclass(frozen=True)
class TargetFigures:
    """Whether a target time is reachable by speeding up the enabled optimizations' components."""

    time: float
    fraction: float
    required_speedup: float | None
    feasible: bool
    floor: float
    met_by_plan: bool
    # On a trace's critical path (:func:`.traces.plan_answer.target_on_path`): the sum's own figures, kept beside;
    # None where these are the sum's. There ``required_speedup`` is the least k of every enabled optimization's
    # events at once, None while it is not known yet or when ``feasible`` is false.
    sum: TargetFigures | None = None


@dataclass(frozen=True)
class ScalingFigures:
    """Speedups over GPU counts, relative to the measured baseline at N0 GPUs."""

    parallel_fraction: float
    ceiling: float
    baseline_gpus: int
    gpus: NDArray[np.int64]
    ideal: FloatArray
    amdahl: FloatArray
    with_overhead: FloatArray
    gustafson: FloatArray
    efficiency: FloatArray
    time: FloatArray
    serial_time: float
    parallel_time: float
    communication_time: float
    best_gpus: int
    best_speedup: float
    last_efficient_gpus: int | None


@dataclass(frozen=True)
class Analysis:
    """Everything the window, the report and the workbook's Summary show."""

    unit: TimeUnit
    baseline_total: float
    times: FloatArray
    fractions: FloatArray
    new_times: FloatArray
    component_speedup: FloatArray
    optimizations: OptimizationFigures
    combined: Combined
    target: TargetFigures | None
    scaling: ScalingFigures
    warnings: tuple[AnalysisWarning, ...]  # worded by present/analysis_warnings
    basis: Basis | None = field(default=None, compare=False, repr=False)
    pairs: PlanPairs | None = field(default=None, compare=False, repr=False)  # which optimization targets what


@dataclass(frozen=True)
class Basis:
    """What an analysis' totals and scaling were computed from besides its times, so that the next analysis
    can take them when only the optimizations changed (a tick, a k step)."""

    unit: TimeUnit
    kinds: NDArray[np.int8]
    settings: Settings
    scaling_warnings: tuple[AnalysisWarning, ...]


_MAX_OVERLAP_NOTES = 50


def exact_sum(values: FloatArray) -> float:
    """The correctly rounded sum of ``values`` (``math.fsum``: a total that no order of the rows changes).

    Summed as Python floats: ``fsum`` over a numpy array makes a numpy scalar of every element, 2.5 times
    as slow over a 10,000-row table, with the same result.
    """
    return math.fsum(values.tolist())


@dataclass(frozen=True)
class PlanPairs:
    """Which optimization speeds up which component: one entry per (optimization, target) pair.

    ``opt_idx[j]`` targets component ``comp_idx[j]``; ``on[j]`` says whether that optimization is
    enabled; ``k_comp[row]`` is the product of the enabled optimizations' k on each component (1 when none).
    """

    opt_idx: NDArray[np.int64]
    comp_idx: NDArray[np.int64]
    speedups: FloatArray
    enabled: NDArray[np.bool_]
    on: NDArray[np.bool_]
    k_comp: FloatArray

    def enabled_by_component(self, profile: Profile) -> dict[int, list[str]]:
        """Component row → the names of the enabled optimizations that speed it up, in checklist order."""
        result: dict[int, list[str]] = {}
        opts = profile.optimizations
        for i, row in zip(self.opt_idx[self.on].tolist(), self.comp_idx[self.on].tolist(), strict=True):
            result.setdefault(row, []).append(opts[i].name)
        return result


def plan_pairs(profile: Profile) -> PlanPairs:
    """The optimization → component pairs of ``profile`` and each component's combined k, as arrays.

    The one place targets are resolved to rows: the analysis, each objective and the comparison use it.
    """
    opts = profile.optimizations
    m = len(opts)
    index = profile.name_index()
    opt_ids: list[int] = []
    comp_ids: list[int] = []
    for i, opt in enumerate(opts):
        for name in opt.targets:
            row = index.get(name_key(name), -1)
            if row >= 0:
                opt_ids.append(i)
                comp_ids.append(row)
    opt_idx = np.asarray(opt_ids, dtype=np.int64)
    comp_idx = np.asarray(comp_ids, dtype=np.int64)
    speedups = np.fromiter((o.speedup for o in opts), dtype=float, count=m)
    enabled = np.fromiter((o.enabled for o in opts), dtype=bool, count=m)
    on = enabled[opt_idx] if m else np.zeros(0, dtype=bool)
    k_comp = np.ones(len(profile.components))
    np.multiply.at(k_comp, comp_idx[on], speedups[opt_idx[on]])
    return PlanPairs(opt_idx, comp_idx, speedups, enabled, on, k_comp)


def analyse(profile: Profile, previous: Analysis | None = None) -> Analysis:
    """Compute every figure for ``profile``; raises :class:`ProfileError` when there is nothing to measure.

    ``previous``, an earlier analysis: its total, shares and scaling are taken when the times, their
    scaling classes, the unit and the settings are still those it was computed from (compared here),
    as after a tick or a k step; everything the optimizations change is computed again.
    """
    comps = profile.components
    n = len(comps)
    if n == 0:
        raise ProfileError("the profile has no components; add at least one component with its measured time")
    cached_times, kinds = profile.arrays()
    basis = previous.basis if previous is not None else None
    if (
        previous is not None
        and basis is not None
        and basis.unit is profile.unit
        and basis.settings == profile.settings
        and np.array_equal(previous.times, cached_times)
        and np.array_equal(basis.kinds, kinds)
    ):
        times, total, fractions = previous.times, previous.baseline_total, previous.fractions
    else:
        basis = None
        times = cached_times.copy()  # the profile updates its arrays in place; an Analysis must not change
        total = exact_sum(times)
        if not total > 0:
            raise ProfileError(
                f"the components add up to 0 {profile.unit.label}; give at least one component a measured time above 0"
            )
        if not math.isfinite(total):
            raise ProfileError("the components add up to more than can be represented; check the times")
        fractions = times / total
    warnings: list[AnalysisWarning] = []

    opts = profile.optimizations
    m = len(opts)
    pairs = plan_pairs(profile)
    opt_idx, comp_idx, speedups, enabled = pairs.opt_idx, pairs.comp_idx, pairs.speedups, pairs.enabled

    affected = np.bincount(opt_idx, weights=times[comp_idx], minlength=m) if m else np.zeros(0)
    f_opt = np.clip(affected / total, 0.0, 1.0)
    s_opt = amdahl_speedup(f_opt, speedups)
    new_opt = total * ((1.0 - f_opt) + f_opt / speedups) if m else np.zeros(0)
    per_opt = OptimizationFigures(f_opt, s_opt, new_opt, total - new_opt, ceiling(f_opt))
    for slow in np.flatnonzero(speedups < 1):
        warnings.append(
            AnalysisWarning(WarningKind.SLOWDOWN, {"optimization": opts[slow].name, "k": float(speedups[slow])})
        )

    on, k_comp = pairs.on, pairs.k_comp
    new_times = times / k_comp
    new_total = exact_sum(new_times)
    hits = np.bincount(comp_idx[on], minlength=n)
    touched = hits > 0
    f_union = float(min(exact_sum(times[touched]) / total, 1.0))
    overlaps = overlaps_of(profile, hits, comp_idx[on], opt_idx[on], k_comp)
    if overlaps:
        shown = tuple((o.component, tuple(o.optimizations), float(o.speedup)) for o in overlaps[:3])
        more = len(overlaps) - 3 if len(overlaps) > 3 else 0
        warnings.append(AnalysisWarning(WarningKind.OVERLAP, {"overlaps": shown, "more": more}))
    combined = Combined(
        enabled=int(enabled.sum()),
        fraction=f_union,
        overall_speedup=total / new_total if new_total > 0 else math.inf,
        new_total=new_total,
        time_saved=total - new_total,
        ceiling=float(ceiling(f_union)),
        overlaps=tuple(overlaps),
    )

    target = None
    if profile.settings.target_time is not None:
        target = target_figures(profile.settings.target_time, total, combined)

    if basis is None or previous is None:
        scaling_warnings: list[AnalysisWarning] = []
        scaling = _scaling(profile, times, kinds, total, scaling_warnings)
        basis = Basis(profile.unit, kinds.copy(), profile.settings, tuple(scaling_warnings))
    else:
        scaling = previous.scaling
    warnings.extend(basis.scaling_warnings)
    guessed = guessed_scaling_warning(profile, times, kinds, scaling.parallel_fraction, scaling.ceiling)
    if guessed is not None:
        warnings.append(guessed)
    return Analysis(
        profile.unit,
        total,
        times,
        fractions,
        new_times,
        k_comp,
        per_opt,
        combined,
        target,
        scaling,
        tuple(warnings),
        basis,
        pairs,
    )


def overlaps_of(
    profile: Profile,
    hits: NDArray[np.int64],
    comp_idx: NDArray[np.int64],
    opt_idx: NDArray[np.int64],
    k_comp: FloatArray,
) -> list[Overlap]:
    rows = np.flatnonzero(hits > 1)[:_MAX_OVERLAP_NOTES]
    result = []
    for row in rows:
        names = tuple(profile.optimizations[i].name for i in opt_idx[comp_idx == row])
        result.append(Overlap(profile.components[row].name, names, float(k_comp[row])))
    return result


def target_figures(target: float, total: float, combined: Combined) -> TargetFigures:
    f = combined.fraction if combined.enabled else 0.0
    floor = (1.0 - f) * total
    k = required_speedup(f, total, target)
    return TargetFigures(
        time=target,
        fraction=f,
        required_speedup=k,
        feasible=k is not None,
        floor=floor,
        met_by_plan=combined.new_total <= target * (1 + 1e-12),
    )


def _warn_ring_clamp(
    profile: Profile, comm: float, gpus: FloatArray, comm_n: FloatArray, warnings: list[AnalysisWarning]
) -> None:
    """Say so when the ring model's communication is held at 0 (its extrapolation below N0 went negative)."""
    s = profile.settings
    ring0 = float(ring_allreduce_seconds(s.baseline_gpus, s.ring_latency, s.ring_message_bytes, s.ring_bandwidth))
    ring0 /= profile.unit.seconds
    clamped = gpus[(comm_n <= 0) & (gpus < s.baseline_gpus)]
    if comm >= ring0 or not clamped.size:
        return
    values = {"communication": comm, "n0": s.baseline_gpus, "ring0": ring0, "below": int(clamped.max())}
    warnings.append(AnalysisWarning(WarningKind.RING_CLAMP, values))


def _scaling(
    profile: Profile, times: FloatArray, kinds: NDArray[np.int8], total: float, warnings: list[AnalysisWarning]
) -> ScalingFigures:
    settings = profile.settings
    comm = exact_sum(times[kinds == 2])
    parallel = exact_sum(times[kinds == 1])
    if settings.parallel_fraction is not None:
        parallel = settings.parallel_fraction * total
        if parallel > total - comm:
            parallel = total - comm
            values = {"fraction": settings.parallel_fraction, "communication": comm, "used": parallel / total}
            warnings.append(AnalysisWarning(WarningKind.PARALLEL_FRACTION_CUT, values))
    serial = max(total - parallel - comm, 0.0)
    p = parallel / total

    n0 = settings.baseline_gpus
    gpus = np.asarray(sorted(set(settings.gpu_counts)), dtype=np.int64)
    n = gpus.astype(float)
    ratio = n / n0
    comm_n = communication_time(
        comm,
        n,
        float(n0),
        settings.overhead_model,
        ring_latency=settings.ring_latency,
        ring_message_bytes=settings.ring_message_bytes,
        ring_bandwidth=settings.ring_bandwidth,
        unit_seconds=profile.unit.seconds,
    )
    if settings.overhead_model is OverheadModel.RING:
        _warn_ring_clamp(profile, comm, n, comm_n, warnings)
    if n0 > int(gpus.max()):
        warnings.append(AnalysisWarning(WarningKind.N0_ABOVE_COUNTS, {"n0": n0, "largest": int(gpus.max())}))
    t_n = serial + parallel / ratio + comm_n
    with np.errstate(divide="ignore"):
        with_overhead = np.where(t_n > 0, total / t_n, np.inf)
    efficiency = with_overhead / ratio
    best = int(np.argmax(with_overhead))
    efficient = np.flatnonzero(efficiency >= 0.5 - 1e-12)
    return ScalingFigures(
        parallel_fraction=p,
        ceiling=float(ceiling(p)),
        baseline_gpus=n0,
        gpus=gpus,
        ideal=ratio,
        amdahl=strong_scaling(p, n, n0),
        with_overhead=with_overhead,
        gustafson=gustafson(p, n, n0),
        efficiency=efficiency,
        time=t_n,
        serial_time=serial,
        parallel_time=parallel,
        communication_time=comm,
        best_gpus=int(gpus[best]),
        best_speedup=float(with_overhead[best]),
        last_efficient_gpus=int(gpus[efficient[-1]]) if efficient.size else None,
    )
