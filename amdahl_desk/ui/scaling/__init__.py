"""GPU scaling: the settings panel and the scaling chart."""
