"""Comparing a before and an after profile: every expected figure below is worked out by hand in the comments."""

import math
from dataclasses import replace

import pytest

from amdahl_desk.model.adoption import adopt_measured_k, continue_from_after
from amdahl_desk.model.comparison import Status, compare, verdict
from amdahl_desk.model.component_matching import ComparisonError, match_components
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.comparison import groups
from amdahl_desk.present.comparison_words import (
    adoption_notes,
    bottleneck_sentence,
    comparison_sentence,
    comparison_title,
    comparison_warnings,
    continued_notes,
)
from tests.helpers import LLM, llm, profile_of


def after_llm(**times: float) -> Profile:
    """The lessons' LLM request re-measured: ``times`` by first word of the component name (decode=530)."""
    rows = []
    for name, t, s in LLM:
        word = name.split()[0].rstrip(",").lower()
        rows.append((name, times.get(word, t), s))
    return profile_of(rows)


# -- the lessons' LLM request ---------------------------------------------------


def test_llm_decode_fell_short_and_streaming_regressed():
    # Plan: decode 900 ms 2× faster → 1,500 − 450 = 1,050 ms, S = 1/(0.4 + 0.6/2) = 1.4286.
    # Measured: decode 530 ms, streaming 240 ms → 40+60+300+530+240 = 1,170 ms, S = 1500/1170 = 1.2821.
    c = compare(llm(), after_llm(autoregressive=530, token=240))
    assert c.before_total == 1500 and c.after_total == 1170
    assert c.predicted_total == pytest.approx(1050)
    assert c.predicted_speedup == pytest.approx(1 / 0.7)
    assert c.measured_speedup == pytest.approx(1500 / 1170)
    assert c.time_difference == pytest.approx(-330) and c.shortfall == pytest.approx(120)
    decode = c.row("autoregressive DECODE ")
    assert decode is not None
    # 900/530 = 1.698 < 0.9 × 2 = 1.8: fell short
    assert decode.measured_k == pytest.approx(1.69811, rel=1e-5) and decode.predicted_k == 2
    assert decode.status is Status.SHORT and decode.predicted_after == 450
    streaming = c.row("Token streaming and completion work")
    assert streaming is not None and streaming.status is Status.REGRESSED and streaming.delta == 40
    assert [r.status for r in c.rows[:3]] == [Status.UNCHANGED] * 3
    assert comparison_sentence(c) == (
        "Predicted 1.43×, measured 1.28×: Autoregressive decode got 1.7× instead of 2×, "
        "and Token streaming and completion work regressed by 40 ms."
    )
    assert comparison_title(c) == "Predicted 1.43×, measured 1.28×"
    # Decode is still the largest: 900/1500 = 60% before, 530/1170 = 45.3% after; ceiling 1/(1 − 0.453) = 1170/640
    b = c.bottleneck
    assert (b.before_name, b.after_name, b.moved) == ("Autoregressive decode", "Autoregressive decode", False)
    assert b.before_share == pytest.approx(0.6) and b.after_share == pytest.approx(530 / 1170)
    assert b.next_ceiling == pytest.approx(1170 / 640)
    assert bottleneck_sentence(b).startswith(
        "Autoregressive decode was 60% of the time and is still the largest, at 45%."
    )
    assert "at most 1.83× faster" in bottleneck_sentence(b)


def test_llm_the_bottleneck_moves_to_prefill():
    # Decode 900 → 250 ms (3.6×, beats 2×), streaming 200 → 232 ms: 40+60+300+250+232 = 882 ms, S = 1500/882 = 1.70.
    # Prefill 300/882 = 34.0% is now the largest; the next optimization on it can give at most 882/582 = 1.515×.
    c = compare(llm(), after_llm(autoregressive=250, token=232))
    assert c.measured_speedup == pytest.approx(1500 / 882)
    assert c.row("Autoregressive decode").status is Status.MET
    assert comparison_sentence(c) == (
        "Predicted 1.43×, measured 1.7×: Autoregressive decode got 3.6× instead of 2×, "
        "and Token streaming and completion work regressed by 32 ms."
    )
    b = c.bottleneck
    assert b.moved and b.after_name == "Prompt prefill" and b.after_share == pytest.approx(300 / 882)
    assert bottleneck_sentence(b).startswith(
        "Autoregressive decode was 60% of the time; now Prompt prefill is the largest at 34%."
    )
    assert b.next_ceiling == pytest.approx(882 / 582)


