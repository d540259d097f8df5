"""retrieval_lab.evaluation.compare: the tables that set scratch beside real, and the tie rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from retrieval_lab.evaluation.compare import compare_calls, compare_fields, compare_rankings, same_ranking, tie_runs


def test_compare_fields_marks_each_field():
    class A:
        x, y = 1, 2

    class B:
        x, y = 1, 3

    table = compare_fields(A(), B(), ["x", "y", "z"])
    assert [r.match for r in table.rows] == [True, False, True]  # z: both raise AttributeError
    assert not table.all_match
    assert "✗" in str(table) and "<table>" in table._repr_html_()


def test_compare_calls_matches_errors_by_kind():
    table = compare_calls({
        "value": (lambda: 1, lambda: 1),
        "both bad input": (lambda: int("x"), lambda: [].index(0)),
        "one raises": (lambda: 1, lambda: 1 / 0),
    })
    assert [r.match for r in table.rows] == [True, True, False]


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from([0.1, 0.5, 0.9])), unique_by=lambda t: t[0]))
def test_same_ranking_ignores_order_inside_ties_only(pairs):
    ranked = sorted(pairs, key=lambda p: -p[1])
    shuffled_ties = sorted(pairs, key=lambda p: (-p[1], p[0]), reverse=False)
    assert same_ranking(ranked, shuffled_ties)
    if len({s for _, s in ranked}) > 1:
        assert not same_ranking(ranked, list(reversed(ranked)))


def test_tie_runs_and_ranking_table():
    assert tie_runs([0.9, 0.5, 0.5, 0.1]) == [(0, 1), (1, 3), (3, 4)]
    table = compare_rankings([("a", 0.9), ("c", 0.5), ("b", 0.5)], [("a", 0.9), ("b", 0.5), ("c", 0.5)])
    assert table.all_match and "(tie)" in str(table)
    assert not compare_rankings([("a", 0.9)], [("b", 0.9)]).all_match


def test_compare_rankings_shows_a_tie_in_the_same_order_whatever_order_the_store_gave():
    from retrieval_lab.evaluation.compare import compare_rankings

    one = compare_rankings([("d1", 0.9), ("d4", 0.0), ("d3", 0.0)], [("d1", 0.9), ("d3", 0.0), ("d4", 0.0)])
    other = compare_rankings([("d1", 0.9), ("d3", 0.0), ("d4", 0.0)], [("d1", 0.9), ("d4", 0.0), ("d3", 0.0)])
    assert str(one) == str(other) and one.all_match
    assert [row.mine for row in one.rows] == ["d1  0.900", "d3  0.000", "d4  0.000"]


def test_two_name_errors_never_agree() -> None:
    """A comparison that names an undefined function fails on both sides: that is a bug in
    the comparison, not agreement, so compare_calls must show it as a difference."""
    from retrieval_lab.evaluation.compare import compare_calls, outcome, same_outcome

    def broken() -> object:
        return undefined_name  # noqa: F821

    assert not same_outcome(outcome(broken), outcome(broken))
    table = compare_calls({"typo": (broken, broken)})
    assert not table.all_match
    assert same_outcome(outcome(lambda: int("x")), outcome(lambda: int("y")))


def test_both_passes_a_class_as_it_is_and_calls_a_factory() -> None:
    from retrieval_lab.evaluation.compare import both

    mine, real = both(lambda cls: cls("7"), int, float)
    assert (mine(), real()) == (7, 7.0)
    mine, real = both(lambda xs: len(xs), lambda: [1, 2], [1])
    assert (mine(), real()) == (2, 1)
