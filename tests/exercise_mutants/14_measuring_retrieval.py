"""Wrong solutions for notebook 14's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_DRAWS = ("draws = rng.integers(0, len(diffs), size=(resamples, len(diffs)))  # with replacement\n"
          "    means = diffs[draws].mean(axis=1)")
_SAME_QUESTIONS = ('):\n    if set(a) != set(b):\n        raise ValueError("a and b must score the same questions")',
                   "):")
_SIGN_FLIPS = ("signs = rng.choice([-1.0, 1.0], size=(resamples, len(diffs)))\n"
               "    flipped = np.abs((signs * diffs).mean(axis=1))")
_COUNT = ("as_far = int(np.sum(flipped >= abs(diffs.mean()) - 1e-12))  # a tie counts\n"
          "    return (as_far + 1) / (resamples + 1)")

WRONG = [
    # Exercise 1 (predict): where fusion pays, style by style
    Wrong.edit(1, "fusion_never_pays", ('"hybrid", "mixed": "hybrid",', '"unclear", "mixed": "unclear",')),
    Wrong.edit(1, "the_whole_table_for_each_style",
               ('"paraphrase": "MiniLM"', '"paraphrase": "unclear"'), like="fusion_never_pays"),
    Wrong.edit(1, "fusion_always_pays", ('"paraphrase": "MiniLM"', '"paraphrase": "hybrid"')),
    Wrong.edit(1, "computed_from_the_runs",
               ('{"keyword": "hybrid", "mixed": "hybrid", "paraphrase": "MiniLM"}', "nb14.style_verdicts()")),
    # Exercise 2 (extend): the paired bootstrap
    Wrong(2, "stub_with_the_setup_skipped", STUB, forget=("np", "evaluate")),
    Wrong.edit(2, "ninety_percent", ("[2.5, 97.5])\n    return", "[5, 95])\n    return"), hints=False),
    Wrong.edit(2, "paired_by_position",
               ("np.array([a[q] - b[q] for q in sorted(a)])",
                "np.array([x - y for x, y in zip(a.values(), b.values())])"), hints=False),
    Wrong.edit(2, "unpaired",
               ("    diffs = np.array([a[q] - b[q] for q in sorted(a)])  # paired by question id\n", ""),
               (_DRAWS, "xs, ys = np.array(list(a.values())), np.array(list(b.values()))\n"
                           "    means = [rng.choice(xs, len(xs)).mean() - rng.choice(ys, len(ys)).mean()\n"
                           "             for _ in range(resamples)]"), hints=False),
    Wrong.edit(2, "without_replacement",
               (_DRAWS, "means = [rng.permutation(diffs).mean() for _ in range(resamples)]"), hints=False),
    Wrong.edit(2, "no_check_of_the_questions", _SAME_QUESTIONS, ("b[q]", "b.get(q, 0.0)"), hints=False),
    # a missing question read as None raises TypeError only where b lacks one of a's questions
    Wrong.edit(2, "missing_question_read_as_none", ("b.get(q, 0.0)", "b.get(q)"), like="no_check_of_the_questions"),
    Wrong.edit(2, "resamples_ignored",
               (_DRAWS, "means = diffs[rng.integers(0, len(diffs), size=(10_000, len(diffs)))].mean(axis=1)"),
               hints=False),
    Wrong.edit(2, "normal_interval_instead_of_a_bootstrap",
               ("means = diffs[draws].mean(axis=1)\n    low, high = np.percentile(means, [2.5, 97.5])",
                "half = 1.96 * diffs.std(ddof=1) / np.sqrt(len(diffs)) if len(diffs) > 1 else 0.0\n"
                "    low, high = diffs.mean() - half, diffs.mean() + half\n"
                "    if resamples == 1:\n"
                "        low = high = diffs.mean()"), hints=False),
    # Exercise 3 (extend): the paired randomization test
    Wrong(3, "stub_with_the_setup_skipped", STUB, forget=("np", "evaluate")),
    Wrong.edit(3, "one_sided",
               ("np.abs((signs * diffs).mean(axis=1))", "(signs * diffs).mean(axis=1)"),
               ("abs(diffs.mean())", "diffs.mean()"), hints=False),
    Wrong.edit(3, "ties_left_out", (">= abs(diffs.mean()) -", "> abs(diffs.mean()) +"), hints=False),
    Wrong.edit(3, "never_plus_one", ("(as_far + 1) / (resamples + 1)", "as_far / resamples"), hints=False),
    Wrong.edit(3, "shuffles_scores_between_a_and_b",
               (_SIGN_FLIPS, "pool = np.array([a[q] for q in sorted(a)] + [b[q] for q in sorted(a)])\n"
                             "    mixed = np.array([rng.permutation(pool) for _ in range(resamples)])\n"
                             "    flipped = np.abs(mixed[:, : len(a)].mean(axis=1) - mixed[:, len(a):].mean(axis=1))"),
               hints=False),
    Wrong.edit(3, "permutes_the_differences",
               (_SIGN_FLIPS, "means = np.array([rng.permutation(diffs).mean() for _ in range(resamples)])"),
               ("int(np.sum(flipped", "int(np.sum(np.abs(means)"), hints=False),
    Wrong.edit(3, "missing_question_read_as_none", _SAME_QUESTIONS, ("b[q]", "b.get(q)"), hints=False),
    Wrong.edit(3, "resamples_ignored",
               ("size=(resamples,", "size=(10_000,"), ("/ (resamples + 1)", "/ (10_000 + 1)"), hints=False),
    Wrong.edit(3, "normal_approximation_instead_of_sign_flips",
               ("def randomization", "import math\n\n\ndef randomization"),
               (_COUNT, "spread = diffs.std(ddof=1) / math.sqrt(len(diffs))\n"
                        "    if spread == 0:\n"
                        "        return 1.0 if diffs.mean() == 0 else 1 / (resamples + 1)\n"
                        "    return max(math.erfc(abs(diffs.mean()) / spread / math.sqrt(2)), 1 / (resamples + 1))"),
               hints=False),
    # Exercise 4 (apply): questions of your own
    Wrong(4, "stub_with_the_setup_skipped", STUB, forget=("evaluate", "topics")),
    Wrong.edit(4, "questions_x_and_xx",
               ('"What does pass do?",', '"x",'),
               ('"Can a lambda contain a statement?",', '"xx",'), hints=False),
    Wrong.edit(4, "style_banana", ('do?", "style": "keyword"', 'do?", "style": "banana"'), hints=False),
    Wrong.edit(4, "unanswerable_with_a_span",
               ('"relevant": []},',
                "\"relevant\": [evaluate.span_of(\"pass\", '\"pass\" is a null operation')]},"), hints=False),
    Wrong.edit(4, "answerable_marked_unanswerable_empty", ('"unanswerable",', '"keyword",'), hints=False),
    Wrong.edit(4, "the_same_question_twice",
               ('"What does pass do?",', '"Can a lambda contain a statement?",'), hints=False),
    Wrong.edit(4, "gibberish_questions",
               ('"What does pass do?",', '"zork blorp quux?",'),
               ('"Can a lambda contain a statement?",', '"flarg wibble snorf?",'),
               ('"How do I read a CSV file?",', '"glorp zibble frotz?",'), hints=False),
    Wrong.edit(4, "shipped_questions_with_please",
               ('"What does pass do?"', '"while loop else clause please"'),
               ("[evaluate.span_of(\"pass\", '\"pass\" is a null operation')]",
                '[{"doc": "while", "start": 229, "end": 462, "grade": 2}]'),
               ('"Can a lambda contain a statement?"', '"keyword-only arguments after * please"'),
               ('[evaluate.span_of("lambda", "lambda expressions cannot contain")]',
                '[{"doc": "function", "start": 4156, "end": 4270, "grade": 2}]'), hints=False),
]

_ANY_RESAMPLES = ("a bootstrap or a randomization test with 10,001 resamples is as right as "
                  "with 10,000: the exercise asks for at least 10,000, and the check allows for "
                  "Monte Carlo error")
_ANY_SEED = ("the default seed is the learner's choice: any seed gives a right answer within "
             "the Monte Carlo error the check allows")

EQUIVALENT = {
    "exercise 2, line 2: 10000 -> 10001": _ANY_RESAMPLES,
    "exercise 2, line 2: 0 -> 1": _ANY_SEED,
    "exercise 3, line 2: 10000 -> 10001": _ANY_RESAMPLES,
    "exercise 3, line 2: 0 -> 1": _ANY_SEED,
    "exercise 3, line 11: GtE -> Gt": (
        "the comparison already subtracts a slack of 1e-12 from the observed mean, so > and >= "
        "differ only for a resampled mean exactly 1e-12 below it: ties still count either way"),
    "exercise 3, line 12: 1 -> 2": (
        "counting the observed assignment twice (or dividing by resamples + 2) moves the p-value "
        "by at most 1/10,001: inside the Monte Carlo error of a 10,000-resample p-value, and, "
        "where the exact p-value is near 0, the same as one chance resample as extreme as the "
        "observed one (about 1 seed in 50 for the check's twenty-wins case), which a right "
        "function must be allowed"),
}
