"""How the window shows a job, without Qt: the plan's targets as the same event match on every rank, the job's
overhead for GPU scaling, the charts' views and the panel's words. Expected figures by hand (make_jobs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amdahl_desk.files import load_any
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.job.analysis import analyse_job
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.plan import job_plan, target_pattern
from amdahl_desk.model.job.scaling import job_overhead, job_scaling
from amdahl_desk.model.profile import Optimization
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


def test_the_jobs_overhead_is_its_ranks_communication_and_waiting(four):
    folder, figures = four
    # by hand: transfer 3 ms on every rank; waiting 8, 10, 0, 9 ms: 3 + 27/4 = 9.75 ms
    assert job_overhead(figures.job) == pytest.approx(9.75)
    profile = load_any(folder / "rank2.json.gz").profile
    analysis = analyse(profile)
    s = job_scaling(profile, analysis, figures.job)
    assert s.communication_time == pytest.approx(9.75 * 1e-3 / profile.unit.seconds)
    view = scaling(ChartInputs(profile, analysis, job=figures), POINT)
    assert "9.75 ms at N0" in view.legend[2].name
    assert "communication and waiting, 9.75 ms at N0" in view.title.replace("\u00a0", " ")


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
