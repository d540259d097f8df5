"""The course's data: the files shipped beside this module, the corpus and the real vectors."""
