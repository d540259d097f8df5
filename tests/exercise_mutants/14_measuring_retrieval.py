"""Wrong solutions for notebook 14's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_BOOT = '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    DIFFS
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(diffs), size=(resamples, len(diffs)))
    means = diffs[draws].mean(axis=1)
    low, high = np.percentile(means, [LOW, HIGH])
    return float(low), float(high)
'''
_BY_ID = "diffs = np.array([a[q] - b[q] for q in sorted(a)])"

_TEST = '''def randomization_p_value(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(resamples, len(diffs)))
    flipped = FLIPPED
    as_far = int(np.sum(COMPARE))
    return RESULT
'''
_ABS = "np.abs((signs * diffs).mean(axis=1))"
_GE = "flipped >= abs(diffs.mean()) - 1e-12"
_P = "(as_far + 1) / (resamples + 1)"


def _test(flipped=_ABS, compare=_GE, result=_P):
    return (_TEST.replace("FLIPPED", flipped).replace("COMPARE", compare)
            .replace("RESULT", result))


_MINE = '''def my_questions():
    return [
        {"id": "my1", "question": Q1, "style": S1,
         "relevant": [evaluate.span_of("pass", '"pass" is a null operation')]},
        {"id": "my2", "question": "Can a lambda contain a statement?", "style": "keyword",
         "relevant": [evaluate.span_of("lambda", "lambda expressions cannot contain")]},
        {"id": "my3", "question": "How do I read a CSV file?", "style": S3,
         "relevant": R3},
    ]
'''


def _mine(q1='"What does pass do?"', s1='"keyword"', s3='"unanswerable"', r3="[]"):
    return _MINE.replace("Q1", q1).replace("S1", s1).replace("S3", s3).replace("R3", r3)


WRONG = [
    # Exercise 1 (predict): where fusion pays, style by style
    Wrong(1, "fusion_never_pays", '''def predicted_verdicts() -> dict[str, str]:
    return {"keyword": "unclear", "mixed": "unclear", "paraphrase": "MiniLM"}
'''),
    Wrong(1, "the_whole_table_for_each_style", '''def predicted_verdicts() -> dict[str, str]:
    return {"keyword": "unclear", "mixed": "unclear", "paraphrase": "unclear"}
'''),
    Wrong(1, "fusion_always_pays", '''def predicted_verdicts() -> dict[str, str]:
    return {"keyword": "hybrid", "mixed": "hybrid", "paraphrase": "hybrid"}
'''),
    Wrong(1, "computed_from_the_runs", '''def predicted_verdicts() -> dict[str, str]:
    return {s: nb14.style_verdicts()[s] for s in ("keyword", "mixed", "paraphrase")}
'''),
    # Exercise 2 (extend): the paired bootstrap
    Wrong(2, "stub_with_the_setup_skipped", STUB, forget=("np", "evaluate")),
    Wrong(2, "ninety_percent", _BOOT.replace("DIFFS", _BY_ID).replace("LOW", "5")
          .replace("HIGH", "95")),
    Wrong(2, "paired_by_position", _BOOT.replace(
        "DIFFS", "diffs = np.array([x - y for x, y in zip(a.values(), b.values())])")
        .replace("LOW", "2.5").replace("HIGH", "97.5")),
    Wrong(2, "unpaired", '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    rng = np.random.default_rng(seed)
    xs, ys = np.array(list(a.values())), np.array(list(b.values()))
    means = [rng.choice(xs, len(xs)).mean() - rng.choice(ys, len(ys)).mean()
             for _ in range(resamples)]
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
'''),
    Wrong(2, "without_replacement", '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    rng = np.random.default_rng(seed)
    means = [rng.permutation(diffs).mean() for _ in range(resamples)]
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
'''),
    Wrong(2, "no_check_of_the_questions", _BOOT.replace(
        '''    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
''', "").replace("DIFFS", "diffs = np.array([a[q] - b.get(q, 0.0) for q in sorted(a)])")
        .replace("LOW", "2.5").replace("HIGH", "97.5")),
    # Exercise 3 (extend): the paired randomization test
    Wrong(3, "stub_with_the_setup_skipped", STUB, forget=("np", "evaluate")),
    Wrong(3, "one_sided", _test(flipped="(signs * diffs).mean(axis=1)",
                                compare="flipped >= diffs.mean() - 1e-12")),
    Wrong(3, "ties_left_out", _test(compare="flipped > abs(diffs.mean()) + 1e-12")),
    Wrong(3, "never_plus_one", _test(result="as_far / resamples")),
    Wrong(3, "shuffles_scores_between_a_and_b", '''def randomization_p_value(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    ids = sorted(a)
    pool = np.array([a[q] for q in ids] + [b[q] for q in ids])
    observed = abs(pool[: len(ids)].mean() - pool[len(ids):].mean())
    rng = np.random.default_rng(seed)
    as_far = 0
    for _ in range(resamples):
        mixed = rng.permutation(pool)
        as_far += abs(mixed[: len(ids)].mean() - mixed[len(ids):].mean()) >= observed - 1e-12
    return (as_far + 1) / (resamples + 1)
'''),
    Wrong(3, "permutes_the_differences", '''def randomization_p_value(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    rng = np.random.default_rng(seed)
    means = np.array([rng.permutation(diffs).mean() for _ in range(resamples)])
    as_far = int(np.sum(np.abs(means) >= abs(diffs.mean()) - 1e-12))
    return (as_far + 1) / (resamples + 1)
'''),
    # Exercise 4 (apply): questions of your own
    Wrong(4, "stub_with_the_setup_skipped", STUB, forget=("evaluate", "topics")),
    Wrong(4, "questions_x_and_xx", _mine(q1='"x"').replace(
        '"Can a lambda contain a statement?"', '"xx"')),
    Wrong(4, "style_banana", _mine(s1='"banana"')),
    Wrong(4, "unanswerable_with_a_span", _mine(
        r3='[evaluate.span_of("pass", \'"pass" is a null operation\')]')),
    Wrong(4, "answerable_marked_unanswerable_empty", _mine(s3='"keyword"')),
    Wrong(4, "the_same_question_twice", _mine(q1='"Can a lambda contain a statement?"')),
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

# Found by a blind review: a missing question read as None raised TypeError on the one case of
# different questions, which counts as refusing bad input; a superset of questions does not.
WRONG += [
    Wrong(2, "missing_question_read_as_none", '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    diffs = np.array([a[q] - b.get(q) for q in sorted(a)])
    rng = np.random.default_rng(seed)
    means = diffs[rng.integers(0, len(diffs), size=(resamples, len(diffs)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
'''),
    Wrong(3, "missing_question_read_as_none", '''def randomization_p_value(a, b, resamples=10_000, seed=0):
    diffs = np.array([a[q] - b.get(q) for q in sorted(a)])
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(resamples, len(diffs)))
    flipped = np.abs((signs * diffs).mean(axis=1))
    return (int(np.sum(flipped >= abs(diffs.mean()) - 1e-12)) + 1) / (resamples + 1)
'''),
    Wrong(4, "gibberish_questions", '''def my_questions():
    return [
        {"id": "my1", "question": "zork blorp quux?", "style": "keyword",
         "relevant": [evaluate.span_of("pass", '"pass" is a null operation')]},
        {"id": "my2", "question": "flarg wibble snorf?", "style": "keyword",
         "relevant": [evaluate.span_of("lambda", "lambda expressions cannot contain")]},
        {"id": "my3", "question": "glorp zibble frotz?", "style": "unanswerable",
         "relevant": []},
    ]
'''),
]
WRONG += [
    Wrong(2, "resamples_ignored", '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    rng = np.random.default_rng(seed)
    means = diffs[rng.integers(0, len(diffs), size=(10_000, len(diffs)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
'''),
    Wrong(3, "resamples_ignored", '''def randomization_p_value(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(10_000, len(diffs)))
    flipped = np.abs((signs * diffs).mean(axis=1))
    return (int(np.sum(flipped >= abs(diffs.mean()) - 1e-12)) + 1) / (10_000 + 1)
'''),
]

# Issue 38: the normal approximation in place of the bootstrap and the sign flips, and shipped
# questions with a word added
WRONG += [
    Wrong(2, "normal_interval_instead_of_a_bootstrap", '''def paired_bootstrap(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    if resamples == 1:
        return float(diffs.mean()), float(diffs.mean())
    half = 1.96 * diffs.std(ddof=1) / np.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return float(diffs.mean() - half), float(diffs.mean() + half)
'''),
    Wrong(3, "normal_approximation_instead_of_sign_flips", '''import math


def randomization_p_value(a, b, resamples=10_000, seed=0):
    if set(a) != set(b):
        raise ValueError("a and b must score the same questions")
    diffs = np.array([a[q] - b[q] for q in sorted(a)])
    spread = diffs.std(ddof=1) / math.sqrt(len(diffs))
    if spread == 0:
        return 1.0 if diffs.mean() == 0 else 1 / (resamples + 1)
    z = abs(diffs.mean()) / spread
    return max(math.erfc(z / math.sqrt(2)), 1 / (resamples + 1))
'''),
    Wrong(4, "shipped_questions_with_please", '''def my_questions():
    return [
        {"id": "my1", "question": "while loop else clause please", "style": "keyword",
         "relevant": [{"doc": "while", "start": 229, "end": 462, "grade": 2}]},
        {"id": "my2", "question": "keyword-only arguments after * please", "style": "keyword",
         "relevant": [{"doc": "function", "start": 4156, "end": 4270, "grade": 2}]},
        {"id": "my3", "question": "How do I read a CSV file?", "style": "unanswerable",
         "relevant": []},
    ]
'''),
]
