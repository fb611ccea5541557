"""Today's profile room: the component table, the optimization checklist, breakdown, speedup and summary."""
