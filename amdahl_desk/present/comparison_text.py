"""The comparison of a before and an after profile as a terminal shows it (``amdahl-desk compare``, the Python
API's ``str``): the sentence, the table of components, the end-to-end figures, the bottleneck and what to adopt."""

from __future__ import annotations

from ..model.adoption import Adoption
from ..model.comparison import Comparison, ComponentComparison
from ..model.profile import Profile
from .comparison import plan_verdict
from .comparison_words import adoption_notes, bottleneck_sentence, comparison_sentence
from .numbers import POINT, Numbers
from .text import column, display_width


def _k(value: float | None, r: ComponentComparison, n: Numbers) -> str:
    if r.eliminated:
        return "eliminated"
    return "—" if value is None else n.speedup(value)


def comparison_text(
    c: Comparison, adoption: Adoption, before: Profile, before_file: str, after_file: str, n: Numbers = POINT
) -> str:
    """The comparison for a reviewer: the sentence, the table, the end-to-end figures, the bottleneck, next steps."""
    unit = c.unit

    def t(value: float | None) -> str:
        return "—" if value is None else n.time(value, unit)

    plan = [o for o in before.optimizations if o.enabled]
    plan_text = (
        "; ".join(f"{o.name} ({n.speedup(o.speedup)} on {', '.join(o.targets)})" for o in plan)
        if plan
        else "no optimization enabled"
    )
    lines = [
        f"Before: {before_file}, {t(c.before_total)}; plan: {plan_text}.",
        f"After:  {after_file}, {t(c.after_total)}"
        + (f" (converted from {c.after_unit.label})" if c.after_unit is not c.unit else "")
        + ".",
        "",
        comparison_sentence(c),
        "",
    ]
    names = [f"{r.name} → {r.after_name}" if r.renamed else r.name for r in c.rows]
    width = min(max([display_width(n) for n in names] + [9]), 60)
    # Each figure's column as wide as its widest figure (at least its title's and the widths it always had), so a
    # long one ("0.000679 ms") never pushes the columns after it out of line.
    figures = [
        (t(r.before), t(r.after), "—" if r.before is None else n.speedup(r.predicted_k), _k(r.measured_k, r, n))
        for r in c.rows
    ]
    total = (t(c.before_total), t(c.after_total), n.speedup(c.predicted_speedup), n.speedup(c.measured_speedup))
    titles = ("Before", "After", "Planned", "Measured")
    widths = [
        max([least, *(display_width(f[i]) for f in [*figures, total])]) for i, least in enumerate((10, 10, 8, 10))
    ]

    def row(first: str, cells: tuple[str, ...]) -> str:
        return "  ".join([first, *(" " * (w - display_width(x)) + x for x, w in zip(cells, widths, strict=True))])

    head = row(f"{'Component':<{width}}", titles) + "  Verdict"
    lines += [head, "─" * len(head)]
    for name, r, cells in zip(names, c.rows, figures, strict=True):
        lines.append(row(column(name, width), cells) + f"  {r.status.label}")
    lines.append(row(f"{'Total':<{width}}", total))
    lines.append("")
    verdict = plan_verdict(c)
    lines.append(
        f"End to end: the plan promised {t(c.predicted_total)} (saving {t(c.before_total - c.predicted_total)}); "
        f"measured {t(c.after_total)} (saving {t(-c.time_difference)}), {verdict}."
    )
    lines.append(f"Bottleneck: {bottleneck_sentence(c.bottleneck)}")
    adopted = [a for a in adoption.changes if a.measured is not None]
    if adopted:
        lines.append(
            "Adopt measured k: "
            + "; ".join(f"{a.name} {n.speedup(a.planned)} → {n.speedup(a.measured)}" for a in adopted)
            + "."
        )
    lines += [f"Note: {n}" for n in adoption_notes(adoption)]
    return "\n".join(lines)
