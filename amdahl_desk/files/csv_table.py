"""The components table as CSV: read with the same rules as a sheet, written injection-safe."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..model.errors import Problem, ProfileError, Refusal
from ..model.objective_specs import objectives_text
from ..model.profile import Profile
from ..model.units import MAX_VALUE_CHARS, NUMBER_PATTERN
from ..present.columns import component_titles
from .grid import Grid
from .guessed_column import HEADER as GUESSED_HEADER
from .guessed_column import guessed_cells
from .tables import Loaded, TableReader

MAX_CSV_BYTES = 64 * 2**20
MAX_CSV_COLUMNS = 16_384  # Excel's last column, XFD
# OWASP CSV injection: a field starting with one of these is formula bait for a spreadsheet.
INJECTION_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def escape_field(text: str) -> str:
    """Prefix formula-looking text (and text already starting with a quote) with a single quote."""
    return "'" + text if text.startswith(INJECTION_PREFIXES + ("'",)) else text


# A number behind a spreadsheet's text-prefix apostrophe ('42.5, '1,5 ms): the apostrophe is no part of it.
_QUOTED_NUMBER = re.compile(rf"'(?={NUMBER_PATTERN}\s*[a-zA-Zµμ/]*\s*$)")


def _quoted_number(text: str) -> bool:
    return len(text) <= MAX_VALUE_CHARS and _QUOTED_NUMBER.match(text) is not None


def unescape_field(text: str) -> str:
    """Undo :func:`escape_field`; a number written with a spreadsheet's text-prefix apostrophe (``'42.5``) is the number."""
    if text.startswith("'") and len(text) > 1 and (text[1] in "=+-@\t\r'" or _quoted_number(text)):
        return text[1:]
    return text


def decode_text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig",):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("cp1252", errors="replace")


def csv_delimiter(text: str) -> str:
    """The separator the header line uses most: comma, semicolon or tab."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    return max(",;\t", key=header.count) if any(ch in header for ch in ",;\t") else ","


def csv_grid(path: str | Path, expected: str) -> Grid:
    """A CSV file's rows as a grid, after the checks every CSV gets (size, empty, a zip, binary, malformed).

    ``expected`` says what the file should hold, for the message about an empty file.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_CSV_BYTES:
            too_large = Problem.typed(Refusal.CSV_TOO_LARGE, size / 2**20, MAX_CSV_BYTES // 2**20)
            raise ProfileError([too_large], source=path.name)
        data = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot be read: {exc.strerror or exc}", source=path.name) from None
    if not data.strip():
        raise ProfileError(f"the file is empty; expected {expected}", source=path.name)
    if data.startswith(b"PK\x03\x04"):
        raise ProfileError(
            "this is a zip (an xlsx workbook?), not CSV text; give it an .xlsx name to open it", source=path.name
        )
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProfileError("this is a binary file, not CSV text", source=path.name)
    text = decode_text(data)
    delimiter = csv_delimiter(text)
    try:
        rows = [[unescape_field(v) for v in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    except csv.Error as exc:
        raise ProfileError(f"the CSV is malformed ({exc})", source=path.name) from None
    widest = max(range(len(rows)), key=lambda r: len(rows[r]), default=0)
    if rows and len(rows[widest]) > MAX_CSV_COLUMNS:
        too_wide = Problem.typed(Refusal.CSV_TOO_WIDE, widest + 1, len(rows[widest]), MAX_CSV_COLUMNS)
        raise ProfileError([too_wide], source=path.name)
    # Spreadsheet programs write ;-separated CSV where the comma is the decimal separator, and
    # ,-separated CSV where it is the point; a quoted "1,500" in a ,-separated file still says nothing.
    hint = {";": ",", ",": "."}.get(delimiter)
    return Grid(path.name, rows, csv=True, decimal_hint=hint)  # type: ignore[arg-type]


def read_csv(path: str | Path) -> Loaded:
    """A components table from CSV (comma, semicolon or tab separated)."""
    path = Path(path)
    grid = csv_grid(path, "a header row (Component, Time) and a row per component")
    reader = TableReader(path.name)
    read = reader.read_components(grid, None)
    if read is None:
        raise ProfileError(reader.problems, source=path.name)
    return reader.build(read[0], read[1], [], Profile().settings)


def write_csv(profile: Profile, path: str | Path) -> None:
    """The components table as UTF-8 CSV with a Time (unit) header; text fields are injection-escaped.

    Starts with a byte-order mark: without it Excel on Windows reads the file as its ANSI code page
    and garbles every non-ASCII name (the reader skips the mark).
    """
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        fh.write(csv_text(profile))


def csv_text(profile: Profile) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    with_objectives = any(c.objectives for c in profile.components)
    with_ranges = any(c.time_low is not None or c.time_high is not None for c in profile.components)
    guesses = guessed_cells(profile.components)
    unit = profile.unit.value
    header = component_titles(("name", "time", "scaling", "group", "notes"), unit)
    header += component_titles(("objectives",), unit) * with_objectives + [GUESSED_HEADER] * (guesses is not None)
    header += component_titles(("time_low", "time_high"), unit) * with_ranges
    writer.writerow(header)
    for i, c in enumerate(profile.components):
        row = [
            escape_field(c.name),
            repr(c.time) if c.time != int(c.time) else int(c.time),
            c.scaling.value,
            escape_field(c.group),
            escape_field(c.notes),
        ]
        if with_objectives:
            row.append(escape_field(objectives_text(c.objectives)))
        if guesses is not None:
            row.append(guesses[i])
        if with_ranges:
            row += ["" if v is None else repr(v) for v in (c.time_low, c.time_high)]
        writer.writerow(row)
    return out.getvalue()
