"""Measure again: the after profile held against the open document and its plan, in the window."""
