def deutsch_jozsa(fs):
    """Wrong on purpose: never looks at the oracles."""
    return "4 same"
