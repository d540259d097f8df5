"""What the generated scratch code and the notebooks' own cells run on: the lowest layer."""
