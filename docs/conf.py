"""Sphinx configuration for sciax.

Build (warnings are errors)::

    python -m pip install '.[docs]'
    python -m sphinx -W -b html docs docs/_build/html

The API reference pages are written from the modules' public names when this file
is read (``_ext/apigen.py``); the tutorial gallery runs every ``tutorials/plot_*.py``
script (sphinx-gallery) and fails the build if one raises.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))            # the sciax of this checkout, not an installed one
sys.path.insert(0, str(DOCS / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import apigen  # noqa: E402

import sciax  # noqa: E402

project = "sciax"
author = "the sciax developers"
copyright = "2026, the sciax developers"
release = version = sciax.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "tutorials/*.md5",
                    "tutorials/*.py", "tutorials/*.ipynb", "tutorials/*.zip"]
templates_path = ["_templates"]

# --- API reference -----------------------------------------------------------------
apigen.write_api_pages(DOCS / "api")
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"                # numpydoc's Parameters section says the types
numpydoc_show_class_members = False       # one page per public name, not per method
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False

# --- Markdown pages ----------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
# benchmarks/README.md is included as it is: its headings skip levels
suppress_warnings = ["myst.header"]

# --- tutorial gallery --------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "tutorials"),
    "gallery_dirs": "tutorials",
    "filename_pattern": r"/plot_",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    "plot_gallery": "True",
}

# --- HTML --------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sciax {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list[str] = []
