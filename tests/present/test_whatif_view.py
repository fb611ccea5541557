"""The what-if's words: the review answer for the sum's promise kept, half kept, or not to be had, in a locale."""

from __future__ import annotations

from dataclasses import replace

from amdahl_desk.model.traces.whatif import PatternFigures, WhatIf
from amdahl_desk.present.numbers import Numbers
from amdahl_desk.present.whatif import what_if_view

KINDS = {"cpu": 32.0, "gpu_compute": 3.8, "gpu_communication": 0.0, "gpu_memory": 0.0, "launch_overhead": 0.0}
KINDS |= {"gpu_idle_or_gap": 0.0}


def answer(**changes) -> WhatIf:
    """A CPU-bound 35.8 ms step; 2 ms of conv kernels 2× faster would save 1 ms by the sum, save 0.5 ms here."""
    base = WhatIf(
        steps=("ProfilerStep#1",),
        baseline=35.8,
        by_kind=KINDS,
        predicted=35.3,
        predicted_by_kind=KINDS | {"gpu_compute": 3.3},
        matched_events=20,
        matched_time=2.0,
        matched_on_path=0.5,
        patterns=(PatternFigures("conv", 2.0, 20, 2.0, kernels=20),),
        sum_speedup=35.8 / 34.8,
        ceiling=35.8 / 34.9,
        largest_on_path=(("cudaMalloc", 30.0),),
        largest_when_free=(("cudaMalloc", 30.0),),
        step_figures=(("ProfilerStep#1", 35.8, 35.3),),
        dependencies={"waits_recorded": 5},
    )
    return replace(base, **changes)


def test_half_the_promise_hidden_behind_cpu_work():
    v = what_if_view(answer())
    assert v.sentence.startswith(
        "Making `conv` kernels 2× faster shortens the step 1.014× (35.8 ms → 35.3 ms), not the 1.029× their 5.6% "
        "share suggests: half of the saving the sum promises is hidden behind CPU work, which the critical path runs "
        "through instead (the step is 89% CPU-bound). Even free, they give at most 1.026×; the largest item on the "
        "path is then `cudaMalloc` (30 ms per step)."
    )
    assert v.path_before.startswith("critical path before: 35.8 ms = CPU 32 ms (89%) + GPU compute 3.8 ms (11%)")
    assert v.dependencies == "dependencies: 5 recorded synchronisations"


def test_all_of_it_on_the_path_says_so():
    v = what_if_view(answer(predicted=34.8, sum_speedup=35.8 / 34.8))
    assert "as their 5.6% share suggests: their time is on the critical path" in v.sentence


def test_more_than_the_share_suggests_says_both_figures():
    """1.474× beside "as their 61% share suggests" read as if the sum said 1.474× too; it says 1.44×."""
    v = what_if_view(answer(predicted=34.8, sum_speedup=1.02))
    assert "as their" not in v.sentence
    assert "; their 5.6% share alone suggests 1.020×: their time is on the critical path" in v.sentence


def test_overlapping_patterns_leave_the_sum_out():
    v = what_if_view(answer(sum_speedup=None))
    assert "the sum cannot say" in v.sentence and "not the" not in v.sentence


def test_nothing_gained_and_a_slowdown():
    assert "does not shorten the step (35.8 ms)" in what_if_view(answer(predicted=35.8)).sentence
    slower = replace(answer(predicted=40.0), patterns=(PatternFigures("conv", 0.5, 20, 2.0, kernels=20),))
    assert "Making `conv` kernels 0.5× as fast lengthens the step 1.117×" in what_if_view(slower).sentence


def test_a_locale_writes_its_separators():
    v = what_if_view(answer(), Numbers(decimal=",", group="."))
    assert "1,014× (35,8 ms → 35,3 ms)" in v.sentence and "5,6%" in v.sentence


