"""The components table as CSV: separators, units, and formula-safe escaping that reads back."""

import csv

import pytest

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.files.csv_table import escape_field, unescape_field
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Profile, Scaling
from amdahl_desk.model.units import TimeUnit

from ..helpers import training


def test_round_trip(tmp_path):
    p = training()
    save_profile(p, tmp_path / "p.csv")
    assert load_profile(tmp_path / "p.csv").profile.components == p.components


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_separators_and_text_times(tmp_path, sep):
    text = (
        sep.join(["Stage", "Duration", "Scaling"])
        + "\n"
        + "\n".join(
            sep.join(row)
            for row in [["prefill", "0.3 s", "parallel"], ["decode", "900 ms", "parallel"], ["stream", "200 ms", ""]]
        )
        + "\n"
    )
    path = tmp_path / "x.csv"
    path.write_text(text, encoding="utf-8")
    p = load_profile(path).profile
    assert p.unit is TimeUnit.S  # the first time written with a unit
    assert [c.time for c in p.components] == pytest.approx([0.3, 0.9, 0.2])
    assert p.components[2].scaling is Scaling.SERIAL


def test_formula_looking_names_are_escaped_and_read_back(tmp_path):
    names = ["=1+1", "+cmd", "-x", "@SUM(A1)", "\tTab", "'quoted", "plain"]
    p = Profile([Component(n, i + 1) for i, n in enumerate(names)])
    save_profile(p, tmp_path / "e.csv")
    with open(tmp_path / "e.csv", encoding="utf-8", newline="") as fh:
        cells = [row[0] for row in csv.reader(fh)][1:]
    assert all(not c.startswith(("=", "+", "-", "@", "\t")) for c in cells)
    assert load_profile(tmp_path / "e.csv").profile.components == p.components
    for n in names:
        assert unescape_field(escape_field(n)) == n


def test_bad_csv_names_row_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("Component,Time\na,fast\nb,-3\n", encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    text = str(info.value)
    assert 'bad.csv: row 2, column 2: "fast" is not a time' in text
    assert "bad.csv: row 3, column 2: " in text and "negative" in text


def test_zip_named_csv(tmp_path):
    save_profile(training(), tmp_path / "p.xlsx")
    (tmp_path / "p.csv").write_bytes((tmp_path / "p.xlsx").read_bytes())
    with pytest.raises(ProfileError, match="xlsx"):
        load_profile(tmp_path / "p.csv")


def test_export_starts_with_a_byte_order_mark_for_excel(tmp_path):
    p = Profile([Component("Vorverarbeitung (Größe)", 1), Component("décodage", 2)])
    save_profile(p, tmp_path / "u.csv")
    data = (tmp_path / "u.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfComponent,")
    assert data.count(b"\xef\xbb\xbf") == 1
    assert load_profile(tmp_path / "u.csv").profile.components == p.components


def test_component_header_of_a_pasted_block():
    from amdahl_desk.files import component_header

    assert component_header(["Stage", "Notes", "Time (s)"]) == ({"name": 0, "notes": 1, "time": 2}, TimeUnit.S)
    assert component_header(["a", "100"]) is None
