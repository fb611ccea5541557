"""Small rules of typesetting the views share: phrases that wrap whole, names shortened with an ellipsis."""

from __future__ import annotations

import re

NBSP = "\u00a0"  # a no-break space: titles wrap between phrases, not inside them


def phrases(*parts: str) -> str:
    """Words joined so that a wrapping title breaks between phrases only ("(ceiling 2.5×)" stays whole)."""
    return " ".join(p.strip().replace(" ", NBSP) for p in parts if p.strip())


def shorten(name: str, most: int) -> str:
    """``name`` cut to ``most`` characters with "…" when longer."""
    return name if len(name) <= most else name[: most - 1] + "…"


def two_lines(name: str, most: int) -> str:
    """``name`` on at most two lines of ``most`` characters, broken at the last space that fits (the second line
    shortened with "…" when the name is longer still): a label beside a bar keeps more of a long name whole."""
    if len(name) <= most:
        return name
    cut = name.rfind(" ", 0, most + 1)
    if cut <= 0:
        return shorten(name, most)
    return f"{name[:cut]}\n{shorten(name[cut + 1 :], most)}"


# A space between a number and its unit ("1,000 ms", "72 %", "8 GPUs"): never a line break.
_UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:ms|s|µs|us|ns|min|h|%|GB|MB|GB/s|GPUs?|ranks?|steps?|draws?)(?!\w))")
# A space between "rank" or "step" and its number ("rank 0", "Step 3"): never a line break either.
_NUMBERED = re.compile(r"(?:(?<=\brank)|(?<=\bRank)|(?<=\bstep)|(?<=\bStep)) (?=\d)")
WIDOW = 40  # the last two words (or phrases), together at most this long, stay on one line


def tied(text: str) -> str:
    """``text`` (plain or rich) with each number kept with its unit and its last two words together, so that a
    wrapped sentence never leaves one word alone on its last line ("meets" over "it.", "1,000" over "ms")."""
    text = _NUMBERED.sub(NBSP, _UNIT_SPACE.sub(NBSP, text))
    in_tag = False
    for i in range(len(text) - 1, -1, -1):  # the last space outside a tag
        c = text[i]
        if c == ">":
            in_tag = True
        elif c == "<":
            in_tag = False
        elif c == " " and not in_tag:
            before = text.rfind(" ", 0, i)
            pair = re.sub(r"<[^>]*>", "", text[before + 1 :])
            return text[:i] + NBSP + text[i + 1 :] if 0 < len(pair) <= WIDOW else text
    return text