def test_a_pattern_that_matches_almost_nothing_says_so_instead_of_a_share_it_suggests():
    # 1 operator of 0.00005 ms in a 0.83 ms step, made 2× faster: the sum saves 0.000025 ms, 1.00003×.
    tiny = answer(
        baseline=0.83,
        predicted=0.83 - 0.000025,
        matched_events=1,
        matched_time=0.00005,
        matched_on_path=0.00005,
        patterns=(PatternFigures("tiny", 2.0, 1, 0.00005, operators=1),),
        sum_speedup=0.83 / (0.83 - 0.000025),
        ceiling=0.83 / (0.83 - 0.00005),
        step_figures=(("ProfilerStep#1", 0.83, 0.83 - 0.000025),),
    )
    sentence = what_if_view(tiny).sentence
    assert sentence == (
        "Making `tiny` operators 2× faster changes the step (0.83 ms) by less than 0.1%: the pattern matches "
        "1 operator per step taking 0.00005 ms in all, under 0.1% of the step, too little to matter."
    )
    assert "suggests" not in sentence and "critical path" not in sentence
    view = what_if_view(tiny)
    assert "`tiny` ×2: 1 operator per step, 0.00005 ms of its own time" in view.text  # not "1 operators", "their"


def test_a_tiny_pattern_made_much_slower_is_still_told_as_a_slowdown():
    # The same operator 10,000× slower: 0.5 ms more, 1.33 ms; it matters, so the usual answer stands.
    slow = answer(
        baseline=0.83,
        predicted=1.33,
        matched_time=0.00005,
        patterns=(PatternFigures("tiny", 0.0001, 1, 0.00005, operators=1),),
        sum_speedup=0.83 / 1.33,
    )
    assert what_if_view(slow).sentence.startswith("Making `tiny` operators 0.0001× as fast lengthens the step 1.602×")


def test_figures_that_read_alike_are_said_as_the_times_saved():
    """1.002× against the sum's 1.002× read "shortens the step 1.002×, not the 1.002× their share suggests"; a K of
    1.001 read "1× faster"."""
    near = answer(
        baseline=100.0,
        predicted=100.0 / 1.0021,
        sum_speedup=1.0024,
        patterns=(PatternFigures("conv", 1.001, 20, 2.0, kernels=20),),
    )
    v = what_if_view(near)
    assert v.sentence.startswith(
        "Making `conv` kernels 1.001× faster shortens the step 1.002× (100 ms → 99.8 ms), saving 0.21 ms per step, "
        "not the 0.239 ms their 2% share suggests: "
    )
    assert "not the 1.002×" not in v.sentence


def test_a_saving_under_the_third_decimal_is_said_as_a_time_not_as_none():
    v = what_if_view(answer(baseline=100.0, predicted=99.995, sum_speedup=1.00006))
    assert "shortens the step (100 ms) by only 0.005 ms, not the 0.006 ms their 2% share suggests" in v.sentence
    assert "does not shorten" not in v.sentence


def test_nearly_all_of_the_promise_hidden_is_not_all():
    """A path that still saves 2% of what the sum promises: "nearly all of the saving … is hidden", never "all"
    beside a step that does get shorter; "all" where it saves nothing."""
    from amdahl_desk.present.whatif import hidden_saving

    kinds = {"cpu": 90.0, "gpu": 10.0}
    # before 100, the sum promises 100 - 100/2 = 50; the path saves 1 (2% of it) or nothing
    assert hidden_saving(100.0, 99.0, 2.0, kinds, kinds).startswith("nearly all of the saving the sum promises")
    assert hidden_saving(100.0, 100.0, 2.0, kinds, kinds).startswith("all of the saving the sum promises")
    assert hidden_saving(100.0, 75.0, 2.0, kinds, kinds).startswith("half of the saving")


def test_float_noise_below_the_baseline_is_no_saving():
    """A path recomputed as 1e-13 ms shorter (float noise; the fixtures' ceilings read 0.9999999999999998) read
    "shortens the step (100 ms) by only 0 ms" and "nearly all of the saving … is hidden"."""
    v = what_if_view(answer(baseline=100.0, predicted=100.0 - 1e-13, sum_speedup=1.02))
    assert "does not shorten the step (100 ms)" in v.sentence and "by only 0 ms" not in v.sentence
    assert "all of the saving" in v.sentence and "nearly all" not in v.sentence
