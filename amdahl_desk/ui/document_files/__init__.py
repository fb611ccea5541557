"""The window's file handling: open/save controller, recovery copies, export dialog."""
