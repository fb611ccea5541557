"""The document's measured runs: a value of their own beside the profile, one request, one raw setter.

The runs table (``Measurements`` tab) is edited as a whole value; the profile carries its complete runs so that a
save and a recovery copy write them. :class:`~.document.Document` holds these with the profile it owns.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtGui import QUndoCommand

from ...model.errors import ProfileError
from ...model.measurement_table import MeasurementTable
from ...model.measurements import Measurements
from ...model.profile import Profile
from . import commands
from .change import Move, Pending, RowMove
from .state import Aspect

if TYPE_CHECKING:
    from ...model.fit import FitResult
    from .document import Document


class MeasuredRuns:
    """The runs part of :class:`~.document.Document` (which sets these fields and owns the signals)."""

    profile: Profile
    revision: int
    rowsMoving: Any  # the document's Signal(RowMove)
    _measurements: MeasurementTable
    _fit: FitResult | None
    _pending: Pending
    batch: Callable[[], AbstractContextManager[None]]
    _push: Callable[[QUndoCommand], None]

    @property
    def measurements(self) -> MeasurementTable:
        """The runs as typed (cells may wait for a value); :meth:`measured_runs` for the complete ones."""
        return self._measurements

    def measured_runs(self) -> Measurements:
        """The complete runs: what a save writes to the ``Measurements`` sheet and the fit uses."""
        return self._measurements.complete()

    @property
    def fit(self) -> FitResult:
        """The fits to the complete runs as they are now (computed on the first read after a change)."""
        if self._fit is None:
            from ...model.fit import fit_measurements  # loaded with the first fit, not with the window

            self._fit = fit_measurements(self._measurements.complete())
        return self._fit

    def edit_measurements(self, table: MeasurementTable, text: str, merge_key: object = None) -> bool:
        """Replace the runs (typing, paste, sort, delete, kind or unit) as one undo step; False if nothing changes.
        Raises :class:`ProfileError` (its problems name row and field) and changes nothing when refused."""
        if table == self._measurements:
            return False
        problems = table.problems()
        if problems:
            raise ProfileError(problems)
        old = self._measurements
        self.apply_measurements(table)
        self._push(commands.SetMeasurementsCommand(cast("Document", self), old, table, text, merge_key))
        return True

    def apply_measurements(self, table: MeasurementTable) -> None:
        """Raw setter, for commands and the requests above. The profile's analysis stays as it is."""
        move = RowMove(Move.RUNS, table=table)
        with self.batch():
            self.rowsMoving.emit(move)
            old, self._measurements, self._fit = self._measurements, table, None
            self._keep_runs()
            self.revision += 1
            self._pending.aspects.add(Aspect.MEASUREMENTS)
            self.rowsMoving.emit(move.finished(old))

    def _keep_runs(self) -> None:
        """The profile carries the complete runs, so a save and a recovery copy write them (undo and redo too)."""
        runs = self._measurements.complete()
        self.profile.set_measurements(runs if runs.rows else None)
