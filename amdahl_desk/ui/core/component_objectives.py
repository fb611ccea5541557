"""Each component's objectives, followed row by row as the document announces its changes.

The window asks at every change whether any component names an objective (to show the Objectives
column and the objective picker) and what each names (for the objectives' analysis): asking the
profile reads all of its rows, 0.5 ms at each edit of a 10,000-component table. This answers from a
copy kept up to date by the rows each change names, and reads all rows again only after a change
of the rows themselves (inserted, removed, reordered, another profile).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from .change import Change

if TYPE_CHECKING:
    from .document import Document


class ComponentObjectives(QObject):
    """``of_components()`` is ``profile.objectives_of_components()``; ``named()`` whether any of them is not empty."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._rows: list[tuple[str, ...]] | None = None
        self._named = 0  # how many components name an objective
        doc.rowsMoving.connect(lambda move: self._forget() if move.done else None)  # runs replaced: forgets too
        doc.changed.connect(self._follow)

    def _follow(self, change: Change) -> None:
        if change.reset or change.rows is None:
            self._forget()
        elif change.rows:
            self._rows_changed(change.rows)

    def of_components(self) -> list[tuple[str, ...]]:
        """Each component's objectives, in table order (a copy: the caller may keep it)."""
        return list(self._current())

    def named(self) -> bool:
        """Whether a component names an objective (End to end holds them all without being named)."""
        self._current()
        return self._named > 0

    def _current(self) -> list[tuple[str, ...]]:
        comps = self.doc.profile.components
        if self._rows is None or len(self._rows) != len(comps):
            self._rows = [c.objectives for c in comps]
            self._named = sum(map(bool, self._rows))
        return self._rows

    def _rows_changed(self, rows: Sequence[int]) -> None:
        comps = self.doc.profile.components
        if self._rows is None or len(self._rows) != len(comps):
            self._rows = None
            return
        for row in rows:
            new = comps[row].objectives
            self._named += bool(new) - bool(self._rows[row])
            self._rows[row] = new

    def _forget(self) -> None:
        self._rows = None
