"""The run directory: its layout, its result files, its index, and the statistics kept beside them."""
