"""Every colour of amdahl_desk is written in one module: the charts' and the window's in ``present/colours.py``,
the text's tones in ``present/tones.py``, a colour used by one module alone in that module. Any other module names
the constant, so a change of a colour (the refusal's red border, the straggler's red) changes every place it is
drawn, on screen, on the slide and in the workbook.

Read as text: a hex colour (``#c0392b``, ``#a33``, any case) anywhere in a module, ``#a33`` and ``#aa3333`` the same.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import amdahl_desk

PACKAGE = Path(amdahl_desk.__file__).parent
HEX = re.compile(r"#[0-9a-f]{6}\b|#[0-9a-f]{3}\b", re.IGNORECASE)


def colour(text: str) -> str:
    """``#A33`` → ``#aa3333``: one spelling for each colour."""
    digits = text[1:].lower()
    return "#" + ("".join(d * 2 for d in digits) if len(digits) == 3 else digits)


def written_twice(root: Path) -> dict[str, list[str]]:
    """Each colour written in more than one module under ``root``, with those modules."""
    where: dict[str, set[str]] = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        for match in HEX.finditer(path.read_text(encoding="utf-8")):
            where[colour(match.group())].add(path.relative_to(root).as_posix())
    return {c: sorted(modules) for c, modules in sorted(where.items()) if len(modules) > 1}


def test_each_colour_is_written_in_one_module():
    twice = written_twice(PACKAGE)
    assert not twice, "\n".join(f"{c} is written in {', '.join(modules)}" for c, modules in twice.items())


def test_the_check_finds_what_it_looks_for(tmp_path):
    (tmp_path / "a.py").write_text('RED = "#C0392B"\nGREY = "#555"\nHEAD = "#summary { background: #f7f9fc; }"\n')
    (tmp_path / "b.py").write_text('STYLE = "QLineEdit { border: 2px solid #c0392b; }"\nNOTE = "color: #555555;"\n')
    (tmp_path / "c.py").write_text('OWN = "#8a5a00"  # one module alone\nISSUE = "#12 is no colour"\n')
    assert written_twice(tmp_path) == {"#555555": ["a.py", "b.py"], "#c0392b": ["a.py", "b.py"]}
