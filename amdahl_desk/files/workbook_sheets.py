"""Opening a workbook: the container checks, then calamine parses the sheets a profile is read from.

Nothing here needs numpy or the readers: the parse (most of a big workbook's reading time, done by
calamine without the GIL) can run while they are imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import python_calamine

from ..model.errors import ProfileError
from .container import ContainerReport, check_xlsx_container
from .preload import importing

MAX_ROWS = 500_000  # 50 times the largest profiles this is built for; memory stays bounded
# The sheets a profile is read from, by their lower-case names; Components falls back to the first sheet.
PROFILE_SHEETS = ("components", "optimizations", "settings", "objectives", "measurements")


@dataclass
class ParsedWorkbook:
    """An open workbook (``close()`` it) and the parsed sheets a profile is read from, by sheet name."""

    report: ContainerReport
    book: Any  # python_calamine.CalamineWorkbook, kept open: a formula may refer to any sheet
    names: list[str]
    lower: dict[str, str]  # lower-case name → the sheet's name
    sheets: dict[str, Any]  # sheet name → python_calamine.CalamineSheet

    def sheet(self, name: str, source: str) -> Any:
        """``name`` parsed (once); refused when it has more rows than a profile can."""
        sheet = self.sheets.get(name)
        if sheet is None:
            sheet = self.book.get_sheet_by_name(name)
            if sheet.total_height > MAX_ROWS:
                raise ProfileError(
                    f"sheet {name} has {sheet.total_height:,} rows, more than the {MAX_ROWS:,} a profile "
                    "can have here; split it or sum small components into groups",
                    source=source,
                )
            self.sheets[name] = sheet
        return sheet

    def close(self) -> None:
        self.book.close()


def parse_workbook(path: str | Path, profile_sheets: bool = True, meanwhile: Sequence[str] = ()) -> ParsedWorkbook:
    """Check ``path``'s container, open it and parse the profile's sheets (others, or all with
    ``profile_sheets=False``, on first use); raises :class:`ProfileError` only.

    ``meanwhile``: modules imported on another thread while calamine parses the sheets without the
    GIL. Not sooner: the container check and calamine's opening hold the GIL between their steps,
    and an import beside them kept each step waiting for it (the check took half as long again).
    """
    path = Path(path)
    report = check_xlsx_container(path)
    try:
        book = python_calamine.CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
    except Exception as exc:  # calamine raises its own types for damaged parts
        raise ProfileError(
            f"the workbook is damaged and cannot be read ({exc}); expected a complete xlsx file", source=path.name
        ) from None
    if not names:
        book.close()
        raise ProfileError("the workbook has no sheets", source=path.name)
    lower = {n.strip().lower(): n for n in names}
    wanted = [lower.get(PROFILE_SHEETS[0], names[0])] + [lower[k] for k in PROFILE_SHEETS[1:] if k in lower]
    if not profile_sheets:
        wanted = []
    parsed = ParsedWorkbook(report, book, names, lower, {})
    try:
        with importing(*meanwhile):
            for name in wanted:
                parsed.sheet(name, path.name)
    except ProfileError:
        book.close()
        raise
    except Exception as exc:  # calamine's own types for a damaged sheet
        book.close()
        raise ProfileError(f"a sheet of the workbook is damaged and cannot be read ({exc})", source=path.name) from None
    return parsed
