"""What a file is to Amdahl Desk, from its name (and, for a CSV, its header): the one list of suffixes; and a file's
stamp on disk, to notice another program writing it.

The command line, the window's Open, drops and Compare With…, and a folder of ranks all ask
:func:`classify`, so a file is a profile or a trace to every one of them alike.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path


class Kind(str, Enum):
    """What :func:`classify` says a path is."""

    WORKBOOK = "workbook"  # .xlsx, .xlsm: the native document
    TABLE = "table"  # a components table as CSV or TSV
    TRACE = "trace"  # a profiler's file (or a folder of them, one per rank), for the trace import
    REFUSED = "refused"  # a spreadsheet saved in a format the reader names and refuses (.xls, .ods)
    UNKNOWN = "unknown"


WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
TABLE_SUFFIXES = (".csv", ".tsv", ".txt")
# Spreadsheets saved in a format the reader does not open, and what to do instead: said for the suffix, and for
# the content when a file's name hides it (files/container).
REFUSALS = {
    ".xls": "this is an old-style Excel .xls file; open it in Excel or LibreOffice and save it as .xlsx (Excel Workbook)",
    ".ods": "this is an OpenDocument spreadsheet (.ods); save it as .xlsx",
}
REFUSED_SUFFIXES = tuple(REFUSALS)
# Kineto/Chrome and speedscope JSON (gzipped or not), and nsys's own formats, which the trace import names
# and refuses with what to do. An nsys stats report is a CSV: told from its header, not its name.
NSYS_NATIVE_SUFFIXES = (".nsys-rep", ".qdrep", ".sqlite")
TRACE_SUFFIXES = (".json", ".json.gz", ".gz", ".speedscope", *NSYS_NATIVE_SUFFIXES)
# A profile table the reader opens (the window's Open dialog and drag-and-drop offer these).
READABLE = (*WORKBOOK_SUFFIXES, *TABLE_SUFFIXES)
# The files of a folder of ranks that may be traces: every trace suffix, and CSVs (nsys stats reports).
RANK_SUFFIXES = (*TRACE_SUFFIXES, ".csv")


def classify(path: str | Path, look_inside: bool = True) -> Kind:
    """What ``path`` is. A folder is a trace (its files are ranks); a ``.csv`` is a trace when its header is an
    nsys stats report's, which is read only with ``look_inside`` (else, while dragging, it is a table)."""
    path = Path(path)
    if path.is_dir():
        return Kind.TRACE
    name = path.name.lower()
    if name.endswith(TRACE_SUFFIXES):
        return Kind.TRACE
    if name.endswith(WORKBOOK_SUFFIXES):
        return Kind.WORKBOOK
    if name.endswith(REFUSED_SUFFIXES):
        return Kind.REFUSED
    if name.endswith(TABLE_SUFFIXES):
        if look_inside and name.endswith(".csv") and path.is_file():
            from .traces import NSYS, TraceError, detect_format

            try:
                if detect_format(path) == NSYS:
                    return Kind.TRACE
            except (TraceError, OSError):
                pass
        return Kind.TABLE
    return Kind.UNKNOWN


def plain_stem(path: str | Path) -> str:
    """A file's name without what says its format: ``kineto_1gpu`` for ``kineto_1gpu.json.gz``, ``rank0`` for
    ``rank0.pt.trace.json``, ``plan`` for ``plan.xlsx`` (for the names of the files written from it)."""
    name = Path(path).name
    for suffix in (".gz", ".json", ".speedscope", ".trace", ".pt"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return Path(name).stem if Path(name).suffix.lower() in (*WORKBOOK_SUFFIXES, *TABLE_SUFFIXES) else name


def is_trace(path: str | Path) -> bool:
    """Whether ``path`` is a profiler trace (or a folder of them, one per rank) rather than a profile table."""
    return classify(path) is Kind.TRACE


def nsys_native(name: str) -> bool:
    """Whether ``name`` is one of Nsight Systems' own report files, which hold no stats table."""
    return name.lower().endswith(NSYS_NATIVE_SUFFIXES)


def stamp(path: Path) -> tuple[int, int] | None:
    """When and how big the file on disk is (None where it cannot be read), to notice another program writing it."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size
