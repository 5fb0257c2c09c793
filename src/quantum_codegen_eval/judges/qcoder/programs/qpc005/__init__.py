"""Programs of contest QPC005 (see ``programs``)."""
