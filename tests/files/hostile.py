"""Builders of damaged and hostile workbooks for the tests (and the longer fuzz run)."""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib
from pathlib import Path

from amdahl_desk.files import save_profile
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling

BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
    + "]>"
)


def valid_workbook(path: Path) -> Path:
    profile = Profile(
        [
            Component("load", 100),
            Component("matmul", 600, Scaling.PARALLEL),
            Component("sync", 100, Scaling.COMMUNICATION),
        ],
        [Optimization("bf16", ("matmul",), 4)],
    )
    save_profile(profile, path)
    return path


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def write_members(path: Path, parts: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


def with_dtd(source: Path, target: Path, part: str, dtd: str) -> Path:
    parts = members(source)
    xml = parts[part].decode()
    body = xml.split("?>", 1)[1] if xml.startswith("<?xml") else xml
    parts[part] = (dtd + body).encode()
    return write_members(target, parts)


def lying_bomb(target: Path, inflated: int = 200 * 2**20) -> Path:
    """A workbook whose sheet inflates to ``inflated`` bytes while its headers claim 100."""
    parts = members(valid_workbook(target.with_name("base-" + target.name)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            if name != "xl/worksheets/sheet1.xml":
                zf.writestr(name, data)
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        chunk = b" " * (1 << 20)
        raw = b"".join(compressor.compress(chunk) for _ in range(inflated >> 20)) + compressor.flush()
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml")
        info.compress_type = zipfile.ZIP_STORED  # written as stored, then relabelled as deflated below
        zf.writestr(info, raw)
    data = bytearray(buffer.getvalue())
    # Relabel the member as deflated with a tiny declared size, in the local header and the central directory.
    name = b"xl/worksheets/sheet1.xml"
    for signature, method_at, size_at in ((b"PK\x03\x04", 8, 22), (b"PK\x01\x02", 10, 24)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + len(name)] == name:
                struct.pack_into("<H", data, start + method_at, zipfile.ZIP_DEFLATED)
                struct.pack_into("<I", data, start + size_at, 100)
            start += 4
    target.write_bytes(bytes(data))
    return target


def huge_honest_sheet(target: Path, rows: int) -> Path:
    """A plain sheet of ``rows`` components, written as XML directly (openpyxl would take minutes)."""
    parts = members(valid_workbook(target.with_name("base-" + target.name)))
    body = "".join(
        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{"matmul" if r == 2 else f"c{r}"}</t></is></c>'
        f'<c r="B{r}"><v>1</v></c></row>'
        for r in range(2, rows + 2)
    )
    parts["xl/worksheets/sheet1.xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Component</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t>Time</t></is></c></row>' + body + "</sheetData></worksheet>"
    ).encode()
    return write_members(target, parts)


def nested(depth: int, tag: bytes = b"x", close: bool = True) -> bytes:
    """``depth`` elements inside each other (closed, or left open as a truncated file leaves them)."""
    return (b"<" + tag + b">") * depth + (b"</" + tag + b">") * (depth if close else 0)


# Where deep nesting goes: (part, the text it follows), in the parts a workbook reader parses.
NEST_AT = [
    ("xl/worksheets/sheet1.xml", b"<sheetData>"),
    ("xl/worksheets/sheet1.xml", b'<row r="2" spans="1:7">'),
    ("xl/worksheets/sheet1.xml", b"<v>100</v>"),
    ("xl/worksheets/sheet1.xml", b'<c r="B2"><v>'),
    ("xl/sharedStrings.xml", b"<si>"),
    ("xl/styles.xml", b"<numFmts"),
    ("xl/styles.xml", b"<cellXfs"),
    ("xl/workbook.xml", b"<sheets>"),
    ("xl/_rels/workbook.xml.rels", b"<Relationships"),
    ("[Content_Types].xml", b"<Types"),
]


def nest_in(parts: dict[str, bytes], part: str, after: bytes, depth: int, close: bool = True) -> dict[str, bytes]:
    """``parts`` with ``depth`` nested elements put after the first ``after`` in ``part`` (after its tag ends)."""
    new = dict(parts)
    xml = new[part]
    at = xml.find(after)
    if at < 0:
        at = xml.rfind(b"</")
    else:
        at += len(after)
        if not after.endswith(b">"):
            at = xml.index(b">", at) + 1
    new[part] = xml[:at] + nested(depth, close=close) + xml[at:]
    return new


def mutate(data: bytes, parts: dict[str, bytes], rng: random.Random) -> tuple[str, bytes | dict[str, bytes]]:
    """One random damage: flipped bytes, truncation, a deleted part, mangled XML, a cell of the wrong type,
    or elements nested thousands deep in a part the reader parses."""
    kind = rng.choice(["flip", "truncate", "delete", "mangle", "cell", "nest"])
    if kind == "nest":
        part, after = rng.choice(NEST_AT)
        return kind, nest_in(parts, part, after, rng.choice([1_000, 20_000, 200_000]), close=rng.random() < 0.7)
    if kind == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return kind, bytes(out)
    if kind == "truncate":
        return kind, data[: rng.randrange(len(data))]
    new = dict(parts)
    name = rng.choice(sorted(new))
    if kind == "delete":
        del new[name]
        return kind, new
    xml = bytearray(new[name])
    if kind == "mangle":
        for _ in range(rng.randint(1, 10)):
            at = rng.randrange(len(xml))
            xml[at : at + rng.randint(0, 8)] = bytes(rng.choice(b'<>/"=&;x0 \n') for _ in range(rng.randint(0, 8)))
    else:
        sheet = new.get("xl/worksheets/sheet1.xml", b"")
        values = [
            b"<v>-5</v>",
            b"<v>1e400</v>",
            b"<v>NaN</v>",
            b'<v t="b">1</v>',
            b"<v>43831</v>",
            b"<f>1/0</f>",
            b"<v></v>",
            b"<is><t>=cmd</t></is>",
        ]
        xml = bytearray(sheet.replace(b"<v>100</v>", rng.choice(values), 1))
        name = "xl/worksheets/sheet1.xml"
    new[name] = bytes(xml)
    return kind, new
