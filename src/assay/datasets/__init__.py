"""assay.datasets."""
