"""The embedding models a notebook uses: the toy ones and MiniLM in numpy."""
