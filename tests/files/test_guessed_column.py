"""Guessed scaling classes survive save and reopen: the Components sheet's (and CSV's) "Scaling guessed" column."""

from __future__ import annotations

import csv

import pytest
from python_calamine import CalamineWorkbook

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.profile import Component, Profile, Scaling

from ..traces import expect


def _profile() -> Profile:
    return Profile(
        [
            Component("forward", 60, Scaling.PARALLEL, scaling_guessed=True),
            Component("all_reduce", 25, Scaling.COMMUNICATION),
            Component("data", 11, Scaling.SERIAL, objectives=("TTFT",), scaling_guessed=True),
        ]
    )


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_guesses_survive_save_and_reopen(tmp_path, suffix):
    path = tmp_path / f"imported{suffix}"
    save_profile(_profile(), path)
    again = load_profile(path).profile
    assert again.components == _profile().components
    assert [c.scaling_guessed for c in again.components] == [True, False, True]


def test_the_column_as_another_program_reads_it(tmp_path):
    path = tmp_path / "imported.xlsx"
    save_profile(_profile(), path)
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Components").to_python()
    col = rows[0].index("Scaling guessed")
    assert col > rows[0].index("Objectives")  # after every other column
    assert [r[col] for r in rows[1:4]] == ["yes", "", "yes"]
    assert [r[rows[0].index("Scaling")] for r in rows[1:4]] == ["parallel", "communication", "serial"]
    csv_path = tmp_path / "imported.csv"
    save_profile(_profile(), csv_path)
    with open(csv_path, encoding="utf-8-sig", newline="") as f:
        assert [r["Scaling guessed"] for r in csv.DictReader(f)] == ["yes", "", "yes"]


def test_a_profile_without_guesses_has_no_column(tmp_path):
    path = tmp_path / "typed.xlsx"
    save_profile(Profile([Component("a", 1.0, Scaling.PARALLEL)]), path)
    header = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Components").to_python()[0]
    assert "Scaling guessed" not in header


def test_an_imported_trace_keeps_its_guesses_in_the_workbook(tmp_path):
    profile = import_trace(expect.NCCL16).to_profile()
    path = tmp_path / "nccl16.xlsx"
    save_profile(profile, path)
    assert [c.scaling_guessed for c in load_profile(path).profile.components] == [
        c.scaling_guessed for c in profile.components
    ]


def test_the_column_read_from_a_hand_made_csv(tmp_path):
    path = tmp_path / "hand.csv"
    path.write_text(
        "Component,Time (ms),Scaling,Scaling guessed\na,10,parallel,x\nb,20,serial,no\nc,30,parallel,TRUE\nd,5,serial,\n"
    )
    assert [c.scaling_guessed for c in load_profile(path).profile.components] == [True, False, True, False]
    path.write_text("Component,Time (ms),Scaling,Scaling guessed\na,10,parallel,perhaps\nb,20,serial,\n")
    with pytest.raises(ProfileError, match=r'row 2, column 4: "perhaps" is not yes or empty'):
        load_profile(path)
