def classify_ising_data(ising_configs, labels):
    """Wrong on purpose: learns nothing, returns the labels it was given."""
    return [int(label) for label in labels]
