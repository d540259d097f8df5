"""Wrong solutions for notebook 10's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): refused, failing, or how many?
    Wrong.edit(1, "store_method_name_accepted", ('"A": "refused"', '"A": 3')),
    Wrong.edit(1, "threshold_range_checked", ('"C": "fails"', '"C": "refused"')),
    Wrong.edit(1, "mmr_returns_k", ('"F": 1', '"F": 3')),
    Wrong(1, "computed_by_building_them", '''def predictions() -> dict:
    return {name: len(RealVectorStoreRetriever(vectorstore=real_store, **kw).invoke("cat"))
            for name, kw in RETRIEVERS.items()}
'''),
    # Exercise 2 (extend): keep the scores
    Wrong.edit(2, "scores_dropped", ('metadata={**doc.metadata, "relevance": s}', "metadata=doc.metadata")),
    Wrong.edit(2, "call_arguments_ignored",
               ("{**self.search_kwargs, **kwargs}  # this call's arguments win, once", "self.search_kwargs")),
    Wrong.edit(2, "override_kept_for_later_calls",
               ("arguments = {**self.search_kwargs, **kwargs}  # this call's arguments win, once",
                "self.search_kwargs.update(kwargs)\n        arguments = self.search_kwargs")),
    Wrong.edit(2, "old_metadata_lost", ('{**doc.metadata, "relevance": s}', '{"relevance": s}')),
    Wrong.edit(2, "raw_cosine_not_relevance",
               ("once\n", 'once\n        threshold = arguments.pop("score_threshold", None)\n'),
               ("similarity_search_with_relevance_scores", "similarity_search_with_score"),
               ("for doc, s in scored", "for doc, s in scored if threshold is None or s >= threshold")),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("labelled", "with_scores", "real_with_scores")),
    # Exercise 3 (apply): the lowest safe threshold
    Wrong(3, "stub_with_harness_skipped", STUB, forget=("SCORE_SETS", "leaked", "bow_store")),
    Wrong(3, "strictly_above_the_highest", '''def safe_threshold(relevant, irrelevant):
    return round(max(0.5, max(irrelevant) + 0.01), 2)
'''),
    Wrong.edit(3, "ceiling_keeps_a_tie",
               ("def", "import math\n\n\ndef"),
               ("round(max(0.5, max(irrelevant) + 0.01), 2)",
                "max(0.5, math.ceil(max(irrelevant) * 100) / 100)"), like="strictly_above_the_highest"),
    Wrong(3, "unrounded_grid", '''def safe_threshold(relevant, irrelevant):
    threshold = 0.5
    while any(score >= threshold for score in irrelevant):
        threshold += 0.01
    return threshold
'''),
    Wrong(3, "mean_of_the_groups", '''def safe_threshold(relevant, irrelevant):
    middle = (sum(relevant) / len(relevant) + sum(irrelevant) / len(irrelevant)) / 2
    return round(max(0.5, middle), 2)
'''),
    Wrong(3, "lookup_of_the_notebooks_answers", '''def safe_threshold(relevant, irrelevant):
    return 0.78 if max(irrelevant) > 0.77 else 0.51
'''),
    Wrong(3, "no_irrelevant_pairs_crash_max", '''def safe_threshold(relevant, irrelevant):
    top = max(irrelevant)
    if top >= 1.0:
        raise ValueError("no threshold of the grid keeps it out")
    return next(t for t in (round(0.5 + s / 100, 2) for s in range(51)) if t > top)
'''),
]

EQUIVALENT = {
    "exercise 3, line 4: 2 -> 3": "round(0.5 + step / 100, 3) equals round(..., 2) for every "
    "step of range(51): the grid's values have two decimals (checked for all 51)",
    "exercise 3, line 4: 100 -> 101": "0.5 + step / 101 lies within 0.005 of 0.5 + step / 100 "
    "for every step up to 50, so rounding to two decimals gives the same 51 thresholds "
    "(checked for all 51)",
}
