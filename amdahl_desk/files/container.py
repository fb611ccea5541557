"""Checks a file is a sane xlsx zip before any parser sees it: type, damage, zip bombs, XML entities.

Every part is inflated here once, by zlib directly from the raw stream with a hard cap,
so a size the zip headers lie about cannot reach the workbook reader. While the parts
stream by, worksheets are scanned for formulas that were never calculated (no saved
value), so the reader can say which cells need recalculating instead of "empty".
"""

from __future__ import annotations

import os
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..model.errors import Problem, ProfileError, Refusal
from .kinds import REFUSALS

# No real profile comes near these: a 50,000-row sheet inflates to about 5 MB.
MAX_MEMBER_BYTES = 64 * 2**20
MAX_TOTAL_BYTES = 256 * 2**20
MAX_RATIO = 200  # XML of real workbooks compresses 5–30×; bombs compress 1,000× and more
RATIO_CHECK_FROM = 8 * 2**20  # small members may compress very well and harm no one
MAX_MEMBERS = 10_000
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_MARK = "EncryptionInfo".encode("utf-16-le")
_DTD = re.compile(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)
# A cell with a formula and no saved value: <c r="B7" ...><f>…</f></c>, no <v> or an empty one.
_UNCOMPUTED = re.compile(
    rb'<c r="([A-Z]+[0-9]+)"[^>]*>\s*<f[^>]*(?:/>|>[^<]*</f>)\s*(?:<v\s*/>|<v>\s*</v>)?\s*</c>', re.S
)
_CALC_PR = re.compile(rb"<(?:\w+:)?calcPr\b[^>]*>")
_SHEET = re.compile(rb'<sheet\b[^>]*?\bname="([^"]*)"[^>]*?\br:id="([^"]*)"', re.S)
_REL = re.compile(rb'<Relationship\b[^>]*?\bId="([^"]*)"[^>]*?\bTarget="([^"]*)"', re.S)
_REL_ALT = re.compile(rb'<Relationship\b[^>]*?\bTarget="([^"]*)"[^>]*?\bId="([^"]*)"', re.S)


@dataclass
class ContainerReport:
    """What the check learned on the way: where each sheet's XML is, to look up a cell when one is empty.

    Looking is lazy: only a cell the reader complains about is searched for a formula that was
    never calculated, so a large healthy workbook costs nothing here.
    """

    sheet_xml: dict[str, bytes] = field(default_factory=dict)
    # The workbook asks to be recalculated on opening (xlsxwriter does): its saved formula values are placeholders.
    full_calc_on_load: bool = False
    # The cell styles and their number formats: which cells show a time (files/duration_cells.py).
    styles_xml: bytes = b""

    def never_calculated(self, sheet: str, ref: str) -> bool:
        xml = self.sheet_xml.get(sheet)
        if not xml:
            return False
        at = xml.find(f'<c r="{ref}"'.encode())
        if at < 0:
            return False
        end = xml.find(b"</c>", at)
        cell = xml[at : end + 4] if end >= 0 else xml[at:]
        return bool(_UNCOMPUTED.match(cell))


def _fail(path: Path, what: str | Problem) -> ProfileError:
    return ProfileError([what if isinstance(what, Problem) else Problem(what)], source=path.name)


