"""Sampled or evented profiles (speedscope) and summary tables (nsys): self time by function, as import results."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..units import TimeUnit
from .grouping import Part, top_parts
from .origins import Boundary, Origin, Scope, Source
from .result import ImportedComponent, ImportNote, ImportOptions, ImportResult, unique_names

NO_STACK = "(no stack)"


@dataclass
class FunctionTimes:
    """Self time per function (name, file) over every profile of a file, in ms."""

    source: str
    self_time: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    lines: dict[tuple[str, str], set[int]] = field(default_factory=lambda: defaultdict(set))
    no_stack: float = 0.0
    profiles: int = 0
    sample_counts: bool = False  # the weights are sample counts (one counted as 1 ms), not times
    notes: list[ImportNote] = field(default_factory=list)  # its warnings, typed

    def summarise(self, options: ImportOptions) -> ImportResult:
        """Functions by self time, the top N and ``Other``, samples without a stack as their own row."""
        if options.group_by not in (None, "function"):
            raise _grouping_error(options.group_by, "speedscope profiles group by function", self.source)
        parts = []
        for (name, file), t in self.self_time.items():
            lines = sorted(self.lines.get((name, file), ()))
            where = f"{file}:{','.join(map(str, lines))}" if file and lines else file
            label = f"{name} ({_basename(file)})" if file else name
            origin = Source(Origin.FUNCTION, {"name": name, "where": where})
            parts.append(Part(label, t, _basename(file) or "function", origin))
        if self.no_stack > 0:
            parts.append(Part(NO_STACK, self.no_stack, "function", Source(Origin.NO_STACK)))
        ranked = top_parts(parts, options.top, keep=(NO_STACK,))
        names = unique_names(p.name for p in ranked)
        comps = tuple(
            ImportedComponent.named(n, p.time, p.name, p.group, p.source) for n, p in zip(names, ranked, strict=True)
        )
        scope = {"source": self.source, "profiles": self.profiles, "sample_counts": self.sample_counts}
        return ImportResult(
            format="speedscope",
            unit=TimeUnit.MS,
            source=self.source,
            group_by="function",
            components=comps,
            scope=Boundary(Scope.SPEEDSCOPE, scope),
            notes=tuple(self.notes),
        )


@dataclass
class SummaryTable:
    """Rows of ``nsys stats`` CSV reports (name, total time in ms, report kind), from one or more reports."""

    source: str
    rows: list[tuple[str, float, str]] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)
    notes: list[ImportNote] = field(default_factory=list)  # its warnings, typed

    def summarise(self, options: ImportOptions) -> ImportResult:
        if options.group_by not in (None, "op", "function"):
            raise _grouping_error(options.group_by, "nsys summaries list their rows as they are (op)", self.source)
        parts = [
            Part(name, t, kind, Source(Origin.SUMMARY_ROW, {"kind": kind, "name": name})) for name, t, kind in self.rows
        ]
        ranked = top_parts(parts, options.top, keep=())
        names = unique_names(p.name for p in ranked)
        comps = tuple(
            ImportedComponent.named(n, p.time, p.name, p.group, p.source) for n, p in zip(names, ranked, strict=True)
        )
        return ImportResult(
            format="nsys",
            unit=TimeUnit.MS,
            source=self.source,
            group_by="op",
            components=comps,
            scope=Boundary(Scope.NSYS, {"source": self.source, "reports": tuple(self.reports)}),
            notes=tuple(self.notes),
        )


def _basename(file: str) -> str:
    return file.replace("\\", "/").rsplit("/", 1)[-1]


def _grouping_error(group_by: str | None, why: str, source: str) -> Exception:
    from .errors import TraceError

    return TraceError(f"grouping by {group_by} does not apply here: {why}", source)
