"""Time a CPU thread spends blocked — behind a full launch queue, in a join on another thread — is waiting, never
CPU work that a speedup leaves standing; a step lasts until its own thread and the GPU are done.

The synthetic traces' answers are derived by hand in ``synthetic.py``; the real trace's figures are computed from
its JSON here, independently of Amdahl Desk.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces.kineto_graph import read_kineto_graph
from amdahl_desk.model.traces.component_events import component_masks
from amdahl_desk.model.traces.errors import TraceError
from amdahl_desk.model.traces.patterns import item_factors, parse_pattern_speedup
from amdahl_desk.model.traces.whatif import prepare, what_if

from . import expect, synthetic


@pytest.fixture
def trace(tmp_path):
    def make(name: str):
        return synthetic.CASES[name]().write(tmp_path / f"{name}.json")

    return make


def answer(path, *specs: str):
    pt = prepare(read_kineto_graph(str(path), path.name))
    return pt, what_if(pt, [parse_pattern_speedup(s) for s in specs])


def test_a_launch_behind_a_full_queue_waits_for_the_kernel_that_frees_its_slot(trace):
    path = trace("full_queue")
    pt, free = answer(path, "re:^k=1e9")
    assert pt.baseline.length[0] == pytest.approx(630)
    assert free.predicted * 1000 == pytest.approx(50)  # what the CPU does unblocked
    assert pt.graph.counts["launch_queue_waits"] == 4
    _, half = answer(path, "re:^k=2")
    assert half.predicted * 1000 == pytest.approx(330)
    assert half.speedup == pytest.approx(half.sum_speedup)


def test_a_join_on_a_forked_branch_is_the_branchs_time(trace):
    path = trace("fork_join")
    pt, branch = answer(path, "aten::matmul=2")
    assert pt.baseline.length[0] == pytest.approx(810)
    assert branch.predicted * 1000 == pytest.approx(515)
    _, main_thread = answer(path, "aten::linear=2")
    assert main_thread.predicted * 1000 == pytest.approx(760)
    assert pt.graph.counts["thread_joins"] == 1


def test_a_symmetric_memory_all_reduce_is_communication(trace):
    pt, w = answer(trace("symmetric_memory"), "gemm=2")
    by_kind = {k: round(v * 1000, 6) for k, v in w.by_kind.items() if v}
    assert by_kind == {"cpu": 15, "launch_overhead": 5, "gpu_compute": 100, "gpu_communication": 50}


def test_a_file_of_two_processes_is_refused_naming_them(trace, capsys):
    path = trace("two_processes")
    with pytest.raises(TraceError, match=r"2 processes \(pid 100, 300\)"):
        prepare(read_kineto_graph(str(path), path.name))
    assert main(["whatif", str(path), "--speedup", "gemm=2"]) == 2
    assert "pid 100, 300" in capsys.readouterr().err
    assert main(["import", str(path), "--json"]) == 2
    assert "pid 100, 300" in capsys.readouterr().err


# The 1-GPU trace: ProfilerStep#101 ran its 870 launches on the same two threads before the launch queue filled;
# from #103 on the queue is full, the main thread blocks in cudaLaunchKernel and cudaMemcpyAsync, and the
# steps last as long as the GPU's work.


@pytest.fixture(scope="module")
def one_gpu():
    return prepare(read_kineto_graph(str(expect.ONE_GPU), expect.ONE_GPU.name))


def _step_walls(doc: dict) -> dict[str, float]:
    return {e["name"]: float(e["dur"]) for e in expect.steps(doc)}


def test_all_gpu_work_free_gives_back_the_step_that_ran_before_the_queue_filled(one_gpu):
    """The natural experiment: #101's wall time, 35.1 ms, is what the CPU's work takes unblocked (it also spent
    0.8 ms more than the later steps before its forward began). With every kernel, copy and memset free, the
    steps the queue held come within 12% of it, and none comes near its measured 72–96 ms."""
    walls = _step_walls(expect.load(expect.ONE_GPU))
    unblocked = walls["ProfilerStep#101"]
    assert unblocked / 1000 == pytest.approx(35.116, abs=0.001)
    w = what_if(one_gpu, [parse_pattern_speedup("in:re:.=1e9")])
    predicted = {name: p * 1000 for name, _, p in w.step_figures}
    for name in ("ProfilerStep#102", "ProfilerStep#103", "ProfilerStep#104", "ProfilerStep#105"):
        assert predicted[name] == pytest.approx(unblocked, rel=0.12), name
        assert walls[name] > 2 * predicted[name]
    assert predicted["ProfilerStep#101"] == pytest.approx(unblocked)  # nothing there waited for the GPU
    assert w.predicted_by_kind["cpu"] == pytest.approx(w.predicted)


def test_steps_that_did_the_same_work_in_the_same_time_answer_alike(one_gpu):
    """#103–#105 each ran 93.7 ms of kernels in 95.6–95.7 ms: for every change, their predictions lie within 5%
    of each other and the same kind of time holds each of them."""
    ks = [int(k) for k in (2, 3, 4)]
    for spec in ("re:cudnn=2", "gemm=2", "in:re:.=1000", "in:## backward ##=2", "cudaLaunchKernel=2"):
        factors = item_factors(one_gpu.trace, [parse_pattern_speedup(spec)], np.array([s.row for s in one_gpu.steps]))
        schedule = one_gpu.scheduler.run(one_gpu.point_factors(factors.factor))
        lengths = schedule.length[ks]
        assert lengths.max() <= 1.05 * lengths.min(), (spec, lengths)
        bound = schedule.by_kind(one_gpu.graph)[ks].argmax(axis=1)
        assert len(set(bound.tolist())) == 1, (spec, bound)


def test_replaying_every_real_trace_gives_back_every_step(one_gpu):
    """At K = 1 the graph reproduces each step's measured wall time (the replay error is 0 to rounding)."""
    for pt in (one_gpu, prepare(read_kineto_graph(str(expect.NCCL16), expect.NCCL16.name))):
        walls = np.array([s.end - s.start for s in pt.steps])
        replay = pt.scheduler.run(np.ones(len(pt.graph.time))).length
        assert np.max(np.abs(replay - walls) / walls) < 1e-9


