"""Deciding under uncertainty in the window, driven as a person does on the training example: show the Ranges
columns, type or paste k low / k high / Effort / Confidence, read the odds under the summary, set the plan
confidence, Apply plan; the figures are checked against the PERT closed form, computed here by hand."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.uncertainty import analyse_uncertainty
from amdahl_desk.present.decision import ODDS_PENDING
from amdahl_desk.ui.core import decision_link
from amdahl_desk.ui.core.state import Aspect
from amdahl_desk.ui.profile.optimization_table import CONFIDENCE, EFFORT, ESTIMATES, K_HIGH, K_LOW

from .driving import click_cell, paste_at, press, type_in_cell, type_keys

pytestmark = pytest.mark.gui
RP, INPUT, FUSION, OVERLAP = range(4)  # the training example's optimizations, in its checklist's order
TOTAL, TARGET = 1000.0, 600.0  # its baseline and target (ms); Reduced precision targets 600 ms of it


def beta33_cdf(x: float) -> float:
    """I_x(3, 3), the CDF of PERT(low, m, high) with m midway, as the binomial sum (not the code's method)."""
    x = min(max(x, 0.0), 1.0)
    return sum(math.comb(5, j) * x**j * (1 - x) ** (5 - j) for j in range(3, 6))


def p_meet(saved_elsewhere: float) -> float:
    """P(new total ≤ target) with Reduced precision k ~ PERT(2, 4, 6) on its 600 ms, ``saved_elsewhere`` ms saved by
    optimizations with a point k: k must reach 600 / (target − (400 − saved))."""
    room = TARGET - (TOTAL - 600.0 - saved_elsewhere)
    return 1 - beta33_cdf((600.0 / room - 2.0) / 4.0)


def type_setting(qtbot, edit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    type_keys(qtbot, text)
    press(qtbot, Qt.Key.Key_Return)


def settled(window, qtbot):
    qtbot.waitUntil(lambda: not window.doc.decision.busy, timeout=20_000)
    window.drawn()


def shown_percent(text: str) -> float:
    found = re.search(r"with (>?)(\d+)% probability", text)
    assert found, text
    return float(found.group(2))


def give_ranges(window, qtbot):
    panel = window.optimizations
    assert all(panel.view.isColumnHidden(c) for c in ESTIMATES)  # a profile without estimates keeps its room
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    assert not any(panel.view.isColumnHidden(c) for c in ESTIMATES)
    type_in_cell(qtbot, panel.view, RP, K_LOW, "2")
    type_in_cell(qtbot, panel.view, RP, K_HIGH, "6")
    settled(window, qtbot)


def test_a_range_on_k_gives_the_odds_of_the_target_as_the_closed_form_says(window, qtbot):
    give_ranges(window, qtbot)
    panel, odds = window.results.decision, window.results.decision.odds
    assert panel.isVisible()
    text = panel.view.odds.text
    assert "(2–6×, likely 4×)" in text and "600 ms" in text, text
    exact = p_meet(0.0)  # 0.8965: the Monte Carlo's 10,000 draws are within ±0.6% of it (two standard errors)
    assert abs(shown_percent(text) - 100 * exact) <= 1.5, (text, exact)
    assert odds.text() == text or odds.toolTip() == text  # shown whole, or elided with the whole text as its tip
    assert "likelier" in panel.view.likelier and "Reduced precision" in panel.view.likelier
    # The Odds tab came, in front, its chart drawn from the same figures: the share of draws meeting the target.
    results = window.results
    slot = results.slots["distribution"]
    tabs = next(t for t in (results.more, results.tabs) if t.indexOf(slot) >= 0)
    assert tabs.isTabVisible(tabs.indexOf(slot)) and tabs.currentWidget() is slot
    qtbot.waitUntil(lambda: "meet 600 ms" in results.chart("distribution").title)
    assert f"{shown_percent(text):g}% to meet 600 ms" in results.chart("distribution").title
    # The bounds are the closed forms at k low and k high: 1000/(400+600/2) and 1000/(400+600/6).
    assert "1.43–2.00×" in text
    # Undo takes the typed cells back one by one; the odds go with the range.
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    settled(window, qtbot)
    assert window.doc.profile.optimizations[RP].speedup_range == (4.0, 4.0)
    assert not panel.isVisible()
    assert not tabs.isTabVisible(tabs.indexOf(slot))


def test_a_low_k_above_the_likely_one_is_refused_at_its_cell(window, qtbot):
    panel = window.optimizations
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    before = list(window.doc.profile.optimizations)
    steps = window.doc.undo_stack.count()
    type_in_cell(qtbot, panel.view, RP, K_LOW, "5")
    assert window.doc.profile.optimizations == before and window.doc.undo_stack.count() == steps
    assert panel.message.isVisible() and "5" in panel.message.text(), panel.message.text()
    type_in_cell(qtbot, panel.view, RP, CONFIDENCE, "150%")
    assert window.doc.profile.optimizations == before


def test_the_cheapest_plan_is_the_brute_force_one_and_apply_plan_ticks_it_as_one_step(window, qtbot):
    panel = window.optimizations
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    paste_at(qtbot, panel.view, RP, K_LOW, "2\t4\t6\t10")  # k low, k, k high, Effort: as from a spreadsheet
    assert window.doc.profile.optimizations[RP].effort == 10.0
    efforts = {RP: 10.0, INPUT: 2.0, FUSION: 3.0, OVERLAP: 2.0}
    for row in (INPUT, FUSION, OVERLAP):
        type_in_cell(qtbot, panel.view, row, EFFORT, f"{efforts[row]:g}")
    type_setting(qtbot, window.results.decision.confidence, "95%")
    assert window.doc.profile.settings.plan_confidence == 0.95
    settled(window, qtbot)
    # The oracle: every subset, its odds in closed form (the point k's save a fixed time), least effort ≥ 95%,
    # ties to the more probable.
    saves = {INPUT: 100 - 100 / 2, FUSION: 150 - 150 / 2, OVERLAP: 100 - 100 / 3}
    best = None
    for size in range(5):
        for chosen in itertools.combinations(range(4), size):
            elsewhere = sum(saves[j] for j in chosen if j != RP)
            prob = p_meet(elsewhere) if RP in chosen else float(TOTAL - elsewhere <= TARGET)
            if prob >= 0.95:
                key = (sum(efforts[j] for j in chosen), -prob)
                best = min(best or (key, chosen), (key, chosen))
    assert best is not None and best[1] == (RP, OVERLAP)
    decision = window.results.decision
    assert decision.apply_button.isVisible() and decision.apply_button.isEnabled()
    plan_text = decision.view.plan.text
    assert "12 engineer-days" in plan_text and "Overlap gradient sync with backward alone never can" in plan_text
    ticked_before = [o.enabled for o in window.doc.profile.optimizations]
    steps = window.doc.undo_stack.count()
    qtbot.mouseClick(decision.apply_button, Qt.MouseButton.LeftButton)
    assert [o.enabled for o in window.doc.profile.optimizations] == [True, False, False, True]
    assert window.doc.undo_stack.count() == steps + 1
    settled(window, qtbot)
    assert not decision.apply_button.isEnabled()  # that plan is what is ticked now
    window.doc.undo_stack.undo()
    assert [o.enabled for o in window.doc.profile.optimizations] == ticked_before


def test_the_odds_come_from_a_thread_and_an_answer_for_an_older_plan_is_never_shown(window, qtbot, monkeypatch):
    monkeypatch.setattr(decision_link, "SYNC_SECONDS", 0.0)  # every answer on its thread, as for a big profile
    panel = window.optimizations
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    type_in_cell(qtbot, panel.view, RP, K_LOW, "2")
    type_in_cell(qtbot, panel.view, RP, K_HIGH, "6")
    # Ticked and unticked at once: each asks the thread anew; what is shown is pending or this plan's own odds.
    doc = window.doc

    def own(profile):
        return analyse_uncertainty(
            profile, doc.analysis, draws=make_draws(profile)
        )  # the window's draws: the default seed

    arrived: list[object] = []  # the answers announced from the thread (a change computed inside announces none)
    doc.changed.connect(lambda aspects: arrived.append(aspects) if Aspect.DECISION in aspects else None)
    for _ in range(3):
        click_cell(qtbot, panel.view, OVERLAP, 0)
        press(qtbot, Qt.Key.Key_Space)
        window.drawn()
        figures = doc.decision.figures
        text = window.results.decision.view.odds.text
        if figures is None:
            assert text == ODDS_PENDING
        else:
            assert figures.probability_target == own(doc.profile).probability_target
            assert text != ODDS_PENDING
    settled(window, qtbot)
    assert arrived  # the answers were computed aside, not inside the tick
    figures = doc.decision.figures
    assert figures is not None and figures.probability_target == own(doc.profile).probability_target
    saved = (100 - 100 / 3) if doc.profile.optimizations[OVERLAP].enabled else 0.0
    assert abs(figures.probability_target - p_meet(saved)) < 0.01  # the closed form, within the draws' error


def test_an_effort_cell_gives_its_rank_by_time_saved_per_engineer_day(window, qtbot):
    panel = window.optimizations
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    paste_at(qtbot, panel.view, RP, K_LOW, "2\t4\t6\t10")
    for row, days in ((INPUT, "2"), (FUSION, "3"), (OVERLAP, "2")):
        type_in_cell(qtbot, panel.view, row, EFFORT, days)
    settled(window, qtbot)
    # Expected time saved alone per engineer-day, in closed form: t·(1 − E[1/k]). Reduced precision's k is
    # 2 + 4·Beta(3, 3), E[1/k] by the midpoint rule; the others are points: Overlap 100·(1 − 1/3)/2 per day,
    # Input 100·(1 − 1/2)/2, Fusion 150·(1 − 1/2)/3.
    steps = 20_000
    xs = [(i + 0.5) / steps for i in range(steps)]
    mean_reciprocal = sum(30 * x * x * (1 - x) ** 2 / (2 + 4 * x) for x in xs) / steps
    per_day = {RP: 600 * (1 - mean_reciprocal) / 10, OVERLAP: 100 * (2 / 3) / 2, INPUT: 25.0, FUSION: 25.0}
    order = sorted(per_day, key=lambda row: (-round(per_day[row], 9), row))
    assert order[:2] == [RP, OVERLAP]
    model = window.optimization_model
    for place, row in enumerate(order, start=1):
        tip = model.data(model.index(row, EFFORT), Qt.ItemDataRole.ToolTipRole)
        ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[place]
        assert f"{ordinal} of 4 by time saved per engineer-day" in tip, tip
        shown = float(re.search(r"([\d.]+) ms per engineer-day", tip).group(1))
        assert shown == pytest.approx(per_day[row], rel=2e-3), tip


def test_a_refusals_message_goes_when_the_person_moves_to_another_field(window, qtbot):
    panel = window.optimizations
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    type_in_cell(qtbot, panel.view, RP, CONFIDENCE, "150%")
    qtbot.waitUntil(panel.message.isVisible)
    assert "150%" in panel.message.text()
    if panel.view.state() == panel.view.State.EditingState:  # the refused text given back to fix: let it go
        press(qtbot, Qt.Key.Key_Escape)
    field = window.settings_panel.target
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    qtbot.waitUntil(lambda: not panel.message.isVisible())
    assert window.doc.profile.optimizations[RP].confidence == 1.0
