"""assay.tasks."""
