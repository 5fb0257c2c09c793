"""Programs of contest QPC004 (see ``programs``)."""
