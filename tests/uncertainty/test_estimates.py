"""Three-point k, effort, confidence and time ranges: what the model's rules refuse, at which field."""

import math

import pytest

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.model.values import confidence_text, parse_confidence, parse_effort


def refusal(comps=None, opts=(), settings=None):
    with pytest.raises(ProfileError) as caught:
        Profile(comps or [Component("a", 10.0), Component("b", 5.0)], list(opts), settings)
    return [(p.table, p.row, p.field) for p in caught.value.problems], str(caught.value)


def opt(**changes):
    return Optimization("fast a", ("a",), 4.0, **changes)


@pytest.mark.parametrize(
    ("changes", "fld", "words"),
    [
        ({"speedup_low": 5.0}, "speedup_low", "above its likely k"),
        ({"speedup_high": 3.0}, "speedup_high", "below its likely k"),
        ({"speedup_low": 0.0}, "speedup_low", "not a valid speedup"),
        ({"speedup_low": -1.0}, "speedup_low", "not a valid speedup"),
        ({"speedup_high": math.inf}, "speedup_high", "not a valid speedup"),
        ({"speedup_low": math.nan}, "speedup_low", "not a valid speedup"),
        ({"effort": -0.5}, "effort", "0 or more"),
        ({"effort": math.nan}, "effort", "0 or more"),
        ({"confidence": 1.2}, "confidence", "from 0% to 100%"),
        ({"confidence": -0.1}, "confidence", "from 0% to 100%"),
        ({"confidence": math.nan}, "confidence", "from 0% to 100%"),
    ],
)
def test_a_bad_estimate_is_refused_at_its_field(changes, fld, words):
    where, message = refusal(opts=[Optimization("other", ("b",), 2.0), opt(**changes)])
    assert where == [("optimizations", 1, fld)]
    assert words in message


@pytest.mark.parametrize(
    ("changes", "fld", "words"),
    [
        ({"time_low": 11.0}, "time_low", "above its measured time"),
        ({"time_high": 9.0}, "time_high", "below its measured time"),
        ({"time_low": -1.0}, "time_low", "negative"),
        ({"time_high": math.inf}, "time_high", "not a finite time"),
    ],
)
def test_a_time_range_that_does_not_hold_the_time_is_refused_at_its_field(changes, fld, words):
    comps = [Component("b", 5.0), Component("a", 10.0, **changes)]
    where, message = refusal(comps=comps)
    assert where == [("components", 1, fld)]
    assert words in message


def test_a_big_table_checks_its_ranges_too():
    comps = [Component(f"c{i}", 1.0) for i in range(100)] + [Component("late", 2.0, time_low=3.0)]
    where, _ = refusal(comps=comps)
    assert where == [("components", 100, "time_low")]


def test_edges_are_accepted():
    p = Profile(
        [Component("a", 10.0, time_low=10.0, time_high=10.0), Component("b", 5.0, time_high=9.0)],
        [opt(speedup_low=4.0, speedup_high=4.0, effort=0.0, confidence=0.0), opt(speedup_low=1.0), opt(confidence=1.0)],
    )
    assert p.optimizations[1].speedup_range == (1.0, 4.0)
    assert p.components[1].time_range == (5.0, 9.0)
    with pytest.raises(ProfileError) as caught:
        p.set_optimizations([opt(speedup_high=2.0)])
    assert caught.value.problems[0].field == "speedup_high"


def test_the_plan_confidence_must_be_a_probability_above_zero():
    where, _ = refusal(settings=Settings(plan_confidence=0.0))
    assert where == [("settings", None, "plan_confidence")]
    assert Settings().plan_confidence == 0.8


def test_a_unit_change_converts_the_time_ranges():
    p = Profile([Component("a", 1.5, time_low=1.2, time_high=2.0)], [], Settings(), TimeUnit.S)
    p.set_unit(TimeUnit.MS)
    assert p.components[0].time_range == (1200.0, 2000.0) and p.components[0].time == 1500.0


@pytest.mark.parametrize(
    ("text", "value"), [("80%", 0.8), ("0.8", 0.8), ("80 %", 0.8), ("100%", 1.0), ("0", 0.0), ("0,95", 0.95)]
)
def test_confidence_is_read_as_a_share_or_a_percentage(text, value):
    assert parse_confidence(text) == value


@pytest.mark.parametrize("text", ["80", "120%", "-5%", "likely", ""])
def test_confidence_outside_zero_to_one_is_refused(text):
    with pytest.raises(ValueError, match="confidence"):
        parse_confidence(text)


@pytest.mark.parametrize("value", [0.8, 0.125, 1 / 3, 0.07, 1.0, 0.0, 0.999])
def test_confidence_text_reads_back_exactly(value):
    assert parse_confidence(confidence_text(value)) == value


@pytest.mark.parametrize(("text", "value"), [("5", 5.0), ("2.5 days", 2.5), ("3 d", 3.0), ("1 day", 1.0), ("0", 0.0)])
def test_effort_in_engineer_days(text, value):
    assert parse_effort(text) == value


@pytest.mark.parametrize("text", ["-1", "five", "3 weeks", ""])
def test_a_bad_effort_is_refused(text):
    with pytest.raises(ValueError, match="effort"):
        parse_effort(text)


def test_a_new_time_keeps_the_range_that_holds_it_and_drops_one_that_does_not():
    c = Component("a", 10.0, time_low=8.0, time_high=12.0)
    assert c.with_time(11.0).time_range == (8.0, 12.0)
    moved = c.with_time(20.0)
    assert (moved.time, moved.time_low, moved.time_high) == (20.0, None, None)
    assert Component("b", 1.0).with_time(2.0) == Component("b", 2.0)


def test_a_new_k_keeps_the_estimate_that_holds_it_and_drops_one_that_does_not():
    o = Optimization("o", ("a",), 4.0, speedup_low=3.0, speedup_high=6.0, effort=5.0, confidence=0.7)
    assert o.with_speedup(5.0).speedup_range == (3.0, 6.0)
    moved = o.with_speedup(8.0)
    assert (moved.speedup, moved.speedup_range, moved.effort, moved.confidence) == (8.0, (8.0, 8.0), 5.0, 0.7)


def test_the_profile_keeps_its_time_bounds_current_through_edits():
    p = Profile([Component("a", 10.0), Component("b", 5.0)], [])
    assert p.time_bounds() is None
    p.set_component(1, Component("b", 5.0, time_low=4.0, time_high=7.0))
    low, high = p.time_bounds()
    assert list(low) == [10.0, 4.0] and list(high) == [10.0, 7.0]
    assert list(p.arrays()[0]) == [10.0, 5.0]  # the bounds of a table without ranges were the times' copies, not them
    p.set_component(0, Component("a", 12.0, time_high=15.0))
    low, high = p.time_bounds()
    assert list(low) == [12.0, 4.0] and list(high) == [15.0, 7.0]
    p.set_components([Component("c", 1.0)])
    assert p.time_bounds() is None
    q = Profile([Component("a", 1.5, time_low=1.0)], [], unit=TimeUnit.S)
    q.set_unit(TimeUnit.MS)
    assert list(q.time_bounds()[0]) == [1000.0]
