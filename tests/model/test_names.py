"""The one name key: case, and every kind and run of blanks, do not tell two names apart."""

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.names import name_key, name_keys
from amdahl_desk.model.profile import Component, Optimization, Profile

BLANKS = [" ", "\u00a0", "\u202f", "\u2009", "\u3000", "\t"]


def independent_key(name: str) -> str:
    """Every Unicode blank to a plain space, runs to one, ends trimmed, then casefold: written out by hand."""
    out, blank = [], False
    for ch in name:
        if ch.isspace():
            blank = True
            continue
        if blank and out:
            out.append(" ")
        blank = False
        out.append(ch)
    return "".join(out).casefold()


@given(st.lists(st.text(alphabet=st.sampled_from(["a", "B", "ß", "é", *BLANKS]), max_size=12), max_size=80))
def test_the_key_of_many_names_is_the_key_of_each(names):
    assert name_keys(names) == [name_key(n) for n in names] == [independent_key(n) for n in names]


def test_names_that_differ_only_in_their_blanks_are_one_name():
    assert name_key("Forward\u00a0pass") == name_key(" forward  PASS ") == "forward pass"
    assert name_key("Forward\u202fpass") == name_key("forward\tpass") == name_key("Forward pass")


def test_a_target_typed_with_plain_spaces_finds_a_name_with_a_no_break_space():
    comps = [Component("Forward\u00a0pass", 30.0, "parallel"), Component("Other", 70.0)]
    profile = Profile(comps, [Optimization("Fuse", ("forward pass",), 3.0)])
    assert analyse(profile).combined.new_total == pytest.approx(80.0)


def test_two_names_that_differ_only_in_their_blanks_are_a_duplicate():
    with pytest.raises(ProfileError, match="duplicate"):
        Profile([Component("Forward pass", 1.0), Component("Forward\u00a0pass", 2.0)])
    big = [Component(f"c {i}", 1.0) for i in range(100)] + [Component("c\u202f7", 1.0)]
    with pytest.raises(ProfileError, match="duplicate"):
        Profile(big)


def test_a_workbook_whose_name_holds_a_no_break_space(tmp_path):
    """The Optimizations sheet names the component with plain spaces: read and applied, not refused."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Components"
    ws.append(["Component", "Time (ms)", "Scaling"])
    ws.append(["Forward\u00a0pass", 30, "parallel"])
    ws.append(["Data loading", 70, "serial"])
    opt = wb.create_sheet("Optimizations")
    opt.append(["Optimization", "Targets", "Speedup"])
    opt.append(["Fuse kernels", "Forward pass", 3])
    wb.save(tmp_path / "nbsp.xlsx")
    profile = load_profile(tmp_path / "nbsp.xlsx").profile
    assert analyse(profile).combined.new_total == pytest.approx(80.0)
