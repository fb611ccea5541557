"""Where the time goes: an outline says "sped up by the plan", so the components folded into "N other components"
are split by it — those the plan speeds up in an outlined segment of their own, the rest in one never outlined."""

from __future__ import annotations

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.breakdown import breakdown
from amdahl_desk.present.inputs import ChartInputs


def _segments(targets: tuple[str, ...], top: int = 3):
    comps = [Component(f"stage {i:02d}", 100.0 - i, Scaling.PARALLEL) for i in range(12)]
    profile = Profile(comps, [Optimization("faster", targets, 2.0)])
    view = breakdown(ChartInputs(profile, analyse(profile)), top=top)
    return [(s.name, s.outlined, s.baseline, s.after) for s in view.segments]


def test_the_rest_is_split_by_what_the_plan_speeds_up():
    # stages 00-02 named; 09 and 11 among the nine others, sped up 2×
    segments = _segments(("stage 09", "stage 11"))
    assert [name for name, *_ in segments[:3]] == ["stage 00", "stage 01", "stage 02"]
    assert segments[3] == (
        "7 other components",
        False,
        sum(100.0 - i for i in (3, 4, 5, 6, 7, 8, 10)),
        sum(100.0 - i for i in (3, 4, 5, 6, 7, 8, 10)),
    )
    name, outlined, before, after = segments[4]
    assert (name, outlined) == ("2 other components, sped up", True)
    assert before == (100.0 - 9) + (100.0 - 11) and after == before / 2
    assert len(segments) == 5


def test_a_rest_all_alone_or_all_sped_up_is_one_segment():
    untouched = _segments(("stage 00",))
    assert untouched[-1][:2] == ("9 other components", False) and len(untouched) == 4
    every = tuple(f"stage {i:02d}" for i in range(3, 12))
    sped = _segments(every)
    assert sped[-1][:2] == ("9 other components", True) and len(sped) == 4
