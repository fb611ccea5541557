"""What the document announces: one :class:`Change` record per change (or batch), and the item models' row moves.

``Document.changed(Change)`` is the one announcement a view hears: which aspects a change touched and, where a view
repaints less with it, which component rows changed in place, whether another profile was shown, whether the path
moved. ``Document.rowsMoving(RowMove)`` is the item-model protocol only (Qt must hear of rows inserted, removed or
reordered, or of the runs replaced, before and after the rows move): the two table models listen to it, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .state import Aspect

if TYPE_CHECKING:
    from ...model.measurement_table import MeasurementTable


@dataclass(frozen=True)
class Change:
    """One change of the document (or one batch of them), announced once, after it is done.

    It reads as the set of aspects it touched (``Aspect.SETTINGS in change``, ``change & FIGURES``).
    ``rows``: the component rows changed in place, in table order; None when every row may have (a unit change, rows
    moved in the same batch). ``reset``: another profile is shown (an open, New, Revert, an import or its undo).
    ``path``: the document's file changed (a save as, an open).
    """

    aspects: frozenset[Aspect] = frozenset()
    rows: tuple[int, ...] | None = ()
    reset: bool = False
    path: bool = False

    def __contains__(self, aspect: object) -> bool:
        return aspect in self.aspects

    def __iter__(self) -> Iterator[Aspect]:
        return iter(self.aspects)

    def __and__(self, other: Iterable[Aspect]) -> frozenset[Aspect]:
        return self.aspects & frozenset(other)

    __rand__ = __and__

    def touches(self, aspects: Iterable[Aspect]) -> bool:
        return not self.aspects.isdisjoint(aspects)


class Move(Enum):
    """How the rows of a table model move."""

    INSERT = "insert"  # components inserted: first, count
    REMOVE = "remove"  # components removed: first, count
    REORDER = "reorder"  # the same components in another order
    RUNS = "runs"  # the measured runs replaced by ``table``


@dataclass(frozen=True)
class RowMove:
    """A move of rows, announced before it (``done`` False) and after it (``done`` True), as Qt's models need."""

    move: Move
    first: int = 0
    count: int = 0
    table: MeasurementTable | None = None  # RUNS: before, the table coming; after, the table replaced
    done: bool = False

    def finished(self, table: MeasurementTable | None = None) -> RowMove:
        return RowMove(self.move, self.first, self.count, table if table is not None else self.table, True)


@dataclass
class Pending:
    """What the changes of a batch so far touched, merged into one :class:`Change` at its end."""

    aspects: set[Aspect] = field(default_factory=set)
    rows: set[int] | None = field(default_factory=set)
    reset: bool = False
    path: bool = False

    def __bool__(self) -> bool:
        return bool(self.aspects) or self.reset or self.path

    def changed_rows(self, rows: Iterable[int] | None) -> None:
        if rows is None:
            self.rows = None
        elif self.rows is not None:
            self.rows.update(rows)

    def moved_rows(self) -> None:
        """Rows moved after some changed in place: their numbers no longer hold, every row may have changed."""
        if self.rows:
            self.rows = None

    def take(self) -> Change:
        rows = None if self.rows is None else tuple(sorted(self.rows))
        change = Change(frozenset(self.aspects), rows, self.reset, self.path)
        self.aspects, self.rows, self.reset, self.path = set(), set(), False, False
        return change
