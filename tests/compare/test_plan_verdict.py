"""One plan verdict: the comparison tab, its table, its slide and ``amdahl-desk compare`` say the same at the
tolerance's edge."""

import dataclasses

import pytest

from amdahl_desk.cli.compare import to_json_dict
from amdahl_desk.model.adoption import adopt_measured_k
from amdahl_desk.model.comparison import PLAN_TOLERANCE, PlanVerdict, compare
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.present.comparison import comparison_slide, delivered, plan_verdict
from amdahl_desk.present.comparison_text import comparison_text


def comparison_with_after(after_total):
    before = Profile([Component("a", 300.0, "parallel"), Component("b", 700.0)], [Optimization("x", ("a",), 3.0)])
    after = Profile([Component("a", 100.0, "parallel"), Component("b", 700.0)])
    c = compare(before, after)
    assert c.predicted_total == 800.0
    return before, dataclasses.replace(c, after_total=after_total)


EDGE = PLAN_TOLERANCE * 800.0


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        (0.0, PlanVerdict.AS_PLANNED),
        (EDGE * 0.5, PlanVerdict.AS_PLANNED),
        (EDGE * 0.999, PlanVerdict.AS_PLANNED),
        (-EDGE * 0.999, PlanVerdict.AS_PLANNED),
        (EDGE * 1.5, PlanVerdict.SHORT),
        (-EDGE * 1.5, PlanVerdict.BETTER),
        (20.0, PlanVerdict.SHORT),
        (-20.0, PlanVerdict.BETTER),
    ],
)
def test_the_slide_and_the_command_line_agree_at_the_edge(gap, expected):
    before, c = comparison_with_after(800.0 + gap)
    assert c.verdict is expected
    slide = plan_verdict(c)
    text = comparison_text(c, adopt_measured_k(before, c), before, "before.xlsx", "after.xlsx")
    assert f", {slide}." in text, (slide, text)
    assert ("exactly as planned" in slide) is (expected is PlanVerdict.AS_PLANNED)
    assert to_json_dict(c, adopt_measured_k(before, c))["verdict"] == expected.value
    assert delivered(c) is (expected is not PlanVerdict.SHORT)
    assert comparison_slide(c).title.endswith(f": {slide}")
