"""Style sheets the window gives in several places, built from the presentation's colours so each is written once."""

from __future__ import annotations

from ...present import colours
from ...present.tones import TONE_COLOURS, Tone

REFUSED_FIELD = f"QLineEdit {{ border: 2px solid {colours.RED}; }}"  # a field or cell holding a refused value
MUTED_TEXT = f"color: {TONE_COLOURS[Tone.MUTED]};"  # a hint or a caption
NOTE_TEXT = f"color: {colours.NOTE};"  # a note on what was read or assumed
REFUSED_TEXT = f"color: {colours.REFUSED};"  # why a file, or a job's ranks, cannot be read
ERROR_TEXT = f"color: {colours.ERROR};"  # a refused setting, a comparison not made
