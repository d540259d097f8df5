"""A stand-in for Colab's ``google`` namespace, for ``make colab-check`` only."""
