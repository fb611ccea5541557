"""A click on any header of the components table sorts by that column's values — the time ranges' and the
trace's columns included (a click on Time low or On path raised an unexpected error)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from amdahl_desk.model.profile import Component, Profile
from amdahl_desk.ui.profile.component_sorting import sort_keys
from amdahl_desk.ui.profile.component_table import K_MOVES, NAME, ON_PATH, SLACK, TIME_HIGH, TIME_LOW

pytestmark = pytest.mark.gui

COMPONENTS = [
    Component("load", 30.0, time_low=25.0, time_high=40.0),
    Component("forward", 50.0),  # no range: its bounds are its time
    Component("backward", 80.0, time_low=20.0, time_high=90.0),
    Component("step", 10.0, time_low=9.0, time_high=11.0),
]


def names(doc) -> list[str]:
    return [c.name for c in doc.profile.components]


def test_every_header_sorts_and_a_second_click_reverses(components):
    doc, model, table = components.doc, components.model, components.table
    doc.reset(Profile(list(COMPONENTS)), None)
    table.show_ranges(True)
    for col in range(model.columnCount()):
        for _ in range(2):
            table.sort_by_column(col)
            assert sorted(names(doc)) == sorted(c.name for c in COMPONENTS), col
    table.sort_by_column(NAME)
    assert names(doc) == ["backward", "forward", "load", "step"]
    table.sort_by_column(NAME)
    assert names(doc) == ["step", "load", "forward", "backward"]


@pytest.mark.parametrize(
    ("col", "expected"),
    [(TIME_LOW, ["forward", "load", "backward", "step"]), (TIME_HIGH, ["backward", "forward", "load", "step"])],
)
def test_a_time_bound_sorts_largest_first_a_missing_one_as_the_time(components, col, expected):
    components.doc.reset(Profile(list(COMPONENTS)), None)
    components.table.show_ranges(True)
    components.table.sort_by_column(col)
    assert names(components.doc) == expected


def test_the_trace_columns_sort_by_their_figures():
    figures = SimpleNamespace(
        components={
            "load": SimpleNamespace(on_path=5.0, slack=1.0, k_moves=1.5),
            "forward": SimpleNamespace(on_path=40.0, slack=0.0, k_moves=None),  # the path never moves
            "backward": SimpleNamespace(on_path=0.0, slack=30.0, k_moves=None),  # not on the path
        }
    )
    keys = sort_keys(list(COMPONENTS), None, figures)  # "step" is unknown to the trace

    def order(col: int) -> list[str]:
        return [COMPONENTS[i].name for i in sorted(range(4), key=keys[col], reverse=True)]

    assert order(ON_PATH) == ["forward", "load", "backward", "step"]
    assert order(SLACK) == ["backward", "load", "forward", "step"]
    assert order(K_MOVES) == ["forward", "load", "backward", "step"]  # never moves, then the k, then off the path
    assert keys[ON_PATH](3) == -math.inf and keys[NAME](0) == "load"
