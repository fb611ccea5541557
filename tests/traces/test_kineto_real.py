"""The two real GPU traces (HTA's test data): steps, annotations, ops and the GPU split against independent sums."""

from __future__ import annotations

import pytest

from amdahl_desk.files.traces import load_trace
from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces import ImportOptions

from . import expect

NS = 1e-6  # a nanosecond, in ms: sums of thousands of float durations may differ by that much
NCCL16 = expect.REAL / "kineto_16gpu_nccl_rank0.json.gz"
NS1 = expect.REAL / "kineto_1gpu_ns_timestamps.json.gz"


@pytest.fixture(scope="module", params=[NCCL16, NS1], ids=["16gpu_nccl", "1gpu_ns"])
def real(request):
    return request.param, expect.load(request.param), load_trace(request.param)


def test_steps_and_annotations(real):
    _path, trace, loaded = real
    result = loaded.summarise(ImportOptions(group_by="annotation", top=None))
    assert result.format == "pytorch" and result.unit.value == "ms"
    assert result.steps is not None and len(result.steps) == len(expect.steps(trace)) == 5
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace), rel=1e-9)
    want = expect.outermost_annotations_ms(trace)
    got = {c.name: c.time for c in result.components}
    for name, t in want.items():
        assert got[name] == pytest.approx(t, rel=1e-6, abs=NS), name
    assert got["Unattributed"] == pytest.approx(result.step_time - sum(want.values()), abs=5 * NS)
    assert result.total == pytest.approx(result.step_time, rel=1e-9)


def test_gpu_split_per_step_and_total(real):
    _path, trace, loaded = real
    per_step = loaded.summarise(ImportOptions(group_by="gpu"))
    want = expect.gpu_per_step_ms(trace)
    g = per_step.gpu
    assert g is not None and g.device == 0
    for key, attr in [
        ("compute", "compute"),
        ("exposed", "exposed_communication"),
        ("overlapped", "overlapped_communication"),
        ("memory", "memory"),
        ("idle", "idle"),
        ("span", "span"),
    ]:
        assert getattr(g, attr) == pytest.approx(want[key], rel=1e-6, abs=NS), key
    assert [c.name for c in per_step.components] == ["GPU compute", "Exposed communication", "Memory", "GPU idle"]
    assert per_step.total == pytest.approx(g.span, rel=1e-9)
    total = loaded.summarise(ImportOptions(group_by="gpu", total=True)).gpu
    want_total = expect.gpu_total_ms(trace)
    assert total is not None
    assert total.compute == pytest.approx(want_total["compute"], rel=1e-6)
    assert total.exposed_communication == pytest.approx(want_total["exposed"], rel=1e-6, abs=1e-6)
    assert total.idle == pytest.approx(want_total["idle"], rel=1e-6)
    assert total.span == pytest.approx(want_total["span"], rel=1e-9)


def test_nccl_trace_has_exposed_communication_and_rank():
    trace = expect.load(NCCL16)
    result = load_trace(NCCL16).summarise(ImportOptions(group_by="gpu"))
    assert result.gpu is not None and result.gpu.exposed_communication > 0
    assert expect.gpu_total_ms(trace)["exposed"] > 0
    assert result.rank == 0 and "rank 0 of 16" in result.boundary and "GPU 0 timeline" in result.boundary
    comm = next(c for c in result.components if c.name == "Exposed communication")
    assert comm.scaling is Scaling.COMMUNICATION


