"""A GPU trace synthesized exactly: NCCL kernels overlapping compute on other streams; unions worked out by hand."""

from __future__ import annotations

import json

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.profile import Scaling
from amdahl_desk.model.traces import ImportOptions

MS = 1000.0  # the trace is in µs; every figure below is in ms


def _trace() -> dict:
    """Two steps on CPU thread (1, 1); device 0 runs compute on streams 7 and 8, NCCL on stream 20."""
    events: list[dict] = [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}},
        {"ph": "M", "name": "thread_name", "pid": "1", "tid": "1", "args": {"name": "main"}},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100 * MS},
        {
            "ph": "X",
            "cat": "user_annotation",
            "name": "ProfilerStep#2",
            "pid": 1,
            "tid": 1,
            "ts": 100 * MS,
            "dur": 100 * MS,
        },
        # annotations: forward holds a nested one; the collectives in two spellings
        {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 5 * MS, "dur": 35 * MS},
        {"ph": "X", "cat": "user_annotation", "name": "inner", "pid": 1, "tid": 1, "ts": 10 * MS, "dur": 10 * MS},
        {
            "ph": "X",
            "cat": "user_annotation",
            "name": "grad_allreduce",
            "pid": 1,
            "tid": 1,
            "ts": 40 * MS,
            "dur": 30 * MS,
        },
        {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 105 * MS, "dur": 45 * MS},
        {
            "ph": "X",
            "cat": "user_annotation",
            "name": "nccl:all_reduce",
            "pid": 1,
            "tid": 1,
            "ts": 150 * MS,
            "dur": 10 * MS,
        },
        # an annotation on another thread is not a component
        {"ph": "X", "cat": "user_annotation", "name": "elsewhere", "pid": 1, "tid": 2, "ts": 10 * MS, "dur": 50 * MS},
        {"ph": "i", "name": "marker", "pid": 1, "tid": 1, "ts": 1.5, "s": "t"},
    ]
    gpu = [
        # (name, cat, stream, start ms, end ms, launch ms)
        ("gemm_a", "kernel", 7, 10, 40, 1),
        ("gemm_b", "kernel", 8, 30, 60, 2),
        ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", "kernel", 20, 50, 80, 3),
        ("Memcpy DtoH (Device -> Pinned)", "gpu_memcpy", 7, 75, 90, 4),
        ("gemm_c", "kernel", 7, 115, 150, 101),
        ("ncclKernel_AllReduce_RING_LL_Sum_float", "kernel", 20, 140, 170, 102),
        ("Memset (Device)", "gpu_memset", 7, 165, 175, 103),
        ("relu", "kernel", 8, 180, 190, 104),
    ]
    for corr, (name, cat, stream, a, b, launch) in enumerate(gpu, start=1000):
        args = {"device": 0, "stream": stream, "correlation": corr}
        events.append(
            {
                "ph": "X",
                "cat": cat,
                "name": name,
                "pid": 0,
                "tid": stream,
                "ts": a * MS,
                "dur": (b - a) * MS,
                "args": args,
            }
        )
        runtime = "cudaLaunchKernel" if cat == "kernel" else "cudaMemcpyAsync"
        events.append(
            {
                "ph": "X",
                "cat": "cuda_runtime",
                "name": runtime,
                "pid": 1,
                "tid": 1,
                "ts": launch * MS + 0.25,
                "dur": 0.5,
                "args": {"correlation": corr},
            }
        )
        events.append({"ph": "s", "id": corr, "pid": 1, "tid": 1, "ts": launch * MS, "cat": "ac2g", "name": "ac2g"})
        events.append(
            {"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": a * MS, "cat": "ac2g", "name": "ac2g", "bp": "e"}
        )
    # a kernel on device 1 never counts for device 0
    events.append(
        {
            "ph": "X",
            "cat": "kernel",
            "name": "other_gpu",
            "pid": 1,
            "tid": 7,
            "ts": 0,
            "dur": 500 * MS,
            "args": {"device": 1, "stream": 7},
        }
    )
    return {
        "schemaVersion": 1,
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
        "traceEvents": events,
    }


@pytest.fixture
def trace_path(tmp_path):
    path = tmp_path / "overlap.json"
    path.write_text(json.dumps(_trace()))
    return path


