"""``nsys stats`` CSV reports (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, nvtx_sum, …): rows by total time."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model.errors import Place
from ...model.traces.errors import TraceError
from .source import Progress, open_stream

if TYPE_CHECKING:  # the import's tables load when a table is read: the format's detection needs none of it
    from ...model.traces.functions import SummaryTable

_NAME_COLUMNS = ("Name", "Range", "Operation")
_TIME_COLUMN = "Total Time (ns)"
MS_PER_NS = 1e-6
_CsvReader = Any  # csv.reader's type (_csv.Reader) is not importable on every Python


def is_nsys_header(line: str) -> bool:
    return _TIME_COLUMN in line and any(c in line for c in _NAME_COLUMNS)


def read_nsys(
    path: str, source: str, table: SummaryTable | None = None, progress: Progress | None = None
) -> SummaryTable:
    """Add the rows of one report to ``table`` (a new one by default): name, total time (ms), report kind."""
    with open_stream(path, source, progress) as (stream, tick):
        data = stream.read()
        tick()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TraceError("the report is not UTF-8 text", source, Place.at("byte", exc.start)) from None
    lines = text.splitlines()
    # nsys may print "Processing [...] with [...]" lines before the table
    header_row = next((i for i, line in enumerate(lines) if is_nsys_header(line)), None)
    if header_row is None:
        raise TraceError(
            f'no header with "{_TIME_COLUMN}" and a Name column; expected an nsys stats CSV report', source
        )
    rows = _rows(csv.reader(io.StringIO("\n".join(lines[header_row:]))), header_row, source)
    header = [h.strip() for h in next(rows, [])]
    names = [c for c in _NAME_COLUMNS if c in header]
    if _TIME_COLUMN not in header or not names:
        raise TraceError(
            f'the header has no cell "{_TIME_COLUMN}" or no Name, Range or Operation cell; '
            "expected an nsys stats CSV report",
            source,
            Place.at("line", header_row + 1),
        )
    name_col = header.index(names[0])
    time_col = header.index(_TIME_COLUMN)
    kind = _report_kind(header, source)
    from ...model.traces.functions import SummaryTable

    table = table or SummaryTable(source)
    table.reports.append(kind)
    for number, row in enumerate(rows, start=header_row + 2):
        if not row or not any(cell.strip() for cell in row):
            continue
        where = f"row {number}"
        if len(row) <= max(name_col, time_col):
            raise TraceError(f"the row has {len(row)} cells; expected {len(header)}", source, where)
        try:
            ns = float(row[time_col].replace(",", ""))
        except ValueError:
            raise TraceError(f'"{row[time_col]}" in {_TIME_COLUMN} is not a number', source, where) from None
        if ns < 0:
            raise TraceError(f"{_TIME_COLUMN} is negative", source, where)
        table.rows.append((row[name_col].strip(), ns * MS_PER_NS, kind))
    if not table.rows:
        raise TraceError("the report has a header but no rows", source)
    return table


def _rows(reader: _CsvReader, header_row: int, source: str) -> Iterator[list[str]]:
    """The CSV's rows; a cell the csv module refuses (longer than its field limit, say) names its line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            where = Place.at("line", header_row + reader.line_num)
            raise TraceError(f"this is not a CSV that nsys writes ({exc})", source, where) from None
        yield row


def _report_kind(header: list[str], source: str) -> str:
    if "Range" in header:
        return "NVTX range"
    if "Operation" in header:
        return "GPU memory"
    return "GPU kernel" if "Name" in header else source
