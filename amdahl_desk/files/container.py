"""Checks a file is a sane xlsx zip before any parser sees it: type, damage, zip bombs."""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path

from ..model.errors import ProfileError

# No real profile comes near these: a 50,000-row sheet inflates to about 5 MB.
MAX_MEMBER_BYTES = 256 * 2**20
MAX_TOTAL_BYTES = 512 * 2**20
MAX_RATIO = 200  # XML of real workbooks compresses 5–30×; bombs compress 1,000× and more
RATIO_CHECK_FROM = 8 * 2**20  # small members may compress very well and harm no one
MAX_MEMBERS = 10_000
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_MARK = "EncryptionInfo".encode("utf-16-le")


def _fail(path: Path, what: str) -> ProfileError:
    return ProfileError(what, source=path.name)


def check_xlsx_container(path: Path) -> None:
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
        raise _fail(
            path,
            "this is an old-style Excel .xls file; open it in Excel or LibreOffice and save it as "
            ".xlsx (Excel Workbook)",
        )
    if not head.startswith(b"PK"):
        raise _fail(path, _describe_non_zip(head))
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            names = {i.filename for i in infos}
            if len(infos) > MAX_MEMBERS:
                raise _fail(
                    path,
                    f"the workbook holds {len(infos):,} parts, more than the {MAX_MEMBERS:,} "
                    "a profile could need; refusing to read it",
                )
            if "xl/workbook.xml" not in names and "xl/workbook.bin" not in names:
                if "content.xml" in names:
                    raise _fail(path, "this is an OpenDocument spreadsheet (.ods); save it as .xlsx")
                raise _fail(
                    path, "this zip file is not an xlsx workbook (it has no xl/workbook.xml); the file may be damaged"
                )
            if "xl/workbook.bin" in names:
                raise _fail(path, "this is a binary Excel workbook (.xlsb); save it as .xlsx")
            _check_sizes(path, zf, infos)
    except zipfile.BadZipFile as exc:
        raise _fail(path, f"the workbook is damaged or truncated ({exc}); expected a complete xlsx file") from None
    except (OSError, EOFError, zlib.error, NotImplementedError, RuntimeError, ValueError) as exc:
        if isinstance(exc, ProfileError):
            raise
        raise _fail(path, f"the workbook is damaged ({exc}); expected a complete xlsx file") from None


def _check_sizes(path: Path, zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> None:
    declared = 0
    for info in infos:
        declared += info.file_size
        if info.flag_bits & 0x1:
            raise _fail(path, f"part {info.filename} is encrypted; save the workbook without a password")
        if info.file_size > MAX_MEMBER_BYTES or declared > MAX_TOTAL_BYTES:
            raise _fail(
                path,
                f"part {info.filename} would inflate to {info.file_size / 2**20:,.0f} MiB, past the "
                f"limit of {MAX_MEMBER_BYTES // 2**20} MiB a profile could need (a zip bomb?); "
                "refusing to read it",
            )
        if info.file_size > RATIO_CHECK_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise _fail(
                path,
                f"part {info.filename} inflates {info.file_size / max(info.compress_size, 1):,.0f}× "
                f"(limit {MAX_RATIO}×), which no real workbook does (a zip bomb?); refusing to read it",
            )
    # Declared sizes can lie: inflate each XML part once, counting, and stop at the limit.
    actual_total = 0
    for info in infos:
        actual = 0
        with zf.open(info) as member:
            while chunk := member.read(1 << 20):
                actual += len(chunk)
                if actual > MAX_MEMBER_BYTES or actual_total + actual > MAX_TOTAL_BYTES:
                    raise _fail(
                        path,
                        f"part {info.filename} inflates past the limit of "
                        f"{MAX_MEMBER_BYTES // 2**20} MiB a profile could need (a zip bomb?); "
                        "refusing to read it",
                    )
                if actual > RATIO_CHECK_FROM and actual > MAX_RATIO * max(info.compress_size, 1):
                    raise _fail(
                        path, f"part {info.filename} inflates more than {MAX_RATIO}× (a zip bomb?); refusing to read it"
                    )
        actual_total += actual


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
