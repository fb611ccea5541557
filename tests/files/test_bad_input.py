"""Every kind of bad input gives one ProfileError naming file, sheet and cell, what is wrong and what is expected."""

import zipfile

import openpyxl
import pytest

from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.model.errors import ProfileError

from ..helpers import training


def workbook(tmp_path, components, optimizations=None, name="bad.xlsx"):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in components:
        ws.append(list(row))
    if optimizations is not None:
        opt = book.create_sheet("Optimizations")
        for row in optimizations:
            opt.append(list(row))
    path = tmp_path / name
    book.save(path)
    return path


def message(path):
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    return str(info.value)


HEADER = ("Component", "Time (ms)")


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (
            [HEADER, ("a", "fast")],
            'bad.xlsx: Components!B2: "fast" is not a time; expected a number or a value like "120 ms"',
        ),
        ([HEADER, ("a", -5)], 'bad.xlsx: Components!B2: "-5" is negative; a time must be 0 or more'),
        ([HEADER, ("a", "-5 ms")], 'bad.xlsx: Components!B2: "-5 ms" is negative'),
        ([HEADER, ("a", "inf")], 'bad.xlsx: Components!B2: "inf" is not a finite time'),
        ([HEADER, ("a", "NaN")], 'bad.xlsx: Components!B2: "NaN" is not a finite time'),
        # Past 10^15 a time is a typo, and the figures made from it (×N GPUs, in GPU-hours) would pass a float's range.
        ([HEADER, ("a", 1), ("b", 1e300)], 'bad.xlsx: Components!B3: "1e+300" is too large for a measured time'),
        ([HEADER, ("a", "2e15 ms")], 'bad.xlsx: Components!B2: "2e15 ms" is too large for a measured time'),
        ([HEADER, ("a", True)], 'bad.xlsx: Components!B2: "TRUE" is not a time'),
        ([HEADER, ("a", 1), ("A", 2)], 'bad.xlsx: Components!A3: "A" is a duplicate name (also in Components!A2)'),
        ([HEADER, ("a", None), ("b", 1)], 'bad.xlsx: Components!B2: "a" has no time'),
        ([HEADER, (None, 5)], "bad.xlsx: Components!A2: this row has no component name"),
        ([HEADER, ("a", 1), ("b", "2 parsecs")], 'Components!B3: "2 parsecs" has an unknown unit "parsecs"'),
        ([("Component", "Owner"), ("a", "me")], "bad.xlsx: Components!1:1: no time column; expected a header Time"),
        (
            [("Who", "Time"), ("a", 1)],
            "bad.xlsx: Components!1:1: no name column; expected a header Component, Stage or Name",
        ),
        ([("foo", "bar"), (1, 2)], "no header row with a name column (Component, Stage or Name) and a time column"),
        ([HEADER], "bad.xlsx: Components!1:1: the Components table has a header but no components below it"),
        ([], "bad.xlsx: Components: the components table is empty"),
        ([HEADER, ("a", 0), ("b", 0)], None),  # valid file; the analysis (not the reader) says the total is 0
    ],
)
def test_component_problems(tmp_path, rows, expected):
    path = workbook(tmp_path, rows)
    if expected is None:
        assert load_profile(path).profile.total == 0
        return
    assert expected in message(path)


@pytest.mark.parametrize(
    ("opt_row", "expected"),
    [
        (("o", "nope", 2), 'bad.xlsx: Optimizations!B2: "nope" is not a component; expected names from the Components'),
        (("o", "a; nope; zip", 2), '"nope", "zip" are not components'),
        (("o", "a", 0), 'bad.xlsx: Optimizations!C2: "0" is not a valid speedup; expected a number greater than 0'),
        (("o", "a", -3), 'Optimizations!C2: "-3" is not a valid speedup'),
        (
            ("o", "a", "fast"),
            'Optimizations!C2: "fast" is not a speedup; expected a number greater than 0, like 4 or "4x"',
        ),
        (("o", "a", None), "Optimizations!C2: "),
        (("o", "a", True), 'Optimizations!C2: "TRUE" is not a speedup; expected a number greater than 0'),
        (("o", None, 2), 'Optimizations!B2: "o" has no targets'),
        ((None, "a", 2), "Optimizations!A2: this optimization has no name"),
    ],
)
def test_optimization_problems(tmp_path, opt_row, expected):
    path = workbook(tmp_path, [HEADER, ("a", 1)], [("Optimization", "Targets", "Speedup"), opt_row])
    assert expected in message(path)


