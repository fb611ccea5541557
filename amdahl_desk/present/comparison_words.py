"""A comparison in words, once: the reviewer's sentence (predicted against measured, the largest deviations
first), the bottleneck's sentence and the warnings, for the comparison tab, its slide, ``compare`` and its JSON,
and the Python API. The model returns the figures (``model/comparison``)."""

from __future__ import annotations

import math

from ..model.adoption import AdoptedK, Adoption, Continued, Dropped, Kept
from ..model.comparison import EXACT, Bottleneck, Comparison, ComponentComparison, DifferentBoundaries, Status
from ..model.units import TimeUnit
from .numbers import POINT, Numbers


def comparison_title(c: Comparison, n: Numbers = POINT) -> str:
    """ "Predicted 1.43×, measured 1.28×": a slide's title, and the head of :func:`comparison_sentence`."""
    return f"Predicted {n.speedup(c.predicted_speedup)}, measured {n.speedup(c.measured_speedup)}"


def comparison_sentence(c: Comparison, most: int = 3, n: Numbers = POINT) -> str:
    """ "Predicted 1.43×, measured 1.28×: decode got 1.7× instead of 2×, and …" — the largest deviations first."""
    return _sentence(list(c.rows), comparison_title(c, n), c.unit, most, n)


def bottleneck_sentence(b: Bottleneck, n: Numbers = POINT) -> str:
    """Where the largest share was and is, and what the next optimization on it can make of the whole."""
    f0, f1 = n.percent(b.before_share), n.percent(b.after_share)
    if b.moved:
        text = f"{b.before_name} was {f0} of the time; now {b.after_name} is the largest at {f1}."
    else:
        text = f"{b.before_name} was {f0} of the time and is still the largest, at {f1}."
    text += (
        f" The next optimization on {b.after_name} can make the whole at most {n.speedup(b.next_ceiling)} "
        f"faster (1/(1−{f1}))."
        if math.isfinite(b.next_ceiling)
        else " It is all the time that is left: speeding it up speeds up everything."
    )
    return text


def comparison_warning(w: DifferentBoundaries) -> str:
    """A comparison's warning, lower case, without a full stop (the window adds them)."""
    return (
        f'the profiles state different boundaries, "{w.before}" before and "{w.after}" after; '
        "make sure they measure the same thing"
    )


def comparison_warnings(c: Comparison) -> tuple[str, ...]:
    """Each warning of ``c`` in words, in order."""
    return tuple(comparison_warning(w) for w in c.warnings)


def _clause(r: ComponentComparison, unit: TimeUnit, n: Numbers) -> str:
    name = r.name  # the plan's name, the one a reviewer knows; the table shows a rename
    if r.status is Status.ADDED:
        return f"{name} is new ({n.time(r.after or 0.0, unit)})"
    if r.status is Status.REMOVED:
        return f"{r.name} is gone ({n.time(r.before or 0.0, unit)})"
    if r.eliminated:
        return f"{name} was eliminated"
    planned = not math.isclose(r.predicted_k, 1.0, rel_tol=EXACT)
    if r.status is Status.REGRESSED:
        grew = f"{name} regressed by {n.time(r.delta, unit)}"
        return grew + (f" instead of getting {n.speedup(r.predicted_k)} faster" if r.predicted_k > 1 else "")
    got = n.speedup(r.measured_k)
    if not planned:
        return f"{name} also got {got} faster"
    wanted = n.speedup(r.predicted_k)
    return f"{name} got {got} as planned" if got == wanted else f"{name} got {got} instead of {wanted}"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]


def _sentence(rows: list[ComponentComparison], head: str, unit: TimeUnit, most: int, n: Numbers) -> str:
    """ "Predicted 1.43×, measured 1.28×: decode got 1.7× instead of 2×, and …" — the largest deviations first."""
    scale = max((max(r.before or 0.0, r.after or 0.0) for r in rows), default=0.0)
    off = [r for r in rows if r.status is not Status.UNCHANGED and abs(r.deviation) > EXACT * scale]
    off.sort(key=lambda r: -abs(r.deviation))
    if not off:
        return f"{head}: every component came out as planned."
    parts = [_clause(r, unit, n) for r in off[:most]]
    if len(off) > most:
        rest = len(off) - most
        parts.append(f"{rest} more change{'s' if rest > 1 else ''}")
    return f"{head}: {_join(parts)}."


# -- acting on it: adopting the measured k, continuing from the after profile -----------------------------------


def adoption_note(a: AdoptedK, n: Numbers = POINT) -> str:
    """Why an adopted k leaves something out or is kept ("" when nothing needs saying)."""
    if a.kept is not None:
        why = (
            "its targets were eliminated (an infinite k)"
            if a.kept is Kept.ELIMINATED
            else "nothing of its targets was measured"
        )
        return f"{why}; k stays at {n.speedup(a.planned)}"
    if a.gone:
        return f"{', '.join(a.gone)} {'is' if len(a.gone) == 1 else 'are'} gone from the after profile; left out"
    return ""


def adoption_notes(adoption: Adoption, n: Numbers = POINT) -> tuple[str, ...]:
    """Each note of an adoption, named by its optimization."""
    return tuple(f"{c.name}: {note}" for c in adoption.changes if (note := adoption_note(c, n)))


def continued_note(d: Dropped) -> str:
    """What continuing from the after profile dropped."""
    lost = ", ".join(d.targets)
    if d.whole:
        return f"{d.optimization}: dropped; {lost} no longer exist{'s' if len(d.targets) == 1 else ''}"
    return f"{d.optimization}: {lost} dropped from its targets; no longer in the after profile"


def continued_notes(continued: Continued) -> tuple[str, ...]:
    """Each note of continuing from the after profile, in order."""
    return tuple(continued_note(d) for d in continued.notes)
