"""Importing profiler files: PyTorch/Kineto traces (one or more ranks), speedscope profiles, nsys stats CSVs.

The window and the command line use two calls:

* :func:`load_trace` reads the file(s) once (the slow part: progress and Cancel), giving a :class:`LoadedTrace`;
* :meth:`LoadedTrace.summarise` makes an :class:`ImportResult` for a set of :class:`ImportOptions` at once,
  so a preview can follow every change of grouping, steps, top N or rank without reading again.

:func:`import_trace` does both. ``result.to_profile()`` is the editable profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...model.lazy import lazy_names
from ...model.traces.errors import Cancelled, TraceError
from .detect import NSYS, PYTORCH, SPEEDSCOPE, detect_format, trace_files
from .job_rank import PaceRank
from .source import Progress

if TYPE_CHECKING:  # the import path (readers, groupings) loads on use: a what-if reads its graph without it
    from ...model.traces import ImportOptions, ImportResult, RankTrace
    from ...model.traces.functions import FunctionTimes, SummaryTable

PathLike = str | Path


@dataclass
class LoadedTrace:
    """What was read from the file(s), ready to be summarised for any options."""

    format: str
    sources: list[str]
    ranks: list[RankTrace] = field(default_factory=list)
    functions: FunctionTimes | None = None
    table: SummaryTable | None = None
    given: str = ""  # the file or folder as given: the profile remembers where it came from
    pace: PaceRank | None = None  # of several PyTorch ranks: the rank the job waits for (job_rank.pace_rank)

    def summarise(self, options: ImportOptions | None = None) -> ImportResult:
        from ...model.traces.result import ImportOptions

        options = options or ImportOptions()
        if self.format == PYTORCH:
            from ...model.traces.summary import summarise_pytorch

            pace = self.pace or PaceRank()
            result = summarise_pytorch(self.ranks, options, pace.source or None, pace.problem)
        elif self.functions is not None:
            result = self.functions.summarise(options)
        else:
            assert self.table is not None
            result = self.table.summarise(options)
        from ...present.import_words import worded

        result = worded(result)  # what each component stands for, why its class, what was imported
        if result.notes:  # the model's typed warnings, worded once for the command line (the window words its own)
            from ...present.import_notes import cli_notes

            result = replace(result, warnings=cli_notes(result.notes))
        return replace(result, trace_path=self.given) if self.given else result


def _paths(paths: PathLike | Sequence[PathLike]) -> list[Path]:
    items = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not items:
        raise TraceError("no file to import")
    out: list[Path] = []
    for p in items:
        if not p.exists():
            raise TraceError("no such file or folder", str(p))
        out.extend(trace_files(p) if p.is_dir() else [p])
    return out


def load_trace(
    paths: PathLike | Sequence[PathLike], progress: Progress | None = None, dependencies: bool = False
) -> LoadedTrace:
    """Read one file, several (one per rank) or a folder of them; with ``dependencies``, PyTorch traces are read
    with what their critical path needs too (``ImportOptions(critical_path=True)`` uses it).

    ``progress(done_bytes, total_bytes)`` is called as the files are read; returning False (or raising
    :class:`Cancelled`) stops the import with :class:`Cancelled`. Problems raise :class:`TraceError`
    (a :class:`~amdahl_desk.model.errors.ProfileError`) naming the file and place; nothing is half-built.
    """
    files = _paths(paths)
    names = [f.name for f in files]
    sources = names if len(set(names)) == len(names) else [str(f) for f in files]
    formats = [detect_format(f, s) for f, s in zip(files, sources, strict=True)]
    if len(set(formats)) > 1:
        listed = ", ".join(f"{s} ({f})" for s, f in zip(sources, formats, strict=True))
        raise TraceError(f"the files are of different formats: {listed}; import one kind at a time")
    kind = formats[0]
    sizes = [f.stat().st_size for f in files]
    grand = sum(sizes) or 1

    def part(k: int) -> Progress | None:
        if progress is None:
            return None
        before = sum(sizes[:k])
        return lambda done, _total: progress(before + done, grand)

    given = [str(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)]
    loaded = LoadedTrace(kind, sources, given=", ".join(given))
    if kind == PYTORCH:
        loaded.ranks = [
            _rank(str(f), s, part(k), dependencies) for k, (f, s) in enumerate(zip(files, sources, strict=True))
        ]
        if len(files) > 1:
            from .job_rank import pace_rank

            loaded.pace = _as_sources(pace_rank(files), files, sources)
    elif kind == SPEEDSCOPE:
        from .speedscope import read_speedscope

        if len(files) > 1:
            raise TraceError("import one speedscope profile at a time")
        loaded.functions = read_speedscope(str(files[0]), sources[0], part(0))
    else:
        from ...model.traces.functions import SummaryTable
        from .nsys import read_nsys

        table = SummaryTable(", ".join(sources))
        for k, (f, s) in enumerate(zip(files, sources, strict=True)):
            read_nsys(str(f), s, table, part(k))
        if len(files) > 1:
            from ...model.traces.result import ImportNote, NoteKind

            table.notes.append(ImportNote(NoteKind.SEVERAL_REPORTS))
        loaded.table = table
    return loaded


def _as_sources(pace: PaceRank, files: Sequence[Path], sources: Sequence[str]) -> PaceRank:
    """``pace`` naming its file as the import names it (a path where two rank files share a name)."""
    if not pace.source:
        return pace
    hit = next((s for f, s in zip(files, sources, strict=True) if f.name == pace.source), "")
    return replace(pace, source=hit)


def _rank(path: str, source: str, progress: Progress | None, dependencies: bool) -> RankTrace:
    from ...model.traces.summary import RankTrace

    if not dependencies:
        from .kineto import read_kineto

        return RankTrace(source, read_kineto(path, source, progress))
    from .kineto_graph import read_kineto_graph

    graph = read_kineto_graph(path, source, progress)
    return RankTrace(source, graph.events, deps=graph.deps)


def import_trace(
    paths: PathLike | Sequence[PathLike], options: ImportOptions | None = None, progress: Progress | None = None
) -> ImportResult:
    """Read and summarise in one call (with the dependencies when the options ask for the critical path)."""
    from ...model.traces.result import ImportOptions

    options = options or ImportOptions()
    return load_trace(paths, progress, dependencies=options.critical_path).summarise(options)


__all__ = [
    "NSYS",
    "PYTORCH",
    "SPEEDSCOPE",
    "Cancelled",
    "ImportOptions",
    "ImportResult",
    "LoadedTrace",
    "Progress",
    "TraceError",
    "detect_format",
    "import_trace",
    "load_trace",
]

__getattr__ = lazy_names(
    __name__, {"ImportOptions": "...model.traces.result", "ImportResult": "...model.traces.result"}
)
