"""How a text reads — its tone (its colour on screen and on a slide) — and a sentence with its tone and mark."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Tone(str, Enum):
    """How a text reads: its colour on screen and on a slide."""

    PLAIN = "plain"
    GOOD = "good"  # a speedup, a target met
    WARN = "warn"  # reachable but not met; a note worth a look
    BAD = "bad"  # a slowdown, a target out of reach
    MUTED = "muted"  # nothing set yet


# Each tone's colour, on screen and on a slide alike.
TONE_COLOURS = {
    Tone.PLAIN: "#222222",
    Tone.GOOD: "#1a6e2e",
    Tone.WARN: "#b35c00",
    Tone.BAD: "#aa3333",
    Tone.MUTED: "#555555",
}


@dataclass(frozen=True)
class Sentence:
    text: str
    tone: Tone = Tone.PLAIN
    mark: str = ""  # ✔, ◐ or ✘ before a verdict
