"""The plan with the trace's dependencies: the profile's trace read and each plan computed in the background, and
the critical-path chart."""
