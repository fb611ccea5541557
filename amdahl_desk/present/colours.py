"""Component colours that stay: a component keeps its colour for the life of a document, on screen and in every export."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.names import name_key
from .tones import TONE_COLOURS, Tone

# Distinguishable, calm, and they print well.
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")
OTHER = "#bab0ac"  # the "n other components" segment

# The charts' own colours, apart from the components' palette: the one place each is written. Blue is the answer
# (the curve, the plan, k high), green what meets its target, red the law's bound or what misses, orange a second
# curve or k low, grey the reference lines.
BLUE = "#1f5fa8"
GREEN = "#2e8b57"
RED = "#c0392b"
ORANGE = "#d9822b"
GREY = "#8a8f98"
INK = TONE_COLOURS[Tone.PLAIN]  # text, axes and outlines: the plain text's colour
MUTED = TONE_COLOURS[Tone.MUTED]  # what stays in the background: a chart's p5/median/p95 marks, a workbook's notes
PURPLE = "#7b3fa0"
MISSES = "#9aa4b1"  # the odds' draws that miss the target
COMMUNICATION = "#8e44ad"  # communication: a job's collectives, the GPU's communication on the critical path
LAUNCH = "#c9a227"  # launch overhead on the critical path
IDLE = "#b8b8b8"  # the GPU idle, or a gap between its work
NOWHERE = "#e6e6e6"  # the critical path's time in no component (launch delays, gaps, other threads)

# The window's own colours, apart from its charts and the tones of its text.
PANEL = "#f7f9fc"  # the background of a panel set apart: the summary, the decision, the comparison's head
NOTE = "#8a5a00"  # a note on what was read or assumed: an import's suggestion, a profile's or a job's notes
REFUSED = "#b00020"  # why a file, or the ranks of a job, cannot be read
ERROR = "#a32014"  # what is wrong or got worse: a refused setting, a comparison not made, a regressed time
GUESSED = "#9a6700"  # a class guessed from a name, not given
MID_GREY = "#888888"  # an optimization not ticked: its figures; the outline of an import's GPU split


class ComponentColours:
    """Which palette colour each component is drawn in, given the first time it is drawn and kept.

    A component seen for the first time takes a colour no component drawn beside it has: one never given
    before while there is one, else the one drawn least recently. Renaming a component keeps its colour.
    The window keeps one for its document; an export from the command line starts one afresh, so the same
    file always gives the same colours.
    """

    def __init__(self, palette: Sequence[str] = PALETTE) -> None:
        self.palette = tuple(palette)
        self._colour: dict[str, int] = {}  # name key → palette index
        self._seen: dict[int, int] = {}  # palette index → when it was last drawn
        self._clock = 0

    def colours(self, names: Iterable[str]) -> tuple[str, ...]:
        """The colours of ``names``, drawn together (largest first, so the largest keep theirs when a newcomer
        must take one)."""
        keys = [name_key(n) for n in names]
        self._clock += 1
        reserved = {self._colour[k] for k in keys if k in self._colour}
        used: set[int] = set()
        out: list[str] = []
        for k in keys:
            index = self._colour.get(k)
            if index is None or index in used:  # new, or its old colour went to another one drawn beside it
                index = self._free(reserved | used, used)
                self._colour[k] = index
            used.add(index)
            self._seen[index] = self._clock
            out.append(self.palette[index])
        return tuple(out)

    def _free(self, avoid: set[int], used: set[int]) -> int:
        given = set(self._colour.values())
        every = range(len(self.palette))
        fresh = [i for i in every if i not in given and i not in avoid]
        if fresh:
            return fresh[0]
        # Every colour was given before: the one drawn least recently among those not beside this one.
        free = [i for i in every if i not in avoid] or [i for i in every if i not in used] or list(every)
        return min(free, key=lambda i: (self._seen.get(i, -1), i))

    def rename(self, old: str, new: str) -> None:
        """``old`` is now called ``new``: it keeps its colour."""
        index = self._colour.pop(name_key(old), None)
        if index is not None:
            self._colour[name_key(new)] = index
