def add_numbers(x, y):
    """Wrong on purpose: subtracts."""
    return x - y
