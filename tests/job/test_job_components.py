"""A job's plan scales, on every rank, the events a ticked component stands for in the window — the events the
checklist's own figures scale on the profile's rank (model/traces/component_events.py). The oracle is the
single-rank planner: a job of one rank answers exactly what ``TracePlanner.plan`` answers for the same
component on that rank's trace, for a phase (annotation) on a GPU trace and on gloo's CPU-only one, the GPU's
compute and an operator."""

from __future__ import annotations

import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.analysis import job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare, what_if

from ..traces import expect

STEP = "ProfilerStep#"
ONE_GPU = str(expect.ONE_GPU)


@pytest.mark.parametrize(
    ("trace", "matcher"),
    [
        (ONE_GPU, "annotation:## backward ##"),  # backward's kernels come from the autograd engine's thread
        (ONE_GPU, "gpu:compute"),
        (ONE_GPU, "op:aten::conv2d"),
        ("ddp4/rank2.json.gz", "annotation:backward"),  # CPU only: gloo's collectives on their own threads
        ("ddp4/rank2.json.gz", "annotation:data_loading"),
    ],
)
@pytest.mark.parametrize("k", [2.0, 1e6])
def test_a_job_of_one_rank_answers_as_its_rank(trace, matcher, k):
    path = trace if trace == ONE_GPU else str(expect.FIXTURES / trace)
    answer = job_what_if(match(load_job([path], STEP, [Speedup(matcher, k)])), [(matcher, k)])
    planner = TracePlanner(prepare(load_rank_graph(path).trace), [("c", matcher)])
    plan = planner.plan(((("c",), k),))
    assert answer.baseline == pytest.approx(
        plan.baseline.length, rel=1e-8, abs=1e-6
    )  # ms: a nanosecond of clock rounding
    assert answer.predicted == pytest.approx(
        plan.predicted.length, rel=1e-8, abs=1e-6
    )  # ms: a nanosecond of clock rounding
    assert answer.predicted < answer.baseline  # the component's events are on the path: there is something to gain
    # and `whatif TRACE --speedup MATCHER=K` reads the matcher as the window's component and the job do
    alone = what_if(planner.pt, [Speedup(matcher, k)])
    assert alone.predicted == pytest.approx(plan.predicted.length, rel=1e-9)


def test_a_phase_of_a_cpu_only_job_is_answered_on_every_rank():
    """The 4-rank gloo job: rank 2 sleeps 100 ms in data_loading; the others wait for it at the all-reduce. Its
    data loading 2× on every rank takes about 50 ms off the job's step; on rank 0 alone, nothing."""
    folder = str(expect.FIXTURES / "ddp4")
    speedup = [("annotation:data_loading", 2.0)]
    job = match(load_job([folder], STEP, [Speedup(*speedup[0])]))
    every = job_what_if(job, speedup)
    assert every.baseline - every.predicted == pytest.approx(50.0, abs=3.0)
    alone = job_what_if(job, speedup, on_ranks=[0])
    assert alone.predicted == pytest.approx(alone.baseline, rel=1e-3)


def test_a_phase_named_by_its_matcher_has_the_tables_time_and_sum():
    """`whatif TRACE --speedup "annotation:## backward ##=2"` states the sum the window states beside it: the
    phase's time as the import's table has it (its time on the steps' thread, waiting for the autograd thread
    included), not the time of every thread and the GPU work in it (86% of the step, counted over and again)."""
    from amdahl_desk.files.traces import import_trace

    table = import_trace(ONE_GPU).to_profile()
    backward = next(c for c in table.components if "backward" in c.name)
    baseline = sum(c.time for c in table.components)
    w = what_if(prepare(load_rank_graph(ONE_GPU).trace), [Speedup("annotation:## backward ##", 2.0)])
    assert w.patterns[0].time == pytest.approx(backward.time, rel=1e-3)
    f = backward.time / baseline
    assert w.sum_speedup == pytest.approx(1 / ((1 - f) + f / 2), rel=1e-3)  # the window's "the sum promises 1.44×"
