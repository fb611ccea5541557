"""The Qt window: a thin skin over the model that redraws from each analysis."""
