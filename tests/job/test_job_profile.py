"""How the window shows a job, without Qt: the plan's targets as the same event match on every rank, the job's
overhead for GPU scaling, the charts' views and the panel's words. Expected figures by hand (make_jobs.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.job.analysis import analyse_job, job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.plan import job_plan, target_pattern
from amdahl_desk.model.job.scaling import job_overhead, job_scaling
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.model.traces.patterns import parse_pattern_speedup
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.present.job_charts import JobFigures, collective_skew, rank_bars, scale_ticks, step_map
from amdahl_desk.present.job_words import chosen_ranks, job_panel, loading_text
from amdahl_desk.present.numbers import POINT
from amdahl_desk.present.scaling import scaling

from .make_jobs import example


@pytest.fixture(scope="module")
def four(tmp_path_factory) -> tuple[Path, JobFigures]:
    folder = tmp_path_factory.mktemp("four")
    for r in example():
        r.write(folder)
    job = analyse_job(match(load_job([str(folder)], "ProfilerStep#")))
    return folder, JobFigures(job, folder.name, (), "ProfilerStep#")


def test_targets_become_the_same_event_match_on_every_rank():
    # a component's own matcher: on every rank the events the checklist's figures scale on the profile's rank
    assert target_pattern("aten::mm", "op:aten::mm") == "op:aten::mm"
    assert target_pattern("fwd", "annotation:## forward ##") == "annotation:## forward ##"
    assert target_pattern("GPU compute", "gpu:compute") == "gpu:compute"
    assert target_pattern("x", "pattern:gemm") == "gemm"
    assert target_pattern("kernel_A", None) == "kernel_A"  # a row typed in: its name, as --speedup NAME=K
    for against_the_others in ("idle", "other:op", "other:annotation", "outside-annotations"):
        assert target_pattern("Unattributed", against_the_others) is None
    plan = job_plan(
        [
            Optimization("ops", ("aten::mm", "GPU compute"), 2.0),
            Optimization("off", ("kernel_A",), 3.0, enabled=False),
            Optimization("k1", ("kernel_A",), 1.0),
        ],
        [("aten::mm", "op:aten::mm"), ("GPU compute", "gpu:compute"), ("Unattributed", "idle")],
    )
    assert [(s.pattern, s.k) for s in plan.speedups] == [("op:aten::mm", 2.0), ("gpu:compute", 2.0)]
    plan = job_plan([Optimization("rest", ("Unattributed",), 2.0)], [("Unattributed", "idle")])
    assert plan.left_out == ("Unattributed",) and not plan.speedups


def test_the_jobs_overhead_is_its_ranks_transfer_and_its_p_predicts_the_replay(four):
    """A natural experiment: twice the GPUs halve each rank's share of the batch, so every rank's kernel_A takes half
    as long; the job replayed with kernel_A 2× faster on every rank (23 → 13 ms, worked by hand: rank 2's 20 ms of
    kernel_A halved, then its 3 ms transfer) is what Amdahl's law with the job's P must give at 2 N0 (no growth of the
    transfer). With the waiting counted as overhead (3 + 27/4 = 9.75 ms) P was 57.6% and Amdahl said 1.40×: the
    waiting is the ranks' imbalance of work, which halves with it."""
    folder, figures = four
    # by hand: transfer 3 ms on every rank (waiting 8, 10, 0, 9 ms is no overhead)
    assert job_overhead(figures.job) == pytest.approx(3.0)
    # the straggler's step as a profile: its 20 ms of kernel_A (data-parallel) and its 3 ms all-reduce
    profile = Profile(
        [Component("kernel_A", 20.0, Scaling.PARALLEL), Component("all_reduce", 3.0, Scaling.COMMUNICATION)]
    )
    analysis = analyse(profile)
    s = job_scaling(profile, analysis, figures.job)
    assert s.communication_time == pytest.approx(3.0 * 1e-3 / profile.unit.seconds)
    assert s.parallel_fraction == pytest.approx(20 / 23)
    replayed = job_what_if(_graph(folder), [("kernel_A", 2.0)])
    assert replayed.predicted == pytest.approx(13.0, abs=1e-6)
    amdahl = 1 / ((1 - s.parallel_fraction) + s.parallel_fraction / 2)
    assert amdahl == pytest.approx(replayed.baseline / replayed.predicted, rel=1e-9)
    view = scaling(ChartInputs(profile, analysis, job=figures), POINT)
    assert "communication (3 ms at N0)" in view.legend[2].name.replace("\u00a0", " ")
    assert "communication (waiting excluded), 3 ms at N0" in view.title.replace("\u00a0", " ")


