"""Reading and writing profiles: xlsx workbooks (the native document) and CSV tables."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.collector import collector_paused
from ..model.errors import Problem, ProfileError, Refusal
from ..model.lazy import lazy_names
from .kinds import READABLE, REFUSALS, TABLE_SUFFIXES, TRACE_SUFFIXES, Kind, classify, is_trace, stamp

if TYPE_CHECKING:
    from ..model.analysis import Analysis
    from ..model.decision import Decision
    from ..model.profile import Profile
    from ..model.traces import ImportOptions
    from ..model.traces.plan_answer import TraceAnswer
    from ..present.job_charts import JobFigures
    from .atomic import atomic_write
    from .csv_table import read_csv, write_csv
    from .headers import component_header
    from .job_sheet import JobSheet, ranks_sheet
    from .measurements import (
        LoadedMeasurements,
        MeasurementHeader,
        measurement_header,
        measurement_rows,
        read_measurements,
        write_measurements_csv,
    )
    from .preload import ReadAhead
    from .processes import pid_alive
    from .tables import Loaded
    from .workbook import read_workbook

# The public face, loaded on first use (PEP 562): a command that reads one workbook imports its
# reader, not the CSV writer, the trace import or numpy before it needs them.
_HOMES = {
    "atomic_write": ".atomic",
    "read_csv": ".csv_table",
    "write_csv": ".csv_table",
    "JobSheet": ".job_sheet",
    "ranks_sheet": ".job_sheet",
    "LoadedMeasurements": ".measurements",
    "MeasurementHeader": ".measurements",
    "measurement_header": ".measurements",
    "measurement_rows": ".measurements",
    "read_measurements": ".measurements",
    "write_measurements_csv": ".measurements",
    "pid_alive": ".processes",
    "Loaded": ".tables",
    "component_header": ".headers",
    "read_workbook": ".workbook",
}


__getattr__ = lazy_names(__name__, _HOMES)


def load_any(path: str | Path, trace_options: ImportOptions | None = None) -> Loaded:
    """A profile from a workbook or CSV table, or made from a profiler trace (``trace_options``: how to group it).

    The one loader for opening and comparing: ``Loaded.from_trace`` says which it was. Raises
    :class:`ProfileError` (a trace's :class:`~amdahl_desk.model.traces.TraceError` is one) naming the place.
    """
    if not is_trace(path):
        return load_profile(path)
    from .tables import Loaded
    from .traces import import_trace

    result = import_trace(path, trace_options)
    # Typed, worded where they are shown: a window or a notebook, which take no command-line flag.
    warnings = [Problem("", why=Refusal.TRACE_NOTE, values=(note,)) for note in result.notes]
    return Loaded(result.to_profile(), warnings, from_trace=True)


def load_profile(path: str | Path, meanwhile: Sequence[str] = (), ahead: ReadAhead | None = None) -> Loaded:
    """Read a profile from ``path`` by its extension; raises :class:`ProfileError` only.

    ``meanwhile``: modules the caller will need next (the analysis, the report), imported on another
    thread while a workbook's sheets are parsed, which calamine does without holding the GIL. The rows
    are built with the cycle collector paused (:mod:`amdahl_desk.model.collector`). ``ahead``: the launch's
    read-ahead (:func:`~.preload.read_ahead`), whose parse is taken when it is of this file.
    """
    with collector_paused():
        return _load_profile(Path(path), meanwhile, ahead)


def _load_profile(path: Path, meanwhile: Sequence[str], ahead: ReadAhead | None = None) -> Loaded:
    suffix = path.suffix.lower()
    if not path.exists():
        raise ProfileError("no such file", source=str(path))
    if path.is_dir():
        raise ProfileError("is a folder, not a profile file", source=str(path))
    if suffix in TABLE_SUFFIXES:
        from .csv_table import read_csv

        return read_csv(path)
    if suffix in REFUSALS:
        raise ProfileError(REFUSALS[suffix], source=path.name)
    from .workbook_sheets import parse_workbook

    parsed = ahead.take(path) if ahead is not None else None
    if parsed is None:  # the reader (and numpy under it) loads while calamine parses; both are needed right after
        parsed = parse_workbook(path, meanwhile=(f"{__name__}.workbook", *meanwhile))
    from .workbook import read_workbook

    return read_workbook(path, parsed)


def write_workbook(
    profile: Profile,
    path: str | Path,
    analysis: Analysis | None = None,
    trace: TraceAnswer | None = None,
    decision: Decision | None = None,
    job: JobSheet | None = None,
    job_figures: JobFigures | None = None,
) -> None:
    """Write ``profile`` as a workbook (xlsxwriter is loaded on first use)."""
    from .workbook_writer import write_workbook as write

    write(profile, path, analysis, trace, decision, job, job_figures)


def save_profile(
    profile: Profile,
    path: str | Path,
    analysis: Analysis | None = None,
    csv: bool | None = None,
    trace: TraceAnswer | None = None,
    decision: Decision | None = None,
    job: JobSheet | None = None,
    job_figures: JobFigures | None = None,
) -> None:
    """Write ``profile`` to ``path``: CSV for .csv (or ``csv=True``), a workbook otherwise (with ``job``, its
    Ranks sheet: the job of many ranks the profile stands for, every rank's trace remembered).

    A workbook holds everything the profile does (objectives, load and cost settings, measured runs);
    a CSV holds the components table only (with its Objectives column when used). ``trace``: the answer with
    the profile's trace's dependencies, which the Summary sheet then leads with; ``decision``: the odds and the
    cheapest plan as the caller computed them (through that trace's dependencies), else the sum's, worked out here;
    ``job_figures``: the job's answer, which then leads the Summary sheet, ``decision`` holding its odds.
    """
    if csv if csv is not None else Path(path).suffix.lower() == ".csv":
        from .csv_table import write_csv

        write_csv(profile, path)
    else:
        write_workbook(profile, path, analysis, trace, decision, job, job_figures)


__all__ = [
    "READABLE",
    "TRACE_SUFFIXES",
    "Kind",
    "classify",
    "Loaded",
    "LoadedMeasurements",
    "MeasurementHeader",
    "atomic_write",
    "component_header",
    "is_trace",
    "load_any",
    "load_profile",
    "measurement_header",
    "measurement_rows",
    "pid_alive",
    "read_measurements",
    "read_csv",
    "JobSheet",
    "ranks_sheet",
    "read_workbook",
    "save_profile",
    "stamp",
    "write_csv",
    "write_measurements_csv",
    "write_workbook",
]
