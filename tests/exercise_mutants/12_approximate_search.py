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
    Wrong.edit(2, "reads_only_nprobe_lists", (" and held >= k:", ":"), (", and they hold k vectors", "")),
    Wrong.edit(2, "visits_leave_out_the_centroids", ("len(centroids) + len(members)", "len(members)")),
    Wrong.edit(2, "worst_lists_first", ("np.argsort(centroids @ query)[::-1]", "np.argsort(centroids @ query)")),
    Wrong.edit(2, "one_list_per_answer", (">= nprobe:", ">= max(nprobe, k):"), like="reads_only_nprobe_lists"),
    Wrong.edit(2, "empty_list_counted_as_one",
               ("held += int(np.sum(lists == j))", "held += max(int(np.sum(lists == j)), 1)")),
]
