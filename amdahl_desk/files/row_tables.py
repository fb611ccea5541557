"""Tables handed over as rows of values (a notebook's DataFrame) read as a CSV or a sheet is: the same header
vocabulary, the same checks, messages that name the row and column."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.errors import ProfileError
from .grid import CellValue, Grid
from .measurements import LoadedMeasurements, read_grid
from .tables import Loaded, TableReader

__all__ = ["read_component_rows", "read_measurement_rows"]


def _grid(header: Sequence[str], rows: Sequence[Sequence[CellValue]], name: str) -> Grid:
    # A sheet of its own: a problem is named "DataFrame!B3" (row 1 the header), as a workbook's cell is.
    return Grid(name, [list(header), *[list(r) for r in rows]])


def read_component_rows(header: Sequence[str], rows: Sequence[Sequence[CellValue]], name: str = "DataFrame") -> Loaded:
    """A components table from a header (Component, Time (ms), Scaling, Group, Notes…, as a CSV's) and rows of
    values; raises :class:`ProfileError` naming each bad cell."""
    grid = _grid(header, rows, name)
    reader = TableReader(name)
    read = reader.read_components(grid, None)
    if read is None:
        raise ProfileError(reader.problems, source=name)
    from ..model.profile import Profile

    return reader.build(read[0], read[1], [], Profile().settings)


def read_measurement_rows(
    header: Sequence[str], rows: Sequence[Sequence[CellValue]], name: str = "DataFrame"
) -> LoadedMeasurements:
    """Measured runs (a count column such as GPUs, and a Time or Throughput column) from a header and rows."""
    return read_grid(_grid(header, rows, name), name)
