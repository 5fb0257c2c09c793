"""Programs of contest QPC001 (see ``programs``)."""