def test_spreadsheet_error_shown_as_text(tmp_path):
    (tmp_path / "bad.csv").write_text('Component,Time\na,#DIV/0!\n"b",#N/A\n')
    text = message(tmp_path / "bad.csv")
    assert "bad.csv: row 2, column 2: the cell shows the spreadsheet error #DIV/0!; fix its formula" in text
    assert "row 3, column 2: the cell shows the spreadsheet error #N/A" in text


def test_bad_enabled_value(tmp_path):
    path = workbook(
        tmp_path, [HEADER, ("a", 1)], [("Enabled", "Optimization", "Targets", "Speedup"), ("maybe", "o", "a", 2)]
    )
    assert 'Optimizations!A2: "maybe" is not yes or no; expected TRUE/FALSE, yes/no, x or 1/0' in message(path)


def test_all_problems_reported_together_and_nothing_half_loaded(tmp_path):
    path = workbook(
        tmp_path,
        [HEADER, ("a", "fast"), ("b", -1), ("b", 3)],
        [("Optimization", "Targets", "Speedup"), ("o", "zz", "0x")],
    )
    text = message(path)
    lines = text.splitlines()
    assert len(lines) == 5, text
    assert all(line.startswith("bad.xlsx: ") for line in lines)
    for where in ("Components!B2", "Components!B3", "Components!A4", "Optimizations!C2", "Optimizations!B2"):
        assert where in text