def test_a_job_scaled_from_a_rank_that_waits_counts_its_waiting_serial(four):
    """Rank 0 of the hand-worked job: 12 ms of kernel_A, then its all-reduce of 11 ms, 8 of them waiting for rank
    2. That waiting stands for rank 2's extra work, whose mix rank 0's profile cannot say: counted serial, P is
    12/23, short of the straggler's 20/23 rather than beyond it. A job given without some of its ranks does not
    say its waiting is excluded: the given ranks' waiting for those is in their transfer."""
    _folder, figures = four
    profile = Profile(
        [Component("kernel_A", 12.0, Scaling.PARALLEL), Component("all_reduce", 11.0, Scaling.COMMUNICATION)]
    )
    analysis = analyse(profile)
    s = job_scaling(profile, analysis, figures.job, rank=0)
    assert s.parallel_fraction == pytest.approx(12 / 23)
    assert s.communication_time == pytest.approx(3.0)
    straggler = job_scaling(profile, analysis, figures.job, rank=2)  # waits for no one: nothing counted serial
    assert straggler.parallel_fraction == pytest.approx(20 / 23)
    view = scaling(ChartInputs(profile, analysis, job=replace(figures, profile_rank=0)), POINT)
    title = view.title.replace("\u00a0", " ")
    assert "communication (waiting excluded), 3 ms at N0; rank 0's waiting for rank 2 counted serial" in title
    partial = replace(figures, job=replace(figures.job, stated_size=6))  # ranks 4 and 5 not given
    title = scaling(ChartInputs(profile, analysis, job=partial), POINT).title.replace("\u00a0", " ")
    assert "the job's measured communication, 3 ms at N0" in title and "excluded" not in title


def _graph(folder):
    """The job read with kernel_A's events marked, to be scaled (as `whatif FOLDER --speedup kernel_A=2` reads it)."""
    return match(load_job([str(folder)], "ProfilerStep#", [parse_pattern_speedup("kernel_A=2")]))


def test_the_charts_views_hold_the_jobs_figures(four):
    _folder, figures = four
    steps = step_map(figures, POINT)
    assert steps.values == ((23.0,), (23.0,), (23.0,), (23.0,)) and steps.marked_row == 2
    assert [t[1] for t in steps.row_ticks] == ["0", "1", "2", "3"]
    bars = rank_bars(figures, POINT)
    assert [b.rank for b in bars.bars] == [2, 0, 3, 1]  # most own work first
    assert bars.bars[0].straggler and bars.bars[0].parts[:3] == pytest.approx((20.0, 3.0, 0.0))
    assert "Rank 2 is the straggler" in bars.note and "(−8\u00a0ms)" in bars.note
    skew = collective_skew(figures, POINT)
    assert skew.rows[0].values == pytest.approx((3.0, 10.0, 10.0))
    assert step_map(None, POINT).values == () and rank_bars(None, POINT).bars == ()


def test_colour_scale_ticks_are_round_and_inside():
    assert scale_ticks(36.0, 80.0) == (40.0, 50.0, 60.0, 70.0)
    assert all(22.5 < v < 23.5 for v in scale_ticks(22.5, 23.5))


def test_the_panels_words(four):
    _folder, figures = four
    assert loading_text(37, 128) == "Reading the rank traces: 37 of 128 ranks"
    assert chosen_ranks("", figures.job.ranks) == (None, "")
    assert chosen_ranks("0-2", figures.job.ranks) == ((0, 1, 2), "")
    assert "rank 7 is not in the job; its ranks are 0-3" in chosen_ranks("1,7", figures.job.ranks)[1]
    assert "expected rank numbers" in chosen_ranks("two", figures.job.ranks)[1]
    view = job_panel(figures, plan_ticked=False)
    assert view is not None and "4 ranks" in view.heading and "Tick optimizations" in view.plan
    assert job_panel(None, False) is None


def test_the_panel_names_a_components_events_as_a_person_does():
    from amdahl_desk.present.job_words import events_label

    assert events_label("annotation:## backward ##") == "## backward ##"
    assert events_label("op:aten::mm") == "aten::mm"
    assert events_label("gpu:compute") == "GPU compute"
    assert events_label("re:^nccl") == "re:^nccl"  # a pattern typed: as typed
