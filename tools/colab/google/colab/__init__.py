"""A stand-in for ``google.colab``: its presence is how a notebook knows it runs on Colab.

``make colab-check`` puts this folder on the kernel's path, so the notebooks' setup cell takes its
Colab branch (install what is missing) exactly as it would on a real Colab runtime.
"""

IN_COLAB_STAND_IN = True
