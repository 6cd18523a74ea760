"""``mancala-marl serve``: play and watch the games in a browser, with the engines' view beside
the board, through a JSON API (docs/api.md). The page and its assets (``static/``) are package
data: plain HTML, CSS and JavaScript, nothing fetched from elsewhere, nothing to build.

- ``games``: the live games (no HTTP); ``policies``: what a request may play; ``analysis``: the
  engines' view; ``app``: the Starlette app. A move is replayed and named by
  :mod:`mancala_marl.matches.narration`; the subcommand is ``mancala_marl.cli.serve``.

Needs the ``[serve]`` extra (Starlette, uvicorn); importing this package does not.
"""
