"""The document and what changes it: the one owner of the profile, undo commands, clipboard, Qt helpers."""
