"""How a table sits on its sheet: merged ranges, two columns with one meaning, index columns, hidden sheets."""

import csv

import openpyxl
import pytest

from amdahl_desk.files import load_profile, read_measurements
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.errors import ProfileError


def book(rows, title="Components"):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    return wb, ws


def test_a_merged_scaling_belongs_to_every_row_it_covers(tmp_path):
    """Scaling "parallel" merged over C3:C4, as Excel shows it on both rows: P is 0.76, not 0.25."""
    wb, ws = book(
        [
            ["Component", "Time (ms)", "Scaling", "Group"],
            ["load", 24, "serial", "io"],
            ["forward", 25, "parallel", "compute"],
            ["backward", 51, None, None],
        ]
    )
    ws.merge_cells("C3:C4")
    ws.merge_cells("D3:D4")
    wb.save(tmp_path / "merged.xlsx")
    profile = load_profile(tmp_path / "merged.xlsx").profile
    assert [c.scaling.value for c in profile.components] == ["serial", "parallel", "parallel"]
    assert [c.group for c in profile.components] == ["io", "compute", "compute"]
    assert analyse(profile).scaling.parallel_fraction == pytest.approx(76 / 100)


@pytest.mark.parametrize(("merge", "column"), [("A3:A4", "name"), ("B3:B4", "time"), ("B3:C4", "time")])
def test_a_merged_name_or_time_is_refused_naming_the_range(tmp_path, merge, column):
    wb, ws = book([["Component", "Time (ms)", "Scaling"], ["a", 1, "serial"], ["b", 2, "parallel"], ["c", 3, "serial"]])
    ws.merge_cells(merge)
    wb.save(tmp_path / "m.xlsx")
    with pytest.raises(ProfileError, match=rf"Components!{merge}: a merged range over 2 rows of the {column} column"):
        load_profile(tmp_path / "m.xlsx")


def test_a_merged_title_above_the_header_is_no_problem(tmp_path):
    wb, ws = book([["Step profile"], [], ["Component", "Time (ms)"], ["a", 1], ["b", 2]])
    ws.merge_cells("A1:B2")
    wb.save(tmp_path / "t.xlsx")
    assert len(load_profile(tmp_path / "t.xlsx").profile.components) == 2


@pytest.mark.parametrize(
    "headers", [("Time (ms)", "Time (ms)"), ("Time", "Duration"), ("Time (ms)", "Time (s)"), ("Component", "Name")]
)
def test_two_columns_with_one_meaning_that_differ_are_refused_naming_both(tmp_path, headers):
    first, second = headers
    if first == "Component":
        rows = [["Component", "Time (ms)", "Name"], ["a", 10, "x"], ["b", 20, "y"]]
        cells = "Components!A1, Components!C1"
    else:
        rows = [["Component", first, second], ["a", 10, 20], ["b", 20, 40]]
        cells = "Components!B1, Components!C1"
    wb, _ = book(rows)
    wb.save(tmp_path / "d.xlsx")
    with pytest.raises(ProfileError, match=f"{cells}: two (time|name) columns"):
        load_profile(tmp_path / "d.xlsx")


def test_two_identical_columns_are_read_with_a_warning(tmp_path):
    wb, _ = book([["Component", "Time (ms)", "Time (ms)"], ["a", 10, 10], ["b", 20, 20]])
    wb.save(tmp_path / "same.xlsx")
    loaded = load_profile(tmp_path / "same.xlsx")
    assert [c.time for c in loaded.profile.components] == [10, 20]
    assert any("Components!B1, Components!C1" in str(w) and "same values" in str(w) for w in loaded.warnings)


def test_two_time_columns_in_a_csv(tmp_path):
    path = tmp_path / "d.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([["Component", "Time (ms)", "Time (ms)"], ["a", 10, 20], ["b", 20, 40]])
    with pytest.raises(ProfileError, match="row 1, column 2, row 1, column 3: two time columns"):
        load_profile(path)


def test_two_time_columns_of_measurements(tmp_path):
    wb, _ = book([["GPUs", "Time (ms)", "Time (ms)"], [1, 100, 200], [2, 60, 120]], "Measurements")
    wb.save(tmp_path / "runs.xlsx")
    with pytest.raises(ProfileError, match="Measurements!B1, Measurements!C1: two measured value columns"):
        read_measurements(tmp_path / "runs.xlsx")


def test_a_setting_given_twice_is_refused_naming_both_rows(tmp_path):
    wb, _ = book([["Component", "Time (ms)"], ["a", 10]])
    settings = wb.create_sheet("Settings")
    for row in (["Setting", "Value"], ["Max GPUs", 8], ["Max GPUs", 64]):
        settings.append(row)
    wb.save(tmp_path / "s.xlsx")
    with pytest.raises(ProfileError, match=r'Settings!A2, Settings!A3: the setting "Max GPUs" is given twice'):
        load_profile(tmp_path / "s.xlsx")


