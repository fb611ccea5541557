"""Small rules of typesetting the views share: phrases that wrap whole, names shortened with an ellipsis."""

from __future__ import annotations

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
