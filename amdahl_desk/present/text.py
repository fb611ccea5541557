"""Small rules of typesetting the views share: phrases that wrap whole, names shortened with an ellipsis."""

from __future__ import annotations

import re
import unicodedata

NBSP = "\u00a0"  # a no-break space: titles wrap between phrases, not inside them
_RTL = ("R", "AL")  # Hebrew, Arabic and other right-to-left letters
# A left-to-right letter (or a paragraph's end, an isolate) ends a run of them; digits do not: "שכבה 22 מהירה".
_RUN_ENDS = ("L", "B", "LRI", "RLI", "FSI", "PDI")
LRM = "\u200e"  # a left-to-right mark: a strong left-to-right character that draws nothing


def phrases(*parts: str) -> str:
    """Words joined so that a wrapping title breaks between phrases only ("(ceiling 2.5×)" stays whole)."""
    return " ".join(p.strip().replace(" ", NBSP) for p in parts if p.strip())


def display_width(text: str) -> int:
    """The terminal cells ``text`` takes: two for a wide or full-width character (an ideograph), none for a combining
    mark, one for any other."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text
    )


def column(text: str, width: int) -> str:
    """``text`` in a column ``width`` terminal cells wide, as a text table lines it up: cut with "…" where longer,
    padded with spaces where shorter ("前向传播" takes eight cells, not four)."""
    if display_width(text) > width:
        kept, used = [], 0
        for c in text:
            w = display_width(c)
            if used + w > width - 1:
                break
            kept.append(c)
            used += w
        text = "".join(kept) + "…"
    return text + " " * max(width - display_width(text), 0)


def clause(text: str) -> str:
    """A sentence said after a colon, its first letter lower case: "… has nothing to draw: add an optimization …"."""
    return text[:1].lower() + text[1:]


def quoted(text: str) -> str:
    """A cell's text as a message quotes it: whole up to 60 characters, else its first 57 and "…"."""
    return text if len(text) <= 60 else text[:57] + "…"


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


def _has_rtl(text: str) -> bool:
    return not text.isascii() and any(unicodedata.bidirectional(c) in _RTL for c in text)


def isolated(name: str) -> str:
    """A whole name with right-to-left letters as a run of its own direction (FSI … PDI): its words, digits and Latin
    words in its own order, and the marks and digits beside it in the text's ("3 ■ other components" beside an Arabic
    legend entry read "3" before its mark). Where a name's bounds are known: a legend's entry."""
    return f"\u2068{name}\u2069" if _has_rtl(name) else name


def reading_order(text: str) -> str:
    """``text`` (plain or rich) as an English sentence reads, left to right, where it holds right-to-left words (a
    Hebrew or Arabic name, its bounds unknown): each run of them, from its first such letter to its last before a
    left-to-right letter (digits inside it kept: "שכבה 22 מהירה"), between two left-to-right marks (LRM). Else a name
    turned the whole sentence right to left, and drew the digits after it into its own order: "(1.5–5×, likely 3×)"
    read "(5–1.5×" beside a Hebrew name. (Isolates order it alike but take another font's line height: a slide's
    sentence measured a line too tall and shrank.) Tags of rich text are left as they are."""
    if not _has_rtl(text):
        return text
    kinds = [unicodedata.bidirectional(c) for c in text]
    out, i, in_tag = [], 0, False
    while i < len(text):
        c = text[i]
        in_tag = (in_tag or c == "<") and c != ">"
        if in_tag or kinds[i] not in _RTL:
            out.append(c)
            i += 1
            continue
        end = j = i + 1  # end: just past the run's last right-to-left letter (its marks, its Arabic digits)
        while j < len(text) and kinds[j] not in _RUN_ENDS and text[j] != "<":
            if kinds[j] in (*_RTL, "AN", "NSM"):
                end = j + 1
            j += 1
        before = "" if out and out[-1] == LRM else LRM
        after = "" if text[end : end + 1] == LRM else LRM
        out.append(f"{before}{text[i:end]}{after}")
        i = end
    return "".join(out)


def tied(text: str) -> str:
    """``text`` (plain or rich) with each number kept with its unit and its last two words together, so that a
    wrapped sentence never leaves one word alone on its last line ("meets" over "it.", "1,000" over "ms"), in
    :func:`reading_order`."""
    text = _NUMBERED.sub(NBSP, _UNIT_SPACE.sub(NBSP, reading_order(text)))
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
