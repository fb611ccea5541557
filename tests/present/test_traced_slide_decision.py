"""The slide of a traced profile whose k have ranges: where the trace's dependencies give what the sum promises, the
decision is the odds of the target and the cheapest plan (worked out on the critical path), not "the same"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.linked import linked_figures
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.decision import decide
from amdahl_desk.model.profile import Optimization
from amdahl_desk.present.decision import decision_view
from amdahl_desk.present.slide import slide

CPU = Path(__file__).parents[1] / "traces" / "fixtures" / "torch_cpu_steps.json.gz"


def _traced(ranges: bool):
    profile = import_trace(CPU).to_profile()
    low, high = (1.5, 4.0) if ranges else (None, None)
    profile.set_optimizations(
        [
            Optimization("Faster backward", ("backward",), 2.0, speedup_low=low, speedup_high=high, effort=5.0),
            Optimization("Faster forward", ("forward",), 1.5, enabled=False, effort=2.0),
        ]
    )
    total = sum(c.time for c in profile.components)
    profile.set_settings(replace(profile.settings, target_time=total * 0.8))
    return profile


def test_a_trace_with_ranges_whose_sum_agrees_decides_on_the_odds_and_the_plan():
    profile = _traced(ranges=True)
    analysis = analyse(profile)
    figures = linked_figures(profile)
    answer = figures.current(profile)
    assert answer is not None and answer.path is not None  # the CPU trace: the targets' time all on the path
    decided = decide(profile, analysis)
    assert decided is not None
    view = decision_view(profile, analysis, decided.figures, decided.search)
    said = slide(profile, analysis, trace=figures, decided=view).decision
    texts = [s.text for s in said]
    assert texts == [view.odds.text, view.plan.text]
    assert "probability" in texts[0] and not any("the same, because" in t for t in texts)


def test_a_trace_without_ranges_still_says_the_sum_beside_the_answer():
    profile = _traced(ranges=False)
    analysis = analyse(profile)
    figures = linked_figures(profile)
    said = slide(profile, analysis, trace=figures, decided=None).decision
    assert len(said) == 2 and said[1].text.startswith("The sum of the components' times promises")


def test_a_sum_within_half_a_percent_that_hides_a_quarter_of_its_saving_is_still_said(monkeypatch):
    """S of 1.0151× on the path beside the sum's 1.02× are within 0.5% of each other, but a quarter of the saving the
    sum promises is hidden: the summary's sentence beside the answer says so, and the slide must say it too."""
    from amdahl_desk.model.traces.plan_answer import TraceAnswer
    from amdahl_desk.present import slide as slide_module
    from amdahl_desk.present.plan_answer import sum_beside

    profile = _traced(ranges=True)
    analysis = analyse(profile)
    figures = linked_figures(profile)
    decided = decide(profile, analysis)
    assert decided is not None
    view = decision_view(profile, analysis, decided.figures, decided.search)
    kinds = (("cpu", 90.0), ("gpu", 10.0))
    s, t = 1.02, 1.0151
    hiding = TraceAnswer(
        True, "", t, 100 / t, 1.1, s, 100 / s, 1.1, 100.0, 100 / t, kinds, kinds, (), 100.0, trace_total=100.0
    )
    assert "a quarter of the saving" in sum_beside(profile, hiding)
    monkeypatch.setattr(slide_module, "current_answer", lambda *_a: hiding)
    said = slide_module.decision_sentences(profile, analysis, trace=figures, decided=view)
    assert len(said) == 3 and said[2].text.startswith("The sum of the components' times promises")