def test_a_phase_takes_the_kernels_launched_while_it_runs_on_any_thread(one_gpu):
    """``in:## backward ##`` takes the kernels launched while backward runs — from the autograd engine's thread —
    the same GPU events as the import's ``## backward ##`` component."""
    doc = expect.load(expect.ONE_GPU)
    events = expect.complete(doc)
    phases = [(e["ts"], e["ts"] + e["dur"]) for e in events if e["name"] == "## backward ##"]
    launches = {
        e["args"]["correlation"]: e["ts"]
        for e in events
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})
    }
    gpu = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    inside = {
        e["args"]["correlation"]
        for e in gpu
        if any(a <= launches.get(e["args"].get("correlation"), -1) < b for a, b in phases)
    }
    assert len(inside) > 2000  # most of each step's kernels, not the 5 the main thread launches itself
    hit = item_factors(one_gpu.trace, [parse_pattern_speedup("in:## backward ##=2")]).matched[0]
    ev = one_gpu.trace.events
    matched = set(ev.gpu_corr[hit[len(ev.cpu_ts) :]].tolist())
    assert matched == inside
    g = one_gpu.graph
    mask = component_masks(one_gpu, [("Backward", "annotation:## backward ##")])["Backward"]
    gpu_points = mask & (g.owner >= g.cpu_rows)
    pattern_points = (g.owner >= g.cpu_rows) & hit[np.maximum(g.owner, 0)] & (g.prev >= 0)
    assert np.array_equal(gpu_points, pattern_points)


