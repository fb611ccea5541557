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
    rows = f"{n.count(fit.rows)} component{'s' * (fit.rows != 1)}"
    if fit.work_rows == 0:
        said = f"{n.percent(1 - fit.work_share)} of the time {_NOTHING.get(fit.group_by, 'in nothing named')}"
    elif fit.work_rows == 1:
        said = f"{_ONE.get(fit.group_by, 'one row')} holds {n.percent(fit.work_share)} of the time"
    else:
        said = f"{n.percent(fit.work_share)} of the time in named {_ROWS.get(fit.group_by, 'rows')}"
    how = f'Group by "{_DIALOG.get(better.group_by, better.group_by)}"' if window else f"--group-by {better.group_by}"
    parts = f"{n.count(better.work_rows)} {_ROWS.get(better.group_by, 'rows')}"
    return (
        f"grouped by {fit.group_by}, the import explains almost nothing ({rows}, {said}): "
        f"{how} puts {n.percent(better.work_share)} of it into {parts}" + (f" ({then})" if then else "")
    )