def test_settings_and_objectives_are_found_by_their_headers_behind_an_index_column(tmp_path):
    """What pandas to_excel writes by default: an unnamed index column before every table."""
    wb, _ = book([[None, "Component", "Time (ms)", "Objectives"], [0, "a", 30, "TTFT"], [1, "b", 70, ""]])
    settings = wb.create_sheet("Settings")
    for row in ([None, "Setting", "Value"], [0, "Target time", "40 ms"], [1, "GPU counts", "1, 2, 4, 8"]):
        settings.append(row)
    objectives = wb.create_sheet("Objectives")
    for row in ([None, "Objective", "Target time"], [0, "TTFT", "20 ms"]):
        objectives.append(row)
    wb.save(tmp_path / "pandas-like.xlsx")
    loaded = load_profile(tmp_path / "pandas-like.xlsx")
    profile = loaded.profile
    assert profile.settings.target_time == 40
    assert tuple(profile.settings.gpu_counts) == (1, 2, 4, 8)
    assert [(o.name, o.target_time) for o in profile.objectives] == [("TTFT", 20)]
    assert not loaded.warnings, [str(w) for w in loaded.warnings]


def test_a_row_that_holds_only_its_index_is_empty(tmp_path):
    wb, _ = book([[None, "Component", "Time (ms)"], [0, "a", 30], [1, None, None], [2, "b", 70]])
    wb.save(tmp_path / "gap.xlsx")
    assert [c.name for c in load_profile(tmp_path / "gap.xlsx").profile.components] == ["a", "b"]


def test_settings_without_a_header_row_behind_an_index_column(tmp_path):
    wb, _ = book([["Component", "Time (ms)"], ["a", 10]])
    settings = wb.create_sheet("Settings")
    for row in ([0, "Target time", "4 ms"], [1, "Max GPUs", 16]):
        settings.append(row)
    wb.save(tmp_path / "s.xlsx")
    loaded = load_profile(tmp_path / "s.xlsx")
    assert loaded.profile.settings.target_time == 4 and max(loaded.profile.settings.gpu_counts) == 16
    assert not loaded.warnings


def test_a_hidden_first_sheet_is_skipped_and_the_sheet_read_is_named(tmp_path):
    wb, ws = book([["Component", "Time (ms)"], ["stale", 999]], "Old copy")
    ws.sheet_state = "hidden"
    current = wb.create_sheet("Step profile")
    for row in (["Component", "Time (ms)"], ["a", 10], ["b", 20]):
        current.append(row)
    wb.save(tmp_path / "hidden.xlsx")
    loaded = load_profile(tmp_path / "hidden.xlsx")
    assert [c.name for c in loaded.profile.components] == ["a", "b"]
    note = " ".join(str(w) for w in loaded.warnings)
    assert '"Step profile", the first visible sheet' in note and '"Old copy"' in note


def test_a_sheet_named_components_wins_even_when_hidden(tmp_path):
    wb, ws = book([["Component", "Time (ms)"], ["x", 1]], "Notes")
    hidden = wb.create_sheet("Components")
    for row in (["Component", "Time (ms)"], ["a", 10]):
        hidden.append(row)
    hidden.sheet_state = "hidden"
    wb.save(tmp_path / "c.xlsx")
    loaded = load_profile(tmp_path / "c.xlsx")
    assert [c.name for c in loaded.profile.components] == ["a"] and not loaded.warnings


def test_a_readers_notes_are_typed_facts_a_notebook_can_test(tmp_path):
    """No sheet named Components (a hidden one before the one read), a second copy of the time column, an unknown
    setting and names with a line break and a tab: each note is a rule (``Problem.why``) with its values and its
    cell, and reads as its rule's sentence."""
    from amdahl_desk.model.errors import Refusal

    wb, ws = book([["Component", "Time (ms)"], ["stale", 1]], title="Old")
    ws.sheet_state = "hidden"
    data = wb.create_sheet("Data")
    for row in (["Component", "Time (ms)", "Time (ms)"], ["Decode\nstep", 1500.5, 1500.5], ["Pre\tfill", 700, 700]):
        data.append(row)
    settings = wb.create_sheet("Settings")
    for row in (["Setting", "Value"], ["Colour", "red"], ["Target time", 1000]):
        settings.append(row)
    wb.save(tmp_path / "notes.xlsx")
    loaded = load_profile(tmp_path / "notes.xlsx")
    assert [c.name for c in loaded.profile.components] == ["Decode step", "Pre fill"]
    facts = [(w.why, w.where, w.values[:2] if w.why is Refusal.UNKNOWN_SETTING else w.values) for w in loaded.warnings]
    assert facts == [
        (Refusal.COMPONENTS_SHEET_CHOSEN, "Data", ("Data", ("Old",))),
        (Refusal.UNKNOWN_SETTING, "Settings!A2", ("Colour", facts[1][2][1])),
        (Refusal.SAME_COLUMN_TWICE, "Data!B1, Data!C1", ("time", "Data!B1")),
        (Refusal.NAME_MADE_ONE_LINE, "Data!A2", ("Decode\nstep", "\n", "Decode step")),
        (Refusal.NAME_MADE_ONE_LINE, "Data!A3", ("Pre\tfill", "\t", "Pre fill")),
    ]
    assert "Target time" in facts[1][2][1]
    assert str(loaded.warnings[4]) == (
        'Data!A3: the name "Pre fill" holds a tab; a name is one line of visible text: read as "Pre fill"'
    )
