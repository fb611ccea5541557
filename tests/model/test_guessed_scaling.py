"""P and the ceiling never rest on guessed scaling classes without the analysis saying so."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Profile, Scaling
from amdahl_desk.present.analysis_warnings import warning_texts
from amdahl_desk.present.report import report_text

from ..traces import expect


def _said(analysis):
    return warning_texts(analysis.warnings, analysis.unit)


def _guess_notes(profile: Profile) -> list[str]:
    return [w for w in _said(analyse(profile)) if "the import guessed" in w]


def test_the_1_gpu_import_says_its_p_rests_on_guesses():
    profile = import_trace(expect.ONE_GPU).to_profile()
    analysis = analyse(profile)
    [note] = _guess_notes(profile)
    share = sum(c.time for c in profile.components if c.scaling is Scaling.PARALLEL) / profile.total
    assert 0.99 < share < 1  # nearly all of it, not all: never shown as 100%
    assert analysis.scaling.parallel_fraction == pytest.approx(share, rel=1e-12)
    shown = f"{share * 100:.1f}%"  # 99.6%, a tenth as the workbook shows it; only 100.0% would be cut
    assert shown != "100.0%" and f"P = {shown} rests on" in note
    assert f"{len(profile.components)} components" in note
    assert note in report_text(profile, analysis)  # the report shows the analysis' warnings


def test_an_infinite_ceiling_from_guesses_says_so():
    profile = Profile(
        [Component("forward", 60, Scaling.PARALLEL, scaling_guessed=True), Component("backward", 40, Scaling.PARALLEL)]
    )
    analysis = analyse(profile)
    assert analysis.scaling.parallel_fraction == 1 and analysis.scaling.ceiling == float("inf")
    [note] = _guess_notes(profile)
    assert note.startswith("P = 100% rests on scaling classes the import guessed: 1 component (60% of the time")
    assert "the ceiling of ∞" in note


def test_confirmed_classes_and_an_override_of_p_need_no_note():
    guessed = Profile([Component("a", 60, Scaling.PARALLEL, scaling_guessed=True), Component("b", 40)])
    assert _guess_notes(guessed)
    confirmed = Profile([c._replace(scaling_guessed=False) for c in guessed.components])
    assert not _guess_notes(confirmed)
    overridden = Profile(guessed.components, settings=replace(guessed.settings, parallel_fraction=0.5))
    assert not _guess_notes(overridden)


def test_a_confirmation_that_keeps_the_class_drops_the_note_after_a_cached_analysis():
    profile = Profile([Component("a", 60, Scaling.PARALLEL, scaling_guessed=True), Component("b", 40)])
    first = analyse(profile)
    profile.set_component(0, profile.components[0]._replace(scaling_guessed=False))
    again = analyse(profile, first)  # same times and classes: the scaling is reused, the note is not
    assert any("guessed" in w for w in _said(first)) and not any("guessed" in w for w in _said(again))