def test_gpu_split_per_step_by_hand(trace_path):
    # step 1 (GPU stretch 10..115): compute [10,40)∪[30,60) = 50; NCCL [50,80): 10 under compute, 20 exposed;
    #   memcpy [75,90): 5 under NCCL, 10 alone; busy [10,90) = 80 of 105 → idle 25
    # step 2 (115..190, the last: to its last end): compute [115,150) 35 + [180,190) 10 = 45; NCCL [140,170):
    #   10 hidden, 20 exposed; memset [165,175): 5 alone; busy 60 + 10 = 70 of 75 → idle 5
    result = import_trace(trace_path, ImportOptions(group_by="gpu"))
    g = result.gpu
    assert g is not None and g.device == 0
    assert g.compute == pytest.approx((50 + 45) / 2)
    assert g.exposed_communication == pytest.approx(20)
    assert g.overlapped_communication == pytest.approx(10)
    assert g.memory == pytest.approx((10 + 5) / 2)
    assert g.idle == pytest.approx((25 + 5) / 2)
    assert g.span == pytest.approx((105 + 75) / 2)
    comps = {c.name: c for c in result.components}
    assert comps["Exposed communication"].scaling is Scaling.COMMUNICATION
    assert comps["GPU compute"].scaling is Scaling.PARALLEL and comps["GPU idle"].scaling is Scaling.SERIAL
    assert result.total == pytest.approx(90)


def test_gpu_split_whole_trace_by_hand(trace_path):
    # span [10,190) = 180; compute 50 + 35 + 10 = 95; exposed 20 + 20; hidden 10 + 10; memory 10 + 5; idle 180-150
    g = import_trace(trace_path, ImportOptions(group_by="gpu", total=True)).gpu
    assert g is not None
    assert (g.compute, g.exposed_communication, g.overlapped_communication, g.memory, g.idle, g.span) == pytest.approx(
        (95, 40, 20, 15, 30, 180)
    )


def test_annotations_outermost_per_step_by_hand(trace_path):
    # step 1: forward 35 (inner is nested), grad_allreduce 30; step 2: forward 45, nccl:all_reduce 10
    result = import_trace(trace_path)
    assert result.group_by == "annotation" and result.step_time == pytest.approx(100)
    comps = {c.name: c for c in result.components}
    assert set(comps) == {"forward", "grad_allreduce", "nccl:all_reduce", "Unattributed"}
    assert comps["forward"].time == pytest.approx(40)
    assert comps["grad_allreduce"].time == pytest.approx(15)
    assert comps["nccl:all_reduce"].time == pytest.approx(5)
    assert comps["Unattributed"].time == pytest.approx(40)
    assert comps["grad_allreduce"].scaling is Scaling.COMMUNICATION
    assert comps["nccl:all_reduce"].scaling is Scaling.COMMUNICATION
    assert comps["forward"].scaling is Scaling.PARALLEL
    # the GPU split comes along with any grouping
    assert result.gpu is not None and result.gpu.exposed_communication == pytest.approx(20)


def test_leaving_a_step_out(trace_path):
    result = import_trace(trace_path, ImportOptions(exclude_steps=frozenset({"ProfilerStep#1"})))
    comps = {c.name: c.time for c in result.components}
    assert comps == pytest.approx({"forward": 45, "nccl:all_reduce": 10, "Unattributed": 45})
    assert [s.excluded for s in result.steps] == [True, False]
    assert result.gpu.compute == pytest.approx(45)


def test_profile_keeps_source_names_and_boundary(trace_path):
    profile = import_trace(trace_path).to_profile()
    assert profile.unit.value == "ms"
    assert profile.total == pytest.approx(100)
    notes = {c.name: c.notes for c in profile.components}
    assert 'record_function "grad_allreduce"' in notes["grad_allreduce"] and "overlap.json" in notes["grad_allreduce"]
    assert profile.settings.boundary == (
        "PyTorch trace overlap.json, rank 0 of 2, mean of 2 steps, grouped by annotation; "
        "measured on N0 = 2 GPUs (the trace's distributedInfo.world_size)"
    )
    assert profile.settings.baseline_gpus == 2
