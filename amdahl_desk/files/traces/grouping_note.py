"""The note an import gets when its grouping explains almost nothing: which grouping of the same trace would."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...model.grouping_fit import grouping_fit, other_groupings
from ...model.traces import ImportOptions, ImportResult
from ...present.grouping_fit import grouping_hint, no_grouping_hint
from ...present.numbers import POINT, Numbers

if TYPE_CHECKING:
    from . import LoadedTrace


def grouping_note(
    trace: LoadedTrace,
    result: ImportResult,
    options: ImportOptions,
    then: str = "",
    window: bool = False,
    n: Numbers = POINT,
) -> str:
    """When ``result`` (``trace`` summarised with ``options``) explains almost nothing, which grouping would, with
    the same options, in words; "" otherwise. ``then``: how the command at hand gets it ("{}": the grouping);
    ``window``: worded for the import dialog."""

    def summarise(group_by: str) -> ImportResult:
        return trace.summarise(replace(options, group_by=group_by, critical_path=False))

    tried = other_groupings(result, summarise)
    if not tried:
        return ""
    better = tried[-1]
    if better.explains_little:
        return no_grouping_hint(grouping_fit(result), tried, n, window=window)
    return grouping_hint(grouping_fit(result), better, n, window=window, then=then.format(better.group_by))
