"""The compact graph a worker returns schedules its kept points exactly as the whole step graph does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.files.traces.kineto_graph import read_kineto_graph
from amdahl_desk.model.job.compact import compact
from amdahl_desk.model.traces.critical_path import Scheduler
from amdahl_desk.model.traces.path_graph import CPU, GPU_COMPUTE
from amdahl_desk.model.traces.patterns import item_factors, parse_pattern_speedup
from amdahl_desk.model.traces.step_graph import build_paths
from amdahl_desk.model.traces.trace_index import find_step_windows

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"


@pytest.fixture(scope="module")
def graph():  # type: ignore[no-untyped-def]
    trace = read_kineto_graph(str(REAL), REAL.name)
    steps = find_step_windows(trace)
    return trace, steps, build_paths(trace, steps)


@pytest.mark.parametrize("patterns", [[], ["gemm=2"], ["nccl=3", "aten::=1.5"], ["re:.=4"]])
def test_same_schedule_as_the_whole_graph(graph, patterns: list[str]) -> None:  # type: ignore[no-untyped-def]
    trace, steps, g = graph
    sp = [parse_pattern_speedup(p) for p in patterns]
    f = item_factors(trace, sp, np.array([s.row for s in steps])).factor
    factor = np.where(g.owner >= 0, f[np.maximum(g.owner, 0)], 1.0)
    cpu = (g.owner >= 0) & (g.kind == CPU)
    gpu = (g.owner >= 0) & (g.kind == GPU_COMPUTE)
    parts = np.stack((np.where(cpu, g.weight, 0.0), np.where(gpu, g.weight, 0.0)), axis=1)
    parts[~np.isfinite(g.weight)] = 0.0
    small, f_small, p_small, new_of = compact(g, factor, parts, np.zeros(0, dtype=np.int64))
    assert len(small.time) < len(g.time) / (4 if not patterns else 1)  # runs split where K changes
    full = Scheduler(g).run(factor)
    mine = Scheduler(small).run(f_small)
    assert mine.length == pytest.approx(full.length, abs=1e-6)
    kept = new_of >= 0
    assert mine.time[new_of[kept]] == pytest.approx(full.time[kept], abs=1e-6)
    # a later factor for the work shares alone: 3× the CPU work, 2× the GPU compute
    if not patterns:
        both = factor * np.where(cpu, 3.0, 1.0) * np.where(gpu, 2.0, 1.0)
        w = small.weight
        scaled = w - p_small[:, 0] - p_small[:, 1] + p_small[:, 0] / 3 + p_small[:, 1] / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            f2 = np.where((w > 0) & (scaled > 0) & np.isfinite(w), w / scaled, 1.0)
        assert Scheduler(small).run(f2).length == pytest.approx(Scheduler(g).run(both).length, abs=1e-6)