def test_the_plan_delivered_exactly():
    c = compare(llm(), after_llm(autoregressive=450))
    assert comparison_sentence(c) == "Predicted 1.43×, measured 1.43×: every component came out as planned."
    assert c.row("Autoregressive decode").status is Status.MET


def test_adopting_the_measured_k_on_the_llm_example():
    before = llm()
    c = compare(before, after_llm(autoregressive=530, token=240))
    adoption = adopt_measured_k(before, c)
    (decode,) = adoption.optimizations
    assert decode.speedup == pytest.approx(900 / 530) and decode.enabled
    assert adoption.changes[0].planned == 2 and adoption_notes(adoption) == ()


def test_an_adopted_k_is_a_point_even_outside_the_estimate():
    # Planned 1.5-3x (likely 2x) with 70% odds and 4 days; measured 900/300 = 3x... then 900/250 = 3.6x, above it.
    before = llm()
    (decode,) = before.optimizations
    before.set_optimizations([replace(decode, speedup_low=1.5, speedup_high=3.0, confidence=0.7, effort=4.0)])
    adoption = adopt_measured_k(before, compare(before, after_llm(autoregressive=250)))
    (adopted,) = adoption.optimizations
    assert adopted.speedup == pytest.approx(900 / 250)
    assert (adopted.speedup_low, adopted.speedup_high, adopted.confidence, adopted.effort) == (None, None, 1.0, 4.0)
    before.set_optimizations(adoption.optimizations)  # the profile takes it: no range left to refuse it


# -- renamed, added, removed, zero times and other units ---------------------------


def mixed_before() -> Profile:
    comps = [
        Component("A", 100),
        Component("B", 200),
        Component("C", 50),
        Component("D", 0),
        Component("E", 150),
    ]
    opts = [
        Optimization("fast A", ("A",), 4),
        Optimization("cut C", ("C",), 2),
        Optimization("speed E", ("E", "B"), 3, enabled=False),
        Optimization("drop E", ("E",), 2, enabled=False),
    ]
    return Profile(comps, opts, Settings(target_time=400), TimeUnit.MS)


def mixed_after() -> Profile:
    # Measured in seconds; A was renamed, B is spelled differently, C vanished, D stays 0, E is gone, F is new.
    comps = [
        Component("A (fused)", 0.030),
        Component("  b ", 0.2),
        Component("c", 0.0),
        Component("D", 0.0),
        Component("F", 0.040),
    ]
    return Profile(comps, [Optimization("new idea", ("F",), 2)], unit=TimeUnit.S)


def test_renamed_added_removed_zero_and_other_units():
    c = compare(mixed_before(), mixed_after(), {"a": "a (FUSED)"})
    # Times in ms: A 30, B 200, C 0, D 0, F 40 → after total 270; before 100+200+50+0+150 = 500.
    # Plan: A 100/4 = 25, C 50/2 = 25 → predicted 25+200+25+0+150 = 400 ms, S = 1.25; measured 500/270 = 1.85.
    assert c.unit is TimeUnit.MS and c.after_unit is TimeUnit.S
    assert (c.before_total, c.after_total) == (500, pytest.approx(270))
    assert c.predicted_speedup == pytest.approx(1.25) and c.measured_speedup == pytest.approx(500 / 270)
    assert c.pairs == (("A", "A (fused)"),)
    by = {r.name: r for r in c.rows}
    assert [r.name for r in c.rows] == ["A", "B", "C", "D", "E", "F"]  # before's order, added last
    a = by["A"]
    # 100/30 = 3.33 < 0.9 × 4 = 3.6
    assert (a.after_name, a.after, a.status, a.renamed) == ("A (fused)", pytest.approx(30), Status.SHORT, True)
    assert a.measured_k == pytest.approx(10 / 3)
    assert (by["B"].after_name, by["B"].status, by["B"].measured_k) == ("b", Status.UNCHANGED, 1)
    assert not by["B"].renamed
    assert by["C"].eliminated and by["C"].measured_k is None and by["C"].status is Status.MET
    assert by["D"].measured_k is None and by["D"].status is Status.UNCHANGED and not by["D"].eliminated
    e, f = by["E"], by["F"]
    assert (e.status, e.after, e.measured_k, e.before) == (Status.REMOVED, None, None, 150)
    assert (f.status, f.before, f.measured_k, f.after) == (Status.ADDED, None, None, pytest.approx(40))
    # Off the plan by time: E −150 (gone), F +40 (new), C −25 (25 promised, 0 measured), A +5 (25 promised, 30)
    assert comparison_sentence(c) == (
        "Predicted 1.25×, measured 1.85×: E is gone (150 ms), F is new (40 ms), C was eliminated, and 1 more change."
    )
    # B: 200/500 = 40% before, 200/270 = 74% after; the next optimization on it caps at 270/70 = 3.86×
    b = c.bottleneck
    assert (b.before_name, b.after_name, b.moved) == ("B", "B", False)  # "b" is B in other spelling
    assert b.after_share == pytest.approx(200 / 270) and b.next_ceiling == pytest.approx(270 / 70)


