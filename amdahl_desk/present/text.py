"""Small rules of typesetting the views share: phrases that wrap whole, names shortened with an ellipsis."""

from __future__ import annotations

NBSP = "\u00a0"  # a no-break space: titles wrap between phrases, not inside them


def phrases(*parts: str) -> str:
    """Words joined so that a wrapping title breaks between phrases only ("(ceiling 2.5×)" stays whole)."""
    return " ".join(p.strip().replace(" ", NBSP) for p in parts if p.strip())


def shorten(name: str, most: int) -> str:
    """``name`` cut to ``most`` characters with "…" when longer."""
    return name if len(name) <= most else name[: most - 1] + "…"
