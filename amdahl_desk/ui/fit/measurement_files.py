"""File → Open Measurements and Export Measurements: runs from a CSV or workbook, and back to CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QStatusBar

from ...files import read_measurements, write_measurements_csv
from ...model.errors import ProfileError
from ...model.measurement_table import MeasurementTable
from ...present.refusals import error_text
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.saving import write_safely

FILTERS = (
    "Measurements (*.csv *.tsv *.txt *.xlsx *.xlsm);;CSV tables (*.csv);;Excel workbooks (*.xlsx *.xlsm);;All files (*)"
)


class Window(Protocol):
    """What these actions need of the main window."""

    doc: Document

    def choose_file(self, save: bool, suggested: str = "", filters: str = "") -> str: ...
    def show_error(self, title: str, text: str) -> None: ...
    def statusBar(self) -> QStatusBar: ...


def open_measurements(window: Window, path: str | Path | None = None) -> bool:
    """Replace the runs with a file's, as one undoable step; a file that cannot be read changes nothing."""
    if path is None:
        path = window.choose_file(save=False, filters=FILTERS)
        if not path:
            return False
    path = Path(path)
    try:
        loaded = read_measurements(path)
    except ProfileError as exc:
        window.show_error("Cannot open measurements", error_text(exc, locale_numbers()))
        return False
    except Exception as exc:  # noqa: BLE001 - the promise: never a traceback, the runs as they were
        window.show_error("Cannot open measurements", f"{path.name}: unexpected error while reading: {exc}")
        return False
    window.doc.edit_measurements(MeasurementTable.of(loaded.measurements), f"Open measurements {path.name}")
    runs = len(loaded.measurements)
    window.statusBar().showMessage(f"Opened {runs} run{'s' if runs != 1 else ''} from {path.name}", 8000)
    return True


def export_measurements(window: Window, path: str | Path | None = None) -> bool:
    """Write the complete runs as CSV (what Open Measurements and ``amdahl-desk fit`` read back)."""
    doc = window.doc
    if path is None:
        base = doc.path.stem + "-measurements" if doc.path else "measurements"
        path = window.choose_file(save=True, suggested=f"{base}.csv", filters="CSV tables (*.csv)")
        if not path:
            return False
    path = Path(path)
    if path.suffix.lower() != ".csv":
        path = path.with_suffix(".csv")
    runs = doc.measured_runs()
    why = write_safely(path, lambda tmp: write_measurements_csv(runs, tmp))
    if why is not None:
        window.show_error("Cannot export measurements", why)
        return False
    left_out = len(doc.measurements.rows) - len(runs)
    note = f"; {left_out} run{'s' if left_out != 1 else ''} still waiting for a value left out" if left_out else ""
    window.statusBar().showMessage(f"Exported {len(runs)} runs to {path.name}{note}", 8000)
    return True