def test_adopting_leaves_eliminated_targets_at_the_planned_k():
    before = mixed_before()
    adoption = adopt_measured_k(before, compare(before, mixed_after(), {"A": "A (fused)"}))
    k = {o.name: o.speedup for o in adoption.optimizations}
    assert k == {"fast A": pytest.approx(100 / 30), "cut C": 2, "speed E": 3, "drop E": 2}
    assert [(a.name, a.measured) for a in adoption.changes] == [("fast A", pytest.approx(100 / 30)), ("cut C", None)]
    assert adoption_notes(adoption) == ("cut C: its targets were eliminated (an infinite k); k stays at 2×",)


def test_continue_from_after_carries_the_plan_as_built_and_the_rest_unticked():
    cont = continue_from_after(mixed_before(), mixed_after(), {"A": "A (fused)"})
    p = cont.profile
    assert p.unit is TimeUnit.MS and p.settings.target_time == 400
    assert [(c.name, c.time) for c in p.components] == [
        ("A (fused)", pytest.approx(30)),
        ("b", pytest.approx(200)),
        ("c", 0),
        ("D", 0),
        ("F", pytest.approx(40)),
    ]
    # The plan (fast A 4×, cut C 2×) is built: done, off, k = 1 against the after times; the others unticked.
    assert [(o.name, o.targets, o.enabled, o.built, o.speedup) for o in p.optimizations] == [
        ("fast A", ("A (fused)",), False, True, 1.0),
        ("cut C", ("c",), False, True, 1.0),
        ("speed E", ("b",), False, False, 3),
        ("new idea", ("F",), False, False, 2),
    ]
    assert p.optimizations[0].notes.startswith("built: planned 4×")
    assert continued_notes(cont) == (
        "speed E: E dropped from its targets; no longer in the after profile",
        "drop E: dropped; E no longer exists",
    )


# -- two optimizations on one component -------------------------------------------


def test_two_optimizations_on_one_component():
    # X 600 sped up by P (2×) and Q (3×): predicted 6× → 100 ms. Q also makes Y 400 → 133.3 ms. Z 200 untouched.
    # Predicted total 100 + 133.33 + 200 = 433.33, S = 1200/433.33 = 2.769.
    before = profile_of(
        [("X", 600, Scaling.PARALLEL), ("Y", 400, Scaling.PARALLEL), ("Z", 200, Scaling.SERIAL)],
        [Optimization("P", ("X",), 2), Optimization("Q", ("X", "Y"), 3)],
    )
    after = profile_of([("X", 200, Scaling.PARALLEL), ("Y", 200, Scaling.PARALLEL), ("Z", 200, Scaling.SERIAL)])
    c = compare(before, after)
    assert c.predicted_speedup == pytest.approx(2.769231, rel=1e-6) and c.measured_speedup == 2
    x, y, z = c.rows
    assert (x.predicted_k, x.measured_k, x.status, x.optimizations) == (6, 3, Status.SHORT, ("P", "Q"))
    assert (y.predicted_k, y.measured_k, y.status) == (3, 2, Status.SHORT)
    assert z.status is Status.UNCHANGED
    assert comparison_sentence(c) == "Predicted 2.77×, measured 2×: X got 3× instead of 6×, and Y got 2× instead of 3×."
    # X's measured 3× is shared in proportion to ln k: P gets 2^(ln3/ln6) = 1.52959, Q 3^(ln3/ln6) = 1.96131.
    # Q over X and Y, time-weighted: (600 + 400) / (600/1.96131 + 200) = 1.97660.
    k = {o.name: o.speedup for o in adopt_measured_k(before, c).optimizations}
    assert k["P"] == pytest.approx(1.52959, rel=1e-5)
    assert k["Q"] == pytest.approx(1.97660, rel=1e-5)
    assert k["P"] * 1.96131 == pytest.approx(3, rel=1e-5)  # X's shares multiply back to its measured k


