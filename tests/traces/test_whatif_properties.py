"""Invariants of the what-if on random, physically consistent steps (hypothesis).

Each step is simulated: a CPU thread runs ops, launches (a kernel starts after its launch began plus a
latency, and after the kernel before it on its stream ended plus a small gap), device synchronisations (the
call returns after every stream's work ended) and idle gaps; a second thread launches on its own; some
kernels wait for a kernel on another stream through a recorded event. The GPU may still run when the step
ends. Whatever the step, the baseline is its wall time, K = 1 changes nothing, speeding up never slows the
step nor beats the ceiling, one pattern never beats the sum, and the path's kinds add up to its length.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from amdahl_desk.files.traces.kineto_graph import read_kineto_graph
from amdahl_desk.model.errors import BadInputError
from amdahl_desk.model.traces.patterns import parse_pattern_speedup
from amdahl_desk.model.traces.whatif import prepare, what_if

from .synthetic import TID, Kineto
from .test_zero_length_gpu_events import waited_for

NAMES = ("gemm_a", "gemm_b", "relu", "nccl_allreduce")


@st.composite
def random_step(draw: st.DrawFn) -> Kineto:
    t = Kineto()
    streams = draw(st.sampled_from([(7,), (7, 20), (7, 20, 24)]))
    free = {s: 0.0 for s in streams}
    last: dict[int, tuple[int, float]] = {}  # stream → (record correlation, end of its last kernel)
    now = 0.0
    for _ in range(draw(st.integers(1, 18))):
        what = draw(st.sampled_from(["op", "launch", "launch", "launch", "sync", "idle", "wait"]))
        if what == "idle":
            now += draw(st.integers(1, 40))
        elif what == "op":
            dur = draw(st.integers(1, 60))
            t.op(draw(st.sampled_from(["aten::mm", "aten::add", "aten::copy_"])), now, dur)
            now += dur
        elif what in ("launch", "wait"):
            s = draw(st.sampled_from(streams))
            waited = None
            if what == "wait" and len(streams) > 1:
                other = draw(st.sampled_from([x for x in streams if x != s]))
                if other in last:
                    record, done = last[other]
                    call = t.call("cudaStreamWaitEvent", now, 2)
                    t.sync("Stream Wait Event", call, now, 1, stream=s, wait_on_stream=other,
                           wait_on_cuda_event_record_corr_id=record)  # fmt: skip
                    now += 2
                    waited = done
            dur = draw(st.integers(2, 12))
            latency = draw(st.integers(1, 15))
            start = max(now + latency, free[s] + draw(st.integers(0, 4)), (waited or 0.0) + draw(st.integers(0, 3)))
            k_dur = draw(st.integers(0, 250))
            t.launch(now, dur, draw(st.sampled_from(NAMES)), start, k_dur, stream=s)
            free[s] = start + k_dur
            now += dur
            record = t.call("cudaEventRecord", now, 1)
            last[s] = (record, free[s])
            now += 1
        else:
            begin = now
            now = max(now + draw(st.integers(1, 10)), max(free.values()) + draw(st.integers(0, 8)))
            t.call("cudaDeviceSynchronize", begin, now - begin)
    if draw(st.booleans()):  # another thread launching on its own
        s = streams[-1]
        at = draw(st.integers(0, 40))
        start = max(at + 5, free[s] + 1)
        t.launch(at, 4, "relu", start, draw(st.integers(1, 100)), stream=s, tid=TID + 1)
        free[s] = start + 1
    end = max(now, 1.0)
    t.step(1, 0, end)
    return t


def answer(t: Kineto, *specs: str):
    """The graph and the what-ifs; None when a pattern matches nothing inside the step (a refusal, exit 2)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = t.write(Path(tmp) / "step.json")
        pt = prepare(read_kineto_graph(str(path), "step.json"))
    try:
        return pt, [what_if(pt, [parse_pattern_speedup(s)]) for s in specs]
    except BadInputError:
        return None


PATTERNS = ("gemm", "relu", "nccl", "aten::", "cudaLaunchKernel", "re:^gemm_(a|b)$")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _ops_only() -> Kineto:
    """A step of two CPU ops end to end: "aten::" matches all of it, and free it leaves nothing (no ceiling)."""
    t = Kineto()
    t.op("aten::mm", 0.0, 1)
    t.op("aten::mm", 1.0, 1)
    t.step(1, 0, 2.0)
    return t


@SETTINGS
@given(random_step(), st.sampled_from(PATTERNS), st.floats(1.0, 50.0))
@example(_ops_only(), "aten::", 1.0)
@example(_ops_only(), "aten::", 4.0)
@example(waited_for("kernel", 0.0), "gemm", 1.0)  # a stream waiting for a zero-length kernel
def test_invariants(t, pattern, k):
    found = answer(t, f"{pattern}=1", f"{pattern}={k}")
    if found is None:
        return
    _, (same, sped) = found
    wall = t.events[-1]["dur"] / 1000
    assert sped.baseline == pytest.approx(wall, rel=0.01)
    assert same.predicted == pytest.approx(same.baseline, rel=1e-12, abs=1e-12)
    assert sped.speedup >= 1 - 1e-9
    if sped.ceiling is None:  # unbounded: with the matched events at 0 nothing of the step is left
        assert sped.matched_on_path == pytest.approx(sped.baseline, rel=1e-9)
    else:
        assert sped.speedup <= sped.ceiling * (1 + 1e-9)
    if sped.sum_speedup is not None:
        assert sped.speedup <= sped.sum_speedup * (1 + 1e-9)
    assert sum(sped.by_kind.values()) == pytest.approx(sped.baseline, rel=1e-9)
    assert sum(sped.predicted_by_kind.values()) == pytest.approx(sped.predicted, rel=1e-9)
    assert sped.matched_on_path <= sped.matched_time + 1e-9


@SETTINGS
@given(random_step(), st.floats(1.0, 8.0), st.floats(1.0, 8.0))
def test_more_speedup_never_lengthens_the_step(t, k1, k2):
    lo, hi = sorted((k1, k2))
    found = answer(t, f"gemm={lo}", f"gemm={hi}")
    if found is None:
        return
    _, (a, b) = found
    assert b.predicted <= a.predicted * (1 + 1e-12)


@SETTINGS
@given(random_step())
def test_every_point_keeps_its_observed_time(t):
    found = answer(t)
    assert found is not None
    g = found[0].graph
    pt = found[0]
    observed = g.time - g.windows[g.step_of_point, 0]
    assert pt.baseline.time == pytest.approx(observed, abs=1e-9)