def test_bad_settings_cells(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Components"
    book.active.append(HEADER)
    book.active.append(("a", 1))
    s = book.create_sheet("Settings")
    for row in [
        ("Setting", "Value"),
        ("Target time", "soon"),
        ("Baseline GPUs", 0),
        ("Overhead model", "magic"),
        ("Parallel fraction", 2),
        ("Unit", "fortnights"),
        ("Colour", "blue"),
    ]:
        s.append(row)
    book.save(tmp_path / "bad.xlsx")
    text = message(tmp_path / "bad.xlsx")
    assert 'Settings!B2: "soon" is not a time' in text
    assert 'Settings!B3: "0" is not a valid baseline GPU count' in text
    assert 'Settings!B4: "magic" is not an overhead model; expected none, linear, log or ring' in text
    assert 'Settings!B5: "2" is not a parallel fraction' in text
    assert 'Settings!B6: "fortnights" is not a time unit' in text


class TestNotAWorkbook:
    def test_empty_file(self, tmp_path):
        (tmp_path / "e.xlsx").write_bytes(b"")
        assert message(tmp_path / "e.xlsx") == "e.xlsx: the file is empty (0 bytes); expected an xlsx workbook"

    def test_random_bytes(self, tmp_path):
        (tmp_path / "r.xlsx").write_bytes(bytes(range(256)) * 10)
        assert "not an xlsx workbook" in message(tmp_path / "r.xlsx")

    def test_csv_named_xlsx(self, tmp_path):
        (tmp_path / "c.xlsx").write_text("Component,Time\na,1\n")
        assert "text file (CSV?)" in message(tmp_path / "c.xlsx")

    def test_html_named_xlsx(self, tmp_path):
        (tmp_path / "h.xlsx").write_text("<!DOCTYPE html><html><table><tr><td>1</td></tr></table></html>")
        assert "HTML page" in message(tmp_path / "h.xlsx")

    def test_old_xls(self, tmp_path):
        (tmp_path / "old.xls").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512))
        assert "save it as .xlsx" in message(tmp_path / "old.xls")
        (tmp_path / "old.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512))
        assert "old-style Excel .xls" in message(tmp_path / "old.xlsx")

    def test_encrypted(self, tmp_path):
        data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600) + "EncryptionInfo".encode("utf-16-le") + bytes(100)
        (tmp_path / "enc.xlsx").write_bytes(data)
        assert "encrypted" in message(tmp_path / "enc.xlsx")

    def test_real_encrypted_workbook(self):
        """Encrypted with a password by msoffcrypto-tool, the way Excel stores it (an OLE container)."""
        from pathlib import Path

        path = Path(__file__).parent / "fixtures" / "encrypted-password-secret.xlsx"
        assert "the workbook is encrypted (password-protected)" in message(path)

    def test_truncated(self, tmp_path):
        save_profile(training(), tmp_path / "ok.xlsx")
        data = (tmp_path / "ok.xlsx").read_bytes()
        (tmp_path / "t.xlsx").write_bytes(data[: len(data) // 2])
        assert "damaged" in message(tmp_path / "t.xlsx")

    def test_zip_without_workbook(self, tmp_path):
        with zipfile.ZipFile(tmp_path / "z.xlsx", "w") as zf:
            zf.writestr("hello.txt", "hi")
        assert "not an xlsx workbook" in message(tmp_path / "z.xlsx")

    def test_zip_bomb_refused_by_declared_ratio(self, tmp_path):
        with zipfile.ZipFile(tmp_path / "bomb.xlsx", "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("[Content_Types].xml", "<Types/>")
            zf.writestr("xl/workbook.xml", "<workbook/>")
            zf.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * (64 * 2**20) + b"/>")
        assert "zip bomb" in message(tmp_path / "bomb.xlsx")

    def test_missing_file_and_folder(self, tmp_path):
        assert "no such file" in message(tmp_path / "nothere.xlsx")
        assert "folder" in message(tmp_path)


def test_duplicate_name_points_at_the_sheet_row_of_the_first_copy(tmp_path):
    # A title and a blank row above the header: list positions and sheet rows differ by 3.
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in [["Profile of step 200"], [], ["Component", "Time"], ["x", 1], ["dup", 2], ["y", 3], ["Dup", 4]]:
        ws.append(row)
    book.save(tmp_path / "d.xlsx")
    with pytest.raises(ProfileError) as info:
        load_profile(tmp_path / "d.xlsx")
    assert str(info.value) == (
        'd.xlsx: Components!A7: "Dup" is a duplicate name (also in Components!A5); component names must be unique'
    )


def test_duplicate_name_in_csv_names_the_csv_row(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("Component,Time\nx,1\ndup,2\ny,3\nDUP,4\n", encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert 'd.csv: row 5, column 1: "DUP" is a duplicate name (also in row 3)' in str(info.value)


def test_duplicate_name_with_a_bad_cell_elsewhere_still_names_sheet_rows(tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("Component,Time\nx,1\ndup,fast\ndup,4\n", encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert '"dup" is a duplicate name (also in row 3)' in str(info.value)


def test_multi_line_name_cells_are_read_as_one_line_with_a_warning(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in [["Component", "Time"], ["GPU\nmatmul", 1], ["ok", 2]]:
        ws.append(row)
    book.save(tmp_path / "m.xlsx")
    loaded = load_profile(tmp_path / "m.xlsx")
    assert loaded.profile.components[0].name == "GPU matmul"
    [warning] = loaded.warnings
    assert warning.where == "Components!A2" and "line break" in warning.what


def test_huge_gpu_counts_are_refused_at_the_settings_cell(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Components"
    book.active.append(["Component", "Time"])
    book.active.append(["a", 1])
    settings = book.create_sheet("Settings")
    settings.append(["Setting", "Value"])
    settings.append(["Baseline GPUs", 5_538_561_000])
    book.save(tmp_path / "g.xlsx")
    with pytest.raises(ProfileError, match=r"Settings!B2: the baseline GPU count must be at most 10,000,000"):
        load_profile(tmp_path / "g.xlsx")


def test_all_zero_profile_refusal_names_the_file_and_the_time_cells(tmp_path, capsys):
    from amdahl_desk.cli import main

    path = tmp_path / "z.csv"
    path.write_text("Component,Time (ms)\na,0\nb,0\n", encoding="utf-8")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: rows 2–3, column 2: the components add up to 0 ms" in err
    save_profile(load_profile(path).profile, tmp_path / "z.xlsx")
    assert main(["report", str(tmp_path / "z.xlsx"), "--json"]) == 2
    assert "z.xlsx: Components!B2:B3: the components add up to 0 ms" in capsys.readouterr().err
