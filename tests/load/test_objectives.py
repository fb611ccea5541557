"""Objectives: parsing the column, the sheet's rules, and each objective's figures worked by hand."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.objective_table import objective_table
from amdahl_desk.model.objectives import (
    END_TO_END,
    ObjectiveSpec,
    analyse_objectives,
    find_objective,
    objective_key,
    objective_notes,
    objective_order,
    objective_spec_problems,
    objectives_text,
    parse_objectives,
    restrict_analysis,
)
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.present.objectives import across_objectives, objective_cells, objective_sentence


class TestParse:
    def test_two_names(self):
        assert parse_objectives("TTFT; End to end") == ("TTFT", "End to end")

    def test_trimmed_empty_dropped_first_spelling_kept(self):
        assert parse_objectives("  ttft ;TTFT; ;  Time  to first token ;\nITL ") == (
            "ttft",
            "Time to first token",
            "ITL",
        )

    def test_empty(self):
        assert parse_objectives("") == ()
        assert parse_objectives(" ; ") == ()

    def test_round_trip(self):
        names = ("TTFT", "End to end", "Decode, per token")  # commas belong to names
        assert parse_objectives(objectives_text(names)) == names

    @pytest.mark.parametrize("spelling", ["End to end", "end-to-end", "END TO END", " End  to   end ", "E2E"])
    def test_end_to_end_spellings(self, spelling):
        assert objective_key(spelling) == objective_key(END_TO_END)


class TestSheetRules:
    def test_duplicates_empty_and_bad_targets_are_located(self):
        specs = [
            ObjectiveSpec("TTFT", 300),
            ObjectiveSpec("ttft"),
            ObjectiveSpec(" "),
            ObjectiveSpec("ITL", -1),
            ObjectiveSpec("Other", float("nan")),
        ]
        problems = objective_spec_problems(specs)
        assert [(p.table, p.row, p.field) for p in problems] == [
            ("objectives", 1, "name"),
            ("objectives", 2, "name"),
            ("objectives", 3, "target_time"),
            ("objectives", 4, "target_time"),
        ]
        assert "also in row 1" in problems[0].what

    def test_end_to_end_target_may_repeat_the_settings_target_not_contradict_it(self):
        assert objective_spec_problems([ObjectiveSpec("End to end", 600)], end_to_end_target=600) == []
        assert objective_spec_problems([ObjectiveSpec("End to end", 600)], end_to_end_target=None) == []
        (p,) = objective_spec_problems([ObjectiveSpec("end-to-end", 500)], end_to_end_target=600)
        assert p.field == "target_time" and "600" in p.what

    def test_unlisted_objectives_are_noted_not_refused(self):
        objs = [("TTFT", "End to end"), ("ITL",), ("ITL", "Cost")]
        notes = objective_notes(objs, [ObjectiveSpec("TTFT"), ObjectiveSpec("Throughput")])
        assert [(n.table, n.row, n.field) for n in notes] == [
            ("components", 1, "objectives"),  # ITL, first named in row 1 only
            ("components", 2, "objectives"),  # Cost
            ("objectives", 1, "name"),  # Throughput holds nothing
        ]
        assert '"ITL"' in notes[0].what and "without a target" in notes[0].what

    def test_no_sheet_no_notes(self):
        assert objective_notes([("TTFT",)], []) == []

    def test_order_end_to_end_then_sheet_then_unlisted(self):
        objs = [("zeta",), ("ITL", "TTFT"), ("TTFT",)]
        order = objective_order(objs, [ObjectiveSpec("TTFT"), ObjectiveSpec("Unused"), ObjectiveSpec("ITL")])
        assert [name for name, _ in order] == [END_TO_END, "TTFT", "ITL", "zeta"]


def _abc(enabled_b: bool = True) -> Profile:
    """a 100, b 300, c 600 (total 1,000); 'two' makes a 2×, 'four' makes b and c 4×."""
    return Profile(
        [Component("a", 100), Component("b", 300), Component("c", 600)],
        [Optimization("two", ("a",), 2), Optimization("four", ("b", "c"), 4, enabled=enabled_b)],
        Settings(target_time=500),
    )


class TestFigures:
    def test_each_objective_by_hand(self):
        p = _abc()
        figs = analyse_objectives(p, [("X",), ("X", "Y"), ("Y",)], [ObjectiveSpec("X", 200), ObjectiveSpec("Y")])
        e2e, x, y = figs
        assert [f.name for f in figs] == [END_TO_END, "X", "Y"]
        assert x.components == ("a", "b") and list(x.rows) == [0, 1]
        # X = a 100 + b 300 = 400; 'two' has f = 100/400, 'four' f = 300/400
        assert x.baseline_total == 400
        assert list(x.optimizations.fraction) == pytest.approx([0.25, 0.75])
        assert list(x.optimizations.overall_speedup) == pytest.approx([400 / 350, 400 / 175])
        assert list(x.optimizations.new_total) == pytest.approx([350, 175])
        assert list(x.optimizations.ceiling) == pytest.approx([4 / 3, 4])
        # both: 50 + 75 = 125
        assert x.new_total == pytest.approx(125)
        assert x.overall_speedup == pytest.approx(3.2)
        assert x.combined.fraction == 1 and x.ceiling == np.inf
        # target 200 ms: f = 1, k = 400/200 = 2; met (125 ≤ 200)
        assert x.target is not None
        assert x.target.required_speedup == pytest.approx(2)
        assert x.target.met_by_plan
        # Y = b 300 + c 600 = 900, 'two' does not touch it
        assert y.optimizations.overall_speedup[0] == 1
        assert y.overall_speedup == pytest.approx(4)
        assert y.target is None
        # End to end: 1,000 → 50 + 75 + 150 = 275, target from the Settings
        assert e2e.new_total == pytest.approx(275)
        assert e2e.target is not None and e2e.target.time == 500

    def test_disabled_optimizations_count_alone_not_in_combined(self):
        p = _abc(enabled_b=False)
        (_, x) = analyse_objectives(p, [("X",), ("X",), ()], [])
        assert x.optimizations.overall_speedup[1] == pytest.approx(400 / 175)
        assert x.new_total == pytest.approx(350)
        assert x.combined.enabled == 1

    def test_an_objective_of_zero_time_has_no_speedup(self):
        p = Profile([Component("a", 0), Component("b", 10)], [Optimization("o", ("a",), 2)])
        (_, z) = analyse_objectives(p, [("Z",), ()], [ObjectiveSpec("Z", 5)])
        assert z.baseline_total == 0 and z.overall_speedup == 1 and z.target is None

    def test_restrict_analysis_follows_the_objective(self):
        p = _abc()
        a = analyse(p)
        e2e, x = analyse_objectives(p, [("X",), ("X",), ()], [])
        assert restrict_analysis(a, e2e) is a
        r = restrict_analysis(a, x)
        assert r.baseline_total == 400
        assert list(r.times) == [100, 300, 0]
        assert list(r.fractions) == pytest.approx([0.25, 0.75, 0])
        assert list(r.new_times) == pytest.approx([50, 75, 0])
        assert r.combined is x.combined and r.scaling is a.scaling

    def test_mismatched_lengths_are_a_programming_error(self):
        with pytest.raises(ValueError, match="2 objective lists for 3 components"):
            analyse_objectives(_abc(), [(), ()])

    def test_find(self):
        figs = analyse_objectives(_abc(), [("TTFT",), (), ()])
        assert find_objective(figs, "ttft") is figs[1]
        assert find_objective(figs, "end-to-end") is figs[0]
        assert find_objective(figs, "nope") is None


class TestTable:
    def test_rows_and_columns(self):
        p = _abc()
        figs = analyse_objectives(p, [("X",), ("X",), ()], [])
        table = objective_table(p, figs)
        assert table.columns == ("two", "four", "Combined")
        assert objective_cells(table)[0] == ["Objective", "two", "four", "Combined"]
        # End to end: 'two' 1000/950, 'four' 1000/325, both 1000/275
        e2e = table.rows[0]
        assert e2e.speedups == pytest.approx((1000 / 950, 1000 / 325))
        assert e2e.combined == pytest.approx(1000 / 275)
        assert e2e.target_met is True
        assert objective_cells(table)[2] == ["X", "1.14×", "2.29×", "3.2×"]

    def test_disabled_optimizations_have_no_column(self):
        p = _abc(enabled_b=False)
        table = objective_table(p, analyse_objectives(p, [(), (), ()]))
        assert table.columns == ("two", "Combined") and table.optimization_rows == (0,)

    def test_sentences(self):
        p = _abc()
        figs = analyse_objectives(p, [("X",), ("X",), ()], [ObjectiveSpec("X", 200)])
        assert across_objectives(p, figs, 1) == "four: 3.08× end to end, 2.29× X"
        assert objective_sentence(figs[1], p) == "X: 400 ms → 125 ms (3.2×), ceiling ∞; target 200 ms met."


@st.composite
def profiles(draw):
    n = draw(st.integers(1, 8))
    comps = [Component(f"c{i}", draw(st.floats(0.001, 1e4))) for i in range(n)]
    opts = [
        Optimization(
            f"o{j}",
            tuple(sorted(set(draw(st.lists(st.sampled_from([c.name for c in comps]), min_size=1, max_size=3))))),
            draw(st.floats(0.1, 100)),
            draw(st.booleans()),
        )
        for j in range(draw(st.integers(0, 4)))
    ]
    objs = [tuple(draw(st.lists(st.sampled_from(["A", "B", "End to end"]), max_size=2))) for _ in comps]
    return Profile(comps, opts, Settings(target_time=draw(st.none() | st.floats(1, 1e4)))), objs


@settings(max_examples=100, deadline=None)
@given(profiles())
def test_end_to_end_is_the_whole_analysis_and_objectives_add_up(case):
    p, objs = case
    a = analyse(p)
    figs = analyse_objectives(p, objs)
    e2e = figs[0]
    assert e2e.baseline_total == pytest.approx(a.baseline_total)
    assert e2e.new_total == pytest.approx(a.combined.new_total)
    assert e2e.combined.fraction == pytest.approx(a.combined.fraction)
    assert np.allclose(e2e.optimizations.overall_speedup, a.optimizations.overall_speedup)
    assert e2e.target == a.target
    for f in figs[1:]:
        # an objective's new time is its components' new times, whatever the overlaps
        assert f.new_total == pytest.approx(sum(a.new_times[r] for r in f.rows))
        assert f.baseline_total <= a.baseline_total * (1 + 1e-12)


@pytest.mark.parametrize("example", ["training-iteration.xlsx", "llm-request.xlsx", "llm-request-after.xlsx"])
@pytest.mark.parametrize("e2e_target", [None, 777.0])
def test_end_to_end_from_the_analysis_equals_its_own_computation(example, e2e_target):
    """Given the analysis, End to end's figures are taken from it (and a profile naming no objective is not
    grouped again): the same figures as computing them from the components."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.objective_specs import ObjectiveSpec
    from amdahl_desk.resources import example_path

    p = load_profile(example_path().parent / example).profile
    specs = list(p.objectives)
    if e2e_target is not None:
        specs = [ObjectiveSpec("End to end", e2e_target), *[s for s in specs if s.name.lower() != "end to end"]]
    objs = p.objectives_of_components()
    slow = analyse_objectives(p, objs, specs)
    fast = analyse_objectives(p, objs, specs, analyse(p))
    assert [f.name for f in fast] == [f.name for f in slow]
    for a, b in zip(fast, slow, strict=True):
        assert a.components == b.components and list(a.rows) == list(b.rows) and a.listed == b.listed
        assert a.baseline_total == pytest.approx(b.baseline_total, rel=1e-12)
        assert a.combined.new_total == pytest.approx(b.combined.new_total, rel=1e-12)
        assert a.combined.fraction == pytest.approx(b.combined.fraction, rel=1e-12)
        assert a.combined.enabled == b.combined.enabled
        assert list(a.optimizations.overall_speedup) == pytest.approx(list(b.optimizations.overall_speedup), rel=1e-12)
        assert (a.target is None) == (b.target is None)
        if a.target is not None:
            for x, y in zip(vars(a.target).values(), vars(b.target).values(), strict=True):
                assert x == y or x == pytest.approx(y, rel=1e-12)


def test_end_to_ends_names_are_read_when_asked_and_are_those_of_the_analysed_profile():
    from amdahl_desk.model.objectives import ComponentNames, analyse_objectives

    profile = Profile([Component("a", 1.0), Component("b", 2.0), Component("c", 3.0)])
    (end,) = analyse_objectives(profile, profile.objectives_of_components(), (), analyse(profile), named=False)
    assert isinstance(end.components, ComponentNames)
    profile.set_component(0, Component("renamed", 1.0))  # later changes of the profile are not the analysis'
    assert end.components == ("a", "b", "c") and len(end.components) == 3
    assert end.components[:2] == ("a", "b") and list(end.components) == ["a", "b", "c"]
    # Analysed again (the slow way, without an analysis), the renamed profile names its new names; the first keeps its.
    (plain,) = analyse_objectives(profile, profile.objectives_of_components(), (), None)
    assert plain.components == ("renamed", "b", "c") != end.components