def check_xlsx_container(path: Path) -> ContainerReport:
    """Raise :class:`ProfileError` unless ``path`` is a zip that is safe to hand to a workbook reader."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise _fail(path, f"cannot be read: {exc.strerror or exc}") from None
    if size == 0:
        raise _fail(path, "the file is empty (0 bytes); expected an xlsx workbook")
    if head.startswith(_OLE_MAGIC):
        with open(path, "rb") as fh:
            data = fh.read(min(size, 64 * 2**20))
        if _ENCRYPTED_MARK in data:
            raise _fail(
                path,
                "the workbook is encrypted (password-protected); remove the password in your "
                "spreadsheet program and save it again as .xlsx",
            )
        raise _fail(path, REFUSALS[".xls"])
    if not head.startswith(b"PK"):
        raise _fail(path, _describe_non_zip(head))
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            names = {i.filename for i in infos}
            if len(infos) > MAX_MEMBERS:
                raise _fail(path, Problem.typed(Refusal.TOO_MANY_PARTS, len(infos), MAX_MEMBERS))
            if "xl/workbook.bin" in names:
                raise _fail(path, "this is a binary Excel workbook (.xlsb); save it as .xlsx")
            if "xl/workbook.xml" not in names:
                if "content.xml" in names:
                    raise _fail(path, REFUSALS[".ods"])
                raise _fail(
                    path, "this zip file is not an xlsx workbook (it has no xl/workbook.xml); the file may be damaged"
                )
            _check_declared(path, infos)
            with open(path, "rb") as raw:
                parts = {info.filename: _inflate(path, raw, info) for info in infos}
        return _report(parts)
    except zipfile.BadZipFile as exc:
        raise _fail(path, f"the workbook is damaged or truncated ({exc}); expected a complete xlsx file") from None
    except ProfileError:
        raise
    except (OSError, EOFError, zlib.error, NotImplementedError, RuntimeError, ValueError, struct.error) as exc:
        raise _fail(path, f"the workbook is damaged ({exc}); expected a complete xlsx file") from None


def _check_declared(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    declared = 0
    for info in infos:
        declared += info.file_size
        if info.flag_bits & 0x1:
            raise _fail(path, f"part {info.filename} is encrypted; save the workbook without a password")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _fail(
                path,
                f"part {info.filename} uses a compression that xlsx files do not use; "
                "save the workbook again from your spreadsheet program",
            )
        if info.file_size > MAX_MEMBER_BYTES or declared > MAX_TOTAL_BYTES:
            raise _fail(path, _too_big(info.filename))
        if info.file_size > RATIO_CHECK_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            ratio = info.file_size / max(info.compress_size, 1)
            raise _fail(path, Problem.typed(Refusal.PART_INFLATES, info.filename, ratio, MAX_RATIO))


def _too_big(name: str) -> str:
    return (
        f"part {name} inflates past the limit of {MAX_MEMBER_BYTES // 2**20} MiB (about 500,000 rows), more "
        "than a profile could need, or the file is a zip bomb; refusing to read it"
    )


def _inflate(path: Path, raw: object, info: zipfile.ZipInfo) -> bytes:
    """The part's bytes, inflated from the raw stream with a hard cap; sizes in the headers are not trusted."""
    fh = raw  # an open binary file
    fh.seek(info.header_offset)  # type: ignore[attr-defined]
    header = fh.read(30)  # type: ignore[attr-defined]
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"bad local header for {info.filename}")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    fh.seek(info.header_offset + 30 + name_len + extra_len)  # type: ignore[attr-defined]
    if info.compress_type == zipfile.ZIP_STORED:
        data: bytes = fh.read(min(info.compress_size, MAX_MEMBER_BYTES + 1))  # type: ignore[attr-defined]
        if len(data) > MAX_MEMBER_BYTES:
            raise _fail(path, _too_big(info.filename))
    else:
        # One read of the compressed bytes, one inflate with a hard cap on the output.
        packed: bytes = fh.read(info.compress_size)  # type: ignore[attr-defined]
        inflater = zlib.decompressobj(-15)
        data = inflater.decompress(packed, MAX_MEMBER_BYTES + 1)
        if len(data) > MAX_MEMBER_BYTES or inflater.unconsumed_tail:
            raise _fail(path, _too_big(info.filename))
        if len(data) > RATIO_CHECK_FROM and len(data) > MAX_RATIO * max(info.compress_size, 1):
            raise _fail(
                path, f"part {info.filename} inflates more than {MAX_RATIO}× (a zip bomb?); refusing to read it"
            )
        if not inflater.eof:
            raise zipfile.BadZipFile(f"part {info.filename} is truncated")
    # The size is checked here (a header that lies about it is how a bomb hides); the checksum is calamine's
    # to check as it reads each part it uses (a changed byte is refused as "Invalid checksum").
    if len(data) != info.file_size:
        raise zipfile.BadZipFile(f"part {info.filename} does not match its recorded size")
    if info.filename.endswith((".xml", ".rels", ".vml")) and _DTD.search(data[:65536]):
        raise _fail(
            path,
            f"part {info.filename} declares XML entities (a DTD), which real workbooks never do "
            "and which can make a reader expand data without bound; refusing to read it",
        )
    return data


def _report(parts: dict[str, bytes]) -> ContainerReport:
    report = ContainerReport()
    rels = parts.get("xl/_rels/workbook.xml.rels", b"")
    targets = {rid: target for rid, target in _REL.findall(rels)}
    targets.update({rid: target for target, rid in _REL_ALT.findall(rels)})
    workbook = parts.get("xl/workbook.xml", b"")
    calc = _CALC_PR.search(workbook)
    report.styles_xml = parts.get("xl/styles.xml", b"")
    report.full_calc_on_load = bool(calc and re.search(rb'\bfullCalcOnLoad="(?:1|true)"', calc.group()))
    for name, rid in _SHEET.findall(workbook):
        target = targets.get(rid, b"").decode("utf-8", "replace").lstrip("/")
        part = target if target.startswith("xl/") else f"xl/{target}"
        if part in parts:
            report.sheet_xml[_xml_unescape(name.decode("utf-8", "replace"))] = parts[part]
    return report


def _xml_unescape(text: str) -> str:
    return (
        text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def _describe_non_zip(head: bytes) -> str:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith((b"<!doctype html", b"<html")) or b"<html" in text[:512]:
        return "this is an HTML page, not an xlsx workbook; save the table from your spreadsheet program as .xlsx"
    if text.startswith(b"<?xml"):
        return "this is an XML file, not an xlsx workbook; save it from your spreadsheet program as .xlsx"
    if text.startswith(b"%pdf"):
        return "this is a PDF, not an xlsx workbook"
    try:
        head.decode("utf-8")
        printable = True
    except UnicodeDecodeError:
        printable = False
    if printable:
        return (
            "this is a text file (CSV?), not an xlsx workbook; give it a .csv name to import it as CSV, "
            "or save it from your spreadsheet program as .xlsx"
        )
    return "this is not an xlsx workbook (not a zip container); expected a file saved as .xlsx"
