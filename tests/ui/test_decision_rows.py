"""Each row under the summary (the odds, what would make the target likelier, the plan) shows its caption only with
its sentence: a job with a ticked plan and no target showed "Plan" beside nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amdahl_desk.present.decision import DecisionView
from amdahl_desk.present.summary import Sentence
from amdahl_desk.ui.core.qt_util import settle_layout

from .screens import show_at

pytestmark = pytest.mark.gui


def test_a_caption_shows_only_beside_its_sentence(window, qtbot):
    panel = window.results.decision
    panel.draw(DecisionView(odds=Sentence("The plan meets 600 ms with 62% probability.")))
    settle_layout()
    assert panel.isVisible()
    assert panel.captions[panel.odds].isVisible() and panel.holders[panel.odds].isVisible()
    assert not panel.captions[panel.plan].isVisible() and not panel.holders[panel.plan].isVisible()
    panel.draw(DecisionView(plan=Sentence("Cheapest plan: Faster decode (3 engineer-days).")))
    settle_layout()
    assert panel.captions[panel.plan].isVisible() and panel.holders[panel.plan].isVisible()
    assert not panel.captions[panel.odds].isVisible() and not panel.holders[panel.odds].isVisible()


LONG = (
    "Fused AdamW optimizer step with foreach kernels and no Python loop overhead",
    "Rückwärtsdurchlauf beschleunigen – Ä/Ö/Ü mit zusammengeführten Kernen und weniger Synchronisation",
)


@pytest.mark.parametrize("size, whole", [((1280, 720), False), ((1600, 1000), True)])
def test_odds_whose_names_fill_the_row_still_say_the_probability(window, qtbot, size, whole):
    """Two ticked optimizations with long names: where they do not fit in the odds' four lines (1280×720), the
    sentence names the plan by its count rather than lose the probability of the target to the row's last "…", the
    names in the tooltip; where they fit across the panel's width (1600×1000), it says them."""
    opts = list(window.doc.profile.optimizations)
    opts[0] = replace(opts[0], name=LONG[0], enabled=True, speedup_low=2.0, speedup_high=8.0, confidence=0.8)
    opts[1] = replace(opts[1], name=LONG[1], enabled=True, speedup_low=1.2, speedup_high=2.0, confidence=0.7)
    window.doc.set_optimizations(opts, "Long names")
    show_at(window, qtbot, size)
    qtbot.waitUntil(lambda: not window.doc.decision.busy)
    window.drawn()
    panel = window.results.decision
    full = panel.view.odds.text
    assert "probability" in full and LONG[1] in full
    shown = panel.odds.text().replace("\u00a0", " ")
    assert "probability" in shown and not shown.endswith("…"), shown
    if whole:
        assert shown == full.replace("\u00a0", " ")
    else:
        assert shown == panel.view.odds_brief and panel.odds.toolTip() == full
