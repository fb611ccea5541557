"""A legend's text as Qt's rich text lays it out: each entry a coloured mark and its name, whole on one line where
it fits, never broken inside a name where Qt would break a line, in reading order whatever the names' scripts."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable

from ...present.chart_parts import LegendEntry
from ...present.text import isolated, shorten

MARKS = {"bar": "■", "line": "━━", "dash": "╺╸╺╸", "dot": "┅┅", "star": "★", "point": "●"}

# Where Qt's rich text breaks a line inside a word: after "/", a hyphen, a dash, "|", "?", "!" or "…".
BREAKS_AFTER = frozenset("/-|?!\u2010\u2011\u2012\u2013\u2014\u2015\u2026")
JOINER = "\u2060"  # a word joiner: no line break here, nothing drawn
LEGEND_GAP = " &nbsp;&nbsp; "  # between two entries: where a legend's lines break


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in ("W", "F")  # ideographs: a line may break between any two


def _extends(c: str) -> bool:
    """Whether ``c`` belongs to the character before it (a combining mark, a joiner, a variation selector, a skin
    tone, a Hangul vowel or final): no word joiner between them, which would draw them apart."""
    o = ord(c)
    return (
        unicodedata.category(c) in ("Mn", "Me", "Mc")
        or o in (0x200C, 0x200D)
        or 0xFE00 <= o <= 0xFE0F
        or 0x1F3FB <= o <= 0x1F3FF
        or 0x1160 <= o <= 0x11FF
    )


_ASCII_BREAKS = re.compile(f"([{re.escape(''.join(sorted(c for c in BREAKS_AFTER if c.isascii())))}])(?=.)")


def unbroken(name: str) -> str:
    """``name`` as HTML that never wraps inside itself. Qt's rich text breaks at spaces even in a nowrap span, after
    "/" ("Ceiling 1/" over "(1−f)"), after hyphens and dashes ("Gradient all-" over "reduce across 1,024 ranks")
    and between CJK characters: no-break spaces, and a word joiner after each such place, hold it (never inside
    a character made of several code points: a letter and its accent, an emoji and its skin tone)."""
    if name.isascii():  # the common case, without a look at every character
        return _ASCII_BREAKS.sub("\\1" + JOINER, html.escape(name)).replace(" ", "&nbsp;")
    out = []
    for i, c in enumerate(name):
        out.append("&nbsp;" if c == " " else html.escape(c))
        after = name[i + 1 : i + 2]
        if after and not _extends(after) and c != "\u200d" and (c in BREAKS_AFTER or _wide(c) or _wide(after)):
            out.append(JOINER)
    return "".join(out)


def wrappable(name: str) -> str:
    """``name`` as HTML that may wrap where Qt breaks a line, and also after "_" and ":" (a kernel's or a function's
    name, "at::native::vectorized_elementwise_kernel", has no space to break at)."""
    return html.escape(name).replace("_", "_\u200b").replace(":", ":\u200b")


def legend_entry(mark: str, name: str, whole: bool = True) -> str:
    """One legend entry, ``mark`` (HTML) and ``name``: on one line (``whole``), or, for a name wider than the
    legend's line, free to wrap rather than be cut at the legend's edge (a nowrap span never wraps at a space)."""
    name = isolated(name)  # marks and digits beside a right-to-left name keep their places, its own words theirs
    if whole:
        return f'<span style="white-space: nowrap;">{mark}&nbsp;{unbroken(name)}</span>'
    return f'<span style="white-space: normal;">{mark}&nbsp;{wrappable(name)}</span>'


def legend_html(
    entries: tuple[LegendEntry, ...] | list[LegendEntry], whole: Callable[[str], bool] = lambda _: True, most: int = 0
) -> str:
    """The entries, each on one line unless ``whole`` says that its text (mark and name) is wider than a line;
    ``most``: each name at most this many characters ("…"), 0 for whole names."""
    parts = []
    for e in entries:
        mark = MARKS.get(e.kind, "■")
        coloured = f'<span style="color:{e.colour}; font-weight: bold;">{mark}</span>'
        name = shorten(e.name, most) if most and not e.explains else e.name
        fits = whole(f"{mark} {name}")
        parts.append((legend_entry(coloured, name, fits), fits))
    return join_entries(parts)


def join_entries(parts: list[tuple[str, bool]]) -> str:
    """Legend entries (HTML, whether each fits on a line) in one paragraph: one that does not starts a line of its
    own and the next starts after it, so that it wraps in lines of its own, not at the end of another's."""
    text = ""
    for i, (entry, fits) in enumerate(parts):
        if i:
            text += LEGEND_GAP if fits and parts[i - 1][1] else "<br>"
        text += entry
    return f'<p dir="ltr">{text}</p>' if text else ""  # entries in reading order, whichever script comes first
