"""A job of many ranks in a workbook: the *Ranks* sheet, one row per rank — its number, host, step time, compute,
communication, waiting, the time the others waited for it, whether it is the straggler, and its trace file.

The trace files are written relative to the workbook's folder where they can be (``../traces/rank3.json.gz``),
else whole, with ``/`` between folders on every system; reading resolves them against the folder the workbook is
in then, so a workbook moved with its traces still finds them. Times are ms per step, as ``amdahl-desk job``
prints them. A sheet that cannot be read is a warning naming the cell: the profile still opens, without its job.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from ..model.errors import Problem

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.workbook import Workbook

    from ..model.job.analysis import Job
    from .grid import Grid

RANKS = "Ranks"
HEADERS = (
    "Rank",
    "Host",
    "Step time (ms)",
    "Compute (ms)",
    "Communication (ms)",
    "Waiting (ms)",
    "Waited for (ms)",
    "Straggler",
    "Trace file",
)
RANK, HOST, STEP, COMPUTE, COMM, WAITING, WAITED, STRAGGLER, TRACE = range(len(HEADERS))


@dataclass(frozen=True)
class RankRow:
    rank: int
    host: str
    step_time: float
    compute: float
    communication: float
    waiting: float
    waited_for: float
    straggler: bool
    trace: str  # as written in the sheet (relative to the workbook's folder where it could be)


@dataclass(frozen=True)
class JobSheet:
    """The job a workbook's profile stands for: its ranks, each with its trace file."""

    rows: tuple[RankRow, ...]

    def paths(self, folder: Path) -> list[Path]:
        """Each rank's trace, resolved against ``folder`` (the workbook's) when written relative to it."""
        return [folder / Path(*PurePath(r.trace).parts) if not _absolute(r.trace) else Path(r.trace) for r in self.rows]


def _absolute(text: str) -> bool:
    return PurePath(text).is_absolute() or Path(text).is_absolute() or (len(text) > 2 and text[1] == ":")


def written_path(trace: str | Path, folder: Path) -> str:
    """``trace`` as the sheet keeps it: relative to ``folder`` where it can be (another drive: whole), ``/``-separated."""
    target = Path(trace).resolve()
    try:
        rel = os.path.relpath(target, folder.resolve())
    except ValueError:  # another drive (Windows): no relative path
        return target.as_posix()
    return PurePath(rel).as_posix()


def ranks_sheet(job: Job, paths: Sequence[str], folder: Path) -> JobSheet:
    """The sheet of ``job`` read from the files ``paths`` (in the job's order of files), for a workbook in
    ``folder``. Each rank's file is the one its ``source`` names."""
    left = [Path(p) for p in paths]
    rows = []
    for r in job.per_rank:
        hit = next((p for p in left if p.name == r.source), None)
        if hit is None:
            hit = next((p for p in left if str(p) == r.source or p.as_posix().endswith(r.source)), Path(r.source))
        if hit in left:
            left.remove(hit)
        rows.append(
            RankRow(
                r.rank,
                r.host,
                r.step_time,
                r.compute,
                r.communication,
                r.waiting,
                r.waited_for,
                r.rank == job.straggler,
                written_path(hit, folder),
            )
        )
    return JobSheet(tuple(rows))


def write_job_sheet(book: Workbook, sheet: JobSheet, header: Format, printable: Callable[[str], str]) -> None:
    """The *Ranks* sheet: a plain table, read back by :func:`read_job_sheet` (and by pandas)."""
    ws = book.add_worksheet(RANKS)
    for col, width in enumerate((7, 16, 15, 14, 19, 13, 15, 10, 48)):
        ws.set_column(col, col, width)
    ws.write_row(0, 0, list(HEADERS), header)
    for i, r in enumerate(sheet.rows, start=1):
        ws.write_number(i, RANK, r.rank)
        if r.host:
            ws.write_string(i, HOST, printable(r.host))
        for col, value in (
            (STEP, r.step_time),
            (COMPUTE, r.compute),
            (COMM, r.communication),
            (WAITING, r.waiting),
            (WAITED, r.waited_for),
        ):
            ws.write_number(i, col, value)
        ws.write_boolean(i, STRAGGLER, r.straggler)
        ws.write_string(i, TRACE, printable(r.trace))
    ws.freeze_panes(1, 0)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and math.isfinite(float(value)):
        return float(value)
    if isinstance(value, str):
        try:
            v = float(value.strip())
        except ValueError:
            return None
        return v if math.isfinite(v) else None
    return None


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if value is None or value == "":
        return False
    if isinstance(value, str) and value.strip().lower() in ("yes", "true", "1", "x", "✔"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("no", "false", "0"):
        return False
    if isinstance(value, (int, float)):
        return bool(value)
    return None


def read_job_sheet(grid: Grid) -> tuple[JobSheet | None, list[Problem]]:
    """The *Ranks* sheet read back; (None, the problems naming their cells) when any cell is not what it should be,
    so that a job is never restored from half a sheet."""
    rows = list(grid.rows)
    problems: list[Problem] = []

    def bad(row: int, col: int, what: str) -> None:
        problems.append(Problem(f"{what}; the job is not restored", where=f"{grid.sheet}!{grid.ref(row, col)}"))

    if not rows:
        return None, problems
    head = [str(v).strip().lower() if v is not None else "" for v in rows[0]]
    want = [h.lower() for h in HEADERS]
    if head[: len(want)] != want:
        bad(0, 0, f"expected the headers {', '.join(HEADERS)}")
        return None, problems
    out: list[RankRow] = []
    for i, cells in enumerate(rows[1:], start=1):
        values = list(cells) + [None] * (len(HEADERS) - len(cells))
        if all(v is None or v == "" for v in values[: len(HEADERS)]):
            continue
        rank = _number(values[RANK])
        if rank is None or rank < 0 or rank != int(rank):
            bad(i, RANK, "expected a rank number (0, 1, 2 …)")
            continue
        figures = []
        for col in (STEP, COMPUTE, COMM, WAITING, WAITED):
            v = _number(values[col])
            if v is None:
                bad(i, col, "expected a time in ms")
            figures.append(v or 0.0)
        flag = _flag(values[STRAGGLER])
        if flag is None:
            bad(i, STRAGGLER, "expected TRUE or FALSE")
        trace = values[TRACE]
        if not isinstance(trace, str) or not trace.strip():
            bad(i, TRACE, "expected the rank's trace file")
            continue
        host = values[HOST]
        step, compute, comm, waiting, waited = figures
        name = str(host) if host is not None else ""
        out.append(RankRow(int(rank), name, step, compute, comm, waiting, waited, bool(flag), trace.strip()))
    if problems:
        return None, problems
    if len({r.rank for r in out}) != len(out):
        problems.append(Problem("a rank is listed twice; the job is not restored", where=grid.sheet))
        return None, problems
    return (JobSheet(tuple(out)) if out else None), problems
