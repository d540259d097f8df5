"""Wrong solutions for notebook 04's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): the scores a real store gives for "cat"
    Wrong.edit(1, "plural_read_as_cat", ('"Cats!": 0.0', '"Cats!": 1.0')),
    Wrong.edit(1, "length_counted", ('"cat cat cat": 1.0', '"cat cat cat": 3.0')),
    Wrong.edit(1, "hyphen_splits_nothing",
               ('"a dog and a cat": 0.71', '"a dog and a cat": 0.5'),
               ('"CAT-like": 1.0', '"CAT-like": 0.0')),
    # Exercise 2 (apply): the angle between two vectors
    Wrong(2, "zero_second_vector_unchecked", '''def angle_degrees(a, b):
    if not np.linalg.norm(a):
        raise ValueError("a zero vector has no direction")
    cosine = np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))
'''),
    Wrong.edit(2, "no_clip", ("norm(a):", "norm(a) or not np.linalg.norm(b):"),
               ("np.clip(cosine, -1.0, 1.0)", "cosine"), like="zero_second_vector_unchecked"),
    Wrong.edit(2, "radians",
               ("np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))", "cosine_similarity([a], [b])[0][0]"),
               ("np.degrees(np.arccos(cosine))", "np.arccos(np.clip(cosine, -1.0, 1.0))"), like="no_clip"),
    Wrong(2, "zero_vector_scores_90", '''def angle_degrees(a, b):
    cosine = float(real_cosine_similarity([a, [1.0] * len(a)], [b])[0][0])
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))
'''),
    Wrong(2, "stub_with_setup_skipped", STUB, forget=("np", "cosine_similarity")),
    # Exercise 3 (debug): the ranking's denominator
    Wrong.edit(3, "right_order_nan_scores", ("float(cosines[i]))", 'float("nan"))'), hints=False),
    Wrong.edit(3, "whole_matrix_norm_left_in", ("(np.linalg.norm(d, axis=1)", "(np.linalg.norm(d)"), hints=False),
    Wrong.edit(3, "query_length_left_out",
               ("(np.linalg.norm(d, axis=1) * np.linalg.norm(q))", "np.linalg.norm(d, axis=1)"), hints=False),
    Wrong.edit(3, "norm_along_the_columns", ("axis=1)", "axis=0).sum()"), hints=False),
    Wrong.edit(3, "worst_first", ("np.argsort(-cosines,", "np.argsort(cosines,"), hints=False),
    # Exercise 4 (apply): a distance limit as a cosine limit
    Wrong(4, "arcsin_of_half_the_distance", '''def cosine_for_distance(d):
    return float(np.cos(2 * np.arcsin(d / 2)))  # NaN where rounding puts d a hair past 2
'''),
    Wrong.edit(4, "linear_in_the_distance", ("float(d) ** 2 / 2.0", "float(d)"), hints=False),
    Wrong.edit(4, "half_forgotten", ("float(d) ** 2 / 2.0", "float(d) ** 2"), hints=False),
    Wrong.edit(4, "cosine_of_the_distance", ("1.0 - float(d) ** 2 / 2.0", "float(np.cos(d))"), hints=False),
    Wrong.edit(4, "euclidean_relevance_instead", ("float(d) ** 2 / 2.0", "float(d) / 2 ** 0.5"), hints=False),
]
