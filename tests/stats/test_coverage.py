"""``tools/api_coverage.py --scipy-stats`` counts sciax.stats against scipy.stats."""

from __future__ import annotations

import importlib.util
import os

import pytest

import sciax.stats

_TOOL = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "api_coverage.py")


def _tool():
    spec = importlib.util.spec_from_file_location("api_coverage", _TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_scipy_stats_coverage(capsys):
    tool = _tool()
    present, missing = tool.scipy_stats_coverage()
    assert len(present) >= 80
    assert all(callable(getattr(sciax.stats, n)) for n in present)
    assert "norm" in present and "bootstrap" in present
    assert tool.main(["--scipy-stats"]) == 0
    assert "sciax.stats covers" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["norm", "gamma", "binom"])
def test_distribution_objects_are_public(name):
    assert isinstance(getattr(sciax.stats, name), (sciax.stats.rv_continuous,
                                                  sciax.stats.rv_discrete))
