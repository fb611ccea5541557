"""Opening a workbook: the container checks, then calamine parses the sheets a profile is read from.

Nothing here needs numpy or the readers: the parse (most of a big workbook's reading time, done by
calamine without the GIL) can run while they are imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import python_calamine

from ..model.errors import Problem, ProfileError, Refusal
from .container import ContainerReport, check_xlsx_container
from .duration_cells import time_styles
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
    time_styles: dict[int, bool] = field(default_factory=dict)  # cell styles that show a time (duration_cells)
    components: str = ""  # the sheet the components are read from
    # Why that sheet, when no sheet is named Components and another could have been meant; else None.
    components_note: Problem | None = None

    def sheet(self, name: str, source: str) -> Any:
        """``name`` parsed (once); refused when it has more rows than a profile can."""
        sheet = self.sheets.get(name)
        if sheet is None:
            sheet = self.book.get_sheet_by_name(name)
            if sheet.total_height > MAX_ROWS:
                too_long = Problem.typed(Refusal.SHEET_TOO_LONG, name, sheet.total_height, MAX_ROWS)
                raise ProfileError([too_long], source=source)
            self.sheets[name] = sheet
        return sheet

    def close(self) -> None:
        self.book.close()


def components_sheet(book: Any, names: list[str], lower: dict[str, str]) -> tuple[str, Problem | None]:
    """The sheet to read components from, and a note saying why when that was a choice.

    The sheet named Components; without one, the first visible sheet that is not another profile
    sheet (a hidden sheet is often a stale copy), else the first sheet.
    """
    if PROFILE_SHEETS[0] in lower:
        return lower[PROFILE_SHEETS[0]], None
    try:
        hidden = {m.name for m in book.sheets_metadata if str(m.visible).rsplit(".", 1)[-1] != "Visible"}
    except Exception:  # calamine's own types for damaged metadata: every sheet counts as visible
        hidden = set()
    others = [n for n in names if n.strip().lower() not in PROFILE_SHEETS[1:]]
    visible = [n for n in others if n not in hidden]
    chosen = (visible or others or names)[0]
    skipped = [n for n in others if n in hidden and names.index(n) < names.index(chosen)]
    if not skipped and len(others) <= 1:
        return chosen, None
    return chosen, Problem("", why=Refusal.COMPONENTS_SHEET_CHOSEN, values=(chosen, tuple(skipped)))


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
    components, note = components_sheet(book, names, lower)
    wanted = [components] + [lower[k] for k in PROFILE_SHEETS[1:] if k in lower]
    if not profile_sheets:
        wanted = []
    parsed = ParsedWorkbook(report, book, names, lower, {}, time_styles(report.styles_xml), components, note)
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
