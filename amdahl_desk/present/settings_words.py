"""The scaling settings in words: how each overhead model reads, for the window, the help, the workbook and the
report."""

from __future__ import annotations

from ..model.profile import OverheadModel

_PHRASE = {
    OverheadModel.NONE: "with communication held at its measured time",
    OverheadModel.LINEAR: "with communication growing linearly in N",
    OverheadModel.LOG: "with communication growing as log₂N",
    OverheadModel.RING: "with a ring all-reduce",
}

_DESCRIPTION = {
    OverheadModel.NONE: "communication stays at its measured time C",
    OverheadModel.LINEAR: "communication grows in proportion to N: C·N/N0",
    OverheadModel.LOG: "communication grows with log₂N: C·(1+log₂N)/(1+log₂N0)",
    OverheadModel.RING: "ring all-reduce: C + ring(N) − ring(N0), ring(N) = 2(N−1)α + 2(N−1)/N·bytes/bandwidth",
}


def overhead_phrase(model: OverheadModel) -> str:
    """How the model reads inside a sentence: "… with a ring all-reduce"."""
    return _PHRASE[model]


def overhead_description(model: OverheadModel) -> str:
    """How the model scales the measured communication time C (measured at N0 GPUs)."""
    return _DESCRIPTION[model]
