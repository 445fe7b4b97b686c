"""assay.summarize."""