def test_several_targets_give_a_time_weighted_k():
    # One optimization, 2× on A (900) and B (100). Measured A 500, B 100: k = 1000/600, not the mean of 1.8 and 1.
    before = profile_of([("A", 900, Scaling.SERIAL), ("B", 100, Scaling.SERIAL)], [Optimization("o", ("A", "B"), 2)])
    after = profile_of([("A", 500, Scaling.SERIAL), ("B", 100, Scaling.SERIAL)])
    c = compare(before, after)
    # A: 900/500 = 1.8, exactly 90% of 2 → met.  B: the plan's 2× left it at 1× → short, not unchanged.
    assert [r.status for r in c.rows] == [Status.MET, Status.SHORT]
    (o,) = adopt_measured_k(before, c).optimizations
    assert o.speedup == pytest.approx(1000 / 600)


def test_disabled_optimizations_are_not_the_plan():
    before = llm()
    before.set_optimizations([Optimization("Faster decode", ("Autoregressive decode",), 2, enabled=False)])
    c = compare(before, after_llm(autoregressive=530))
    assert c.predicted_speedup == 1 and c.predicted_total == 1500
    assert c.row("Autoregressive decode").status is Status.MET  # untouched, and got faster
    assert "Autoregressive decode also got 1.7× faster" in comparison_sentence(c)
    assert adopt_measured_k(before, c).optimizations == tuple(before.optimizations)


# -- the verdict rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "predicted", "tolerance", "status", "measured"),
    [
        (100, 100, 1, 0, Status.UNCHANGED, 1),  # untouched and equal
        (100, 100, 2, 0, Status.SHORT, 1),  # promised 2×, got 1×
        (100, 100, 1.1, 0, Status.MET, 1),  # 1 ≥ 0.9 × 1.1 = 0.99
        (100, 80, 1, 0, Status.MET, 1.25),  # untouched, got faster
        (100, 110, 1, 0, Status.REGRESSED, 100 / 110),
        (100, 110, 2, 0, Status.REGRESSED, 100 / 110),
        (100, 0, 2, 0, Status.MET, None),  # eliminated
        (0, 0, 1, 0, Status.UNCHANGED, None),
        (0, 5, 1, 0, Status.REGRESSED, 0),
        (100, 120, 0.8, 0, Status.MET, 100 / 120),  # a planned slowdown: 0.83 ≥ 0.9 × 0.8 = 0.72
        (100, 150, 0.8, 0, Status.REGRESSED, 100 / 150),  # 0.67 < 0.72
        (100, 50, 2, 0, Status.MET, 2),
        (100, 55.5, 2, 0, Status.MET, 100 / 55.5),  # 1.8018 ≥ 1.8
        (100, 55.6, 2, 0, Status.SHORT, 100 / 55.6),  # 1.7986 < 1.8
        (100, 101, 1, 0.02, Status.UNCHANGED, 100 / 101),  # within 2%
        (100, 99, 1, 0.02, Status.UNCHANGED, 100 / 99),
        (100, 103, 1, 0.02, Status.REGRESSED, 100 / 103),
        (100, 101, 2, 0.02, Status.SHORT, 100 / 101),  # within 2% of before is still short of 2×
    ],
)
def test_verdicts(before, after, predicted, tolerance, status, measured):
    got_status, got_measured = verdict(before, after, predicted, tolerance)
    assert got_status is status
    assert got_measured == (None if measured is None else pytest.approx(measured))


