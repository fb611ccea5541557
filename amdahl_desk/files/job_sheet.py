"""A job of many ranks in a workbook: the *Ranks* sheet, one row per rank — its number, host, step time, compute,
communication, waiting, the time the others waited for it, whether it is the straggler, its trace file, and
whether the plan is applied on it (*Plan on*: every rank TRUE when the plan is on every rank; a sheet without the
column, as written before it, has the plan on every rank).

The trace files are written relative to the workbook's folder where they can be (``../traces/rank3.json.gz``),
else whole, with ``/`` between folders on every system; reading resolves them against the folder the workbook is
in then, so a workbook moved with its traces still finds them. Times are ms per step, as ``amdahl-desk job``
prints them. A sheet that cannot be read is a warning naming the cell: the profile still opens, without its job.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from ..model.errors import Problem, Refusal

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
PLAN_ON_HEADER = "Plan on"  # after the others: read when there
RANK, HOST, STEP, COMPUTE, COMM, WAITING, WAITED, STRAGGLER, TRACE, PLAN_ON = range(len(HEADERS) + 1)


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
    plan_on: bool = True  # the ticked plan's events are made faster on this rank


@dataclass(frozen=True)
class JobSheet:
    """The job a workbook's profile stands for: its ranks, each with its trace file."""

    rows: tuple[RankRow, ...]

    def paths(self, folder: Path) -> list[Path]:
        """Each rank's trace, resolved against ``folder`` (the workbook's) when written relative to it."""
        return [folder / Path(*PurePath(r.trace).parts) if not _absolute(r.trace) else Path(r.trace) for r in self.rows]

    def moved(self, folder: Path, to: Path) -> JobSheet:
        """The same sheet for a workbook in ``to``, read from one in ``folder``: each trace written anew."""
        paths = self.paths(folder)
        return JobSheet(
            tuple(dataclasses.replace(r, trace=written_path(p, to)) for r, p in zip(self.rows, paths, strict=True))
        )

    @property
    def plan_on(self) -> tuple[int, ...] | None:
        """The ranks the plan is applied on; None: every rank."""
        if all(r.plan_on for r in self.rows):
            return None
        return tuple(r.rank for r in self.rows if r.plan_on)


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


def ranks_sheet(job: Job, paths: Sequence[str], folder: Path | None, on_ranks: Sequence[int] | None = None) -> JobSheet:
    """The sheet of ``job`` read from the files ``paths`` (in the job's order of files), for a workbook in
    ``folder`` (None: each file written whole, for a copy kept elsewhere); the plan on ``on_ranks`` (None: on
    every rank). Each rank's file is the one its ``source`` names."""
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
                written_path(hit, folder) if folder is not None else Path(hit).resolve().as_posix(),
                on_ranks is None or r.rank in on_ranks,
            )
        )
    return JobSheet(tuple(rows))


def write_job_sheet(book: Workbook, sheet: JobSheet, header: Format, printable: Callable[[str], str]) -> None:
    """The *Ranks* sheet: a plain table, read back by :func:`read_job_sheet` (and by pandas)."""
    ws = book.add_worksheet(RANKS)
    for col, width in enumerate((7, 16, 15, 14, 19, 13, 15, 10, 48, 9)):
        ws.set_column(col, col, width)
    ws.write_row(0, 0, [*HEADERS, PLAN_ON_HEADER], header)
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
        ws.write_boolean(i, PLAN_ON, r.plan_on)
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

    def bad(row: int, col: int, expected: str) -> None:
        where = f"{grid.sheet}!{grid.ref(row, col)}"
        problems.append(Problem.typed(Refusal.RANKS_CELL, expected, HEADERS, where=where))

    if not rows:
        return None, problems
    head = [str(v).strip().lower() if v is not None else "" for v in rows[0]]
    want = [h.lower() for h in HEADERS]
    if head[: len(want)] != want:
        bad(0, 0, "headers")
        return None, problems
    has_plan_on = len(head) > PLAN_ON and head[PLAN_ON] == PLAN_ON_HEADER.lower()
    out: list[RankRow] = []
    for i, cells in enumerate(rows[1:], start=1):
        values = list(cells) + [None] * (len(HEADERS) + 1 - len(cells))
        if all(v is None or v == "" for v in values[: len(HEADERS)]):
            continue
        rank = _number(values[RANK])
        if rank is None or rank < 0 or rank != int(rank):
            bad(i, RANK, "rank")
            continue
        figures = []
        for col in (STEP, COMPUTE, COMM, WAITING, WAITED):
            v = _number(values[col])
            if v is None:
                bad(i, col, "time")
            figures.append(v or 0.0)
        flag = _flag(values[STRAGGLER])
        if flag is None:
            bad(i, STRAGGLER, "flag")
        trace = values[TRACE]
        if not isinstance(trace, str) or not trace.strip():
            bad(i, TRACE, "trace")
            continue
        plan_on = _flag(values[PLAN_ON]) if has_plan_on else True
        if plan_on is None:
            bad(i, PLAN_ON, "flag")
        host = values[HOST]
        step, compute, comm, waiting, waited = figures
        name = str(host) if host is not None else ""
        out.append(
            RankRow(int(rank), name, step, compute, comm, waiting, waited, bool(flag), trace.strip(), bool(plan_on))
        )
    if has_plan_on and out and not any(r.plan_on for r in out):
        bad(1, PLAN_ON, "plan_on")
    if problems:
        return None, problems
    if len({r.rank for r in out}) != len(out):
        problems.append(Problem.typed(Refusal.RANKS_CELL, "twice", HEADERS, where=grid.sheet))
        return None, problems
    return (JobSheet(tuple(out)) if out else None), problems
