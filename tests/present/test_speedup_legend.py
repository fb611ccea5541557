"""The speedup-against-k chart's legend names the lines it draws, and no other: the other enabled ones' curve only
while another optimization is enabled, the ceiling only while it is finite."""

from __future__ import annotations

from dataclasses import replace

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Profile
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.present.speedup import speedup
from amdahl_desk.resources import example_path


def _view(profile: Profile, row: int):
    view = speedup(ChartInputs(profile, analyse(profile), row))
    drawn = {"combined": view.combined is not None, "ceiling": view.ceiling is not None}
    return view, {e.name for e in view.legend}, drawn


def _ticked(profile: Profile, enabled: set[int]) -> Profile:
    copy = profile.copy()
    opts = [replace(o, enabled=i in enabled) for i, o in enumerate(profile.optimizations)]
    copy.set_optimizations(opts)
    return copy


def test_the_other_enabled_ones_are_named_only_when_drawn():
    example = load_profile(example_path()).profile
    for enabled, others in (({0}, False), (set(), False), ({0, 1}, True), ({1}, True)):
        view, names, drawn = _view(_ticked(example, enabled), 0)
        assert drawn["combined"] is others
        assert ("With the other enabled ones" in names) is others, (enabled, names)
        assert "This optimization alone" in names and view.alone is not None


def test_an_unbounded_ceiling_is_not_in_the_legend():
    example = load_profile(example_path()).profile
    every = tuple(c.name for c in example.components)
    profile = _ticked(example, {0})
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], targets=every)  # f = 1: no ceiling to draw
    profile.set_optimizations(opts)
    _, names, drawn = _view(profile, 0)
    assert drawn["ceiling"] is False and not any(n.startswith("Ceiling") for n in names), names
    _, names, drawn = _view(example, 0)
    assert drawn["ceiling"] is True and "Ceiling 1/(1−f)" in names
