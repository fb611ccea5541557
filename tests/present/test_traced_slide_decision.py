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