def test_status_labels():
    assert Status.SHORT.label == "fell short" and Status.MET.label == "met"


# -- matching and bad input -------------------------------------------------------------


def test_a_pair_takes_precedence_over_equal_names():
    before = profile_of([("A", 1, Scaling.SERIAL), ("B", 2, Scaling.SERIAL)])
    after = profile_of([("A", 1, Scaling.SERIAL), ("B", 2, Scaling.SERIAL)])
    matches, spelled = match_components(before, after, [("A", "B")])
    assert matches == [(0, 1), (1, None), (None, 0)]
    assert spelled == (("A", "B"),)


def test_nothing_in_common():
    other = profile_of([("Something else", 10, Scaling.SERIAL)])
    with pytest.raises(ComparisonError, match="no component in common"):
        compare(llm(), other)


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ({"Decode": "Prompt prefill"}, '"Decode" is not a component of the before profile'),
        ({"Prompt prefill": "Prefill v2"}, '"Prefill v2" is not a component of the after profile'),
        (
            [("Prompt prefill", "Autoregressive decode"), ("Gateway, validation, routing", "autoregressive decode")],
            "paired twice",
        ),
    ],
)
def test_bad_pairs_name_the_pair(pairs, message):
    with pytest.raises(ComparisonError, match=message) as err:
        compare(llm(), after_llm(), pairs)
    assert "pair " in str(err.value)


def test_an_after_profile_of_nothing():
    zero = profile_of([(n, 0, s) for n, _, s in LLM])
    with pytest.raises(ComparisonError, match="add up to 0"):
        compare(llm(), zero)


@pytest.mark.parametrize("tolerance", [-0.1, 1, math.nan])
def test_a_tolerance_out_of_range(tolerance):
    with pytest.raises(ComparisonError, match="tolerance"):
        compare(llm(), after_llm(), tolerance=tolerance)


# -- what the chart draws ---------------------------------------------------------------


def test_the_chart_draws_each_component_before_after_and_promised():
    c = compare(llm(), after_llm(autoregressive=530, token=240))
    rows = groups(c)
    assert [g.name for g in rows][3] == "Autoregressive decode"
    assert [g.before for g in rows] == [40, 60, 300, 900, 200]
    assert [g.after for g in rows] == [40, 60, 300, 530, 240]
    assert [g.promised for g in rows] == [40, 60, 300, 450, 200]  # decode 900/2
    assert rows[3].after_text == "530 ms · 1.7×"  # 900/530 = 1.698


def test_the_chart_leaves_gaps_for_added_and_removed():
    rows = groups(compare(mixed_before(), mixed_after(), {"A": "A (fused)"}))
    assert [g.name for g in rows] == ["A", "B", "C", "D", "E", "F"]
    assert math.isnan(rows[4].after) and math.isnan(rows[5].before) and math.isnan(rows[5].promised)
    assert [g.promised for g in rows[:3]] == [25, 200, 25]
    assert rows[4].after_text == "gone"


def test_different_boundaries_are_worth_a_warning():
    before = llm(boundary="Request latency, admission to final token")
    after = after_llm()
    assert compare(before, after).warnings == ()  # the after profile states none
    after.set_settings(Settings(boundary="request latency, ADMISSION to final token "))
    assert compare(before, after).warnings == ()
    after.set_settings(Settings(boundary="Time to first token"))
    (warning,) = comparison_warnings(compare(before, after))
    assert '"Request latency, admission to final token" before and "Time to first token" after' in warning


def test_the_open_document_is_untouched():
    before, after = mixed_before(), mixed_after()
    kept_before, kept_after = before.copy(), after.copy()
    c = compare(before, after, {"A": "A (fused)"})
    adopt_measured_k(before, c)
    continue_from_after(before, after, {"A": "A (fused)"})
    with pytest.raises(ComparisonError):
        compare(before, after, {"A": "nope"})
    assert before == kept_before and after == kept_after


