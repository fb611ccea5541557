"""Names of components and objectives: the one key two spellings of a name share, and names made one clean line."""

from __future__ import annotations

import re
from collections.abc import Sequence

# How PyTorch's profiler names each step's annotation (ProfilerStep#7): the prefix the import, the what-if and the
# command line look for unless told another (--step).
STEP_PREFIX = "ProfilerStep#"

# Line breaks, tabs and other control characters: a name is one line of visible text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# What name_key changes besides case: a blank other than a plain space (a no-break, narrow or thin
# space, a tab), looked for over many keys joined by NUL at once; ASCII text is checked without a regex.
_ODD_BLANK = re.compile(r"[^\S ]")
_ASCII_BLANKS = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def name_key(name: str) -> str:
    """What two spellings of one name share: case does not count, nor do leading and trailing blanks, and
    every run of blanks (plain, no-break, narrow or thin spaces, tabs) counts as one plain space.

    ``"Forward\\u00a0pass"`` and ``" forward  PASS "`` are one name; the reader, the model's index of
    components, targets, pairs and the comparison all compare names by this key.
    """
    return " ".join(name.split()).casefold()


def name_keys(names: Sequence[str]) -> list[str]:
    """``[name_key(n) for n in names]``, at C speed for the usual names (stripped, single plain spaces)."""
    keys = list(map(str.casefold, names))
    joined = "\x00".join(keys)
    if "  " in joined or " \x00" in joined or "\x00 " in joined or joined[:1] == " " or joined[-1:] == " ":
        return [name_key(n) for n in names]
    if joined.isascii():
        if any(blank in joined for blank in _ASCII_BLANKS):
            return [name_key(n) for n in names]
    elif _ODD_BLANK.search(joined) is not None:
        return [name_key(n) for n in names]
    return keys  # no odd blank, no run of blanks, no blank at an edge: casefold is the whole key


def name_problem(name: str) -> str | None:
    """The character that keeps ``name`` from being a name (a line break, a tab or another control character),
    or ``None``: ``Refusal.NAME_NOT_ONE_LINE``'s value, worded by present."""
    if name.isprintable():  # the common case, at C speed
        return None
    found = _CONTROL.search(name)
    return None if found is None else found.group()  # no-break and other Unicode spaces are fine


def one_line(name: str) -> str:
    """``name`` made a valid name: line breaks and tabs become one space, other control characters U+FFFD."""
    if name.isprintable():
        return name
    text = re.sub(r"[\t\n\r\u2028\u2029]+", " ", name)
    return " ".join(_CONTROL.sub("\ufffd", text).split(" ")).strip()
