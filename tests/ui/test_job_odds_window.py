"""With a job open, the Odds line (and the Odds chart, the slide and a saved workbook, which read the same figures)
are the job's: every draw of k replayed through its ranks (model/job/odds.py), not the profile's own rank.

The hand-worked job (tests/job/make_jobs.example): kernel A 12, 10, 20, 11 ms on ranks 0–3, a 3 ms all-reduce
that ends when rank 2 arrives; kernel A k× faster on every rank makes the job's step 20/k + 3 ms. The profile is
rank 2's, whose own step (its trace) is the same 23 ms — but its odds would draw the row typed into its table
(kernel_A, 20 ms of a 43 ms profile) by the sum; the job's are each draw's 20/k + 3."""

from __future__ import annotations

import numpy as np
import pytest

from amdahl_desk.model.profile import Component, Optimization, Scaling

from ..job.make_jobs import example
from .test_job_window import open_job, write

pytestmark = pytest.mark.gui


def test_the_odds_of_a_job_are_drawn_through_its_ranks(qtbot, window, tmp_path):
    open_job(qtbot, window, write(example(), tmp_path / "job"))
    doc = window.doc
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.change_settings("Set the target", target_time=13.0)
    doc.set_optimizations(
        [Optimization("A faster", ("kernel_A",), 2.0, speedup_low=1.5, speedup_high=4.0, confidence=0.9, effort=3.0)],
        "Plan",
    )
    link = doc.decision
    qtbot.waitUntil(lambda: link.figures is not None and not link.odds_pending, timeout=120_000)
    odds = link.figures
    assert odds.job_ranks == 4
    r = np.broadcast_to(np.asarray(odds.common.reciprocal[0], dtype=float), (odds.common.count,))
    np.testing.assert_allclose(odds.new_total_draws, 20.0 * r + 3.0, rtol=1e-9)  # 20/k + 3 in every draw
    assert odds.probability_target == pytest.approx(np.mean(20.0 * r + 3.0 <= 13.0 * (1 + 1e-12)))
    assert link.profile_figures is not odds and link.profile_figures.job_ranks == 0  # the rank's own, kept apart
    window.drawn()
    said = window.results.decision.odds.text().replace("\u00a0", " ")
    assert "makes the job's step" in said and "replayed" not in said, said
    chance = window.results.decision.view.odds.text
    assert chance == said or said in chance
    assert "Not searched for a job" in window.results.decision.plan.text()  # the rank's search is not the job's
    assert link.search is None and not link.plan_pending

    # on rank 0 alone the job gains nothing in any draw: rank 2 still arrives at 20 ms
    window.results.job_panel.ranks.setText("0")
    window.results.job_panel.ranks.editingFinished.emit()
    qtbot.waitUntil(
        lambda: link.figures is not None and not link.odds_pending and doc.job.figures.on_ranks == (0,),
        timeout=120_000,
    )
    np.testing.assert_allclose(link.figures.new_total_draws, 23.0, rtol=1e-9)
    assert link.figures.probability_target == 0.0


def test_what_matters_for_a_job_is_the_jobs_and_never_waits_on_its_ranks_trace(qtbot, window, tmp_path):
    """What matters most, in front before the plan is given: it stayed on "computing on the trace's critical path"
    for good (it waited for the profile's own rank's trace answer, which a job never computes), and once drawn its
    centre line was the rank's speedup beside bars of the job's. Now the bars and the centre line are the job's: on
    the hand-worked job, kernel A at k 1.5 and 4 makes the step 20/1.5 + 3 and 20/4 + 3 ms of 23."""
    open_job(qtbot, window, write(example(), tmp_path / "job"))
    doc = window.doc
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.set_optimizations([Optimization("A faster", ("kernel_A",), 2.0, speedup_low=1.5, speedup_high=4.0)], "Plan")
    window.drawn()  # the range brings the odds' tabs: What matters to the front while the odds are computed
    results = window.results
    tabs = next(t for t in (results.tabs, results.more) if t.indexOf(results.slots["tornado"]) >= 0)
    tabs.setCurrentIndex(tabs.indexOf(results.slots["tornado"]))
    link = doc.decision
    qtbot.waitUntil(lambda: link.figures is not None and not link.odds_pending, timeout=120_000)
    window.drawn()

    def drawn():  # the chart as the window shows it now (drawn again if what it shows changed while hidden)
        return results.chart("tornado").drawn

    qtbot.waitUntil(lambda: drawn() is not None and bool(drawn().bars), timeout=30_000)
    view = drawn()
    (bar,) = view.bars
    assert bar.low == pytest.approx(23.0 / (20.0 / 1.5 + 3.0)) and bar.high == pytest.approx(23.0 / (20.0 / 4 + 3.0))
    job = doc.job.figures.answer
    assert view.centre == pytest.approx(job.speedup) == pytest.approx(23.0 / 13.0)
    assert "for the job" in view.centre_text and "trace" not in view.title
    odds = results.chart("distribution").drawn
    assert odds is not None and odds.x_axis == "New job step (ms)"  # the job's, as with nothing ticked
