"""``mancala-marl serve``: play and watch the games in a browser, with the engines' view beside
the board, through a JSON API (docs/api.md). The page and its assets (``static/``) are package
data: plain HTML, CSS and JavaScript, nothing fetched from elsewhere, nothing to build.

- ``games``: the live games (no HTTP); ``policies``: what a request may play; ``trace``: a move
  replayed step by step and named; ``analysis``: the engines' view; ``app``: the Starlette app;
  ``command``: the subcommand.

Needs the ``[serve]`` extra (Starlette, uvicorn); importing this package does not.
"""