def test_the_json_names_the_waits(trace, capsys):
    path = trace("full_queue")
    assert main(["whatif", str(path), "--speedup", "re:^k=2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["dependencies"]["launch_queue_waits"] == 4


def test_many_draws_in_one_pass_are_each_draws_own_schedule(one_gpu):
    """``Scheduler.run_many`` gives, draw by draw, the lengths one ``run`` gives with the same factors."""
    g = one_gpu.graph
    rows = np.array([s.row for s in one_gpu.steps])
    hits = [item_factors(one_gpu.trace, [parse_pattern_speedup(p)], rows).matched[0] for p in ("re:cudnn=2", "gemm=2")]
    owner = np.maximum(g.owner, 0)
    point_class = sum(((g.owner >= 0) & h[owner]).astype(np.int64) << i for i, h in enumerate(hits))
    rng = np.random.default_rng(7)
    k1, k2 = rng.uniform(1, 4, 6), rng.uniform(1, 3, 6)
    k1[0] = np.inf  # free
    factors = np.stack([np.ones(6), k1, k2, k1 * k2], axis=1)
    many = one_gpu.scheduler.run_many(point_class, factors)
    for d in range(6):
        one = one_gpu.scheduler.run(factors[d][point_class]).length
        assert np.allclose(many[d], one, rtol=1e-12, atol=1e-6)


def test_a_kernel_that_started_long_after_its_launch_waited_it_did_not_launch(tmp_path):
    """A hand-made step: launch A at 0–5 µs, kernel A 10–110 on stream 7; launch B at 20–25, kernel B on stream 8
    starts at 620 (nothing in the trace says why: another stream, another rank) and runs 100; the step ends at
    730 with a 10 µs op after a sync. As measured: CPU 20 + 10 at the end, B's launch→start 600 µs, B 100 —
    its 600 µs are GPU waiting, not launch overhead (a launch costs 5–20 µs). A's kernel free changes nothing."""
    t = synthetic.Kineto()
    t.step(1, 0, 730)
    t.launch(0, 5, "gemm_a", 10, 100, stream=7)
    t.launch(20, 5, "gemm_b", 620, 100, stream=8)
    t.call("cudaDeviceSynchronize", 30, 690)
    t.op("aten::item", 720, 10)
    path = t.write(tmp_path / "late.json")
    pt, w = answer(path, "gemm_a=1000")
    assert pt.baseline.length[0] == pytest.approx(730)
    by_kind = {k: round(v * 1000, 6) for k, v in w.by_kind.items() if v}
    assert by_kind.get("launch_overhead", 0) == 0
    assert by_kind["gpu_idle_or_gap"] == pytest.approx(600)
    assert w.predicted * 1000 == pytest.approx(730)


def _ddp_backward(tmp_path, *, with_collective: bool):
    """A step thread that enqueues an all-reduce on gloo's run-loop thread (a CPU operation on another thread)
    and waits inside ``backward`` until it ends, waking 3 ms after it (a busy machine): µs, by hand."""
    x = {"ph": "X", "pid": 1}
    events = [
        {**x, "tid": 1, "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 0, "dur": 12000},
        {**x, "tid": 1, "cat": "user_annotation", "name": "backward", "ts": 100, "dur": 11800},
        {**x, "tid": 1, "cat": "cpu_op", "name": "c10d::allreduce_", "ts": 100, "dur": 50},
        {**x, "tid": 1, "cat": "cpu_op", "name": "aten::copy_", "ts": 11000, "dur": 100},
    ]
    if with_collective:
        events.append({**x, "tid": 2, "cat": "cpu_op", "name": "gloo:all_reduce", "ts": 200, "dur": 7800})
    path = tmp_path / f"ddp_backward_{with_collective}.json"
    path.write_text(json.dumps({"traceEvents": events}))
    return path


def test_a_wait_for_a_collective_on_another_thread_is_the_collectives_time(tmp_path):
    """The stretch of ``backward`` from the enqueue (150) to the wake (11000) holds the all-reduce's end (8000):
    the thread waited for it, though it woke later than a join's slack allows (2% of the stretch). Making the
    all-reduce 2× faster ends it at 200 + 3900 = 4100; the wake follows 3000 later as measured, then the copy
    (100), backward's own 800 and the step's 100: 8100 µs, not 12000."""
    pt, w = answer(_ddp_backward(tmp_path, with_collective=True), "gloo=2")
    assert pt.baseline.length[0] == pytest.approx(12000)
    assert pt.graph.counts["collective_joins"] == 1
    assert w.predicted * 1000 == pytest.approx(8100)


def test_a_wait_with_no_collective_stays_the_threads_own_time(tmp_path):
    """With nothing on another thread to wait for, the stretch is not linked to anything: it stays counted as the
    step thread's own (annotation) time, and nothing is joined."""
    pt, w = answer(_ddp_backward(tmp_path, with_collective=False), "copy_=2")
    assert pt.graph.counts["collective_joins"] == 0 and pt.graph.counts["thread_joins"] == 0
    assert w.predicted * 1000 == pytest.approx(12000 - 50)
