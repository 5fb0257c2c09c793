"""The QHack judge's job modules."""
