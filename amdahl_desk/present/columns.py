"""The titles of the components' columns: one home for the window's table, the workbook and the CSV (a module
without numpy, so that writing or reading a CSV loads nothing more)."""

from __future__ import annotations

from collections.abc import Sequence

# The components' columns, the one home of their titles: the window's table, the workbook's Components sheet and
# the CSV name them from here. Each key: the whole title, and the short one where the window's table is narrow (the
# whole title then leads the header's tooltip); "{unit}" is the profile's unit.
COMPONENT_COLUMNS: dict[str, tuple[str, str]] = {
    "name": ("Component", "Name"),
    "time": ("Time ({unit})", "Time ({unit})"),
    "share": ("Share", "Share"),
    "scaling": ("Scaling", "Scaling"),
    "new_time": ("New time ({unit})", "New ({unit})"),
    "group": ("Group", "Group"),
    "objectives": ("Objectives", "Objectives"),
    "notes": ("Notes", "Notes"),
    "on_path": ("On path ({unit})", "Path ({unit})"),
    "slack": ("Slack ({unit})", "Slack ({unit})"),
    "k_moves": ("Moves (at k)", "at k"),
    "time_low": ("Time low ({unit})", "Low ({unit})"),
    "time_high": ("Time high ({unit})", "High ({unit})"),
}


def component_titles(keys: Sequence[str], unit: str, short: bool = False) -> list[str]:
    """The titles of the components' columns ``keys``, in that order, in ``unit``."""
    return [COMPONENT_COLUMNS[k][short].replace("{unit}", unit) for k in keys]


# A traced profile's workbook titles its New time column so (each component's own time at k, added up: the sum's
# new time, not the step's); not a column of the window's table.
NEW_TIME_BY_SUM = "New time, by the sum ({unit})"

# The window's table, column by column (its column numbers are these positions).
WINDOW_COMPONENT_COLUMNS = tuple(COMPONENT_COLUMNS)
COMPONENT_SHORT_TITLES = tuple(COMPONENT_COLUMNS[k][1] for k in WINDOW_COMPONENT_COLUMNS)
