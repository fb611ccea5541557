"""Hostile and damaged workbooks: each refused with the core's message, in bounded time and memory."""

import contextlib
import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import openpyxl
import pytest

from amdahl_desk.files import load_profile
from amdahl_desk.model.errors import ProfileError

from .hostile import (
    BILLION_LAUGHS,
    NEST_AT,
    huge_honest_sheet,
    lying_bomb,
    members,
    mutate,
    nest_in,
    valid_workbook,
    with_dtd,
    write_members,
)


def refused(path, match):
    start = time.monotonic()
    with pytest.raises(ProfileError, match=match):
        load_profile(path)
    assert time.monotonic() - start < 20  # generous: shared machines are noisy


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/workbook.xml", "[Content_Types].xml"])
def test_billion_laughs_in_any_part(tmp_path, part):
    path = with_dtd(valid_workbook(tmp_path / "ok.xlsx"), tmp_path / "lol.xlsx", part, BILLION_LAUGHS)
    refused(path, "declares XML entities")


def test_external_entity(tmp_path):
    dtd = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    path = with_dtd(valid_workbook(tmp_path / "ok.xlsx"), tmp_path / "xxe.xlsx", "xl/worksheets/sheet1.xml", dtd)
    refused(path, "declares XML entities")


def test_openpyxl_would_use_defusedxml():
    from openpyxl.xml import DEFUSEDXML

    assert DEFUSEDXML


def test_zip_bomb_with_lying_headers(tmp_path):
    refused(lying_bomb(tmp_path / "bomb.xlsx"), "zip bomb|limit|does not match")


