"""evaluation.measure: the bandwidth probe's shape and its refusals (never its speed: a test
must not assert wall-clock times)."""

import pytest

from retrieval_lab.evaluation.measure import median_ms, memory_bandwidth


def test_memory_bandwidth_reports_a_median_with_its_spread():
    probe = memory_bandwidth(megabytes=4, threads=2, repeats=3)
    assert set(probe["each"]) == {"sum", "max", "or"}
    assert probe["kernel"] in probe["each"]
    assert probe["best"] == probe["each"][probe["kernel"]] == max(probe["each"].values())
    low, high = probe["spread"]
    assert 0 < low <= high
    assert (probe["threads"], probe["megabytes"], probe["repeats"]) == (2, 4, 3)


@pytest.mark.parametrize("kwargs", [{"megabytes": 0}, {"threads": 0}, {"repeats": 0}])
def test_memory_bandwidth_refuses_nonsense(kwargs):
    with pytest.raises(ValueError, match="need megabytes >= 1"):
        memory_bandwidth(**kwargs)


def test_median_ms_refuses_no_repeats():
    with pytest.raises(ValueError, match="repeats must be at least 1"):
        median_ms(lambda: None, repeats=0)
