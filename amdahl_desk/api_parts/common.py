"""What the API's parts share: the pandas tables (an optional extra), JSON as the commands write it, cells."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from ..model.errors import Error

if TYPE_CHECKING:
    import pandas as pd


PathLike = Union[str, "os.PathLike[str]"]


class MissingExtraError(Error, ImportError):
    """A table was asked for and pandas is not installed: it comes with the ``notebook`` extra."""


def pandas_module() -> Any:
    """pandas, imported when a table is first asked for; without it, a :class:`MissingExtraError` naming the extra."""
    try:
        import pandas
    except ImportError:
        raise MissingExtraError(
            'this table is a pandas DataFrame, and pandas is not installed; install it with the "notebook" extra: '
            'pip install "amdahl-desk[notebook]"'
        ) from None
    return pandas


def frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], index: str | None = None) -> pd.DataFrame:
    """A DataFrame of ``rows`` (dictionaries) with ``columns`` in this order, indexed by ``index`` when given."""
    table = pandas_module().DataFrame(list(rows), columns=list(columns))
    return table.set_index(index) if index is not None else table


def json_equal(data: Any) -> Any:
    """``data`` exactly as the command line's JSON reads back: lists for tuples, the same floats, nulls."""
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(data))


def num(value: float | None) -> float | None:
    """An unbounded figure (inf, NaN) as None, as the JSON contracts write it."""
    return None if value is None or not math.isfinite(value) else float(value)


def cell(value: Any) -> Any:
    """A DataFrame value as a sheet's cell: missing values (None, NaN, NA) empty, numpy scalars plain."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        value = item()
        return None if isinstance(value, float) and math.isnan(value) else value
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return value


def write_bytes(path: str, data: bytes) -> None:
    """``data`` into ``path`` (for :func:`amdahl_desk.files.atomic.atomic_write`)."""
    Path(path).write_bytes(data)
