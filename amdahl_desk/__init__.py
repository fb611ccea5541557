"""Amdahl Desk: decide which optimization is worth building, from a measured profile."""

__version__ = "0.1.0"
