"""The tutorial gallery as tests, and the documentation build.

Every ``tutorials/plot_*.py`` script checks its own numbers with assertions
(against SciPy, a closed form or a conservation law); here each one runs as a
script (``runpy``, matplotlib's Agg backend) and must draw at least one figure.
The cheap ones run in the default suite; the ones that compile whole ODE solves
or several minimisations run with the slow tests.  A new tutorial is slow until it
is added to ``QUICK``, so that it cannot silently grow the default run.

The ``python`` code blocks of the guide pages (``docs/*.md``) run too, page by page
in one namespace, so the guides cannot drift from the library.

The slow ``test_docs_build`` builds the Sphinx site with warnings as errors and
opens the HTML: every tutorial page has its figures and no traceback, and every
public name has its reference page.
"""

from __future__ import annotations

import ast
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = sorted((ROOT / "tutorials").glob("plot_*.py"))

# Measured cold (no compilation cache) on the 2-core VM: these take 3-10 s each
# of CPU, about 50 s together; the others 10-20 s each.
QUICK = {
    "plot_bootstrap_vmap", "plot_curve_fit", "plot_hmc",
    "plot_laplace_approximation", "plot_lennard_jones_md", "plot_logistic_newton",
    "plot_quantum_harmonic_oscillator",
}


def _param(path: Path):
    marks = () if path.stem in QUICK else (pytest.mark.slow,)
    return pytest.param(path, id=path.stem, marks=marks)


def test_tutorials_found() -> None:
    assert len(TUTORIALS) >= 10
    assert QUICK <= {p.stem for p in TUTORIALS}, "QUICK names a tutorial that is gone"


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_shape(path: Path) -> None:
    """A title docstring, text cells, a figure and checks: what the gallery needs."""
    source = path.read_text()
    doc = ast.get_docstring(ast.parse(source))
    assert doc and re.match(r".+\n=+\n", doc), "needs a docstring with an RST title"
    assert "\n# %%\n" in source, "needs at least one text cell (# %%)"
    assert "plt.subplots" in source or "plt.figure" in source, "needs a figure"
    assert re.search(r"^\s*(assert |np\.testing\.assert_)", source, re.M), (
        "needs assertions that check its numbers")


@pytest.mark.parametrize("path", [_param(p) for p in TUTORIALS])
def test_tutorial_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.close("all")
    monkeypatch.chdir(path.parent)
    try:
        runpy.run_path(str(path), run_name="__main__")
        assert plt.get_fignums(), f"{path.name} drew no figure"
    finally:
        plt.close("all")


GUIDES = sorted((ROOT / "docs").glob("*.md"))
# Pages whose examples compile only transformations of small functions; the others
# compile solvers (minimize, solve_ivp, curve_fit) and run with the slow tests.
QUICK_GUIDES = {"how_sciax_works", "coming_from_jax"}


@pytest.mark.parametrize("page", [
    pytest.param(p, id=p.stem, marks=() if p.stem in QUICK_GUIDES else (pytest.mark.slow,))
    for p in GUIDES])
def test_guide_code(page: Path, capsys: pytest.CaptureFixture) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(), re.S | re.M)
    namespace: dict = {"__name__": f"guide_{page.stem}"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{page.name}, python block {i + 1}", "exec"), namespace)


def _docs_dependencies_missing() -> str | None:
    import importlib.util

    for mod in ("sphinx", "numpydoc", "pydata_sphinx_theme", "sphinx_gallery",
                "myst_parser", "matplotlib"):
        if importlib.util.find_spec(mod) is None:
            return mod
    return None


@pytest.mark.slow
def test_docs_build(tmp_path: Path) -> None:
    missing = _docs_dependencies_missing()
    if missing is not None:
        pytest.skip(f"{missing} is not installed: the docs build needs the docs extra "
                    "(python -m pip install '.[docs]')")
    out = tmp_path / "html"
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=3000)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]

    for script in TUTORIALS:
        page = out / "tutorials" / f"{script.stem}.html"
        assert page.exists(), f"no gallery page for {script.name}"
        html = page.read_text()
        assert "Traceback" not in html, f"{page.name} shows a traceback"
        images = re.findall(r'<img[^>]+src="([^"]+sphx_glr_[^"]+\.png)"', html)
        assert images, f"{page.name} has no figure"
        for src in images:
            assert (page.parent / src).resolve().exists(), f"{page.name}: {src} missing"

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import apigen
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    for modname, _ in apigen.MODULES:
        documented, _, _ = apigen.classify(modname)
        for name in documented:
            assert (out / "api" / "generated" / f"{modname}.{name}.html").exists(), (
                f"{modname}.{name} has no reference page")
