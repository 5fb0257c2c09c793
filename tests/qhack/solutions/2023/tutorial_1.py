def add_numbers(x, y):
    """Return x + y."""
    return x + y
