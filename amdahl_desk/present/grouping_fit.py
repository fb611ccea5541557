"""The words for a grouping that explains almost nothing: what it named, and which grouping names more."""

from __future__ import annotations

from ..model.grouping_fit import GroupingFit
from .numbers import POINT, Numbers

# What each grouping's rows are, and what its time in nothing named is.
_ROWS = {"annotation": "annotations", "op": "operators", "gpu": "GPU work", "function": "functions"}
_ONE = {"annotation": "one annotation", "op": "one operator", "gpu": "one kind of GPU work", "function": "one function"}
_NOTHING = {"annotation": "in no annotation", "op": "in no operator", "gpu": "the GPU idle"}
# How a person asks for a grouping: on the command line, and in the import dialog.
_DIALOG = {
    "annotation": "record_function annotations",
    "op": "operators by self time",
    "gpu": "GPU timeline",
    "function": "functions by self time",
}


def grouping_hint(
    fit: GroupingFit, better: GroupingFit, n: Numbers = POINT, window: bool = False, then: str = ""
) -> str:
    """'grouped by annotation, the import explains almost nothing (1 component, 100% of the time in no
    annotation): --group-by op puts 98% of it into 15 operators'; ``window``: the dialog's words ("Group by:
    operators by self time"); ``then``: how the command at hand gets that grouping, added in brackets."""
    parts = f"{n.count(better.work_rows)} {_ROWS.get(better.group_by, 'rows')}"
    return (
        f"{_little(fit, n)}: {_how(better.group_by, window)} puts {n.percent(better.work_share)} of it into {parts}"
        + (f" ({then})" if then else "")
    )


def no_grouping_hint(fit: GroupingFit, tried: tuple[GroupingFit, ...], n: Numbers = POINT, window: bool = False) -> str:
    """'grouped by annotation, the import explains almost nothing (1 component, 100% of the time in no annotation),
    and no other grouping does better (--group-by op: 4.9% of the time in named operators; …)': the trace is mostly
    waiting, or in no event; Amdahl's law has nothing here to split."""
    others = "; ".join(f"{_how(t.group_by, window)}: {_said(t, n)}" for t in tried)
    return f"{_little(fit, n)}, and no other grouping does better ({others})"


def _little(fit: GroupingFit, n: Numbers) -> str:
    rows = f"{n.count(fit.rows)} component{'s' * (fit.rows != 1)}"
    return f"grouped by {fit.group_by}, the import explains almost nothing ({rows}, {_said(fit, n)})"


def _said(fit: GroupingFit, n: Numbers) -> str:
    """What a grouping named: the time in nothing named, in one row, or in named rows."""
    if fit.work_rows == 0:
        return f"{n.percent(1 - fit.work_share)} of the time {_NOTHING.get(fit.group_by, 'in nothing named')}"
    if fit.work_rows == 1:
        return f"{_ONE.get(fit.group_by, 'one row')} holds {n.percent(fit.work_share)} of the time"
    return f"{n.percent(fit.work_share)} of the time in named {_ROWS.get(fit.group_by, 'rows')}"


def _how(group_by: str, window: bool) -> str:
    """How a person asks for ``group_by``: the dialog's choice, or the command line's flag."""
    return f'Group by "{_DIALOG.get(group_by, group_by)}"' if window else f"--group-by {group_by}"