def test_bombs_stay_within_memory(tmp_path):
    """In a fresh process: reading a lying bomb and a ratio bomb stays far below 1 GB.

    The peak is the new process' own (VmHWM of its memory after exec): ``ru_maxrss`` also counts the memory of
    the test process it was forked from, which a long test run makes large."""
    bomb = lying_bomb(tmp_path / "bomb.xlsx")
    code = (
        "import sys; from amdahl_desk.files import load_profile\n"
        "try:\n    load_profile(sys.argv[1])\nexcept Exception as e:\n    print(type(e).__name__)\n"
        "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(bomb)], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()
    assert out[0] == "ProfileError"
    assert int(out[1]) < 400 * 1024  # kB


def test_huge_honest_sheet_is_refused_naming_the_limit(tmp_path):
    refused(huge_honest_sheet(tmp_path / "huge.xlsx", 520_000), "more than the 500,000")


def test_large_honest_sheet_is_read(tmp_path):
    loaded = load_profile(huge_honest_sheet(tmp_path / "big.xlsx", 20_000))
    assert len(loaded.profile.components) == 20_000


def test_macro_enabled_workbook_values_read_macros_ignored(tmp_path):
    parts = members(valid_workbook(tmp_path / "ok.xlsx"))
    parts["xl/vbaProject.bin"] = b"\xd0\xcf\x11\xe0 pretend macros" * 100
    path = write_members(tmp_path / "macros.xlsm", parts)
    assert load_profile(path).profile.total == 800


def test_formula_without_saved_value_names_the_cell(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    ws.append(["Component", "Time"])
    ws.append(["a", 100])
    ws.append(["b", "=NOW()"])  # openpyxl saves formulas without values, as a script would
    book.save(tmp_path / "f.xlsx")
    with pytest.raises(ProfileError) as info:
        load_profile(tmp_path / "f.xlsx")
    assert str(info.value) == (
        "f.xlsx: Components!B3: holds the formula =NOW(), which Amdahl Desk cannot compute (the function NOW, "
        "which Amdahl Desk does not compute), and the workbook asks to be recalculated when opened, so its saved "
        "values are placeholders; open the workbook in "
        "Excel or LibreOffice, recalculate and save it, or type the value"
    )


def test_formula_with_saved_value_is_read(tmp_path):
    """LibreOffice saves the value with the formula: the Total row of this fixture is a formula."""
    from pathlib import Path

    fixture = Path(__file__).parent / "fixtures" / "training-seconds-libreoffice.xlsx"
    assert load_profile(fixture).warnings == []


@pytest.mark.parametrize(("part", "after"), NEST_AT, ids=[f"{p}:{a.decode()}" for p, a in NEST_AT])
@pytest.mark.parametrize("close", [True, False], ids=["closed", "left open"])
def test_xml_nested_200000_deep_in_any_part(tmp_path, part, after, close):
    """Read or refused with the core's error, in bounded time: never a RecursionError or a hang."""
    parts = nest_in(members(valid_workbook(tmp_path / "ok.xlsx")), part, after, 200_000, close)
    path = write_members(tmp_path / "nested.xlsx", parts)
    start = time.monotonic()
    try:
        load_profile(path)
    except ProfileError as exc:
        assert str(exc).startswith("nested.xlsx: ") and len(str(exc)) < 2_000, str(exc)[:300]
    assert time.monotonic() - start < 20


def test_a_formula_nested_100000_deep_is_refused_in_a_short_message(tmp_path):
    parts = members(valid_workbook(tmp_path / "ok.xlsx"))
    deep = b"(" * 100_000 + b"1" + b")" * 100_000
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(
        b"<v>100</v>", b"<f>" + deep + b"</f><v>100</v>", 1
    )
    path = write_members(tmp_path / "deep-formula.xlsx", parts)
    start = time.monotonic()
    with pytest.raises(
        ProfileError, match=r"Components!B2: holds the formula =\(+…, which Amdahl Desk cannot compute"
    ) as caught:
        load_profile(path)
    assert len(str(caught.value)) < 1_000 and time.monotonic() - start < 20


FUZZ_ITERATIONS = int(os.environ.get("AMDAHL_FUZZ_ITERATIONS", "150"))


def test_fuzzed_workbooks_only_ever_raise_profile_error(tmp_path):
    """Random damage to a valid workbook: it loads, or it fails with the core's error. Nothing else escapes.

    A longer run: AMDAHL_FUZZ_ITERATIONS=20000 ./run.sh test -k fuzz (seed printed on failure).
    """
    base = valid_workbook(tmp_path / "base.xlsx")
    data = base.read_bytes()
    parts = members(base)
    reset_peak()  # this test's own peak: the tests run before it in this process had theirs
    seed = int(os.environ.get("AMDAHL_FUZZ_SEED", "20261129"))
    rng = random.Random(seed)
    outcomes = {"loaded": 0, "refused": 0}
    for i in range(FUZZ_ITERATIONS):
        kind, damaged = mutate(data, parts, rng)
        path = tmp_path / f"fuzz-{i}.xlsx"
        if isinstance(damaged, dict):
            write_members(path, damaged)
        else:
            path.write_bytes(damaged)
        try:
            load_profile(path)
            outcomes["loaded"] += 1
        except ProfileError as exc:
            assert str(exc).startswith(f"fuzz-{i}.xlsx: "), str(exc)
            outcomes["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - this is what the test looks for
            pytest.fail(f"seed {seed}, iteration {i} ({kind}): {type(exc).__name__}: {exc}")
        path.unlink()
    assert outcomes["refused"] > FUZZ_ITERATIONS // 4
    assert peak_kib() < 1024 * 1024


def reset_peak() -> None:
    """Start this process' peak memory afresh (Linux); elsewhere the peak stays the process' whole life's."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def peak_kib() -> int:
    """The process' peak resident memory in KiB since :func:`reset_peak`."""
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text())
    except OSError:
        found = None
    return int(found[1]) if found else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_a_changed_byte_under_an_unchanged_checksum_is_refused_as_damage(tmp_path):
    """A stored (uncompressed) part whose bytes no longer match its CRC: refused, never read as 900 ms."""
    import zipfile

    from amdahl_desk.files import load_profile
    from amdahl_desk.resources import example_path

    stored = tmp_path / "stored.xlsx"
    with zipfile.ZipFile(example_path()) as zin, zipfile.ZipFile(stored, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info.filename))
    data = bytearray(stored.read_bytes())
    at = data.find(b"<v>600</v>")
    assert at > 0
    data[at + 3 : at + 6] = b"900"
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(bytes(data))
    with pytest.raises(ProfileError, match="damaged") as refused:
        load_profile(bad)
    assert "checksum" in str(refused.value).lower()
