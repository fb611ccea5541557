"""Time that looks like waiting but that nothing in the trace explains — a runtime call far longer than its name's
usual and no GPU work ending as it returns, a thread-waiting op (``aten::wait``) with no other thread's event ending
as it does — stays the thread's own time (a speedup elsewhere leaves it) and the what-if says so, with how much.
Explained waits (a launch behind a full queue, a join) are not counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.whatif import prepare, what_if
from amdahl_desk.present.whatif import what_if_view

from . import synthetic
from .synthetic import Kineto


def counts_of(trace: Kineto, tmp_path: Path) -> dict[str, int]:
    return dict(prepare(load_rank_graph(trace.write(tmp_path / "t.json")).trace).graph.counts)


def test_a_call_that_ran_long_with_nothing_ending_is_its_own_time_and_said(tmp_path):
    """Six cudaFree calls of 5 µs, then one of 605 µs with no GPU work ending anywhere near its return: it kept
    600 µs more than its name's usual 5 µs, unexplained; the step's what-if says so (0.6 ms per step)."""
    t = Kineto()
    t.step(1, 0, 2000)
    for i in range(6):
        t.call("cudaFree", 10 + 20 * i, 5)
    t.call("cudaFree", 200, 605)
    t.launch(900, 5, "gemm_kernel", 910, 50)
    counts = counts_of(t, tmp_path)
    assert (counts["unexplained_blocks"], counts["unexplained_block_us"]) == (1, 600)
    pt = prepare(load_rank_graph(tmp_path / "t.json").trace)
    line = what_if_view(what_if(pt, [Speedup("gemm", 2.0)])).dependencies
    assert "kept as their own time" in line and "1 call that ran long (0.6 ms per step)" in line


def test_a_thread_wait_with_nothing_ending_is_its_own_time_and_said(tmp_path):
    """``aten::wait`` for 400 µs on the step's thread while no other thread has an event that ends as it returns."""
    t = Kineto()
    t.step(1, 0, 1000)
    t.op("aten::add", 10, 50)
    t.op("aten::wait", 100, 400)
    t.op("aten::mul", 600, 50)
    counts = counts_of(t, tmp_path)
    assert (counts["unexplained_joins"], counts["unexplained_join_us"]) == (1, 400)


@pytest.mark.parametrize("make", [synthetic.full_queue, synthetic.fork_join, synthetic.gpu_bound])
def test_explained_waits_are_not_counted(make, tmp_path):
    counts = counts_of(make(), tmp_path)
    assert counts["unexplained_joins"] == counts["unexplained_blocks"] == 0


def test_a_quick_sync_with_no_gpu_work_is_no_unexplained_wait(tmp_path):
    """A 3 µs cudaDeviceSynchronize at the start of a step, with no GPU work yet: it did not wait at all."""
    t = Kineto()
    t.step(1, 0, 500)
    t.call("cudaDeviceSynchronize", 5, 3)
    t.call("cudaStreamSynchronize", 20, 3)
    t.launch(100, 5, "gemm_kernel", 110, 50)
    counts = counts_of(t, tmp_path)
    assert counts["unexplained_blocks"] == 0
