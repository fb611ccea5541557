"""The reader's two ways of building components (every time plain, or some with a unit or refused) agree."""

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from amdahl_desk.files import load_profile, tables
from amdahl_desk.files.grid import Grid
from amdahl_desk.files.plain_rows import plain_columns
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Settings
from amdahl_desk.model.units import TimeUnit


def write(path, rows):
    path.write_text("Component,Time (ms),Scaling,Group\n" + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    return path


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=2, max_size=40), st.integers(0, 10**6))
def test_plain_times_and_a_time_with_a_unit_read_alike(tmp_path_factory, micros, pick):
    tmp = tmp_path_factory.mktemp("paths")
    scalings = ["serial", "parallel", "communication"]
    rng = random.Random(pick)
    rows = [(f"c{i}", us / 1000, rng.choice(scalings), f"g{i % 3}") for i, us in enumerate(micros)]
    # A last row whose time is the sum of the rows above is the total line (dropped with a warning): not this test's.
    assume(abs(micros[-1] - sum(micros[:-1])) > 0.005 * sum(micros[:-1]))
    plain = load_profile(write(tmp / "plain.csv", [f"{n},{t!r},{s},{g}" for n, t, s, g in rows])).profile
    k = pick % len(rows)
    with_unit = [
        f"{n},{round(t * 1000)} us,{s},{g}" if i == k else f"{n},{t!r},{s},{g}" for i, (n, t, s, g) in enumerate(rows)
    ]
    mixed = load_profile(write(tmp / "mixed.csv", with_unit)).profile
    assert plain.unit == mixed.unit
    assert [(c.name, c.scaling, c.group) for c in plain.components] == [(n, s, g) for n, _, s, g in rows]
    for a, b, (_, t, _, _) in zip(plain.components, mixed.components, rows, strict=True):
        assert a.time == t
        assert abs(b.time - t) <= 1e-9 * max(1.0, t)


# -- a sheet of plain cells: read column by column, or row by row; the same profile and the same words ------------

_WORDS = ["serial", "Parallel", "COMMUNICATION", "comm", " p ", "", "sequential"]
_NAME = st.text(alphabet=st.sampled_from("abcXYZ é-_1 \t"), min_size=1, max_size=8)


@st.composite
def plain_sheets(draw):
    count = draw(st.integers(1, 30))
    names = [f"{draw(_NAME)}{i}" for i in range(count)]
    if count > 1 and draw(st.booleans()):  # a repeated name, spelled in another case
        names[draw(st.integers(1, count - 1))] = names[0].upper()
    times = [draw(st.floats(0, 1e6, allow_nan=False)) for _ in range(count)]
    has = {key: draw(st.booleans()) for key in ("scaling", "group", "notes", "objectives")}
    header = ["Component", draw(st.sampled_from(["Time", "Time (ms)", "Time (us)"]))]
    header += [key.capitalize() for key, on in has.items() if on]
    rows = []
    for name, time in zip(names, times, strict=True):
        row = [name, time]
        if has["scaling"]:
            row.append(draw(st.sampled_from(_WORDS)))
        if has["group"]:
            row.append(draw(st.sampled_from(["", "io", " gpu "])))
        if has["notes"]:
            row.append(draw(st.sampled_from(["", "measured", "a note "])))
        if has["objectives"]:
            row.append(draw(st.sampled_from(["", "TTFT", "TTFT; End to end", " ttft ;TTFT"])))
        rows.append(row)
    last = draw(st.sampled_from(["none", "sum", "near", "labelled", "labelled-off"]))
    above = math.fsum(times)
    if last != "none" and count >= 1:
        value = {"sum": above, "near": above * 1.004, "labelled": above, "labelled-off": above + 3}[last]
        label = "Total" if last.startswith("labelled") else "all of it"
        rows.append([label, value] + [""] * (len(header) - 2))
    return [header, *rows], draw(st.sampled_from([None, TimeUnit.MS, TimeUnit.US]))


