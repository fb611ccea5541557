"""What a person reads: the analysis turned into frozen views of numbers and texts, formatted once, without Qt.

The window, the slide, exported charts, the workbook's Summary sheet and the command line's text print
these views, so every place says the same thing in the same words. Each view module takes model values
and a :class:`~amdahl_desk.present.numbers.Numbers` (the decimal and grouping separators to write) and
returns frozen dataclasses; "has the picture changed" is their equality.
"""
