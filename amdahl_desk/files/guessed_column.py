"""The Components sheet's "Scaling guessed" column: which scaling classes are an import's guess, kept in the file.

A profile imported from a trace holds classes the import could not know (guessed from names). The workbook (and
the components CSV) keeps them as "yes" in a "Scaling guessed" column after the others, written only when some
class is a guess; an empty cell (or no column) is a class a person gave. Clearing the cell in a spreadsheet
confirms the class, as choosing one in the window does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..model.profile import Component
from ..model.values import ParseError
from .cells import parse_enabled
from .grid import Grid, is_empty

HEADER = "Scaling guessed"
YES = "yes"


def with_guesses(
    components: list[Component],
    grid: Grid,
    rows: Sequence[int],
    cols: dict[str, int],
    problem: Callable[[str, str], None],
) -> list[Component]:
    """``components`` (read from ``rows`` of ``grid``) with the classes their column marks as guesses."""
    col = cols.get("scaling_guessed")
    if col is None:
        return components
    for i, r in enumerate(rows):
        value = grid.cell(r, col)
        if is_empty(value):
            continue
        try:
            guessed = parse_enabled(value)
        except ParseError as exc:
            problem(grid.where(r, col), str(exc).replace("is not yes or no", "is not yes or empty"))
            continue
        if guessed:
            components[i] = components[i]._replace(scaling_guessed=True)
    return components


def guessed_cells(components: Sequence[Component]) -> list[str] | None:
    """The column's cells, one per component ("yes" or empty); None when no class is a guess (no column)."""
    if not any(c.scaling_guessed for c in components):
        return None
    return [YES if c.scaling_guessed else "" for c in components]