def _read(rows, unit, column_wise):
    """What the reader makes of a sheet: components, words, places, and the profile it builds (or its refusal)."""
    with pytest.MonkeyPatch.context() as patch:
        if not column_wise:
            patch.setattr(tables, "plain_columns", lambda *args: None)
        reader = tables.TableReader("sheet.xlsx")
        read = reader.read_components(Grid("Components", rows), unit)
        places = [reader._component_place(r) for r in range(len(read[0]))] if read else []
        seen = (read, [str(w) for w in reader.warnings], [str(p) for p in reader.problems], reader.time_cells, places)
        try:
            built = reader.build(read[0], read[1], [], Settings()) if read else None
            profile = built.profile if built else None
            return (*seen, profile.components if profile else None, profile and dict(profile.name_index()))
        except ProfileError as exc:
            return (*seen, str(exc))


@settings(max_examples=150, deadline=None)
@given(plain_sheets())
def test_a_plain_sheet_reads_the_same_column_by_column_as_row_by_row(sheet):
    rows, unit = sheet
    fast = _read(rows, unit, True)
    slow = _read(rows, unit, False)
    assert fast == slow
    if fast[0] is not None:
        for comp in fast[0][0]:
            assert comp == Component(comp.name, comp.time, comp.scaling, comp.group, comp.notes, comp.objectives)


def test_the_column_reader_takes_plain_sheets_and_leaves_the_rest():
    """Not a vacuous agreement: the column reader does read plain sheets, and declines what it must not read."""
    header = ["Component", "Time", "Scaling"]
    plain = [header, ["a", 1.0, "serial"], ["b", 2.0, "Parallel"]]
    assert plain_columns(plain, 1, {"name": 0, "time": 1, "scaling": 2}) is not None
    for bad in (
        ["c", "3 ms", "serial"],
        ["c", -1.0, "serial"],
        ["c", math.nan, "serial"],
        ["c", math.inf, ""],
        ["c\nd", 1.0, ""],
        [" ", 1.0, ""],
        ["c", 1.0, "sideways"],
        ["c", 1.0],
        ["c", 1, "serial"],
    ):
        assert plain_columns([*plain, bad], 1, {"name": 0, "time": 1, "scaling": 2}) is None, bad


def _workbooks():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    fixtures = sorted((root / "tests/files/fixtures").glob("*.xlsx"))
    return [p for p in fixtures if "encrypted" not in p.name] + sorted((root / "resources/examples").glob("*.xlsx"))


@pytest.mark.parametrize("path", _workbooks(), ids=lambda p: p.name)
def test_workbooks_from_other_writers_read_the_same_both_ways(path):
    """Files written by LibreOffice, openpyxl, xlsxwriter and Amdahl Desk: the column reader (where it
    takes the sheet) gives the profile, warnings and messages the row reader gives."""
    fast = load_profile(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "plain_columns", lambda *args: None)
        slow = load_profile(path)
    assert fast.profile == slow.profile
    assert [str(w) for w in fast.warnings] == [str(w) for w in slow.warnings]
    assert fast.time_cells == slow.time_cells


def test_the_apps_own_workbook_is_still_read_column_by_column(tmp_path, monkeypatch):
    """The layout checks (index column, two columns with one meaning, merged ranges, units) leave a plain
    sheet to the column reader that keeps report --json fast."""
    from amdahl_desk.files import save_profile
    from amdahl_desk.model.profile import Profile, Scaling

    kinds = list(Scaling)
    comps = [Component(f"c{i}", float(i % 7) + 0.5, kinds[i % 3], f"g{i % 3}") for i in range(200)]
    save_profile(Profile(comps), tmp_path / "own.xlsx")
    calls = []
    real = tables.TableReader._plain_components
    monkeypatch.setattr(tables.TableReader, "_plain_components", lambda self, *a: calls.append(1) or real(self, *a))
    loaded = load_profile(tmp_path / "own.xlsx")
    assert calls == [1] and [c.time for c in loaded.profile.components] == [c.time for c in comps]
