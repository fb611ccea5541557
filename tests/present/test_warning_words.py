"""An analysis' warnings are worded with the Numbers they are shown in: their figures in the desktop's separators,
the names they quote exactly as typed (a name is no number to rewrite)."""

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile
from amdahl_desk.present.numbers import POINT, Numbers
from amdahl_desk.present.summary import summary

GERMAN = Numbers(",", ".")


def _slowdown() -> Profile:
    comps = [Component("Kernel 1.5", 1234.5), Component("Rest", 800.0)]
    return Profile(comps, [Optimization("kernels 2.5", ("Kernel 1.5",), 0.75)])


def test_a_warning_keeps_its_names_and_writes_its_figures_in_the_desktops_separators():
    profile = _slowdown()
    notes = summary(profile, analyse(profile), GERMAN).notes
    said = next(n for n in notes if "slowdown" in n)
    assert said == '"kernels 2.5" has k = 0,75: below 1 it is a slowdown, not a speedup'
    files = next(n for n in summary(profile, analyse(profile), POINT).notes if "slowdown" in n)
    assert files == '"kernels 2.5" has k = 0.75: below 1 it is a slowdown, not a speedup'
