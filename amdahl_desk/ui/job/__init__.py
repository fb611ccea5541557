"""A job of many ranks in the window: reading it, its charts, and the plan answered for the job."""
