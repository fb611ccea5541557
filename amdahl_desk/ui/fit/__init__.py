"""Measured scaling in the window: the runs table, the fit summary and the measured charts."""
