"""Wrong solutions for notebook 12's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): where the greedy walk on the toy graph ends, and what it scores
    Wrong.edit(1, "counted_only_the_nodes_stood_on",
               ('"(0.5, 3.5): nodes visited": 8', '"(0.5, 3.5): nodes visited": 3'),
               ('"(5.0, 0.5): nodes visited": 3', '"(5.0, 0.5): nodes visited": 2')),
    Wrong.edit(1, "stopped_on_the_upper_layer",
               ('"(0.5, 3.5): where the walk ends": "d"', '"(0.5, 3.5): where the walk ends": "e"'),
               ('"(0.5, 3.5): nodes visited": 8', '"(0.5, 3.5): nodes visited": 4'),
               ('"(5.0, 0.5): nodes visited": 3', '"(5.0, 0.5): nodes visited": 2')),
    Wrong.edit(1, "moved_to_the_nearest_node_of_all",
               ('"(5.0, 0.5): where the walk ends": "j"', '"(5.0, 0.5): where the walk ends": "c"')),
    Wrong.edit(1, "computed_by_running_the_walk",
               ('"(0.5, 3.5): where the walk ends": "d"',
                '"(0.5, 3.5): where the walk ends": greedy_walk(\n'
                "            positions, layers, names[toy.entry], (0.5, 3.5))[0][-1][1]")),
    # Exercise 2 (extend): read enough lists to hold k
    Wrong(2, "untouched_stub", STUB),
    Wrong(2, "reads_only_nprobe_lists", '''def ivf_search_at_least(query, centroids, lists, rows, nprobe, k=10):
    order = np.argsort(-(centroids @ query), kind="stable")
    candidates = np.flatnonzero(np.isin(lists, order[:nprobe]))
    ranking = np.argsort(-(rows[candidates] @ query), kind="stable")
    return candidates[ranking[:k]], len(centroids) + len(candidates)
'''),
    Wrong(2, "visits_leave_out_the_centroids", '''def ivf_search_at_least(query, centroids, lists, rows, nprobe, k=10):
    order = np.argsort(-(centroids @ query), kind="stable")
    held = np.bincount(lists, minlength=len(centroids))[order].cumsum()
    enough = 1 + int(np.argmax(held >= min(k, held[-1])))
    candidates = np.flatnonzero(np.isin(lists, order[: max(nprobe, enough)]))
    ranking = np.argsort(-(rows[candidates] @ query), kind="stable")
    return candidates[ranking[:k]], len(candidates)
'''),
    Wrong(2, "worst_lists_first", '''def ivf_search_at_least(query, centroids, lists, rows, nprobe, k=10):
    order = np.argsort(centroids @ query, kind="stable")
    held = np.bincount(lists, minlength=len(centroids))[order].cumsum()
    enough = 1 + int(np.argmax(held >= min(k, held[-1])))
    candidates = np.flatnonzero(np.isin(lists, order[: max(nprobe, enough)]))
    ranking = np.argsort(-(rows[candidates] @ query), kind="stable")
    return candidates[ranking[:k]], len(centroids) + len(candidates)
'''),
    Wrong.edit(2, "one_list_per_answer",
               ("order[:nprobe]))", "order[: max(nprobe, k)]))"), like="reads_only_nprobe_lists"),
    Wrong(2, "empty_list_counted_as_one", '''def ivf_search_at_least(query, centroids, lists, rows, nprobe, k=10):
    order = np.argsort(-(centroids @ query), kind="stable")
    sizes = np.maximum(np.bincount(lists, minlength=len(centroids)), 1)
    held = sizes[order].cumsum()
    enough = 1 + int(np.argmax(held >= min(k, held[-1])))
    candidates = np.flatnonzero(np.isin(lists, order[: max(nprobe, enough)]))
    ranking = np.argsort(-(rows[candidates] @ query), kind="stable")
    return candidates[ranking[:k]], len(centroids) + len(candidates)
'''),
]
