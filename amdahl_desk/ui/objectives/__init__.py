"""Objectives, load and cost in the window: the objective picker and table, the sheet editor, settings, charts."""