def test_continuing_from_an_after_profile_in_seconds_converts_its_time_ranges():
    # An after profile measured in seconds, its steps' spread kept: 0.03 s (0.025–0.04 s) is 30 ms (25–40 ms).
    after = Profile(
        [Component("A", 0.03, time_low=0.025, time_high=0.04), Component("B", 0.2, time_high=0.25)],
        [],
        Settings(),
        TimeUnit.S,
    )
    before = Profile([Component("A", 100.0), Component("B", 200.0)], [Optimization("fast A", ("A",), 4)])
    p = continue_from_after(before, after, {}).profile
    assert [(c.time, c.time_range) for c in p.components] == [(30.0, (25.0, 40.0)), (200.0, (200.0, 250.0))]


def test_continuing_carries_the_objectives_and_builds_the_plan_without_phantom_savings():
    """The LLM example: TTFT's target, the Objectives column and the objective rows go along; "Faster decode 2×"
    is built (its 900 → 530 ms already in the times), not a new candidate that would save 530 − 265 ms again."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.resources import example_path

    before = load_profile(example_path("llm-request.xlsx")).profile
    after = load_profile(example_path("llm-request-after.xlsx")).profile
    c = compare(before, after)
    measured = {a.name: a.measured for a in adopt_measured_k(before, c).changes}
    p = continue_from_after(before, after, None, measured).profile
    assert p.objectives == before.objectives and p.objectives  # TTFT and its target
    by_name = {x.name: x for x in before.components}
    assert [x.objectives for x in p.components] == [by_name[x.name].objectives for x in p.components]
    assert p.settings == before.settings
    decode = next(o for o in p.optimizations if o.name == "Faster decode")
    assert decode.built and not decode.enabled and decode.speedup == 1.0
    assert "planned 2×" in decode.notes and "measured 1.7×" in decode.notes  # 900/530 = 1.698
    a = analyse(p)
    row = p.optimizations.index(decode)
    assert a.optimizations.time_saved[row] == 0  # no phantom "saves 217.9 ms"
    assert a.combined.enabled == 0 and a.baseline_total == pytest.approx(sum(x.time for x in after.components))


def test_a_built_optimization_cannot_be_ticked_again():
    p = Profile([Component("A", 10)], [Optimization("done", ("A",), 1.0, enabled=False, built=True)])
    with pytest.raises(ProfileError, match="is built"):
        p.set_optimizations([Optimization("done", ("A",), 1.0, enabled=True, built=True)])


def test_the_comparison_slide_speaks_a_german_desktops_separators_and_drops_the_head_its_title_says():
    from amdahl_desk.present.comparison import comparison_slide
    from amdahl_desk.present.numbers import Numbers

    c = compare(llm(), after_llm(autoregressive=530, token=240))
    view = comparison_slide(c, n=Numbers(",", "."))
    # S planned 1/0.7 = 1.43, measured 1500/1170 = 1.28; 1,170 − 1,050 = 120 ms short of the plan.
    assert view.title == "Predicted 1,43×, measured 1,28×: 120 ms short of the plan"
    assert view.footer.startswith("<b>Autoregressive decode got 1,7× instead of 2×, and Token streaming")
    assert "Predicted" not in view.footer and "1.7×" not in view.footer
    # decode's share before and after, 900/1,500 and 530/1,170 = 45%; the next ceiling 1,170/640 = 1.83
    assert "60%" in view.footer and "at 45%" in view.footer and "at most 1,83× faster" in view.footer


def test_traces_that_differ_in_their_files_and_step_counts_are_one_boundary():
    """A trace profiled again after the change: another file, and 3 steps where the first had 5. The same boundary;
    another grouping, or another rank, is not."""
    from dataclasses import replace as with_

    from amdahl_desk.model.comparison import compare as compared
    from amdahl_desk.model.profile import Component, Profile

    def traced(source: str, steps: int, grouping: str = "annotation") -> Profile:
        p = Profile([Component("## forward ##", 30.0), Component("## backward ##", 50.0)])
        boundary = f"PyTorch trace {source}, mean of {steps} steps, grouped by {grouping}"
        p.set_settings(with_(p.settings, boundary=boundary, trace_source=f"traces/{source}"))
        return p

    assert compared(traced("before.json", 5), traced("after.json.gz", 3)).warnings == ()
    assert compared(traced("before.json", 1), traced("after.json", 12)).warnings == ()
    assert compared(traced("before.json", 5), traced("after.json", 5, "op")).warnings != ()
