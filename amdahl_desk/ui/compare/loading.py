"""Reading the after profile: the one function the window calls, a workbook, a CSV table or a profiler trace."""

from __future__ import annotations

from pathlib import Path

from ...files import is_trace, load_any
from ...model.errors import Problem, ProfileError
from ...model.profile import Profile, Settings
from ...model.traces import ImportOptions


def load_after(
    path: str | Path, before: str | Path | None = None, like: Settings | None = None
) -> tuple[Profile, tuple[Problem, ...]]:
    """The after profile and the warnings of reading it; raises :class:`ProfileError` with a message for a person.

    Read through ``files.load_any`` as ``amdahl-desk compare`` reads it: a trace is imported with the grouping the
    document was imported with (``like``, its Settings: the components line up), else the import's defaults.
    ``before`` is the file the document was read from; a trace against a workbook or CSV table is refused, as the
    command refuses it (their components would not line up), unless that workbook was imported from a trace (the
    command then accepts it too). An untitled or imported document (no file) accepts either.
    """
    path = Path(path)
    traced = like is not None and bool(like.trace_source)
    if is_trace(path) and before is not None and not is_trace(before) and not traced:
        raise ProfileError(
            f"this is a profiler trace and {Path(before).name} a workbook or CSV table: compare like with like "
            "(two traces, or two profiles)",
            source=path.name,
        )
    options = None
    if traced and like is not None and like.trace_grouping and is_trace(path):
        from ...model.traces.import_paths import grouping_options

        try:
            grouped = grouping_options(like.trace_grouping)[0]
        except ProfileError:
            grouped = ImportOptions()
        options = ImportOptions(group_by=grouped.group_by, top=grouped.top, total=grouped.total)
    try:
        loaded = load_any(path, options)
    except ProfileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file must give a message, never a traceback
        raise ProfileError(f"unexpected error while reading: {exc}", source=path.name) from exc
    return loaded.profile, tuple(loaded.warnings)
