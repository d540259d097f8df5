"""Wrong solutions for the second-stage notebook's exercises: every one must be refused."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): what the real reranker and retriever return
    Wrong.edit(1, "tie_broken_by_last_seen", ('["C", "A"], "minus1": ["C", "A",', '["A", "C"], "minus1": ["A", "C",')),
    Wrong.edit(1, "negative_top_n_keeps_all", ('"minus1": ["C", "A", "B"]', '"minus1": ["C", "A", "B", "D"]')),
    Wrong.edit(1, "missing_scores_count_as_zero", ('"short": ["C", "D"]', '"short": ["C", "D", "B"]')),
    Wrong.edit(1, "empty_first_stage_calls_the_model", ('"empty": []', '"empty": ["error"]')),
    # Exercise 2 (debug): the hand-written gradient's three bugs
    Wrong(2, "colleagues_code_as_given", '''def fixed_loss_and_gradient(w, x, y, l2):
    p = 1 / (1 + np.exp(-(x @ w)))
    loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    loss += l2 / 2 * float(w @ w)
    gradient = x.T @ (y - p) + l2 * w
    return float(loss), gradient
'''),
    Wrong.edit(2, "sign_mended_only", ("(y - p)", "(p - y)"), like="colleagues_code_as_given"),
    Wrong.edit(2, "mean_but_intercept_penalised", ("(y - p)", "(p - y) / len(y)"), like="colleagues_code_as_given"),
    Wrong.edit(2, "intercept_skipped_in_the_gradient_only",
               ("(y - p) + l2 * w", "(p - y) / len(y) + l2 * np.r_[0.0, w[1:]]"), like="colleagues_code_as_given"),
    Wrong.edit(2, "sum_not_mean",
               ("loss += l2 / 2 * float(w @ w)", "kept = np.r_[0.0, w[1:]]\n    loss += l2 / 2 * float(kept @ kept)"),
               ("(y - p) + l2 * w", "(p - y) + l2 * kept"), like="colleagues_code_as_given"),
    Wrong(2, "harness_skipped", STUB, forget=("np",)),
    # Exercise 3 (apply): a seventh feature
    Wrong(3, "constant", '''def my_feature(question: str, passage: str) -> float:
    return 1.0
'''),
    Wrong.edit(3, "same_for_every_passage", ("return 1.0", "return float(len(question.split()))"), like="constant"),
    Wrong.edit(3, "the_dense_cosine_again",
               ("return 1.0", "return rerank.features(question, passage)[0]"), like="constant"),
    Wrong.edit(3, "the_length_again", ("return 1.0", "return 2 * math.log(len(passage)) + 1"), like="constant"),
    Wrong.edit(3, "not_a_number", ("return 1.0", 'return "code" if ">>>" in passage else "prose"'), like="constant"),
    Wrong(3, "nan_on_some", '''def my_feature(question: str, passage: str) -> float:
    words = [w for w in passage.split() if w.lower() in question.lower().split()]
    return len(words) / len(words) if words else float("nan")
'''),
    Wrong(3, "harness_skipped", STUB, forget=("rerank",)),
    # features that say nothing new (a hash of the two texts still passes: a repeatable number about
    # the pair, as noisy as an honest weak feature such as "holds code", AUC 0.56 against 0.54)
    Wrong.edit(3, "two_of_the_six_added", ("return 1.0", "six = rerank.features(question, passage)\n"
                                                         "    return float(six[0] + six[5])"), like="constant"),
    Wrong.edit(3, "the_length_rescaled", ("return 1.0", "return len(passage) ** 0.5"), like="constant"),
]

# Exercise 3 is an apply exercise: any feature of the learner's own is a right answer when it is
# a finite number that is repeatable, varies between the passages of a question, copies none of
# the six features and reads no judgment. A mutant of the solution is another such feature, so
# the check is right to accept it; the wrong features above are what it must refuse.
_ANOTHER_FEATURE = "another valid feature of the learner's own: "
EQUIVALENT = {
    "exercise 3, line 7: Sub -> Add": _ANOTHER_FEATURE + "1 + position instead of 1 - position, "
    "an affine change the standardised logistic regression cannot even see",
    "exercise 3, line 7: 0.0 -> 1.0": _ANOTHER_FEATURE + "a passage that never names a question "
    "word scores 1 instead of 0 (the check cannot know which is more useful: the table measures it)",
    "exercise 3, line 4: Gt -> GtE": _ANOTHER_FEATURE + "question words of four letters count too",
    "exercise 3, line 4: 4 -> 5": _ANOTHER_FEATURE + "only question words of six letters or more",
    "exercise 3, line 6: In -> NotIn": _ANOTHER_FEATURE + "finds the words the passage lacks at "
    "-1, so the value is 1 + 1/len(passage) when one is missing and 0.0 when none is: a "
    "number that still varies between passages",
    "exercise 3, line 7: 1 -> 2": _ANOTHER_FEATURE + "2 - position: an affine change again",
    "exercise 3, line 7: Div -> Mult": _ANOTHER_FEATURE + "first position times length instead of "
    "divided by it: a different number about the same two texts",
}
