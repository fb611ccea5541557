"""The measured runs as the window holds them: a table value whose empty cells wait for a value."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import Problem
from .measurements import MeasureKind, Measurement, Measurements, measurement_problems, too_many_runs


@dataclass(frozen=True, eq=False)
class MeasurementTable:
    """The measured runs as typed in the window; a cell not yet filled holds NaN and waits for its value.

    The files layer reads and writes :class:`Measurements` (complete, validated runs):
    :meth:`of` makes a table from them and :meth:`complete` gives them back.
    """

    rows: tuple[Measurement, ...] = ()
    kind: MeasureKind = MeasureKind.TIME
    unit: str = "ms"
    count_name: str = "GPUs"

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(self.rows))
        object.__setattr__(self, "kind", MeasureKind(self.kind))

    @classmethod
    def of(cls, m: Measurements) -> MeasurementTable:
        return cls(m.rows, m.kind, m.unit, m.count_name)

    def _key(self) -> tuple[object, ...]:
        # NaN never equals itself; an empty cell must equal an empty cell, or no edit would ever be a no-op.
        cells = tuple(
            (None if math.isnan(r.n) else r.n, None if math.isnan(r.value) else r.value, r.label, r.notes)
            for r in self.rows
        )
        return cells, self.kind, self.unit, self.count_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MeasurementTable) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def complete(self) -> Measurements:
        """The runs with both N and a value: what the fit uses and a file keeps."""
        rows = tuple(r for r in self.rows if not (math.isnan(r.n) or math.isnan(r.value)))
        return Measurements(rows, self.kind, self.unit, self.count_name)

    def waiting(self) -> list[tuple[int, str]]:
        """(row, "n" or "value") for each cell a run still needs."""
        out: list[tuple[int, str]] = []
        isnan = math.isnan  # a pass over every run after each edit: no list per run
        for i, r in enumerate(self.rows):
            if isnan(r.n):
                out.append((i, "n"))
            if isnan(r.value):
                out.append((i, "value"))
        return out

    def problems(self) -> list[Problem]:
        """Every value typed that cannot be a run (N or value not above 0, not finite); empty cells wait."""
        too_many = too_many_runs(len(self.rows))
        if too_many is not None:
            return [too_many]
        probe = [
            Measurement(1.0 if math.isnan(r.n) else r.n, 1.0 if math.isnan(r.value) else r.value) for r in self.rows
        ]
        return measurement_problems(probe, self.kind)
