"""What ``amdahl-desk import`` prints of a trace: its components with their times, shares and classes, its steps,
its GPU's time by kind and its ranks."""

from __future__ import annotations

from ..model.traces import ImportResult
from .numbers import POINT, Numbers
from .text import column, display_width


def import_text(result: ImportResult, n: Numbers = POINT) -> str:
    """The result as a person reads it in a terminal, its numbers as ``n`` writes them."""
    unit = result.unit.label
    lines = [result.boundary, ""]
    total = result.total or 1.0
    width = min(max([display_width(c.name) for c in result.components] + [9]), 60)
    lines.append(f"{'component':<{width}}  {'time (' + unit + ')':>12}  {'share':>6}  scaling")
    for c in result.components:
        scaling = c.scaling.value + ("?" if c.guessed else "")
        lines.append(
            f"{column(c.name, width)}  {n.plain(c.time, '.4g'):>12}  {n.plain(c.time / total, '.1%'):>6}  {scaling}"
        )
    lines.append(f"{'total':<{width}}  {n.plain(result.total, '.4g'):>12}")
    if any(c.guessed for c in result.components):
        lines.append("(? a class the import guessed from the name: check it; the workbook keeps it as a guess)")
    if result.steps and result.step_time is not None:
        lines.append("")
        lines.append(
            f"steps: mean {n.plain(result.step_time, '.4g')} {unit} over {sum(not s.excluded for s in result.steps)}"
        )
        far = " (far from the median)"
        for s in result.steps:
            mark = " (left out)" if s.excluded else far if s.flagged else ""
            gpu = "" if s.gpu_time is None else f", GPU stretch {n.plain(s.gpu_time, '.4g')} {unit}"
            gpu += far if s.gpu_flagged and not s.excluded else ""
            lines.append(f"  {s.name}: {n.plain(s.time, '.4g')} {unit}{gpu}{mark}")
    if result.gpu is not None:
        g = result.gpu
        lines.append("")
        lines.append(
            f"GPU {g.device}: compute {n.plain(g.compute, '.4g')}, exposed communication {n.plain(g.exposed_communication, '.4g')}, "
            f"memory {n.plain(g.memory, '.4g')}, idle {n.plain(g.idle, '.4g')} of {n.plain(g.span, '.4g')} {unit}; "
            f"overlapped communication {n.plain(g.overlapped_communication, '.4g')} {unit}"
        )
    if result.ranks:
        lines.append("")
        for r in result.ranks:
            t = (
                f"{n.plain(r.step_time, '.4g')} {unit} per step"
                if r.step_time is not None
                else f"{n.plain(r.total_time, '.4g')} {unit} in all"
            )
            marks = [m for m, on in (("straggler: the others wait for it", r.straggler), ("slowest", r.slowest)) if on]
            lines.append(f"rank {r.rank} ({r.source}): {t}{'  ← ' + ', '.join(marks) if marks else ''}")
    return "\n".join(lines)
