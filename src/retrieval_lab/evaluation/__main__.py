"""``python -m retrieval_lab.evaluation``: the retrievers' score table and paired table (evaluate.main)."""

from retrieval_lab.evaluation.evaluate import main

raise SystemExit(main())
