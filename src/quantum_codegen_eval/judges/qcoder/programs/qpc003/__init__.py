"""Programs of contest QPC003 (see ``programs``)."""
