"""What the exercise checks compare against: truth functions, oracles, reference answers and case
generators, one module per notebook (``nb08`` for notebook 08).

They live here, not in visible cells, so that skipping a cell can never make a check agree, and
under names no notebook binds. A check cell imports its notebook's module
(``from retrieval_lab.checks.answers import nb08``) and refers to nothing else but the learner's own
names. Nothing here is part of the course's API.
"""