def test_op_self_times(real):
    _path, trace, loaded = real
    result = loaded.summarise(ImportOptions(group_by="op", top=None))
    got = {c.name: c.time for c in result.components}
    # cudaLaunchKernel has no children: its self time is its duration, on the steps' thread, inside the steps
    s = expect.steps(trace)
    thread = (s[0]["pid"], s[0]["tid"])
    launches = [e for e in expect.complete(trace) if e["name"] == "cudaLaunchKernel" and (e["pid"], e["tid"]) == thread]
    want = 0.0
    for step in s:
        a0, a1 = float(step["ts"]), float(step["ts"]) + float(step["dur"])
        want += sum(
            min(float(e["ts"]) + float(e["dur"]), a1) - max(float(e["ts"]), a0)
            for e in launches
            if a0 <= float(e["ts"]) < a1
        )
    assert got["cudaLaunchKernel"] == pytest.approx(want / len(s) / 1000, rel=1e-6)
    assert result.total == pytest.approx(result.step_time, rel=1e-3)


def test_flagged_steps_of_the_ns_trace_can_be_left_out():
    trace = expect.load(NS1)
    loaded = load_trace(NS1)
    result = loaded.summarise(ImportOptions(exclude_flagged=True))
    durs = {e["name"]: float(e["dur"]) / 1000 for e in expect.steps(trace)}
    median = sorted(durs.values())[2]
    far = {n for n, d in durs.items() if abs(d - median) > 0.2 * median}
    assert far and {s.name for s in result.steps if s.flagged} == far
    assert result.step_time == pytest.approx(expect.mean_step_ms(trace, skip=far), rel=1e-9)
    want = expect.outermost_annotations_ms(trace, skip=far)
    got = {c.name: c.time for c in result.components}
    for name, t in want.items():
        assert got[name] == pytest.approx(t, rel=1e-6, abs=NS)


def test_last_step_still_draining_the_gpu_is_pointed_out():
    trace = expect.load(NCCL16)
    loaded = load_trace(NCCL16)
    result = loaded.summarise(ImportOptions(group_by="gpu"))
    assert any("ProfilerStep#554" in w and "finishing queued work" in w for w in result.warnings)
    kept = loaded.summarise(ImportOptions(group_by="gpu", exclude_steps=frozenset({"ProfilerStep#554"})))
    # the four stretches run from each step's first GPU event to the next one's: their mean is
    # (first GPU start of step 554 − first GPU start of step 550) / 4
    starts = {}
    launch = {
        e["args"]["correlation"]: float(e["ts"])
        for e in expect.complete(trace)
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})
    }
    steps = expect.steps(trace)
    for e in expect.complete(trace):
        t = launch.get(e.get("args", {}).get("correlation")) if expect.gpu_kind(e) else None
        for s in steps:
            if t is not None and float(s["ts"]) <= t < float(s["ts"]) + float(s["dur"]):
                starts[s["name"]] = min(starts.get(s["name"], float("inf")), float(e["ts"]))
    want = (starts["ProfilerStep#554"] - starts["ProfilerStep#550"]) / 4 / 1000
    assert kept.gpu.span == pytest.approx(want, rel=1e-9)
    assert not any("finishing queued work" in w for w in kept.warnings)


def test_a_gpu_step_longer_than_the_cpu_step_is_explained():
    # The GPU timeline (the profile's total) runs 96 ms a step while the CPU's ProfilerSteps average 79 ms:
    # the CPU launched ahead. Without a word the two figures side by side look like a reading error.
    trace = expect.load(NS1)
    result = load_trace(NS1).summarise(ImportOptions(group_by="gpu"))
    gpu_step, cpu_step = expect.gpu_per_step_ms(trace)["span"], expect.mean_step_ms(trace)
    assert gpu_step / cpu_step - 1 > 0.05
    [note] = [w for w in result.warnings if "GPU timeline's step" in w]
    assert f"{gpu_step:.4g} ms" in note and f"{cpu_step:.4g} ms" in note
    assert f"{gpu_step / cpu_step - 1:.0%} longer" in note and "launches kernels ahead" in note
    # grouped by annotation the total is the CPU step: nothing to explain
    by_annotation = load_trace(NS1).summarise(ImportOptions(group_by="annotation"))
    assert not any("GPU timeline's step" in w for w in by_annotation.warnings)
