"""Sphinx configuration: furo theme, Markdown pages through MyST, the API from the docstrings.

``make docs`` builds the site into docs/_build/html; the test run builds it with -W -n
--keep-going, so a broken link, reference or image fails it. The game pages (docs/games/) and the
ladder chart are written at build time by _ext/game_pages.py from the registry of games.
"""

import pathlib
import sys

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "mancala-marl"
author = "mancala-marl contributors"
copyright = "mancala-marl contributors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "game_pages",
]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links, checked by the build
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated/*.md", "README.md"]
html_theme = "furo"
html_title = "mancala-marl"
html_static_path = ["_static"]
html_css_files = ["code.css"]  # long lines in code blocks scroll within their block, never wrap

autosummary_generate = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": True, "ignore-module-all": True}
autodoc_inherit_docstrings = False  # gymnasium's and SB3's own docstrings are theirs to document
autodoc_mock_imports = []

# No intersphinx: the build must work offline, so names from other libraries stay plain text.
# Nitpicky mode still checks every reference into this project.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|gymnasium|pettingzoo|torch|stable_baselines3|sb3_contrib|numba|rich|hypothesis)(\..*)?"),
    (r"py:class", r"(optional|callable|array|int|float|str|bool|dict|list|tuple|type|object|Path|pathlib\..*|argparse\..*|csv\..*|collections\..*|typing\..*|types\..*|enum\..*)"),
    (r"py:class", r".*(ndarray|Generator|Callable|Iterable|Iterator|Sequence|Mapping|Any)"),
    # Docstrings name their neighbours unqualified (Game, arena, HISTORY), which Sphinx cannot
    # place from an autosummary table; qualified references are still checked.
    (r"py:.*", r"[A-Za-z_][A-Za-z0-9_]*"),
    (r"py:class", r".*[ ,].*"),
    (r"py:.*", r".*\._.*"),  # private helpers
    (r"py:.*", r"Game\..*|gym\..*"),
    # Names the packages re-export: documented once, in the module that defines them.
    (r"py:.*", r"mancala_marl\.(agents|games)\.[A-Za-z_]+"),
    (r"py:mod", r"mancala_marl\.train(\..*)?"),  # the commands are documented by their --help
    (r"py:class", r"mancala_marl\.train\.callbacks\..*"),  # numpy-style types in words: "optional int", "for messages and help"
]
suppress_warnings = ["myst.header", "ref.python"]
