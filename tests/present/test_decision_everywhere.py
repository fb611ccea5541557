"""The odds, what would make the target likelier and the cheapest plan are worded once: the window's summary, the
Summary sheet of a saved workbook and ``report``'s text say the same sentences (the window's are its decision view,
built here without Qt). The figures in them are worked out here by hand from the training example."""

from __future__ import annotations

from dataclasses import replace

import pytest
import python_calamine

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.decision import decide
from amdahl_desk.present.decision import decision_view
from amdahl_desk.resources import example_path

OVERLAP = "Overlap gradient sync with backward"


def estimated(target: float):
    """The training example (1,000 ms) with Reduced precision at 2–6× (likely 4×) on its 600 ms for 10 days, the
    other three (point k's) for 2, 3 and 2 days; a plan must meet ``target`` with 95% probability."""
    profile = load_profile(example_path("training-iteration.xlsx")).profile
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], speedup_low=2.0, speedup_high=6.0, effort=10.0)
    for j, effort in ((1, 2.0), (2, 3.0), (3, 2.0)):
        opts[j] = replace(opts[j], effort=effort)
    profile.set_optimizations(opts)
    profile.set_settings(replace(profile.settings, target_time=target, plan_confidence=0.95))
    return profile


def said_everywhere(profile, tmp_path, capsys):
    """The window's sentences, the Summary sheet's texts and the report's lines."""
    analysis = analyse(profile)
    decision = decide(profile, analysis)
    view = decision_view(profile, analysis, decision.figures, decision.search)
    path = tmp_path / "estimated.xlsx"
    save_profile(profile, path)
    rows = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
    sheet = [str(r[0]) for r in rows if r and r[0]]
    assert main(["report", str(path)]) == 0
    report = [line.strip() for line in capsys.readouterr().out.splitlines()]
    return view, sheet, report


def test_a_plan_with_an_optimization_that_never_reaches_the_target_alone(tmp_path, capsys):
    # Overlap alone: 1,000 − 100 + 100/3 = 933 ms > 600 ms whatever the odds; Reduced precision alone at 6×:
    # 1,000 − 600 + 100 = 500 ms, so only Overlap is named.
    view, sheet, report = said_everywhere(estimated(600.0), tmp_path, capsys)
    assert view.plan.text.endswith(f"; {OVERLAP} alone never can.")
    assert "12 engineer-days" in view.plan.text  # 10 + 2
    assert view.likelier.startswith("To make 600 ms likelier, look first at Reduced precision")
    for said in (sheet, report):
        assert f"Under uncertainty: {view.odds.text}" in said
        assert view.likelier in said
        assert f"Cheapest plan: {view.plan.text}" in said


def test_no_plan_ever_reaches_the_target(tmp_path, capsys):
    # Every optimization at its high k: 600/6 + 100/2 + 150/2 + 100/3 + the 50 ms untouched = 308.3 ms > 200 ms.
    view, sheet, report = said_everywhere(estimated(200.0), tmp_path, capsys)
    assert view.plan.text == (
        "No plan can reach 200 ms, whatever the odds: even all 4 optimizations with an effort together take "
        "308.3 ms at every high estimate."
    )
    assert view.likelier == ""  # the odds' sentence already says why: nothing to make likelier
    for said in (sheet, report):
        assert f"Cheapest plan: {view.plan.text}" in said
        assert not any("likelier" in line for line in said)


@pytest.mark.parametrize("target", [600.0, 200.0])
def test_the_report_and_the_sheet_say_the_decision_in_the_same_order(tmp_path, capsys, target):
    view, sheet, report = said_everywhere(estimated(target), tmp_path, capsys)
    wanted = [f"Under uncertainty: {view.odds.text}", *([view.likelier] if view.likelier else [])]
    wanted.append(f"Cheapest plan: {view.plan.text}")
    for said in (sheet, report):
        assert [line for line in said if line in wanted] == wanted
