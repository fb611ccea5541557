"""Each row under the summary (the odds, what would make the target likelier, the plan) shows its caption only with
its sentence: a job with a ticked plan and no target showed "Plan" beside nothing."""

from __future__ import annotations

import pytest

from amdahl_desk.present.decision import DecisionView
from amdahl_desk.present.summary import Sentence
from amdahl_desk.ui.core.qt_util import settle_layout

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
