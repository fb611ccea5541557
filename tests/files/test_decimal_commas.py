"""European decimal commas and grouped thousands in files: decided per column, never guessed silently."""

import json
from decimal import Decimal

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.numbers import AmbiguousNumberError, parse_number


def write(tmp_path, text, name="t.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return path


def times(path):
    return [c.time for c in load_profile(path).profile.components]


def test_semicolon_file_with_commas_reads_decimal_commas(tmp_path):
    # What a German or French spreadsheet saves: ; between fields, , before decimals.
    path = write(tmp_path, "Stage;Time (ms)\na;1,500\nb;2,250\nc;0,750\nd;12,5\n")
    assert times(path) == [1.5, 2.25, 0.75, 12.5]


def test_semicolon_file_with_point_thousands(tmp_path):
    path = write(tmp_path, "Stage;Time (ms)\na;1.500,25\nb;1.500\nc;2\n")
    assert times(path) == [1500.25, 1500, 2]


def test_comma_file_ambiguous_column_is_refused_naming_cell_and_both_readings(tmp_path):
    path = write(tmp_path, 'Stage,Time (ms)\na,"1,500"\nb,"2,250"\nc,300\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    text = str(info.value)
    assert "t.csv: row 2, column 2:" in text and "t.csv: row 3, column 2:" in text
    assert "1500" in text and "1.5" in text and "2250" in text and "2.25" in text


def test_comma_file_ambiguous_cells_resolved_by_the_rest_of_the_column(tmp_path):
    path = write(tmp_path, 'Stage,Time (ms)\na,"1,500"\nb,"2,250"\nc,12.5\n')
    assert times(path) == [1500, 2250, 12.5]
    path = write(tmp_path, 'Stage,Time (ms)\na,"1,500"\nb,"2,250"\nc,"0,750"\n', "u.csv")
    assert times(path) == [1.5, 2.25, 0.75]


def test_spaces_and_apostrophes_group_thousands(tmp_path):
    path = write(tmp_path, "Stage\tTime (ms)\na\t1 500,25\nb\t1\u00a0500,25\nc\t1\u202f500,25\nd\t1\u2009500,25\n")
    assert times(path) == [1500.25] * 4
    path = write(tmp_path, "Stage,Time (ms)\na,1'500.25\nb,1\u2019500.25\n", "ch.csv")
    assert times(path) == [1500.25] * 2


def test_never_thousands_when_the_grouping_is_impossible(tmp_path):
    # 0,750 and 00,100 cannot be thousands: in a ,-file they read as decimal commas only when quoted.
    path = write(tmp_path, 'Stage,Time (ms)\na,"0,750"\nb,"00,100"\n')
    assert times(path) == [0.75, 0.1]


def test_contradicting_column_refuses_only_the_ambiguous_cell(tmp_path):
    path = write(tmp_path, 'Stage,Time (ms)\na,"12,5"\nb,12.5\nc,"1,500"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert "row 4, column 2" in str(info.value) and "row 2" not in str(info.value)


def test_workbook_text_cells_follow_the_same_rules(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in [["Component", "Time"], ["a", "1,5 s"], ["b", "0,25 s"], ["c", "1.000,5 ms"]]:
        ws.append(row)
    book.save(tmp_path / "w.xlsx")
    p = load_profile(tmp_path / "w.xlsx").profile
    assert [c.time for c in p.components] == pytest.approx([1.5, 0.25, 1.0005])


def test_ambiguous_total_line_settled_by_the_sum(tmp_path):
    path = write(tmp_path, 'Stage,Time\na,400 ms\nb,"1,100 ms"\nTotal,"1,500 ms"\n')
    # "1,100" alone is ambiguous; the total reads 1500 only if 1,100 is 1100: still refused, as b says nothing.
    with pytest.raises(ProfileError, match="row 3, column 2"):
        load_profile(path)
    path = write(tmp_path, 'Stage,Time\na,400 ms\nb,1100 ms\nTotal,"1,500 ms"\n', "v.csv")
    loaded = load_profile(path)
    assert times(path) == [400, 1100] and loaded.warnings == []


# -- the reader, the command line and the model parser agree ------------------------------------------


@st.composite
def written_numbers(draw):
    """A time with up to 3 decimals and how a person might write it: (value, text, decimal separator)."""
    value = Decimal(draw(st.integers(0, 10**9))).scaleb(-draw(st.integers(0, 3)))
    decimal = draw(st.sampled_from([".", ","]))
    group = draw(st.sampled_from(["", " ", "\u00a0", "\u202f", "'", "." if decimal == "," else ","]))
    integer, _, fraction = f"{value:f}".partition(".")
    if group:
        integer = f"{int(integer):,}".replace(",", group)
    text = integer + (decimal + fraction if fraction else "")
    return float(value), text, decimal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(written_numbers())
def test_reader_command_line_and_model_agree(tmp_path, capsys, case):
    value, text, decimal = case
    assert parse_number(text, decimal) == value
    # The file: ; separated for decimal commas (as spreadsheets write it), a quoted field otherwise,
    # and a second row that shows the separator the way a real column would.
    marker = "0,5" if decimal == "," else "0.5"
    delim = ";" if decimal == "," else ","
    path = tmp_path / "agree.csv"
    path.write_text(f'Stage{delim}Time (ms)\na{delim}"{text}"\nb{delim}"{marker}"\n', encoding="utf-8")
    assert times(path)[0] == value
    # The command line knows no file: it reads the text alone, and refuses only what is ambiguous.
    try:
        alone = parse_number(text)
    except AmbiguousNumberError:
        alone = None
    code = main(["report", str(path), "--json", "--target", f"{text} ms"])
    out, err = capsys.readouterr()
    if alone is None or alone <= 0:
        assert code == 2 and "--target" in err
    else:
        assert code == 0 and json.loads(out)["target"]["time"] == alone == value


def test_settings_text_with_three_decimals_round_trips(tmp_path):
    # 1.234 µs reads two ways alone; in a workbook, text numbers use the decimal point unless the
    # column shows a decimal comma, so what Amdahl Desk writes reads back.
    from amdahl_desk.files import save_profile
    from amdahl_desk.model.profile import Component, OverheadModel, Profile, Settings

    settings = Settings(overhead_model=OverheadModel.RING, ring_latency=1.234e-6, ring_message_bytes=2.048e9)
    p = Profile([Component("a", 1)], [], settings)
    save_profile(p, tmp_path / "r.xlsx")
    assert load_profile(tmp_path / "r.xlsx").profile == p


def test_workbook_settings_column_with_decimal_commas(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Components"
    book.active.append(["Component", "Time"])
    book.active.append(["a", 1])
    sheet = book.create_sheet("Settings")
    for row in [["Setting", "Value"], ["Ring message size", "1.500 MB"], ["Ring latency", "2,5 us"]]:
        sheet.append(row)
    book.save(tmp_path / "s.xlsx")
    s = load_profile(tmp_path / "s.xlsx").profile.settings
    assert s.ring_message_bytes == 1.5e9 and s.ring_latency == pytest.approx(2.5e-6)  # the column says ","
