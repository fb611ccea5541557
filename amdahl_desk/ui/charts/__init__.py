"""Charts in general: the slide style, the chart registry and the export machinery."""
