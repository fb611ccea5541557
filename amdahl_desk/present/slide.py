"""The slide's words: a title that states the result, the subtitle, four headline figures and the footer."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.analysis import Analysis
from ..model.profile import Profile
from .numbers import POINT, Numbers
from .report import target_sentence
from .summary import Figure, speedup_tone
from .text import phrases

AMDAHL_FOOTER = "Amdahl's law: S = 1/((1−f)+f/k); speedups of separate parts never add."


@dataclass(frozen=True)
class SlideView:
    """What a slide says: ``figures`` are four (value, caption) pairs; the footer may be rich text."""

    title: str
    subtitle: str
    figures: tuple[Figure, Figure, Figure, Figure]
    footer: str


def slide_title(profile: Profile, analysis: Analysis, n: Numbers = POINT) -> str:
    """A title that states the result, e.g. "Matmul 4× → 1.82× end to end (ceiling 2.5×)".

    Its phrases are held together with no-break spaces: a title that wraps does so between
    "on 60% of the time" and "→ 1.82× end to end", never inside "(ceiling 2.5×)".
    """
    c = analysis.combined
    enabled = [o for o in profile.optimizations if o.enabled]
    if len(enabled) == 1:
        o = enabled[0]
        return f"{o.name}: " + phrases(
            f"{n.speedup(o.speedup)} on {n.percent(c.fraction)} of the time",
            f"→ {n.speedup(c.overall_speedup)} end to end",
            f"(ceiling {n.speedup(c.ceiling)})",
        )
    if enabled:
        return phrases(
            f"{len(enabled)} optimizations together:",
            f"{n.time(analysis.baseline_total, profile.unit)} → {n.time(c.new_total, profile.unit)},",
            f"{n.speedup(c.overall_speedup)} end to end",
            f"(ceiling {n.speedup(c.ceiling)})",
        )
    return phrases(f"Baseline {n.time(analysis.baseline_total, profile.unit)}:", "where the time goes")


def slide(profile: Profile, analysis: Analysis, n: Numbers = POINT) -> SlideView:
    """The profile's slide: the result as its title, the headline figures, the target verdict as its footer."""
    unit = profile.unit
    c = analysis.combined
    boundary = profile.settings.boundary or "Measured profile"
    return SlideView(
        slide_title(profile, analysis, n),
        f"{boundary} · baseline {n.time(analysis.baseline_total, unit)} over "
        f"{n.count(len(profile.components))} components",
        (
            Figure(n.speedup(c.overall_speedup), "end-to-end speedup", tone=speedup_tone(c.overall_speedup)),
            Figure(n.time(c.new_total, unit), f"new time (from {n.time(analysis.baseline_total, unit)})"),
            Figure(n.time(c.time_saved, unit), "saved per run"),
            Figure(n.speedup(c.ceiling) if c.enabled else "—", f"ceiling 1/(1−f), f = {n.percent(c.fraction)}"),
        ),
        target_sentence(profile, analysis, n) or AMDAHL_FOOTER,
    )


def slide_selection(profile: Profile, selected: int) -> int:
    """Which optimization the slide's charts follow: the selected one when it is ticked or when none is; else -1,
    the first ticked one (the plan the slide's title states), so that a row merely selected in the window, not in
    the plan, is not what the slide's speedup chart shows."""
    opts = profile.optimizations
    if 0 <= selected < len(opts) and not opts[selected].enabled and any(o.enabled for o in opts):
        return -1
    return selected
