"""The components table at the sizes people have: every column in view without scrolling sideways, no number or
header cut, a trace's figures (On path, Slack, Moves) beside the names; where it is narrow the number columns take
short titles, with the whole title first in the header's tooltip, after the text columns have given way."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QToolTip

from amdahl_desk.ui.profile.component_table import (
    GROUP,
    K_MOVES,
    NAME,
    NOTES,
    ON_PATH,
    PATH_COLUMNS,
    SCALING,
    TIME_HIGH,
)

from .screens import PROFILES, SIZES, components_out_of_view, open_profile, show_at, size_id

pytestmark = pytest.mark.gui

SIXTEEN_GPUS = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"


def _import(window, qtbot, trace: Path) -> None:
    assert window.trace_import.import_at_once(trace)
    qtbot.waitUntil(lambda: window.results._trace_tabs)
    qtbot.waitUntil(lambda: not window.doc.decision.busy)
    window.drawn()


def _names_room(window) -> None:
    """The names are as wide as the others leave them, and at least as wide as their header shows."""
    table, header = window.table, window.table.wrapping_header
    title = header.shown_title(NAME)[0]
    assert QFontMetrics(header.font()).horizontalAdvance(title) <= table.columnWidth(NAME) - 4, title
    others = sum(table.columnWidth(c) for c in range(table.model().columnCount()) if not table.isColumnHidden(c))
    assert others == table.viewport().width()  # the names stretch to the edge, nothing past it


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("which", PROFILES)
def test_every_components_column_is_in_view(window, qtbot, which, size):
    open_profile(window, qtbot, which)
    show_at(window, qtbot, size)
    table = window.table
    if which == "trace":
        assert not any(table.isColumnHidden(c) for c in PATH_COLUMNS)
    assert components_out_of_view(window) == []
    _names_room(window)


def test_the_16_gpu_trace_fits_at_1280(window, qtbot):
    """The widest table there is: a trace's figures and its step spread (Time low, Time high) beside the names."""
    _import(window, qtbot, SIXTEEN_GPUS)
    show_at(window, qtbot, (1280, 720))
    table = window.table
    assert not any(table.isColumnHidden(c) for c in (*PATH_COLUMNS, TIME_HIGH))
    assert components_out_of_view(window) == []
    _names_room(window)


def test_text_columns_give_way_before_numbers_take_short_titles(window, qtbot):
    _import(window, qtbot, SIXTEEN_GPUS)
    show_at(window, qtbot, (1280, 720))
    table, header = window.table, window.table.wrapping_header
    assert ON_PATH in header.short  # narrow: the short titles
    for col in (SCALING, GROUP, NOTES):  # each at its header's width already (or the least a column is)
        floor = max(header.sectionSizeFromContents(col).width(), header.minimumSectionSize())
        assert table.columnWidth(col) == floor, col
    show_at(window, qtbot, (2560, 1440))
    assert not header.short and not header.two_lines  # room: the whole titles, on one line


def test_a_short_title_keeps_the_whole_one_in_its_tooltip(window, qtbot):
    _import(window, qtbot, SIXTEEN_GPUS)
    show_at(window, qtbot, (1280, 720))
    header = window.table.wrapping_header
    assert header.shown_title(ON_PATH) == ["Path", "(ms)"] and header.title(ON_PATH) == "On path (ms)"
    assert header.shown_title(K_MOVES) == ["at k"] and header.title(K_MOVES) == "Moves (at k)"
    for col, whole in ((ON_PATH, "On path (ms)"), (K_MOVES, "Moves (at k)"), (NAME, "Component")):
        where = QPoint(header.sectionViewportPosition(col) + header.sectionSize(col) // 2, header.height() // 2)
        event = QHelpEvent(QEvent.Type.ToolTip, where, header.viewport().mapToGlobal(where))
        assert header.viewportEvent(event)
        qtbot.waitUntil(QToolTip.isVisible)
        assert QToolTip.text().startswith(whole), QToolTip.text()
        QToolTip.hideText()
        qtbot.waitUntil(lambda: not QToolTip.isVisible())


def test_a_text_column_is_as_wide_as_the_widest_cell_of_the_first_rows(window):
    """Scaling, Group, Objectives, Notes and the names fit the widest text the first 200 rows show (each capped, at
    least their header): the cells as data() shows them, a guessed class's mark and row 201's long note included
    in what is read and left out of it."""
    from amdahl_desk.model.profile import Component, Profile, Scaling
    from amdahl_desk.ui.profile.component_columns import NAME_CAP, TEXT_CAP
    from amdahl_desk.ui.profile.component_delegates import CELL_PADDING

    comps = [
        Component(f"c{i}", 1.0 + i, Scaling.PARALLEL, f"g{i % 7}", "n" * (i % 13), ("x",) if i == 5 else ())
        for i in range(300)
    ]
    comps[3] = comps[3]._replace(scaling_guessed=True)
    comps[250] = comps[250]._replace(notes="far below the rows read " * 4, name="a long name past the first rows")
    window.doc.reset(Profile(comps, []), None, [])
    table, model = window.table, window.table.model()
    table.fit_columns()
    fm, header = table.fontMetrics(), table.horizontalHeader()
    for col, cap in [*TEXT_CAP.items(), (NAME, NAME_CAP)]:
        cells = [str(model.data(model.index(r, col)) or "") for r in range(200)]
        wanted = max(
            [header.sectionSizeFromContents(col).width()]
            + [min(fm.horizontalAdvance(text) + 2 * CELL_PADDING, cap) for text in cells]
        )
        assert table.columns._wanted[col] == wanted, col
