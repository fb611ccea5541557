"""Reading and writing profiles: xlsx workbooks (the native document) and CSV tables."""

from __future__ import annotations

from pathlib import Path

from ..model.analysis import Analysis
from ..model.errors import ProfileError
from ..model.profile import Profile
from .atomic import atomic_write
from .csv_table import read_csv, write_csv
from .processes import pid_alive
from .tables import Loaded, component_header
from .workbook import read_workbook

READABLE = (".xlsx", ".xlsm", ".csv", ".tsv", ".txt")


def load_profile(path: str | Path) -> Loaded:
    """Read a profile from ``path`` by its extension; raises :class:`ProfileError` only."""
    path = Path(path)
    suffix = path.suffix.lower()
    if not path.exists():
        raise ProfileError("no such file", source=str(path))
    if path.is_dir():
        raise ProfileError("is a folder, not a profile file", source=str(path))
    if suffix in (".csv", ".tsv", ".txt"):
        return read_csv(path)
    if suffix == ".xls":
        raise ProfileError(
            "this is an old-style Excel .xls file; open it in Excel or LibreOffice and save it as "
            ".xlsx (Excel Workbook)",
            source=path.name,
        )
    if suffix == ".ods":
        raise ProfileError("this is an OpenDocument spreadsheet (.ods); save it as .xlsx", source=path.name)
    return read_workbook(path)


def write_workbook(profile: Profile, path: str | Path, analysis: Analysis | None = None) -> None:
    """Write ``profile`` as a workbook (xlsxwriter is loaded on first use)."""
    from .workbook_writer import write_workbook as write

    write(profile, path, analysis)


def save_profile(profile: Profile, path: str | Path, analysis: Analysis | None = None, csv: bool | None = None) -> None:
    """Write ``profile`` to ``path``: CSV for .csv (or ``csv=True``), a workbook otherwise."""
    if csv if csv is not None else Path(path).suffix.lower() == ".csv":
        write_csv(profile, path)
    else:
        write_workbook(profile, path, analysis)


__all__ = [
    "READABLE",
    "Loaded",
    "atomic_write",
    "component_header",
    "load_profile",
    "pid_alive",
    "read_csv",
    "read_workbook",
    "save_profile",
    "write_csv",
    "write_workbook",
]
