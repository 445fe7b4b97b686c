"""assay.sandbox."""
