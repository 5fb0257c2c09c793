"""Programs of contest QPC002 (see ``programs``)."""
