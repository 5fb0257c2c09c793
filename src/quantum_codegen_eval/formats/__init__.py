"""File formats of benchmark material, shared by loaders and judges."""
