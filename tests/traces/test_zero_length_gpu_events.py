"""Zero-length GPU events (a kernel, copy or memset that the profiler timed at 0 µs) that another stream waits for.

The step, worked out by hand (µs): the CPU launches the zero-length event on stream 20 at 3–5 (it runs at 21,
its launch 18 µs earlier bound it), records an event 5–6, makes stream 7 wait for it 6–8 and launches a 2 µs
gemm on stream 7 at 8–10; the gemm starts at 21, the moment the event it waits for ended; the device
synchronisation 22–23 returns as the gemm ends; the step is 0–23.

Path: CPU 0–3, launch latency 18, the zero-length event 0, the wait 0, the gemm 2, the return 0: 23 µs, the
step's wall time (CPU 3, launch 18, compute 2). ``gemm=2``: the gemm ends at 22, when the synchronisation
starts, which returns at once: 22 µs. The event with a duration of 1 µs (the same step, 1 µs longer) says so
too: the waiting stream keeps the gap before it however short the work it waits for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amdahl_desk.files.traces.kineto_graph import read_kineto_graph
from amdahl_desk.model.traces.patterns import parse_pattern_speedup
from amdahl_desk.model.traces.whatif import PathTrace, prepare, what_if

from .synthetic import Kineto

CALL = {"kernel": "cudaLaunchKernel", "gpu_memcpy": "cudaMemcpyAsync", "gpu_memset": "cudaMemsetAsync"}
NAME = {"kernel": "relu_kernel", "gpu_memcpy": "Memcpy HtoD (Pageable -> Device)", "gpu_memset": "Memset (Device)"}


def waited_for(cat: str, dur: float) -> Kineto:
    """The step of the module's docstring, the waited-for event of category ``cat`` lasting ``dur``."""
    t = Kineto()
    t.launch(3.0, 2, NAME[cat], 21.0, dur, stream=20, cat=cat, call=CALL[cat])
    record = t.call("cudaEventRecord", 5.0, 1)
    call = t.call("cudaStreamWaitEvent", 6.0, 2)
    t.sync("Stream Wait Event", call, 6.0, 1, stream=7, wait_on_stream=20, wait_on_cuda_event_record_corr_id=record)
    t.launch(8.0, 2, "gemm_a", 21.0 + dur, 2, stream=7)
    t.call("cudaDeviceSynchronize", 22.0 + dur, 1.0)
    t.step(1, 0, 23.0 + dur)
    return t


def waits_in_a_row() -> Kineto:
    """Zero-length kernels at 21 on streams 24 and 20, stream 20's waiting for stream 24's, and the gemm on stream 7
    waiting for stream 20's: the module's path through two zero-length waits. CPU: launch on 24 at 3–5, record
    5–6, stream 20 waits 6–8, launch on 20 at 8–10, record 10–11, stream 7 waits 11–13, the gemm's launch 13–15,
    synchronisation 22–23; step 0–23. Path: CPU 3, launch 18 (stream 24's), zero-length kernels and waits 0,
    the gemm 2."""
    t = Kineto()
    t.launch(3.0, 2, "relu_kernel", 21.0, 0, stream=24)
    first = t.call("cudaEventRecord", 5.0, 1)
    call = t.call("cudaStreamWaitEvent", 6.0, 2)
    t.sync("Stream Wait Event", call, 6.0, 1, stream=20, wait_on_stream=24, wait_on_cuda_event_record_corr_id=first)
    t.launch(8.0, 2, "relu_kernel", 21.0, 0, stream=20)
    second = t.call("cudaEventRecord", 10.0, 1)
    call = t.call("cudaStreamWaitEvent", 11.0, 2)
    t.sync("Stream Wait Event", call, 11.0, 1, stream=7, wait_on_stream=20, wait_on_cuda_event_record_corr_id=second)
    t.launch(13.0, 2, "gemm_a", 21.0, 2, stream=7)
    t.call("cudaDeviceSynchronize", 22.0, 1.0)
    t.step(1, 0, 23.0)
    return t


def graph_of(t: Kineto, tmp_path: Path) -> PathTrace:
    path = t.write(tmp_path / "step.json")
    return prepare(read_kineto_graph(str(path), "step.json"))


def us(ms: float) -> float:
    return round(ms * 1000, 9)


@pytest.mark.parametrize("cat", ["kernel", "gpu_memcpy", "gpu_memset"])
@pytest.mark.parametrize("dur", [0.0, 1.0])
def test_a_stream_waiting_for_a_zero_length_event_keeps_the_gap_before_it(cat, dur, tmp_path):
    pt = graph_of(waited_for(cat, dur), tmp_path)
    same, faster = (what_if(pt, [parse_pattern_speedup(s)]) for s in ("gemm=1", "gemm=2"))
    expected = {"cpu": 3, "launch_overhead": 18, "gpu_compute": 2}
    if dur:
        kind = "gpu_compute" if cat == "kernel" else "gpu_memory"
        expected[kind] = expected.get(kind, 0) + dur
    assert us(same.baseline) == 23 + dur
    assert {k: us(v) for k, v in same.by_kind.items() if v} == expected
    assert us(same.predicted) == 23 + dur
    assert us(faster.predicted) == 22 + dur
    assert pt.graph.counts["dropped"] == 0  # no edge of the step was lost


def test_zero_length_waits_in_a_row(tmp_path):
    pt = graph_of(waits_in_a_row(), tmp_path)
    same, faster = (what_if(pt, [parse_pattern_speedup(s)]) for s in ("gemm=1", "gemm=2"))
    assert us(same.baseline) == 23
    assert {k: us(v) for k, v in same.by_kind.items() if v} == {"cpu": 3, "launch_overhead": 18, "gpu_compute": 2}
    assert us(faster.predicted) == 22
    assert pt.graph.counts["dropped"] == 0
