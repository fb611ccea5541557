"""Importing a profiler's file in the window: read off the GUI thread, choose options with a live preview, import."""
